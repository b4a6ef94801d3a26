'use strict';
// Developer snapshots (lib/snapshot/): a partial restore.load of a dump made by the real
// util.dumpSchemas, then orphans removed or counted and personal data masked, all checked in
// the real server against independent SQL.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, runJs, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { orphanSql } = require('../support/snapshot-fixture');

const SRC = 'snap_src';
const LATEST = `${SRC}.customers:2,${SRC}.orders:3,${SRC}.order_items:3,${SRC}.shipments:2`;
const PK = { customers: ['id'], orders: ['id'], order_items: ['id'], shipments: ['id'], notes: null };
// [child, columns, parent, referenced columns]: a chain, a self-reference (nullable), a second
// key to a unique column, and a multi-column key (to a unique key) whose second column is nullable.
// (order_items has a one-column primary key: Shell 9.1 cannot chunk a composite one on MySQL 9.7.)
// notes has no primary key (one data file, loaded whole): its orphans go by their key values.
const FKS = [
  ['customers', ['referred_by'], 'customers', ['id']],
  ['orders', ['customer_id'], 'customers', ['id']],
  ['orders', ['customer_code'], 'customers', ['code']],
  ['order_items', ['order_id'], 'orders', ['id']],
  ['shipments', ['order_id', 'line'], 'order_items', ['order_id', 'line']],
  ['notes', ['customer_id'], 'customers', ['id']],
];

const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY AUTO_INCREMENT, code VARCHAR(12) NOT NULL UNIQUE,
  name VARCHAR(30) NOT NULL, email VARCHAR(40) NOT NULL UNIQUE, phone VARCHAR(20) NULL, referred_by INT NULL,
  pad VARCHAR(200) NOT NULL, FOREIGN KEY (referred_by) REFERENCES customers (id));
CREATE TABLE ${SRC}.orders (id BIGINT PRIMARY KEY AUTO_INCREMENT, customer_id INT NOT NULL,
  customer_code VARCHAR(12) NOT NULL, note VARCHAR(100) NULL, pad VARCHAR(200) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (id), FOREIGN KEY (customer_code) REFERENCES customers (code));
CREATE TABLE ${SRC}.order_items (id INT PRIMARY KEY AUTO_INCREMENT, order_id BIGINT NOT NULL, line INT NOT NULL,
  sku VARCHAR(20) NOT NULL, pad VARCHAR(100) NOT NULL, UNIQUE KEY (order_id, line),
  FOREIGN KEY (order_id) REFERENCES orders (id));
CREATE TABLE ${SRC}.notes (customer_id INT NOT NULL, body VARCHAR(100) NOT NULL,
  FOREIGN KEY (customer_id) REFERENCES customers (id));
CREATE TABLE ${SRC}.shipments (id INT PRIMARY KEY AUTO_INCREMENT, order_id BIGINT NOT NULL, line INT NULL,
  pad VARCHAR(200) NOT NULL, FOREIGN KEY (order_id, line) REFERENCES order_items (order_id, line));
SET SESSION cte_max_recursion_depth = 100000;
SET SESSION foreign_key_checks = 0;
INSERT INTO ${SRC}.customers
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, CONCAT('C', LPAD(i, 6, '0')), CONCAT('Name', i % 50), CONCAT('person', i, '@corp.test'),
    IF(i % 10 = 0, NULL, CONCAT('0', 1000000000 + i * 7)), IF(i % 6 = 0 AND (i DIV 6) % 4 <> 0, i - 6, NULL),
    REPEAT('c', 150) FROM n;
INSERT INTO ${SRC}.orders
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
  SELECT i, 1 + (i * 7919) % 3000, CONCAT('C', LPAD(1 + (i * 7919) % 3000, 6, '0')),
    IF(i % 4 = 0, NULL, CONCAT('deliver to door ', i % 40)), REPEAT('o', 180) FROM n;
INSERT INTO ${SRC}.order_items (order_id, line, sku, pad) SELECT o.id, l.line, CONCAT('SKU-', o.id % 97), REPEAT('i', 60)
  FROM ${SRC}.orders o CROSS JOIN (SELECT 1 AS line UNION ALL SELECT 2) l ORDER BY o.id, l.line;
INSERT INTO ${SRC}.notes SELECT 1 + (id * 13) % 3000, CONCAT('call before ', id % 12) FROM ${SRC}.order_items WHERE line = 1;
INSERT INTO ${SRC}.shipments
  WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, 2 * i, IF(i % 5 = 0, NULL, 1), REPEAT('s', 180) FROM n;
SET SESSION foreign_key_checks = 1;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders, ${SRC}.order_items, ${SRC}.shipments, ${SRC}.notes;
`;

function q(name) { return '`' + name.replace(/`/g, '``') + '`'; }

// A copy of the dump holding only the newest chunks that LATEST chooses (what a developer fetches).
function partialCopy(dumpDir) {
  const dest = path.join(tempDir('snapshot-dump-'), 'dump');
  fs.cpSync(dumpDir, dest, { recursive: true });
  const keep = Object.fromEntries(LATEST.split(',').map((e) => [e.split(':')[0].split('.')[1], Number(e.split(':')[1])]));
  for (const [table, n] of Object.entries(keep)) {
    const chunks = fs.readdirSync(dest).map((f) => new RegExp(`^${SRC}@${table}@@?(\\d+)\\.tsv\\.zst$`).exec(f))
      .filter(Boolean).sort((a, b) => Number(a[1]) - Number(b[1]));
    expect(chunks.length, `${table} chunks: ${fs.readdirSync(dest).join(' ')}`).to.be.above(n);
    for (const m of chunks.slice(0, chunks.length - n)) {
      fs.rmSync(path.join(dest, m[0]));
      fs.rmSync(path.join(dest, m[0] + '.idx'), { force: true });
    }
  }
  return dest;
}

describe('restore load: orphans and masks (real Shell, real MySQL)', function () {
  this.timeout(300000);
  let server;
  let dump;
  const made = [SRC];

  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    await server.query(`DROP SCHEMA IF EXISTS ${SRC}`);
    await server.query(SEED);
    const dir = path.join(tempDir('snapshot-src-'), 'dump');
    const r = runJs(server.uri, `util.dumpSchemas(['${SRC}'], ${JSON.stringify(dir)}, ` +
      `{bytesPerChunk: '128k', threads: 2, showProgress: false}); 'done'`, { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    expect(r.error, r.out).to.equal(null);
    dump = partialCopy(dir);
  });
  after(async function () {
    if (server) for (const s of made) await server.query(`DROP SCHEMA IF EXISTS ${q(s)}`);
  });
  function target(name) { made.push(name); return name; }
  async function count(sql) { return Number(await server.value(sql)); }

  it('orphans "report" counts each key\'s orphans as an independent LEFT JOIN does, and deletes nothing; ' +
    '"delete" leaves no orphan and keeps every consistent row', async function () {
    const rep = target('snap_rep');
    const del = target('snap_del');
    const r1 = cli(server.uri, ['load', dump, `--latest=${LATEST}`, '--orphans=report', `--schema=${rep}`]);
    expect(r1.status, r1.out).to.equal(0);
    const r2 = cli(server.uri, ['load', dump, `--latest=${LATEST}`, '--orphans=delete', `--schema=${del}`]);
    expect(r2.status, r2.out).to.equal(0);

    // report: the printed count of every key is the independent count, and there are orphans to count.
    let total = 0;
    for (const fk of FKS) {
      const n = await count(orphanSql(rep, fk));
      total += n;
      const line = `${rep}.${fk[0]} (${fk[1].join(', ')}) -> ${rep}.${fk[2]} (${fk[3].join(', ')})`;
      const m = new RegExp(line.replace(/[().]/g, '\\$&') + '\\s+(\\d+)').exec(r1.stdout);
      expect(m, `${line} in:\n${r1.stdout}`).to.not.equal(null);
      expect(Number(m[1]), line).to.equal(n);
    }
    expect(total).to.be.above(0);
    expect(r1.stdout).to.match(/nothing deleted/);

    // delete: no orphan left; every loaded row that is gone referenced a row that is not there.
    for (const fk of FKS) expect(await count(orphanSql(del, fk)), fk.join(' ')).to.equal(0);
    for (const [table, pk] of Object.entries(PK)) {
      const loaded = await count(`SELECT COUNT(*) FROM ${rep}.${table}`);
      const kept = await count(`SELECT COUNT(*) FROM ${del}.${table}`);
      expect(kept, `${table} keeps rows`).to.be.above(0);
      const removed = loaded - kept;
      // table, rows from the chosen chunks, rows deleted
      const printed = new RegExp(`^\\s+${del}\\.${table}\\s+(\\d+)\\s+(\\d+)$`, 'm').exec(r2.stdout.split('Orphan rows removed')[1] || '');
      if (table !== 'customers' || removed) {
        expect(removed, `${table} loses rows`).to.be.above(0);
        expect(printed && [Number(printed[1]), Number(printed[2])], `rows loaded, removed from ${table} in:\n${r2.stdout}`)
          .to.deep.equal([loaded, removed]);
      }
      const missingRef = FKS.filter((fk) => fk[0] === table).map(([, cols, parent, refs]) =>
        `(${cols.map((c) => `r.${c} IS NOT NULL`).join(' AND ')} AND NOT EXISTS (SELECT 1 FROM ${del}.${parent} p WHERE ` +
        cols.map((c, i) => `p.${refs[i]} = r.${c}`).join(' AND ') + '))').join(' OR ') || 'FALSE';
      if (pk) {
        const unjustified = await count(`SELECT COUNT(*) FROM ${rep}.${table} r LEFT JOIN ${del}.${table} d ON ` +
          pk.map((c) => `d.${c} = r.${c}`).join(' AND ') + ` WHERE d.${pk[0]} IS NULL AND NOT (${missingRef})`);
        expect(unjustified, `${table}: rows removed although all they reference is there`).to.equal(0);
      } else {
        expect(await count(`SELECT COUNT(*) FROM ${rep}.${table} r WHERE ${missingRef}`), `${table}: rows removed`).to.equal(removed);
      }
    }
    // MATCH SIMPLE: shipments with a NULL line stay, whatever their order.
    expect(await count(`SELECT COUNT(*) FROM ${del}.shipments WHERE line IS NULL`))
      .to.equal(await count(`SELECT COUNT(*) FROM ${rep}.shipments WHERE line IS NULL`)).and.above(0);
    expect(r2.stdout).to.match(/Orphan rows removed: \d+ in [\d.]+ s \(6 foreign key\(s\), \d+ round\(s\)\)/);
  });

  it('--mask (with the dev preset) leaves no original value, keeps equal values equal, fits the columns and ' +
    'keeps a masked key joinable', async function () {
    const m = target('snap_mask');
    const mask = [`${SRC}.customers.email:email`, `${SRC}.customers.name:name`, `${SRC}.customers.phone:digits`,
      `${SRC}.customers.code:hash`, `${SRC}.orders.note:text`].join(',');
    const r = cli(server.uri, ['load', dump, `--latest=${LATEST}`, '--preset=dev', `--mask=${mask}`, `--schema=${m}`]);
    expect(r.status, r.out).to.equal(0);
    expect(await count(`SELECT COUNT(*) FROM ${m}.customers`)).to.be.above(0);
    expect(await count(`SELECT COUNT(*) FROM ${m}.orders WHERE note IS NOT NULL`)).to.be.above(0);
    const cols = [['customers', 'email'], ['customers', 'name'], ['customers', 'phone'], ['customers', 'code'],
      ['orders', 'note'], ['orders', 'customer_code']];
    for (const [t, c] of cols) {
      expect(await count(`SELECT COUNT(*) FROM ${m}.${t} x WHERE x.${c} IN (SELECT ${c} FROM ${SRC}.${t})`),
        `${t}.${c}: original values left`).to.equal(0);
      const max = await count(`SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '${m}' ` +
        `AND TABLE_NAME = '${t}' AND COLUMN_NAME = '${c}'`);
      expect(await count(`SELECT COALESCE(MAX(CHAR_LENGTH(${c})), 0) FROM ${m}.${t}`), `${t}.${c} length`).to.be.at.most(max);
    }
    // Equal originals, equal masks (names repeat every 50 customers); NULL stays NULL; digits keep the length.
    expect(await count(`SELECT COUNT(*) FROM (SELECT s.name FROM ${m}.customers x JOIN ${SRC}.customers s ON s.id = x.id ` +
      'GROUP BY s.name HAVING COUNT(DISTINCT x.name) > 1) g')).to.equal(0);
    expect(await count(`SELECT COUNT(*) FROM (SELECT s.name FROM ${m}.customers x JOIN ${SRC}.customers s ON s.id = x.id ` +
      'GROUP BY s.name HAVING COUNT(*) > 1) g')).to.be.above(0);
    expect(await count(`SELECT COUNT(*) FROM ${m}.customers x JOIN ${SRC}.customers s ON s.id = x.id WHERE ` +
      '(x.phone IS NULL) <> (s.phone IS NULL) OR CHAR_LENGTH(x.phone) <> CHAR_LENGTH(s.phone) OR x.phone REGEXP \'[^0-9]\'')).to.equal(0);
    expect(await count(`SELECT COUNT(*) FROM ${m}.customers WHERE email NOT LIKE 'user\\_%@example.com'`)).to.equal(0);
    // The masked key customers.code still joins: orders.customer_code followed it, pair for pair.
    expect(await count(orphanSql(m, FKS[2]))).to.equal(0);
    expect(await count(`SELECT COUNT(*) FROM ${m}.orders o JOIN ${m}.customers c ON c.id = o.customer_id ` +
      'WHERE c.code = o.customer_code')).to.equal(await count(`SELECT COUNT(*) FROM ${m}.orders`)).and.above(0);
    for (const fk of FKS) expect(await count(orphanSql(m, fk)), fk.join(' ')).to.equal(0);
    expect(r.stdout).to.match(/Masked in [\d.]+ s \(key: random, this load only\)/);
    expect(r.stdout).to.match(/customer_code hash \(follows snap_src\.customers\.code\)/);
  });

  it('a key to a table left out of the load is reported as not fixable, and its rows are kept', async function () {
    const cf = target('snap_cf');
    const latest = LATEST.split(',').filter((e) => !e.startsWith(`${SRC}.customers:`)).join(',');
    const r = cli(server.uri, ['load', dump, `--latest=${latest}`, `--exclude-tables=${SRC}.customers`, '--orphans=delete',
      `--schema=${cf}`]);
    expect(r.status, r.out).to.equal(0);
    const orders = await count(`SELECT COUNT(*) FROM ${cf}.orders`);
    expect(orders).to.equal(500 * 3);
    expect(r.stdout).to.include(`Cannot fix: ${cf}.orders (customer_id) -> ${cf}.customers (id) references \`${cf}\`.\`customers\`, ` +
      `which is not on the server (excluded from the load?): its rows were kept (${orders} row(s) with a key).`);
    for (const fk of FKS.filter((k) => k[2] !== 'customers')) expect(await count(orphanSql(cf, fk)), fk.join(' ')).to.equal(0);
  });

  it('maskKey gives the same masks in every load; without it each load has its own key', async function () {
    const [k1, k2, k3] = [target('snap_k1'), target('snap_k2'), target('snap_k3')];
    const r = runJs(server.uri, [[k1, 'team-secret'], [k2, 'team-secret'], [k3, null]].map(([schema, key]) =>
      `restore.load(${JSON.stringify(dump)}, {schema: '${schema}', includeTables: ['${SRC}.customers'], ` +
      `latest: {'${SRC}.customers': 1}, mask: {'${SRC}.customers.email': 'email'}, outputFormat: 'none'` +
      (key ? `, maskKey: '${key}'` : '') + '});').join('\n') + "'ok'");
    expect(r.error, r.out).to.equal(null);
    const same = (a, b) => count(`SELECT COUNT(*) FROM ${a}.customers x JOIN ${b}.customers y ON y.id = x.id AND y.email = x.email`);
    const rows = await count(`SELECT COUNT(*) FROM ${k1}.customers`);
    expect(rows).to.be.above(0);
    expect(await same(k1, k2)).to.equal(rows);
    expect(await same(k1, k3)).to.equal(0);
  });

  it('an unknown table, column or kind is refused before anything changes', function () {
    const e = target('snap_err');
    const r = runJs(server.uri, `var out = [];
      [{mask: {'${SRC}.customers.emial': 'email'}}, {mask: '${SRC}.customer.email:email'}, {mask: '${SRC}.customers.email:emale'},
       {mask: {'${SRC}.customers.id': 'email'}}].forEach(function (o) {
        o.schema = '${e}'; o.latest = '${LATEST}';
        try { restore.load(${JSON.stringify(dump)}, o); out.push('loaded'); } catch (x) { out.push(String(x.message)); }
      });
      out.push(String(session.runSql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${e}'").fetchOne()[0]));
      out`);
    expect(r.error, r.out).to.equal(null);
    const [column, table, kind, type, exists] = r.value;
    expect(column).to.match(/has no column "emial" \(did you mean email\?\)/);
    expect(table).to.match(/names the table snap_src\.customer, which is not in this load \(did you mean snap_src\.customers\?\)/);
    expect(kind).to.match(/unknown kind "emale"/);
    expect(type).to.match(/customers\.id is of type int: the kind email needs a character or binary column/);
    expect(exists).to.equal('0');
    for (const m of r.value.slice(0, 4)) expect(m).to.not.match(/ at \/|restore_js\/|lib\//);
  });
});
