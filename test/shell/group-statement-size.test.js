'use strict';
// The plugin's own statements after the load on a Group Replication group (issue 42, item 3;
// lib/snapshot/statement-size.js): with group_replication_transaction_size_limit at 10000 bytes,
// since's trim and orphans "delete" remove thousands of rows (more than one statement may carry:
// each deleted row's row event holds at least its 8-byte key) in batches the group accepts; every
// member ends ONLINE with equal rows.
const { expect } = require('chai');
const { cli } = require('../support/shell');
const { sharedGroup } = require('../support/topology');
const { snapshotFixture, orphanSql } = require('../support/snapshot-fixture');

const SRC = 'gsize_src';
const POINT = '2026-01-08 00:00:00';
const LIMIT = 10000;
const SEED = `CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, name VARCHAR(120) NOT NULL);
CREATE TABLE ${SRC}.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, ordered_at DATETIME NOT NULL,
  note VARCHAR(80), KEY (customer_id), CONSTRAINT orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id));
SET SESSION cte_max_recursion_depth = 100000;
INSERT INTO ${SRC}.customers WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000)
  SELECT n, CONCAT('Customer ', n, ' ', REPEAT('y', 90)) FROM s;
INSERT INTO ${SRC}.orders (customer_id, ordered_at, note) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 8000)
  SELECT 1 + (n * 7) % 10000, TIMESTAMP('2026-01-01') + INTERVAL n * 5 MINUTE, CONCAT('order ', n, ' ', REPEAT('x', 60)) FROM s;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders;`;

describe('the plugin\'s own statements on a group stay below its transaction size limit (real Shell, real MySQL)', function () {
  this.timeout(600000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED }]);
  let group = null;
  let primary;
  let limits = [];

  before(async function () {
    group = await sharedGroup();
    primary = await group.primary();
    limits = [];
    for (const m of group.members) {
      limits.push(await m.value('SELECT @@GLOBAL.group_replication_transaction_size_limit'));
      await m.query(`SET GLOBAL group_replication_transaction_size_limit = ${LIMIT}`);
    }
  });

  after(async function () {
    if (!group) return;
    await primary.query(`DROP SCHEMA IF EXISTS ${SRC}`);
    await group.waitApplied();
    for (const [i, m] of group.members.entries()) await m.query(`SET GLOBAL group_replication_transaction_size_limit = ${Number(limits[i])}`);
  });

  it('since\'s trim and orphans "delete" in batches: the load succeeds and every member has the same rows', async function () {
    const r = cli(primary.uri, ['load', fx.dumps[SRC], `--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan', `--latest=${SRC}.customers:1`,
      '--orphans=delete']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include(`group_replication_transaction_size_limit ${LIMIT}`);
    const trimmed = Number(new RegExp(`since: (\\d+) row\\(s\\) of ${SRC}\\.orders before ${POINT} removed`).exec(r.stdout)[1]);
    expect(trimmed).to.be.above(0);
    expect(r.stdout).to.match(/Orphan rows removed: [1-9]\d* in/);
    // The orphans deleted: the source's rows at or after the point, less what the primary kept.
    const deleted = Number(await fx.server.value(`SELECT COUNT(*) FROM ${SRC}.orders WHERE ordered_at >= '${POINT}'`)) -
      Number(await primary.value(`SELECT COUNT(*) FROM ${SRC}.orders`));
    // More rows than one transaction of LIMIT bytes can delete (8 bytes of key per row at the very least).
    expect(deleted * 8, r.stdout).to.be.above(LIMIT);
    expect(Number(await primary.value(orphanSql(SRC, ['orders', ['customer_id'], 'customers', ['id']])))).to.equal(0);
    expect(Number(await primary.value(`SELECT COUNT(*) FROM ${SRC}.orders WHERE ordered_at < '${POINT}'`))).to.equal(0);
    await group.waitApplied();
    expect(await group.rowsEqual(SRC)).to.equal(true);
    expect(await group.allOnline()).to.equal(true);
  });

  it('orphans "parents" at that limit: refused first, a chunk to stage being above a quarter of it; nothing changed', async function () {
    await primary.query(`DROP SCHEMA IF EXISTS ${SRC}`);
    await group.waitApplied();
    const r = cli(primary.uri, ['load', fx.dumps[SRC], `--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan', `--latest=${SRC}.customers:1`,
      '--orphans=parents', '--output-format=json']);
    expect(r.status, r.out).to.equal(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.code).to.equal('GROUP_LIMIT_TOO_SMALL');
    expect(doc.error.message).to.match(new RegExp(`chunk \\d+ of ${SRC}\\.customers holds \\d+ bytes of data, above a quarter of ` +
      `group_replication_transaction_size_limit \\(${LIMIT} bytes\\)`));
    expect(Number(await primary.value(`SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '${SRC}'`))).to.equal(0);
  });

  it('orphans "parents" with chunks below a quarter of the limit: the parents copied in batches the group accepts', async function () {
    const big = 560000;
    for (const m of group.members) await m.query(`SET GLOBAL group_replication_transaction_size_limit = ${big}`);
    const r = cli(primary.uri, ['load', fx.dumps[SRC], `--since=${SRC}.orders.ordered_at:${POINT}`, '--since-scan', `--latest=${SRC}.customers:1`,
      '--orphans=parents']);
    expect(r.status, r.out).to.equal(0);
    const added = Number(/Parents added: (\d+) row\(s\)/.exec(r.stdout)?.[1] ?? NaN);
    // More customer rows than one transaction of the limit holds (their data alone, at the smallest row's size).
    const smallest = Number(await fx.server.value(`SELECT MIN(4 + LENGTH(name)) FROM ${SRC}.customers`));
    expect(added * smallest, r.stdout).to.be.above(big);
    expect(Number(await primary.value(orphanSql(SRC, ['orders', ['customer_id'], 'customers', ['id']])))).to.equal(0);
    expect(Number(await primary.value(`SELECT COUNT(*) FROM ${SRC}.orders`))).to.equal(
      Number(await fx.server.value(`SELECT COUNT(*) FROM ${SRC}.orders WHERE ordered_at >= '${POINT}'`)));
    await group.waitApplied();
    expect(await group.rowsEqual(SRC)).to.equal(true);
    expect(await group.allOnline()).to.equal(true);
  });
});
