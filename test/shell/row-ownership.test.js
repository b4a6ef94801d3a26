'use strict';
// Row ownership (issue 42, lib/snapshot/row-ownership.js): a load into tables that already hold rows
// of their own (ignoreExistingObjects) never changes them. Per preset, against one dump made by the
// real util.dumpSchemas and a target holding rows of its own (other keys, an orphan, its own values in
// masked columns): since's trim limited to the loaded chunks' keys (the own rows byte-identical
// afterwards), and every post-load step that would write them (since on a range holding own rows,
// orphans "delete", orphans "parents", a mask by UPDATE) refused first, the server unchanged. Then
// empty pre-created tables (no rows of their own: every step goes on), a resumed load, and one through
// a load view that failed in since's trim, resumed by the same command (the view kept). A second
// dump (a table named with capitals, a trigger writing a table outside the load): a trigger a step would
// fire refused first; two tables whose names differ only in case told apart (lower_case_table_names 0).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { cli, installPlugin } = require('../support/shell');
const { snapshotFixture, q } = require('../support/snapshot-fixture');

const SRC = 'own_src';
const POINT = '2026-01-20 00:00:00';
const TRG = 'own_trg_src';
const EXT = 'own_trg_ext';

function ddl(s) {
  return `
CREATE TABLE ${s}.customers (id INT PRIMARY KEY, email VARCHAR(60) NOT NULL, name VARCHAR(40) NOT NULL, UNIQUE KEY (email));
CREATE TABLE ${s}.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, ordered_at DATETIME NOT NULL,
  note VARCHAR(80), KEY (customer_id), CONSTRAINT orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id));`;
}

// 3,000 customers, 8,000 orders 5 minutes apart from 2026-01-01 (the point falls in a middle chunk).
const SEED = `CREATE SCHEMA ${SRC};${ddl(SRC)}
SET SESSION cte_max_recursion_depth = 100000;
INSERT INTO ${SRC}.customers WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 3000)
  SELECT n, CONCAT('c', n, '@shop.example'), CONCAT('Customer ', n) FROM s;
INSERT INTO ${SRC}.orders (customer_id, ordered_at, note) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 8000)
  SELECT 1 + (n * 7) % 3000, TIMESTAMP('2026-01-01') + INTERVAL n * 5 MINUTE, CONCAT('order ', n, ' ', REPEAT('x', 60)) FROM s;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders;`;

// Events (capitals), 6,000 rows in several chunks; its AFTER DELETE trigger counts in a table outside the load.
const EVENTS = `(id INT PRIMARY KEY, at DATETIME NOT NULL, note VARCHAR(80))`;
const TRG_SEED = `CREATE SCHEMA ${TRG}; CREATE TABLE ${TRG}.Events ${EVENTS};
SET SESSION cte_max_recursion_depth = 100000;
INSERT INTO ${TRG}.Events WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 6000)
  SELECT n, TIMESTAMP('2026-01-01') + INTERVAL n MINUTE, REPEAT('e', 60) FROM s;
CREATE TRIGGER ${TRG}.events_ad AFTER DELETE ON ${TRG}.Events FOR EACH ROW UPDATE ${EXT}.tally SET n = n + 1;
ANALYZE TABLE ${TRG}.Events;`;

// The target's own rows: customers above the dump's keys (their own emails and names), orders below
// them (older than the point: what a whole-table trim deletes), one of them an orphan.
function ownRows(s) {
  return `SET SESSION foreign_key_checks = 0;
INSERT INTO ${s}.customers VALUES (100001, 'own1@dev.example', 'Own One'), (100002, 'own2@dev.example', 'Own Two'),
  (100003, 'own3@dev.example', 'Own Three');
INSERT INTO ${s}.orders VALUES (-10, 100001, '2025-12-01 10:00:00', 'own a'), (-9, 100002, '2025-12-02 10:00:00', 'own b'),
  (-8, 100003, '2025-12-03 10:00:00', NULL), (-7, 999999, '2025-12-04 10:00:00', 'own orphan');
SET SESSION foreign_key_checks = 1;`;
}

describe('row ownership: rows a load did not write are never changed (real Shell, real MySQL)', function () {
  this.timeout(600000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED }, { schema: TRG, seed: TRG_SEED }]);
  let server;
  let dump;
  before(function () { server = fx.server; dump = fx.dumps[SRC]; });

  async function makeTarget(s, own) {
    fx.target(s);
    await server.query(`DROP SCHEMA IF EXISTS ${q(s)}`);
    await server.query(`CREATE SCHEMA ${q(s)};${ddl(s)}${own ? ownRows(s) : ''}`);
  }

  // A fingerprint of rows: count and an order-free CRC of every column.
  async function print(s, table, where) {
    const cols = { orders: 'id, customer_id, ordered_at, note, ISNULL(note)', customers: 'id, email, name', Events: 'id, at, note, ISNULL(note)' }[table];
    const r = await server.query(`SELECT COUNT(*) AS n, COALESCE(BIT_XOR(CRC32(CONCAT_WS('|', ${cols}))), 0) AS x ` +
      `FROM ${q(s)}.${table} WHERE ${where}`);
    return `${r[0].n}:${r[0].x}`;
  }
  const own = async (s) => [await print(s, 'customers', 'id > 100000'), await print(s, 'orders', 'id < 0')];
  const whole = async (s) => [await print(s, 'customers', '1'), await print(s, 'orders', '1')];

  function load(s, args) {
    return cli(server.uri, ['load', dump, `--schema=${s}`, '--ignore-existing-objects', '--output-format=json', ...args]);
  }
  function refused(r, code) {
    expect(r.status, r.out).to.equal(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.code, r.out).to.equal(code);
    return doc.error.message;
  }

  for (const preset of ['safe', 'fastest', 'dev']) {
    it(`preset ${preset}: since trims only the loaded chunks' keys (own rows identical); since over own rows, orphans ` +
      'delete and parents, a mask by UPDATE refused first with the server unchanged', async function () {
      const s = `own_${preset}`;
      await makeTarget(s, true);
      const before = await whole(s);
      const ownBefore = await own(s);
      const p = preset === 'dev' ? ['--preset=dev', '--drop-existing=false'] : [`--preset=${preset}`];
      if (preset === 'dev') {
        // The preset itself drops what the load creates: with ignoreExistingObjects, refused.
        expect(refused(load(s, ['--preset=dev']), 'OPTION_CONFLICT')).to.include('dropExisting and ignoreExistingObjects');
        expect(await whole(s)).to.deep.equal(before);
      }
      // since over a range holding own rows (customers 100001… above the boundary chunk's first key),
      // orphans "delete" (the own orphan), a unique column masked by UPDATE: one refusal naming each.
      const m = refused(load(s, [...p, `--since=${SRC}.customers.id:2500`, '--orphans=delete', `--mask=${SRC}.customers.email:text`]),
        'OWN_ROWS');
      expect(m).to.match(new RegExp(`${s}\\.customers already holds rows of its own \\(it is on the server, not dropped by this load, ` +
        'and not empty\\), and after util\\.loadDump .*?since would change rows there that this load did not write \\(since removes ' +
        'its rows before 2500 after the load, and rows of its own are at or after id \\d+, where the loaded chunks begin\\)'));
      expect(m).to.match(new RegExp(`${s}\\.orders already holds rows of its own .*?orphans: "delete" would change rows there that ` +
        `this load did not write \\(its rows whose customer_id references no row of ${s}\\.customers are deleted\\)`));
      expect(m).to.match(new RegExp(`${s}\\.customers already holds rows of its own .*?mask ${SRC}\\.customers\\.email would change ` +
        'rows there that this load did not write \\(its column email is masked by an UPDATE of every row\\)'));
      expect(m).to.include('Nothing was changed. Load into a new schema (schemaMap');
      expect(await whole(s)).to.deep.equal(before);
      const m2 = refused(load(s, [...p, '--orphans=parents']), 'OWN_ROWS');
      expect(m2).to.match(new RegExp(`${s}\\.orders already holds rows .*?orphans: "parents" would change rows`));
      expect(m2).to.match(new RegExp(`${s}\\.customers already holds rows .*?orphans: "parents" would change rows there that this ` +
        'load did not write \\(rows missing from it are added'));
      expect(await whole(s)).to.deep.equal(before);

      // The headline case: the last days of orders appended, a name masked while loading.
      const ok = load(s, [...p, ...(preset === 'dev' ? ['--orphans=keep'] : []), `--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan',
        `--mask=${SRC}.customers.name:name`, '--output-format=text']);
      expect(ok.status, ok.out).to.equal(0);
      expect(ok.out).to.match(new RegExp(`since: ${s}\\.orders holds rows of its own: the rows before the point are removed only at ` +
        'or after id \\d+, the first row of chunk 0, the first it loads \\(no row of its own is there\\)'));
      expect(ok.out).to.match(new RegExp(`WARNING: ${s}\\.customers, ${s}\\.orders already hold rows of their own: util\\.loadDump ` +
        'loads with LOAD DATA … REPLACE'));
      const removed = new RegExp(`since: (\\d+) row\\(s\\) of ${s}\\.orders before ${POINT} removed among the loaded chunks' keys only ` +
        '\\(id (\\d+) and after: every chunk loaded: sinceScan\\), so the DELETE did not reach the rows the table held before the load ' +
        '\\(all below\\)\\.')
        .exec(ok.out);
      expect(removed, ok.out).to.not.equal(null);
      expect(Number(removed[1])).to.be.above(0);
      expect(await own(s)).to.deep.equal(ownBefore);
      // The loaded rows: exactly the source's at or after the point.
      expect(await print(s, 'orders', 'id > 0')).to.equal(await print(SRC, 'orders', `ordered_at >= '${POINT}'`));
      expect(Number(await server.value(`SELECT COUNT(*) FROM ${s}.customers WHERE id <= 3000`))).to.equal(3000);
      expect(Number(await server.value(`SELECT COUNT(*) FROM ${s}.customers c JOIN ${SRC}.customers o USING (id) ` +
        'WHERE c.name = o.name'))).to.equal(0);
    });
  }

  it('empty pre-created tables hold no rows of their own: since, orphans delete and a mask by UPDATE go on', async function () {
    const s = 'own_empty';
    await makeTarget(s, false);
    const r = load(s, [`--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan', '--orphans=delete', `--mask=${SRC}.customers.email:text`,
      '--output-format=text']);
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(new RegExp(`since: \\d+ row\\(s\\) of ${s}\\.orders before ${POINT} removed \\(the DELETE covered the ` +
      'whole table, which held no row before the load; every chunk loaded: sinceScan\\)\\.'));
    expect(r.out).to.not.include('rows of its own');
    expect(await print(s, 'orders', '1')).to.equal(await print(SRC, 'orders', `ordered_at >= '${POINT}'`));
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${s}.customers c JOIN ${SRC}.customers o USING (id) ` +
      'WHERE c.email = o.email'))).to.equal(0);
  });

  it('a mask following a foreign key into a table holding rows of its own is refused; loadDdl: false alike', async function () {
    const s = 'own_follow';
    await makeTarget(s, false);
    await server.query(`INSERT INTO ${s}.customers VALUES (100001, 'own1@dev.example', 'Own One')`);
    const before = await whole(s);
    // orders is empty; its customer_id is linked to customers.id, which the mask then follows.
    const m = refused(load(s, [`--mask=${SRC}.orders.customer_id:fixed:1`, `--include-tables=${SRC}.orders,${SRC}.customers`]), 'OWN_ROWS');
    expect(m).to.match(new RegExp(`${s}\\.customers already holds rows of its own .*mask ${SRC}\\.orders\\.customer_id would change ` +
      `rows there that this load did not write \\(its column id is masked by an UPDATE of every row \\(linked to ${SRC}\\.orders\\.` +
      'customer_id by a foreign key\\)\\)'));
    expect(m).to.not.match(new RegExp(`${s}\\.orders already holds`));
    const m2 = refused(load(s, ['--load-ddl=false', '--orphans=parents']), 'OWN_ROWS');
    expect(m2).to.match(new RegExp(`${s}\\.customers already holds rows of its own .*orphans: "parents"`));
    expect(await whole(s)).to.deep.equal(before);
  });

  it('a resumed load: the earlier attempt\'s rows are the load\'s own by its record; without the record, refused', async function () {
    const s = 'own_resume';
    fx.target(s);
    const home = installPlugin();
    // The first attempt fails after util.loadDump (two linked columns masked differently: found once
    // the load's keys are read), leaving its progress file and its record.
    const first = cli(server.uri, ['load', dump, `--schema=${s}`, `--mask=${SRC}.orders.customer_id:fixed:1,${SRC}.customers.id:fixed:2`],
      { configHome: home });
    expect(first.status, first.out).to.equal(1);
    expect(first.out).to.include('linked by foreign keys, so they need the same kind');
    const loaded = await whole(s);
    expect(loaded).to.deep.equal(await whole(SRC));
    const records = [];
    (function walk(d) {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (e.name.endsWith('.own-rows.json')) records.push(f);
      }
    })(home);
    expect(records.length).to.equal(1);
    expect(fs.existsSync(records[0].replace(/\.own-rows\.json$/, ''))).to.equal(true);
    const rec = fs.readFileSync(records[0], 'utf8');
    expect(JSON.parse(rec).own).to.deep.equal([]);
    // Without the record the rows there cannot be told from rows of their own: refused, nothing changed.
    fs.unlinkSync(records[0]);
    const blind = cli(server.uri, ['load', dump, `--schema=${s}`, '--orphans=delete', '--output-format=json'], { configHome: home });
    expect(refused(blind, 'OWN_ROWS')).to.match(new RegExp(`${s}\\.orders already holds rows of its own \\(it is on the server, not ` +
      'dropped by this load, and not empty: this load resumes an earlier attempt \\(progress file [^)]+\\) that recorded nothing'));
    expect(await whole(s)).to.deep.equal(loaded);
    // With it: the resumed load's orphans step goes on (the rows are the first attempt's), and the record goes with the progress file.
    fs.writeFileSync(records[0], rec);
    const again = cli(server.uri, ['load', dump, `--schema=${s}`, '--orphans=delete'], { configHome: home });
    expect(again.status, again.out).to.equal(0);
    expect(again.out).to.not.include('rows of its own');
    expect(await whole(s)).to.deep.equal(loaded);
    expect(fs.existsSync(records[0])).to.equal(false);
  });
  it('a trigger a step would fire that writes rows is refused first; without it the load goes on', async function () {
    const s = fx.target('own_trg');
    fx.target(EXT);
    await server.query(`DROP SCHEMA IF EXISTS ${EXT}; CREATE SCHEMA ${EXT}; CREATE TABLE ${EXT}.tally (id INT PRIMARY KEY, n INT NOT NULL);
      INSERT INTO ${EXT}.tally VALUES (1, 0)`);
    const args = ['load', fx.dumps[TRG], `--schema=${s}`, `--since=${TRG}.Events.id:4500`];
    const m = refused(cli(server.uri, [...args, '--output-format=json']), 'TRIGGER_WRITES');
    expect(m).to.include(`after util.loadDump since deletes rows of ${s}.Events, and its trigger events_ad (AFTER DELETE, from the dump) runs ` +
      'for each of those rows and writes rows itself (UPDATE in its body): rows this load did not write would change. Nothing was changed. ' +
      `Load without that trigger (excludeTriggers: ["${TRG}.Events.events_ad"])`);
    expect(Number(await server.value(`SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${s}'`))).to.equal(0);
    // The server's own trigger on a table the load keeps (ignoreExistingObjects) counts alike.
    const kept = fx.target('own_trg_kept');
    await server.query(`DROP SCHEMA IF EXISTS ${kept}; CREATE SCHEMA ${kept}; CREATE TABLE ${kept}.Events ${EVENTS};
      CREATE TRIGGER ${kept}.kept_bd BEFORE DELETE ON ${kept}.Events FOR EACH ROW BEGIN INSERT INTO ${EXT}.tally VALUES (OLD.id, 0); END`);
    const m2 = refused(cli(server.uri, ['load', fx.dumps[TRG], `--schema=${kept}`, '--ignore-existing-objects', `--since=${TRG}.Events.id:4500`,
      `--exclude-triggers=${TRG}.Events.events_ad`, '--output-format=json']), 'TRIGGER_WRITES');
    expect(m2).to.include(`its trigger kept_bd (BEFORE DELETE, on the server) runs for each of those rows and writes rows itself (INSERT in its ` +
      'body)');
    expect(m2).to.include('Drop the server\'s trigger before the load and create it afterwards, or leave out since.');
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${kept}.Events`))).to.equal(0);
    const ok = cli(server.uri, [...args, `--exclude-triggers=${TRG}.Events.events_ad`]);
    expect(ok.status, ok.out).to.equal(0);
    expect(ok.out).to.match(/since: [1-9]\d* row\(s\) of own_trg\.Events before 4500 removed/);
    expect(Number(await server.value(`SELECT n FROM ${EXT}.tally`))).to.equal(0);
    expect(await print(s, 'Events', '1')).to.equal(await print(TRG, 'Events', 'id >= 4500'));
  });

  it('two tables whose names differ only in case: the rows of one are not taken for the other\'s (a trigger writing no row goes on)', async function () {
    if (Number(await server.value('SELECT @@lower_case_table_names')) !== 0) this.skip();
    const s = fx.target('own_case');
    await server.query(`DROP SCHEMA IF EXISTS ${s}; CREATE SCHEMA ${s}; CREATE TABLE ${s}.Events ${EVENTS}; CREATE TABLE ${s}.events ${EVENTS};
      INSERT INTO ${s}.Events VALUES (-2, '2025-06-01 00:00:00', 'own'), (-1, '2025-06-02 00:00:00', NULL);
      CREATE TRIGGER ${s}.quiet_bd BEFORE DELETE ON ${s}.Events FOR EACH ROW SET @own_case_deleted = OLD.id`);
    const ownBefore = await print(s, 'Events', 'id < 0');
    const r = cli(server.uri, ['load', fx.dumps[TRG], `--schema=${s}`, '--ignore-existing-objects', `--since=${TRG}.Events.id:4500`,
      `--exclude-triggers=${TRG}.Events.events_ad`]);
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(new RegExp(`since: ${s}\\.Events holds rows of its own: the rows before the point are removed only at or after id \\d+`));
    expect(await print(s, 'Events', 'id < 0')).to.equal(ownBefore);
    expect(await print(s, 'Events', 'id > 0')).to.equal(await print(TRG, 'Events', 'id >= 4500'));
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${s}.events`))).to.equal(0);
  });
  it('a load into tables holding rows of their own that fails after util.loadDump, resumed with the same command: since\'s ' +
    'trim stays within the range the first attempt measured', async function () {
    const s = 'own_resume_since';
    await makeTarget(s, true);
    // A trigger writing no row, refusing every DELETE: the first attempt fails at since's trim, after util.loadDump.
    await server.query(`CREATE TRIGGER ${s}.no_delete BEFORE DELETE ON ${s}.orders FOR EACH ROW SIGNAL SQLSTATE '45000' ` +
      "SET MESSAGE_TEXT = 'no delete now'");
    const ownBefore = await own(s);
    const home = installPlugin();
    const args = ['load', dump, `--schema=${s}`, '--ignore-existing-objects', `--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan'];
    const first = cli(server.uri, args, { configHome: home });
    expect(first.status, first.out).to.equal(1);
    expect(first.out).to.include('no delete now');
    expect(first.out).to.match(/Load view kept: .* run the same restore\.load again to resume/);
    expect(await own(s)).to.deep.equal(ownBefore);
    await server.query(`DROP TRIGGER ${s}.no_delete`);
    const again = cli(server.uri, args, { configHome: home });
    expect(again.status, again.out).to.equal(0);
    expect(again.out).to.match(new RegExp(`since: \\d+ row\\(s\\) of ${s}\\.orders before ${POINT} removed among the loaded chunks' keys only`));
    expect(await own(s)).to.deep.equal(ownBefore);
    expect(await print(s, 'orders', 'id > 0')).to.equal(await print(SRC, 'orders', `ordered_at >= '${POINT}'`));
  });
});
