'use strict';
// A source with lower_case_table_names 1 or 2 logs `shop`.`orders` where its dump (util.dumpSchemas' @.json, the
// schema's metadata) names `Shop`.`Orders` (issue 53: "never the wrong rows"). Compared exactly, every transaction
// after the dump was skipped as "only of schemas it does not load", rc 0; mysqlbinlog | mysql applies them.
const { expect } = require('chai');
const replayFilter = require('../../lib/binlog/replay-filter.js');
const selection = require('../../lib/partial/selection.js');
const { objectFilter } = require('../../lib/partial/load-objects.js');

describe('the replay\'s filter: names the binary logs give in another case than the dump (lib/binlog/replay-filter.js)', function () {
  const G = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
  const dump = (schemas) => ({ origin: 'dumpSchemas', rootJson: {}, schemas });
  const SHOP = [{ schema: 'Shop', tables: ['Orders', 'Extra'] }];
  // As the preflight asks (lib/run/replay-preflight.js): fold, the target's lower_case_table_names is 1 or 2.
  function filterFor(lo, { fold, schemas = SHOP, sourceLctn } = {}) {
    const sel = selection.parseSelection(lo);
    const inDump = schemas.map((e) => e.schema);
    const loads = (s) => (inDump.includes(s) || !sel.includeSchemas.length) && !sel.excludeSchemas.includes(s) &&
      (!sel.includeSchemas.length || sel.includeSchemas.includes(s));
    return replayFilter.forLoad({ lo, dump: dump(schemas), fold, sourceLctn, chosen: { table: (s, t) => selection.isTableChosen(sel, s, t),
      schema: loads, loadsSchema: loads, routine: objectFilter(lo, 'Routines', 2, 2), event: objectFilter(lo, 'Events', 2, 2),
      trigger: objectFilter(lo, 'Triggers', 2, 3) } });
  }
  let n = 0;
  const trx = (texts, tables = {}, schema = 'shop') => ({ gtid: `${G}:${++n}`, file: 'binlog.000002', start: 100 + n, tables,
    statements: [].concat(texts).map((text) => ({ text, schema })) });

  it('a target comparing names without case (lower_case_table_names 1 or 2): the loaded Shop.Orders, never "not loaded"', function () {
    const f = filterFor({}, { fold: true });
    expect(replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0] }), f)).to.equal(true);
    expect(replayFilter.keepForLoad(trx('UPDATE orders SET a = 1'), f)).to.equal(true);
    expect(replayFilter.keepForLoad(trx('ALTER TABLE shop.extra ADD COLUMN b INT', {}, 'x'), f)).to.equal(true);
    expect(replayFilter.keepForLoad(trx('CREATE PROCEDURE shop.p() SELECT 1'), f)).to.equal(true);
    expect(f.aliases).to.deep.equal({ shop: 'Shop' }); // schemaMap's rename takes the log's name too
    // A table the replay creates in the loaded schema, then writes.
    expect(replayFilter.keepForLoad(trx('CREATE TABLE shop.fresh (a INT)'), f)).to.equal(true);
    expect(replayFilter.keepForLoad(trx([], { 'shop.fresh': [1, 0, 0] }), f)).to.equal(true);
    // Another schema stays another.
    expect(replayFilter.keepForLoad(trx([], { 'other.t': [1, 0, 0] }), f)).to.equal('otherSchemas');
  });

  it('excludeTables / includeTables as the user gave them for the dump\'s names: a table left out stays out in lower case', function () {
    const f = filterFor({ excludeTables: ['Shop.Extra'] }, { fold: true });
    expect(replayFilter.keepForLoad(trx([], { 'shop.extra': [1, 0, 0] }), f)).to.equal('notLoaded');
    expect(replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0] }), f)).to.equal(true);
    expect(() => replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0], 'shop.extra': [1, 0, 0] }), f))
      .to.throw(/changes tables loaded and not loaded \(shop\.orders, shop\.extra; not loaded: shop\.extra, left out by excludeTables/);
    const g = filterFor({ includeTables: ['Shop.Orders'] }, { fold: true });
    expect(replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0] }), g)).to.equal(true);
    expect(replayFilter.keepForLoad(trx([], { 'shop.extra': [1, 0, 0] }), g)).to.equal('notLoaded');
    // A view over the table left out: left out with it, whatever the case.
    expect(replayFilter.keepForLoad(trx('CREATE VIEW v AS SELECT 1 FROM extra'), f)).to.equal('notLoaded');
  });

  it('a target comparing with case (lower_case_table_names 0), or two names of the dump equal but for case: refused, naming both', function () {
    const t = trx([], { 'shop.orders': [1, 0, 0] });
    expect(() => replayFilter.keepForLoad(t, filterFor({}, { fold: false }))).to.throw(`restore.load with binlogs: transaction ${t.gtid} ` +
      `(binlog.000002:${t.start}) names the schema \`shop\` where the dump names \`Shop\`: a source with lower_case_table_names 1 or 2 ` +
      'logs names in lower case, so it may be that schema, and on this target (lower_case_table_names 0) `shop` is not the one the load ' +
      'creates: applied, the transaction would miss the loaded rows; skipped, it would leave them behind. Load onto a target with ' +
      `lower_case_table_names=1 (set when its data directory is initialized), or stop before it (stopBefore: "${t.gtid}") and replay the ` +
      'rest with mysqlbinlog | mysql. ' +
      'Nothing was changed.').with.property('code', 'BINLOG_NAME_CASE');
    // The schema's case right, the table's not.
    expect(() => replayFilter.keepForLoad(trx([], { 'Shop.orders': [1, 0, 0] }), filterFor({}, { fold: false })))
      .to.throw(/names the table `Shop`\.`orders` where the dump names `Shop`\.`Orders`/);
    const two = filterFor({}, { fold: true, schemas: [{ schema: 'Shop', tables: ['t'] }, { schema: 'SHOP', tables: ['t'] }] });
    expect(() => replayFilter.keepForLoad(trx([], { 'shop.t': [1, 0, 0] }), two))
      .to.throw(/names the schema `shop` where the dump names `Shop` and `SHOP`, equal to it but for case, so which one it changes cannot be told/);
    // Exact names decide first: SHOP's own transactions replay.
    expect(replayFilter.keepForLoad(trx([], { 'SHOP.t': [1, 0, 0] }), two)).to.equal(true);
  });

  it('schemaMap Shop: Shop_copy: the log\'s `shop` renamed as `Shop` is, by the plugin on the sessions road, by the channel\'s one rule on the applier road', function () {
    const { renameReplay } = require('../../lib/run/replay-rename.js');
    const channel = require('../../lib/binlog/replay-channel.js');
    const f = filterFor({}, { fold: true });
    const t1 = trx([], { 'shop.orders': [1, 0, 0] });
    const t2 = { ...trx([]), statements: [{ schema: 'shop', text: 'ALTER TABLE shop.orders ADD COLUMN b INT', position: 300 }] };
    [t1, t2].forEach((t) => expect(replayFilter.keepForLoad(t, f)).to.equal(true));
    const plan = { transactions: [t1, t2], lines: ['Binary logs: …', '  replay: …', '  skipped: …'] };
    const dumpModel = { format: 2, schemas: [{ schema: 'Shop', tables: ['Orders', 'Extra'], views: [], functions: [], procedures: [], events: [] }] };
    renameReplay(plan, { schemas: [{ schema: 'Shop_copy', dumpSchema: 'Shop' }] }, dumpModel, f.aliases);
    // The companion rewrites TABLE_MAP and default schemas by exact name: `shop` is in the map (on main it was not, and
    // the rows went to the target's `shop`, which lctn 1 or 2 takes for the source's `Shop` loaded beside the copy).
    expect(plan.rewrite.schemaMap).to.deep.equal({ Shop: 'Shop_copy', shop: 'Shop_copy' });
    expect(t2.texts).to.deep.equal({ 300: 'ALTER TABLE `Shop_copy`.orders ADD COLUMN b INT' });
    // The server's rule (Shop, shop_copy) matches `shop` regardless of case (measured, replay-channel.js): no second rule, no
    // fallback to the plugin's rename (which cannot reach inside a compressed transaction).
    expect(channel.serverWork(plan, 1).rewrite).to.deep.equal({ Shop: 'shop_copy' });
    expect(channel.filterStatement(channel.serverWork(plan, 2))).to.match(/REPLICATE_REWRITE_DB = \(\(`Shop`, `shop_copy`\)\)/);
  });

  it('a source the dump says keeps case (lower_case_table_names 0): `shop` is another schema of it, skipped as before', function () {
    expect(replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0] }), filterFor({}, { fold: true, sourceLctn: '0' }))).to.equal('otherSchemas');
    expect(replayFilter.keepForLoad(trx([], { 'shop.orders': [1, 0, 0] }), filterFor({}, { fold: false, sourceLctn: '0' }))).to.equal('otherSchemas');
  });
});
