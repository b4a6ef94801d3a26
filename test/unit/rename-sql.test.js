'use strict';
// The DDL rewrite of schemaMap and definers (lib/rename/) on the shapes MySQL Shell dumps write
// (versioned comments, backticks, strings, DELIMITER blocks): what changes, what is left, what is
// reported. The round trip through the real Shell is test/shell/rename.test.js.
const { expect } = require('chai');
const { rewriteSql } = require('../../lib/rename/sql-rewrite');
const { parseSchemaMap, translateFilters, renamer, checkAgainstDump } = require('../../lib/options/schema-map');
const { parseDefiners } = require('../../lib/options/definers');

const MAP = { shop: 'shop_copy', billing: 'billing_copy' };
const OBJECTS = { shop: ['orders', 'audit', 'v'], billing: ['invoices', 'total_for'] };

function rw(text, extra = {}) {
  return rewriteSql(text, Object.assign({
    rename: (s) => (Object.prototype.hasOwnProperty.call(MAP, s) ? MAP[s] : null), renamed: Object.keys(MAP),
    known: (s, n) => (OBJECTS[s] || []).includes(n), definers: { mode: 'keep' }, bodies: true, schema: 'shop',
  }, extra));
}

describe('schemaMap / definers DDL rewrite (lib/rename)', function () {
  it('renames schema-qualified names of dump objects, bare or quoted, with spaces around the dot, in 3 parts', function () {
    const r = rw('SELECT * FROM shop.orders o JOIN `billing` . `invoices` i ON i.id = shop.orders.id, shop.audit');
    expect(r.text).to.equal('SELECT * FROM `shop_copy`.orders o JOIN `billing_copy` . `invoices` i ON i.id = ' +
      '`shop_copy`.orders.id, `shop_copy`.audit');
    expect(r.warnings).to.deep.equal([]);
  });

  it('leaves strings, comments, numbers, variables and other schemas alone, and reports names inside strings', function () {
    const text = "-- shop.orders\n/* shop.orders */ SET @shop.orders = 'shop.orders', @x = 1.5; SELECT other.orders, " +
      "\"`billing`.x\" FROM shopx.orders";
    const r = rw(text);
    expect(r.text).to.equal(text);
    expect(r.warnings.map((w) => w.message).filter((m) => /inside the string/.test(m))).to.have.length(2);
  });

  it('reads /*! versioned comments */ as code: CREATE DATABASE, USE, the trigger body', function () {
    const r = rw('CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\nUSE `shop`;\n' +
      '/*!50003 CREATE DEFINER=`app`@`%` TRIGGER `t` AFTER INSERT ON `orders` FOR EACH ROW INSERT INTO shop.audit VALUES (1) */;;');
    expect(r.text).to.equal('CREATE DATABASE /*!32312 IF NOT EXISTS*/ `shop_copy` /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\n' +
      'USE `shop_copy`;\n/*!50003 CREATE DEFINER=`app`@`%` TRIGGER `t` AFTER INSERT ON `orders` FOR EACH ROW INSERT INTO ' +
      '`shop_copy`.audit VALUES (1) */;;');
    expect(r.definers).to.deep.equal([{ current: false, user: 'app', host: '%', object: 'trigger shop.t' }]);
  });

  it('reports, naming the object, a name it cannot be sure of and dynamic SQL', function () {
    const r = rw("CREATE DEFINER=`app`@`%` PROCEDURE `p`() BEGIN SELECT shop.nothing FROM t AS shop; " +
      "PREPARE s FROM @q; PREPARE s2 FROM 'SELECT 1'; END");
    expect(r.text).to.contain('SELECT shop.nothing');
    expect(r.warnings.map((w) => w.object + ': ' + w.message)).to.deep.equal([
      'procedure shop.p: shop.nothing: the dump holds no object nothing in shop (a table alias, or an object outside the ' +
        'dump?), so it was left as it is; it is not renamed to shop_copy',
      'procedure shop.p: runs dynamic SQL (PREPARE … FROM @q): schema names in it are not rewritten',
    ]);
  });

  it('strips, sets to CURRENT_USER or to an account every DEFINER clause, and never SQL SECURITY', function () {
    const text = "/*!50001 CREATE ALGORITHM=UNDEFINED DEFINER=`app`@`%` SQL SECURITY DEFINER VIEW `v` AS select 1 */;\n" +
      "CREATE DEFINER='x'@'localhost' EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;\nCREATE DEFINER=CURRENT_USER() FUNCTION f() RETURNS INT RETURN 1";
    const strip = rw(text, { definers: parseDefiners('strip') });
    expect(strip.text).to.equal("/*!50001 CREATE ALGORITHM=UNDEFINED SQL SECURITY DEFINER VIEW `v` AS select 1 */;\n" +
      'CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT 1;\nCREATE FUNCTION f() RETURNS INT RETURN 1');
    const current = rw(text, { definers: parseDefiners('current') });
    expect(current.text.match(/DEFINER=CURRENT_USER /g)).to.have.length(3);
    const account = rw(text, { definers: parseDefiners("'ops'@'10.%'") });
    expect(account.text.match(/DEFINER=`ops`@`10\.%` /g)).to.have.length(3);
    expect(account.text).to.contain('SQL SECURITY DEFINER VIEW');
    expect(strip.definers.map((d) => d.current ? 'CURRENT_USER' : d.user + '@' + d.host))
      .to.deep.equal(['app@%', 'x@localhost', 'CURRENT_USER']);
  });

  it('parses the option forms and refuses two schemas to one name, names outside the dump and name clashes', function () {
    expect(parseSchemaMap('shop:shop_copy,`a:b`:c')).to.deep.equal([{ from: 'shop', to: 'shop_copy' }, { from: 'a:b', to: 'c' }]);
    expect(parseSchemaMap({ shop: 'shop' })).to.deep.equal([]);
    expect(() => parseSchemaMap({ shop: 'x', billing: 'x' })).to.throw(/same name x/);
    const pairs = parseSchemaMap({ shop: 'billing' });
    expect(() => checkAgainstDump(pairs, ['shop', 'billing'], ['shop', 'billing'], false)).to.throw(/same schema billing/);
    expect(() => checkAgainstDump(pairs, ['shop', 'billing'], ['shop'], false)).to.not.throw();
    expect(() => checkAgainstDump(parseSchemaMap({ shp: 'x' }), ['shop'], ['shop'], false)).to.throw(/did you mean shop/);
    expect(() => checkAgainstDump(parseSchemaMap({ shop: 'Billing' }), ['shop', 'billing'], ['shop', 'billing'], true))
      .to.throw(/same schema/);
    expect(translateFilters({ includeTables: ['shop.orders'], excludeSchemas: ['billing'], includeRoutines: ['other.p'] },
      renamer(parseSchemaMap(MAP)))).to.deep.equal({ excludeSchemas: ['billing_copy'], includeTables: ['`shop_copy`.`orders`'] });
    expect(parseDefiners('app')).to.deep.equal({ mode: 'account', user: 'app', host: '%', sql: '`app`@`%`' });
    expect(() => parseDefiners('a@')).to.throw(/neither/);
  });
});
