'use strict';
// orphans: "parents" (lib/snapshot/parents.js) end to end: dumps made by the real util.dumpSchemas
// (several chunks per table), a partial restore.load in the real Shell, and the result checked
// in the real server against independent SQL: no orphan by any key, every row of the chosen
// chunks present, every added row one that a present row references, and equal to its source.
// Once with declared foreign keys, once on the same tables without any, through `relations`.
const path = require('path');
const { expect } = require('chai');
const fs = require('fs');
const { needs, skipBecause } = require('../support/real');
const { cli, runJs, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { orphanSql } = require('../support/snapshot-fixture');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { remoteMissing, startRsyncDaemon } = require('../support/remote-host');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');
const { DATA_FILE } = require('../support/dump-facts');

const LATEST = (s) => `${s}.customers:1,${s}.orders:1,${s}.order_items:3,${s}.shipments:1`;
const PK = { customers: ['id'], orders: ['id'], order_items: ['id'], shipments: ['id'] };
// [child, columns, parent, referenced columns]: a self-reference whose chains cross chunks, a key
// on the parent's chunking index and one on another unique column, a chain of three tables, a
// two-column key (not the chunking index) and a child without a primary key.
const KEYS = ['customers.referred_by>customers.id', 'orders.customer_id>customers.id', 'orders.customer_code>customers.code',
  'order_items.order_id>orders.id', 'shipments.order_id,line>order_items.order_id,line', 'notes.customer_id>customers.id']
  .map((k) => k.split('>').map((side) => side.split('.'))).map(([[c, cc], [p, pc]]) => [c, cc.split(','), p, pc.split(',')]);

function q(name) { return '`' + name.replace(/`/g, '``') + '`'; }

// The tables, with the keys declared (fk) or not: then only some key columns are indexed, as in
// schemas whose framework adds no constraints.
function seed(s, fk) {
  const ref = (sql) => (fk ? `, ${sql}` : '');
  return `
CREATE SCHEMA ${s};
CREATE TABLE ${s}.customers (id INT PRIMARY KEY AUTO_INCREMENT, code VARCHAR(12) NOT NULL UNIQUE, referred_by INT NULL,
  pad VARCHAR(180) NOT NULL${fk ? ', KEY (referred_by)' : ''}${ref('FOREIGN KEY (referred_by) REFERENCES customers (id)')});
CREATE TABLE ${s}.orders (id BIGINT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL, customer_code VARCHAR(12) NOT NULL,
  pad VARCHAR(200) NOT NULL, KEY (customer_id)${ref('FOREIGN KEY (customer_id) REFERENCES customers (id)')}
  ${ref('FOREIGN KEY (customer_code) REFERENCES customers (code)')});
CREATE TABLE ${s}.order_items (id INT PRIMARY KEY AUTO_INCREMENT, order_id BIGINT NOT NULL, line INT NOT NULL,
  pad VARCHAR(80) NOT NULL, UNIQUE KEY (order_id, line)${ref('FOREIGN KEY (order_id) REFERENCES orders (id)')});
CREATE TABLE ${s}.shipments (id INT PRIMARY KEY AUTO_INCREMENT, order_id BIGINT NOT NULL, line INT NULL,
  pad VARCHAR(180) NOT NULL${ref('FOREIGN KEY (order_id, line) REFERENCES order_items (order_id, line)')});
CREATE TABLE ${s}.notes (customer_id INT NOT NULL, body VARCHAR(60) NOT NULL${ref('FOREIGN KEY (customer_id) REFERENCES customers (id)')});
SET SESSION cte_max_recursion_depth = 100000;
SET SESSION foreign_key_checks = 0;
INSERT INTO ${s}.customers
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, CONCAT('C', LPAD(i, 6, '0')), IF(i % 5 = 0 AND i > 700, i - 700, NULL), REPEAT('c', 150) FROM n;
INSERT INTO ${s}.orders
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
  SELECT i, 1 + (i * 7919) % 3000, CONCAT('C', LPAD(1 + (i * 104729) % 3000, 6, '0')), REPEAT('o', 180) FROM n;
INSERT INTO ${s}.order_items (order_id, line, pad) SELECT o.id, l.line, REPEAT('i', 60)
  FROM ${s}.orders o CROSS JOIN (SELECT 1 AS line UNION ALL SELECT 2) l ORDER BY o.id, l.line;
INSERT INTO ${s}.shipments
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, 1 + (i * 6007) % 6000, IF(i % 7 = 0, NULL, 1 + i % 2), REPEAT('s', 160) FROM n;
INSERT INTO ${s}.notes SELECT 1 + (id * 13) % 3000, CONCAT('call before ', id % 12) FROM ${s}.orders WHERE id % 10 = 0;
SET SESSION foreign_key_checks = 1;
ANALYZE TABLE ${s}.customers, ${s}.orders, ${s}.order_items, ${s}.shipments, ${s}.notes;
`;
}

const RELATIONS = (s) => [`${s}.customers.referred_by:${s}.customers.id`, `${s}.orders.customer_id:${s}.customers.id`,
  `${s}.orders.customer_code:${s}.customers.code`, `${s}.order_items.order_id:${s}.orders.id`,
  `${s}.shipments.(order_id, line):${s}.order_items.(order_id, line)`, `${s}.notes.customer_id:${s}.customers.id`].join(',');

describe('restore load: orphans "parents" completes a partial import (real Shell, real MySQL)', function () {
  this.timeout(600000);
  let server;
  const dumps = {};
  const made = ['par_src', 'rel_src'];

  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    for (const [s, fk] of [['par_src', true], ['rel_src', false]]) {
      await server.query(`DROP SCHEMA IF EXISTS ${s}`);
      await server.query(seed(s, fk));
      const dir = path.join(tempDir('parents-src-'), 'dump');
      const r = await withShellDumper(server, () => runJs(server.uri, `util.dumpSchemas(['${s}'], ${JSON.stringify(dir)}, ` +
        `{bytesPerChunk: '128k', threads: 2, showProgress: false}); 'done'`, { env: DUMP_ENV }));
      expect(r.error, r.out).to.equal(null);
      dumps[s] = dir;
    }
  });
  after(async function () {
    if (server) for (const s of made) await server.query(`DROP SCHEMA IF EXISTS ${q(s)}`);
  });
  function target(name) { made.push(name); return name; }
  async function count(sql) { return Number(await server.value(sql)); }

  // keep: the same slice loaded with orphans "keep" (exactly the chosen chunks' rows); par: with
  // "parents"; src: the source schema. out: restore.load's output.
  async function checkCompleted(src, keep, par, out) {
    for (const k of KEYS) expect(await count(orphanSql(par, k)), `orphans of ${k.join(' ')}`).to.equal(0);
    expect(out).to.match(/Parents added: \d+ row\(s\) from the chunks latest left out, orphan rows removed: 0,/);
    let addedTotal = 0;
    for (const [table, pk] of Object.entries(PK)) {
      const on = pk.map((c) => `p.${c} = k.${c}`).join(' AND ');
      // Every row of the chosen chunks is there, unchanged.
      expect(await count(`SELECT COUNT(*) FROM ${keep}.${table} k LEFT JOIN ${par}.${table} p ON ${on} WHERE p.${pk[0]} IS NULL`),
        `${table}: chosen rows missing`).to.equal(0);
      const kept = await count(`SELECT COUNT(*) FROM ${keep}.${table}`);
      const now = await count(`SELECT COUNT(*) FROM ${par}.${table}`);
      const added = now - kept;
      addedTotal += added;
      // Every added row equals its source row.
      const cols = (await server.query(`SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND ` +
        'TABLE_NAME = ? ORDER BY ORDINAL_POSITION', [src, table])).map((r) => r.c);
      expect(await count(`SELECT COUNT(*) FROM ${par}.${table} p JOIN ${src}.${table} s ON ` + pk.map((c) => `s.${c} = p.${c}`)
        .join(' AND ') + ' WHERE ' + cols.map((c) => `p.${c} <=> s.${c}`).join(' AND ')), `${table}: rows equal to the source`)
        .to.equal(now);
      // Every added row is referenced by a row that is there.
      const refs = KEYS.filter((k) => k[2] === table).map(([child, kc, , rc]) => `EXISTS (SELECT 1 FROM ${par}.${child} r WHERE ` +
        kc.map((c, i) => `r.${c} = p.${rc[i]}`).join(' AND ') + ')');
      const unreferenced = await count(`SELECT COUNT(*) FROM ${par}.${table} p LEFT JOIN ${keep}.${table} k ON ` +
        pk.map((c) => `k.${c} = p.${c}`).join(' AND ') + ` WHERE k.${pk[0]} IS NULL AND NOT (${refs.join(' OR ') || 'FALSE'})`);
      expect(unreferenced, `${table}: added rows nobody references`).to.equal(0);
      const line = new RegExp(`^\\s+${par}\\.${table}\\s+(\\d+)\\s+(\\d+)(?:\\s+[\\d, -]+ \\(of \\d+\\))?\\s+0$`, 'm').exec(out);
      expect(line, `${table} in:\n${out}`).to.not.equal(null);
      expect([Number(line[1]), Number(line[2])], `${table}: printed rows from chosen chunks, added`).to.deep.equal([kept, added]);
    }
    expect(await count(`SELECT COUNT(*) FROM ${par}.notes`)).to.equal(await count(`SELECT COUNT(*) FROM ${keep}.notes`));
    // There was something to complete: parents of every kind were added.
    expect(addedTotal).to.be.above(0);
    for (const k of KEYS) expect(await count(orphanSql(keep, k)), `the slice has orphans of ${k.join(' ')}`).to.be.above(0);
    // Staging tables are gone.
    expect(await count(`SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = '${par}' AND ` +
      "TABLE_NAME LIKE 'restore\\_parents\\_%'")).to.equal(0);
  }

  it('with declared foreign keys: no orphan, every chosen row there, every added row referenced and equal to its source',
    async function () {
      const keep = target('par_keep');
      const par = target('par_par');
      const r1 = cli(server.uri, ['load', dumps.par_src, `--latest=${LATEST('par_src')}`, `--schema=${keep}`]);
      expect(r1.status, r1.out).to.equal(0);
      const r2 = cli(server.uri, ['load', dumps.par_src, `--latest=${LATEST('par_src')}`, '--preset=dev', `--schema=${par}`]);
      expect(r2.status, r2.out).to.equal(0);
      await checkCompleted('par_src', keep, par, r2.stdout);
      // The self-reference's chains cross chunks: more than one round.
      expect(r2.stdout).to.match(/\(6 foreign key\(s\), [2-9]\d* round\(s\) of parents/);
      expect(r2.stdout).to.match(/par_par\.customers: chunks read for parents \d/);
    });

  it('without declared keys, through relations (multi-column too): the same', async function () {
    const keep = target('rel_keep');
    const par = target('rel_par');
    const r1 = cli(server.uri, ['load', dumps.rel_src, `--latest=${LATEST('rel_src')}`, `--schema=${keep}`]);
    expect(r1.status, r1.out).to.equal(0);
    const r2 = cli(server.uri, ['load', dumps.rel_src, `--latest=${LATEST('rel_src')}`, '--orphans=parents',
      `--relations=${RELATIONS('rel_src')}`, `--schema=${par}`]);
    expect(r2.status, r2.out).to.equal(0);
    expect(r2.stdout).to.include('Relations (virtual foreign keys, used like declared ones): rel_src.customers.referred_by -> ');
    await checkCompleted('rel_src', keep, par, r2.stdout);
  });

  it('from a backup host (an rsync daemon): parents fetched there, only the chunks read, the backup untouched', async function () {
    const why = remoteMissing();
    if (why) skipBecause(this, why);
    const keep = target('rem_keep');
    const par = target('rem_par');
    const before = hashSandbox([dumps.par_src]);
    const daemon = await startRsyncDaemon({ backups: path.dirname(dumps.par_src) });
    try {
      const r1 = cli(server.uri, ['load', dumps.par_src, `--latest=${LATEST('par_src')}`, `--schema=${keep}`]);
      expect(r1.status, r1.out).to.equal(0);
      const cacheDir = path.join(tempDir('parents-cache-'), 'c');
      const r2 = cli(server.uri, ['load', daemon.url('backups', path.basename(dumps.par_src)), `--latest=${LATEST('par_src')}`,
        '--preset=dev', `--schema=${par}`, `--cache-dir=${cacheDir}`]);
      expect(r2.status, r2.out).to.equal(0);
      await checkCompleted('par_src', keep, par, r2.stdout);
      // What came over: the chosen chunks and those read for parents, each as the backup holds it; not the whole dump.
      const fetched = fs.readdirSync(cacheDir).filter((f) => DATA_FILE.test(f));
      const all = fs.readdirSync(dumps.par_src).filter((f) => DATA_FILE.test(f));
      expect(r2.stdout).to.match(/rem_par\.customers: chunks read for parents \d/);
      expect(fetched.length, r2.stdout).to.be.below(all.length);
      for (const f of fetched) {
        expect(fs.readFileSync(path.join(cacheDir, f)).equals(fs.readFileSync(path.join(dumps.par_src, f))), f).to.equal(true);
      }
    } finally {
      await daemon.stop();
    }
    expect(diffSandbox(before, hashSandbox([dumps.par_src]))).to.deep.equal(UNCHANGED);
  });

  it('relations naming an unknown table or column are refused before anything changes', function () {
    const e = target('rel_err');
    const s = 'rel_src';
    const r = runJs(server.uri, `var out = [];
      [{'${s}.orders.customer_idd': '${s}.customers.id'}, {'${s}.orders.customer_id': '${s}.customer.id'},
       {'${s}.shipments.(order_id, line)': '${s}.order_items.(order_id)'}, '${s}.orders.customer_id'].forEach(function (rel) {
        try {
          restore.load(${JSON.stringify(dumps.rel_src)}, {schema: '${e}', latest: '${LATEST(s)}', orphans: 'parents',
            relations: rel});
          out.push('loaded');
        } catch (x) { out.push(String(x.message)); }
      });
      out.push(String(session.runSql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${e}'").fetchOne()[0]));
      out`);
    expect(r.error, r.out).to.equal(null);
    const [column, table, count, form, exists] = r.value;
    expect(column).to.match(/has no column "customer_idd" \(did you mean customer_id\?\)\. Nothing was changed\./);
    expect(table).to.match(/names the table rel_src\.customer, which is not in this load nor on the server \(did you mean rel_src\.customers\?\)/);
    expect(count).to.match(/has 2 column\(s\) on one side and 1 on the other/);
    expect(form).to.match(/must be child:parent/);
    expect(exists).to.equal('0');
    for (const m of r.value.slice(0, 4)) expect(m).to.not.match(/ at \/|restore_js\/|lib\//);
  });
});
