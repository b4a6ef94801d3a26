'use strict';
// Issue 24: restore.load under other schema names (schemaMap) and other definers (definers), in
// the real Shell against a real MySQL, with a dump made by the real util.dumpInstance: two
// schemas, a cross-schema view, a cross-schema foreign key, a trigger, a procedure with dynamic SQL,
// a function, an event, all with the DEFINER of an account missing on the target.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, runJs, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

const SHOP = 'ren_shop';
const BILL = 'ren_billing';
const APP = "'ren_app'@'%'"; // the definer, dropped before any load: missing on the target

const SEED = `
CREATE SCHEMA ${SHOP}; CREATE SCHEMA ${BILL};
CREATE USER ${APP} IDENTIFIED BY 'x';
GRANT ALL ON ${SHOP}.* TO ${APP}; GRANT SELECT ON ${BILL}.* TO ${APP};
CREATE TABLE ${SHOP}.orders (id INT AUTO_INCREMENT PRIMARY KEY, customer VARCHAR(20) NOT NULL, amount DECIMAL(10,2),
  pad VARCHAR(200), KEY by_customer (customer));
CREATE TABLE ${SHOP}.audit (id INT AUTO_INCREMENT PRIMARY KEY, note VARCHAR(100));
CREATE TABLE ${BILL}.invoices (id INT AUTO_INCREMENT PRIMARY KEY, order_id INT NOT NULL, total DECIMAL(10,2),
  FOREIGN KEY (order_id) REFERENCES ${SHOP}.orders (id));
SET SESSION cte_max_recursion_depth = 100000;
INSERT INTO ${SHOP}.orders (customer, amount, pad)
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 4000)
  SELECT CONCAT('c', i % 97), i / 10, REPEAT('p', 150) FROM n;
INSERT INTO ${BILL}.invoices (order_id, total) SELECT id, amount FROM ${SHOP}.orders WHERE id % 3 = 0;
INSERT INTO ${SHOP}.audit (note) VALUES ('seed');
ANALYZE TABLE ${SHOP}.orders, ${SHOP}.audit, ${BILL}.invoices;
CREATE DEFINER=${APP} SQL SECURITY INVOKER VIEW ${SHOP}.order_totals AS
  SELECT o.id, o.customer, i.total FROM ${SHOP}.orders o JOIN ${BILL}.invoices i ON i.order_id = o.id;
CREATE DEFINER=${APP} TRIGGER ${SHOP}.orders_ai AFTER INSERT ON ${SHOP}.orders FOR EACH ROW
  BEGIN INSERT INTO ${SHOP}.audit (note) VALUES (CONCAT('${SHOP}.orders ', NEW.id));
  INSERT INTO \`${BILL}\`.invoices (order_id, total) VALUES (NEW.id, NEW.amount); END;
CREATE DEFINER=${APP} PROCEDURE ${BILL}.total_for(IN c VARCHAR(20))
  BEGIN SELECT SUM(i.total) AS total FROM ${BILL}.invoices i JOIN ${SHOP}.orders o ON o.id = i.order_id WHERE o.customer = c;
  SET @s = 'SELECT COUNT(*) FROM ${SHOP}.orders'; PREPARE st FROM @s; EXECUTE st; DEALLOCATE PREPARE st; END;
CREATE DEFINER=${APP} FUNCTION ${BILL}.order_count() RETURNS INT DETERMINISTIC READS SQL DATA
  RETURN (SELECT COUNT(*) FROM ${SHOP}.orders);
CREATE DEFINER=${APP} EVENT ${SHOP}.cleanup ON SCHEDULE EVERY 1 DAY DISABLE DO DELETE FROM ${SHOP}.audit WHERE id < 0;
`;

// Every file of the dump, with its bytes' hash: the plugin never writes into a dump.
function dumpFingerprint(dir) {
  return fs.readdirSync(dir).sort().map((f) => f + ' ' + crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f)))
    .digest('hex').slice(0, 16));
}

describe('restore load: schemaMap and definers (real Shell, real MySQL)', function () {
  this.timeout(600000);
  let server;
  let dump;
  let pristine;
  const schemas = [SHOP, BILL];
  const accounts = [APP];

  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    await server.query(`DROP SCHEMA IF EXISTS ${SHOP}; DROP SCHEMA IF EXISTS ${BILL}; DROP USER IF EXISTS ${APP}`);
    await server.query(SEED);
    dump = path.join(tempDir('rename-src-'), 'dump');
    const r = await withShellDumper(server, () => runJs(server.uri, `util.dumpInstance(${JSON.stringify(dump)}, ` +
      `{includeSchemas: ['${SHOP}', '${BILL}'], includeUsers: ['ren_app'], bytesPerChunk: '128k', threads: 2, ` +
      "showProgress: false}); 'done'", { env: DUMP_ENV }));
    expect(r.error, r.out).to.equal(null);
    expect(fs.readdirSync(dump).filter((f) => /^ren_shop@orders@.*\.zst$/.test(f)).length).to.be.above(2);
    await server.query(`DROP USER ${APP}`);
    pristine = dumpFingerprint(dump);
  });

  after(async function () {
    if (!server) return;
    // Copies hold foreign keys to each other: dropped without the checks.
    await server.query('SET SESSION foreign_key_checks = 0');
    try {
      for (const s of schemas) await server.query(`DROP SCHEMA IF EXISTS \`${s}\``);
    } finally {
      await server.query('SET SESSION foreign_key_checks = 1');
      for (const a of accounts) await server.query(`DROP USER IF EXISTS ${a}`);
    }
  });

  function made(...names) { schemas.push(...names); return names; }
  async function value(sql) { return server.value(sql); }
  async function checksum(schema, table) {
    const rows = await server.query(`CHECKSUM TABLE \`${schema}\`.\`${table}\``);
    return rows[0].Checksum;
  }
  async function objects(schema) {
    const q = (sql) => server.query(sql, [schema]);
    return {
      routines: await q('SELECT ROUTINE_NAME AS n, DEFINER AS d, SECURITY_TYPE AS s, ROUTINE_DEFINITION AS body FROM ' +
        'information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ? ORDER BY 1'),
      triggers: await q('SELECT TRIGGER_NAME AS n, DEFINER AS d, ACTION_STATEMENT AS body FROM information_schema.TRIGGERS ' +
        'WHERE TRIGGER_SCHEMA = ? ORDER BY 1'),
      views: await q('SELECT TABLE_NAME AS n, DEFINER AS d, SECURITY_TYPE AS s, VIEW_DEFINITION AS body FROM ' +
        'information_schema.VIEWS WHERE TABLE_SCHEMA = ? ORDER BY 1'),
      events: await q('SELECT EVENT_NAME AS n, DEFINER AS d, EVENT_DEFINITION AS body FROM information_schema.EVENTS ' +
        'WHERE EVENT_SCHEMA = ? ORDER BY 1'),
      indexes: await q('SELECT TABLE_NAME AS t, INDEX_NAME AS i, COLUMN_NAME AS c FROM information_schema.STATISTICS ' +
        'WHERE TABLE_SCHEMA = ? ORDER BY 1, 2, 3'),
    };
  }
  function definersOf(o) {
    return [...o.routines, ...o.triggers, ...o.views, ...o.events].map((x) => x.n + ' ' + x.d).sort();
  }

  it('loads both schemas under new names beside the originals: data, indexes, view, trigger, routines, event, ' +
    'references rewritten, both sets independent; the dump is untouched', async function () {
    const [shop2, bill2] = made('ren_shop_copy', 'ren_billing_copy');
    const origShop = await objects(SHOP);
    const r = cli(server.uri, ['load', dump, `--schema-map=${SHOP}:${shop2},${BILL}:${bill2}`]);
    expect(r.status, r.out).to.equal(0);
    // Data and indexes equal to the originals'.
    for (const [s, s2, t] of [[SHOP, shop2, 'orders'], [SHOP, shop2, 'audit'], [BILL, bill2, 'invoices']]) {
      expect(await checksum(s2, t), `${s2}.${t}`).to.equal(await checksum(s, t));
    }
    const copy = await objects(shop2);
    expect(copy.indexes.map((x) => [x.t, x.i, x.c])).to.deep.equal(origShop.indexes.map((x) => [x.t, x.i, x.c]));
    expect(Number(await value(`SELECT COUNT(*) FROM information_schema.KEY_COLUMN_USAGE WHERE TABLE_SCHEMA = '${bill2}' ` +
      `AND REFERENCED_TABLE_SCHEMA = '${shop2}' AND REFERENCED_TABLE_NAME = 'orders'`)), 'foreign key to the copy').to.equal(1);
    // Every object is there, under the dump's DEFINER (keep), and refers to the copies, not the originals.
    const bill = await objects(bill2);
    expect(definersOf(copy).concat(definersOf(bill)).sort()).to.deep.equal(['cleanup ren_app@%', 'order_count ren_app@%',
      'order_totals ren_app@%', 'orders_ai ren_app@%', 'total_for ren_app@%']);
    const bodies = [...copy.views, ...copy.triggers, ...copy.events, ...bill.routines].map((x) => x.body).join('\n');
    expect(bodies).to.contain(`\`${shop2}\``).and.to.contain(`\`${bill2}\``);
    expect(bodies.replace(/'[^']*'/g, "''")).to.not.match(new RegExp(`\\b(${SHOP}|${BILL})\\b\\s*\\.`));
    expect(copy.views[0].s).to.equal('INVOKER');
    // The copy's view joins the copies; the trigger fills the copy's tables only.
    expect(await server.query(`SELECT * FROM ${shop2}.order_totals ORDER BY id LIMIT 5`))
      .to.deep.equal(await server.query(`SELECT * FROM ${SHOP}.order_totals ORDER BY id LIMIT 5`));
    const counts = async () => [await value(`SELECT COUNT(*) FROM ${SHOP}.audit`), await value(`SELECT COUNT(*) FROM ${BILL}.invoices`),
      await value(`SELECT COUNT(*) FROM ${shop2}.audit`), await value(`SELECT COUNT(*) FROM ${bill2}.invoices`)].map(Number);
    const c0 = await counts();
    // The trigger runs as its definer: it must exist and may write the copies.
    await server.query(`CREATE USER ${APP}; GRANT ALL ON ${shop2}.* TO ${APP}; GRANT ALL ON ${bill2}.* TO ${APP}`);
    accounts.push(APP);
    try {
      await server.query(`INSERT INTO ${shop2}.orders (customer, amount) VALUES ('new', 1)`);
      expect(await counts()).to.deep.equal([c0[0], c0[1], c0[2] + 1, c0[3] + 1]);
      await server.query(`DELETE FROM ${BILL}.invoices WHERE order_id > 3000`);
      expect(Number(await value(`SELECT COUNT(*) FROM ${bill2}.invoices`))).to.equal(c0[3] + 1);
    } finally {
      await server.query(`DROP USER ${APP}`);
    }
    // What could not be rewritten with certainty is listed, naming the object (plan and report).
    expect(r.stdout).to.match(/procedure ren_billing\.total_for \(loaded as ren_billing_copy\.total_for\): a renamed schema is named inside the string 'SELECT COUNT\(\*\) FROM ren_shop\.orders'/);
    expect(r.stdout).to.match(/procedure ren_billing\.total_for .*: runs dynamic SQL \(PREPARE … FROM @s\)/);
    expect(r.stdout).to.match(/trigger ren_shop\.orders_ai \(loaded as ren_shop_copy\.orders_ai\): a renamed schema is named inside the string/);
    expect(r.stdout.split('Not rewritten with certainty')[1] || '', 'the report lists them again').to.contain('total_for');
    // The account with grants on the mapped schemas: not loaded (loadUsers off), and said so.
    expect(r.stdout).to.match(/Accounts of the dump with grants on renamed schemas: `ren_app`@`%`\. Accounts are not loaded/);
    expect(r.stdout).to.match(/DEFINER account\(s\) missing on this server: `ren_app`@`%`/);
    expect(r.stdout).to.match(/Load view removed/);
    expect(dumpFingerprint(dump)).to.deep.equal(pristine);
  });

  it('definers strip, current and user@host give the objects the loading account or the named one; SQL SECURITY kept; ' +
    'loadUsers loads the grants for the new names', async function () {
    await server.query("CREATE USER 'ren_other'@'%'");
    accounts.push("'ren_other'@'%'");
    const cases = [['strip', 'root@localhost'], ['current', 'root@localhost'], ['ren_other@%', 'ren_other@%']];
    for (const [mode, expected] of cases) {
      const tag = mode.replace(/\W.*/, '');
      const [s2, b2] = made(`ren_s_${tag}`, `ren_b_${tag}`);
      const args = ['load', dump, `--schema-map=${SHOP}:${s2},${BILL}:${b2}`, `--definers=${mode}`];
      if (mode === 'strip') args.push('--load-users', '--exclude-users=root');
      const r = cli(server.uri, args);
      expect(r.status, mode + '\n' + r.out).to.equal(0);
      const all = definersOf(await objects(s2)).concat(definersOf(await objects(b2)));
      expect(all, mode).to.have.length(5);
      all.forEach((d) => expect(d.split(' ')[1], mode + ': ' + d).to.equal(expected));
      expect((await objects(s2)).views[0].s, mode).to.equal('INVOKER');
      expect((await objects(b2)).routines.map((x) => x.s), mode).to.deep.equal(['DEFINER', 'DEFINER']);
      expect(await checksum(s2, 'orders')).to.equal(await checksum(SHOP, 'orders'));
      if (mode === 'strip') {
        accounts.push(APP);
        const grants = (await server.query(`SHOW GRANTS FOR ${APP}`)).map((x) => Object.values(x)[0]).join('\n');
        expect(grants).to.contain(`ON \`${s2}\`.*`).and.to.contain(`ON \`${b2}\`.*`);
        expect(grants).to.not.contain(`\`${SHOP}\``);
        expect(r.stdout).to.match(/loadUsers: their 2 GRANT\/REVOKE statement\(s\) on ren_shop, ren_billing are loaded for the new names/);
        await server.query(`DROP USER ${APP}`);
      }
    }
    expect(dumpFingerprint(dump)).to.deep.equal(pristine);
  });

  it('refuses before anything changes: two schemas to one name, a name that exists, a DEFINER account missing ' +
    'while the loader lacks the privilege (naming the option); strip then loads as that account', async function () {
    const noSchema = async (name) => Number(await value(`SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${name}'`));
    let r = cli(server.uri, ['load', dump, `--schema-map=${SHOP}:ren_one,${BILL}:ren_one`]);
    expect(r.status).to.not.equal(0);
    expect(r.out).to.match(/maps ren_shop and ren_billing to the same name ren_one: two schemas cannot be loaded into one/);
    r = cli(server.uri, ['load', dump, `--schema-map=${SHOP}:${BILL}`]);
    expect(r.status).to.not.equal(0);
    expect(r.out).to.match(/would load ren_billing and ren_shop into the same schema ren_billing|would load ren_shop and ren_billing into the same schema ren_billing/);
    expect(await noSchema('ren_one')).to.equal(0);
    const [taken, b3] = made('ren_taken', 'ren_b3');
    await server.query(`CREATE SCHEMA ${taken}`);
    r = cli(server.uri, ['load', dump, `--schema-map=${SHOP}:${taken},${BILL}:${b3}`]);
    expect(r.status).to.not.equal(0);
    expect(r.out).to.match(/schemaMap loads into ren_taken, which exists on this server already.*dropExisting/);
    expect(await noSchema(b3)).to.equal(0);

    // A loading account that may create everything but not objects of other accounts.
    const loader = "'ren_loader'@'%'";
    accounts.push(loader);
    await server.query(`CREATE USER ${loader} IDENTIFIED BY 'pw'; GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, ` +
      'INDEX, ALTER, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, ALTER ROUTINE, EVENT, TRIGGER, REFERENCES, LOCK TABLES, ' +
      `EXECUTE, CREATE TEMPORARY TABLES, RELOAD, PROCESS, BACKUP_ADMIN ON *.* TO ${loader}`);
    const uri = `ren_loader:pw@127.0.0.1:${server.port}`;
    const [s4, b4] = made('ren_s4', 'ren_b4');
    r = cli(uri, ['load', dump, `--schema-map=${SHOP}:${s4},${BILL}:${b4}`]);
    expect(r.status, r.out).to.not.equal(0);
    expect(r.out).to.match(/`ren_app`@`%` \(.*\), missing on this server\. Creating them needs SET_ANY_DEFINER and ALLOW_NONEXISTENT_DEFINER/);
    expect(r.out).to.match(/Load with definers: "strip"/);
    expect(r.out).to.match(/Nothing was changed/);
    expect(await noSchema(s4)).to.equal(0);
    // Binary logging is on: an account without SUPER creates functions only with this (put back below).
    const trust = await value('SELECT @@GLOBAL.log_bin_trust_function_creators');
    await server.query('SET GLOBAL log_bin_trust_function_creators = 1');
    try {
      r = cli(uri, ['load', dump, `--schema-map=${SHOP}:${s4},${BILL}:${b4}`, '--definers=strip']);
    } finally {
      await server.query(`SET GLOBAL log_bin_trust_function_creators = ${Number(trust)}`);
    }
    expect(r.status, r.out).to.equal(0);
    const all = definersOf(await objects(s4)).concat(definersOf(await objects(b4)));
    expect(all).to.have.length(5);
    all.forEach((d) => expect(d.split(' ')[1]).to.equal('ren_loader@%'));
    expect(dumpFingerprint(dump)).to.deep.equal(pristine);
  });

  it('works with latest, mask and orphans, which name the schemas as the dump does', async function () {
    const [s5, b5] = made('ren_s5', 'ren_b5');
    const r = cli(server.uri, ['load', dump, `--schema-map=${SHOP}:${s5},${BILL}:${b5}`, `--latest=${SHOP}.orders:1`,
      `--mask=${SHOP}.orders.customer:fixed:hidden`, '--orphans=delete', `--include-tables=${SHOP}.orders,${BILL}.invoices`]);
    expect(r.status, r.out).to.equal(0);
    const loaded = Number(await value(`SELECT COUNT(*) FROM ${s5}.orders`));
    expect(loaded).to.be.above(0).and.below(Number(await value(`SELECT COUNT(*) FROM ${SHOP}.orders`)));
    expect(Number(await value(`SELECT COUNT(*) FROM ${s5}.orders WHERE customer <> 'hidden'`))).to.equal(0);
    // Orphans followed the rewritten foreign key to the copy: every invoice left has its order.
    const left = Number(await value(`SELECT COUNT(*) FROM ${b5}.invoices`));
    expect(left).to.be.above(0).and.below(Number(await value(`SELECT COUNT(*) FROM ${BILL}.invoices`)));
    expect(Number(await value(`SELECT COUNT(*) FROM ${b5}.invoices i LEFT JOIN ${s5}.orders o ON o.id = i.order_id ` +
      'WHERE o.id IS NULL'))).to.equal(0);
    expect(Number(await value(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${s5}' AND TABLE_NAME = 'audit'`)))
      .to.equal(0);
    expect(Number(await value(`SELECT COUNT(*) FROM ${SHOP}.orders WHERE customer = 'hidden'`))).to.equal(0);
    expect(dumpFingerprint(dump)).to.deep.equal(pristine);
  });
});
