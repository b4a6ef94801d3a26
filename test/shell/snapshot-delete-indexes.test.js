'use strict';
// orphans: "delete" with the secondary indexes deferred until the orphans are gone
// (lib/snapshot/deferred-indexes.js), end to end: a dump made by the real util.dumpSchemas, keys
// that all reference primary keys (a self-reference, a chain, a two-column key), loaded by the
// real Shell twice: once as the plugin chooses (indexes deferred), once with deferTableIndexes
// given (indexes built by the load, as before). Both leave the same rows, no orphan by any key,
// and tables whose CREATE TABLE (indexes, foreign keys) is the source's.
const { expect } = require('chai');
const { cli } = require('../support/shell');
const { q, orphanSql, snapshotFixture } = require('../support/snapshot-fixture');

const SRC = 'di_src';
const LATEST = `${SRC}.customers:1,${SRC}.orders:2,${SRC}.shipments:2`;
const KEYS = [['customers', ['referred_by'], 'customers', ['id']], ['orders', ['customer_id'], 'customers', ['id']],
  ['order_items', ['order_id'], 'orders', ['id']], ['shipments', ['order_id', 'line'], 'order_items', ['order_id', 'line']]];
const TABLES = ['customers', 'orders', 'order_items', 'shipments'];

const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, referred_by INT NULL, email VARCHAR(60) NOT NULL UNIQUE,
  name VARCHAR(40) NOT NULL, pad VARCHAR(150) NOT NULL, KEY (name), FOREIGN KEY (referred_by) REFERENCES customers (id));
CREATE TABLE ${SRC}.orders (id INT PRIMARY KEY, customer_id INT NOT NULL, note VARCHAR(40) NULL, pad VARCHAR(150) NOT NULL,
  KEY by_note (note), FOREIGN KEY (customer_id) REFERENCES customers (id) ON DELETE CASCADE);
CREATE TABLE ${SRC}.order_items (order_id INT NOT NULL, line INT NOT NULL, sku VARCHAR(20) NOT NULL,
  PRIMARY KEY (order_id, line), FULLTEXT KEY (sku), FOREIGN KEY (order_id) REFERENCES orders (id));
CREATE TABLE ${SRC}.shipments (id INT PRIMARY KEY, order_id INT NOT NULL, line INT NULL, pad VARCHAR(150) NOT NULL,
  FOREIGN KEY (order_id, line) REFERENCES order_items (order_id, line));
SET SESSION cte_max_recursion_depth = 100000;
SET SESSION foreign_key_checks = 0;
INSERT INTO ${SRC}.customers WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, IF(i % 5 = 0 AND i > 700, i - 700, NULL), CONCAT('p', i, '@corp.test'), CONCAT('N', i % 50), REPEAT('c', 140) FROM n;
INSERT INTO ${SRC}.orders WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 6000)
  SELECT i, 1 + (i * 7919) % 3000, IF(i % 3 = 0, NULL, CONCAT('door ', i % 30)), REPEAT('o', 140) FROM n;
INSERT INTO ${SRC}.order_items SELECT o.id, l.line, CONCAT('sku', o.id % 97) FROM ${SRC}.orders o
  CROSS JOIN (SELECT 1 AS line UNION ALL SELECT 2) l;
INSERT INTO ${SRC}.shipments WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)
  SELECT i, 1 + (i * 6007) % 6000, IF(i % 7 = 0, NULL, 1 + i % 2), REPEAT('s', 140) FROM n;
SET SESSION foreign_key_checks = 1;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders, ${SRC}.order_items, ${SRC}.shipments;
`;

describe('restore load: orphans "delete" builds the secondary indexes after the deletes (real Shell, real MySQL)', function () {
  this.timeout(300000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED }]);
  const { target, count } = fx;
  async function ddl(schema, table) {
    const rows = await fx.server.query(`SHOW CREATE TABLE ${q(schema)}.${q(table)}`);
    return rows[0]['Create Table'].replace(/ AUTO_INCREMENT=\d+/, '');
  }

  it('the same rows, no orphan, and every index and foreign key of the source', async function () {
    const def = target('di_def');
    const old = target('di_old');
    const r = cli(fx.server.uri, ['load', fx.dumps[SRC], `--latest=${LATEST}`, '--orphans=delete', `--schema=${def}`]);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include('Secondary indexes and foreign keys built after the orphans are deleted (deferTableIndexes: "all"');
    expect(r.stdout).to.match(/"deferTableIndexes":"all"/);
    expect(r.stdout).to.match(/^Orphan rows removed: [1-9]\d* in [\d.]+ s \(4 foreign key\(s\), [2-9]\d* round\(s\)\):$/m);
    expect(r.stdout).to.match(/^Secondary indexes and foreign keys built after the deletes \(util\.loadDump, loadIndexes\): [\d.]+ s\.$/m);
    const r2 = cli(fx.server.uri, ['load', fx.dumps[SRC], `--latest=${LATEST}`, '--orphans=delete', '--deferTableIndexes=fulltext',
      `--schema=${old}`]);
    expect(r2.status, r2.out).to.equal(0);
    expect(r2.stdout).to.include('Secondary indexes built by the load as usual (deferTableIndexes is given)');
    for (const k of KEYS) expect(await count(orphanSql(def, k)), k.join(' ')).to.equal(0);
    for (const t of TABLES) {
      const n = await count(`SELECT COUNT(*) FROM ${def}.${t}`);
      expect(n, t).to.be.above(0);
      expect(await count(`SELECT COUNT(*) FROM ${old}.${t}`), `${t}: rows of the load that built its indexes`).to.equal(n);
      expect(await count(`SELECT COUNT(*) FROM (SELECT * FROM ${def}.${t} UNION SELECT * FROM ${old}.${t}) u`), `${t}: same rows`)
        .to.equal(n);
      expect(await ddl(def, t), `${t}: CREATE TABLE`).to.equal(await ddl(SRC, t));
    }
    // Something was deleted in every child table: the deferred path did the work.
    for (const t of ['orders', 'order_items', 'shipments']) {
      expect(await count(`SELECT COUNT(*) FROM ${def}.${t}`)).to.be.below(await count(`SELECT COUNT(*) FROM ${SRC}.${t}`));
    }
  });
});
