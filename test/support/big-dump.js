'use strict';
// One generated "bigger" dump per test run, made by the real Shell's util.dumpSchemas from a
// schema seeded in the given server: a chunked table (`w10big.orders`, histograms on two
// columns), a small one, secondary indexes. A load of it takes a few seconds — long enough to
// kill something mid-load. The schema is dropped again after the dump; every global variable
// touched is put back.
const path = require('path');
const { mysqlsh, tempDir } = require('./shell');
const { DUMP_ENV, withShellDumper } = require('./shell-dumper');

const SCHEMA = 'w10big';
const ROWS = Number(process.env.RESTORE_TEST_BIG_ROWS || 300000);
let made = null;

async function makeBigDump(server) {
  if (made) return made;
  await server.query(`DROP SCHEMA IF EXISTS ${SCHEMA}; CREATE SCHEMA ${SCHEMA};
    CREATE TABLE ${SCHEMA}.nums (n INT PRIMARY KEY);
    INSERT INTO ${SCHEMA}.nums WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) SELECT n FROM s;
    CREATE TABLE ${SCHEMA}.orders (id INT PRIMARY KEY, customer INT NOT NULL, status VARCHAR(10) NOT NULL, amount DECIMAL(10,2),
      note VARCHAR(80), KEY (customer), KEY (status, amount));
    CREATE TABLE ${SCHEMA}.customers (id INT PRIMARY KEY, name VARCHAR(40), KEY (name));`);
  await server.query(`INSERT INTO ${SCHEMA}.orders SELECT (a.n - 1) * 1000 + b.n, b.n % 997, ELT(1 + a.n % 3, 'new', 'paid', 'sent'),
    (a.n * b.n % 10000) / 100, CONCAT('order ', LEFT(SHA2((a.n - 1) * 1000 + b.n, 256), 40))
    FROM ${SCHEMA}.nums a CROSS JOIN ${SCHEMA}.nums b WHERE (a.n - 1) * 1000 + b.n <= ${ROWS}`);
  await server.query(`INSERT INTO ${SCHEMA}.customers SELECT n, CONCAT('customer ', n) FROM ${SCHEMA}.nums;
    DROP TABLE ${SCHEMA}.nums;
    ANALYZE TABLE ${SCHEMA}.orders, ${SCHEMA}.customers;
    ANALYZE TABLE ${SCHEMA}.orders UPDATE HISTOGRAM ON status, amount WITH 16 BUCKETS;`);
  const checksums = await tableChecksums(server, SCHEMA);
  const dir = path.join(tempDir('restore-big-'), 'dump');
  let r;
  try {
    r = await withShellDumper(server, () => mysqlsh([server.uri, '--js', '-e',
      `util.dumpSchemas(['${SCHEMA}'], '${dir}', {bytesPerChunk: '1M', showProgress: false})`], { env: DUMP_ENV }));
  } finally {
    await server.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`);
  }
  if (r.status !== 0) throw new Error('util.dumpSchemas failed: ' + r.out);
  made = { dir, schema: SCHEMA, rows: { orders: ROWS, customers: 1000 }, checksums };
  return made;
}

// {table: CHECKSUM TABLE value} of every table of a schema.
async function tableChecksums(server, schema) {
  const tables = (await server.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ORDER BY 1', [schema]))
    .map((x) => x.t);
  const out = {};
  for (const t of tables) out[t] = String((await server.query(`CHECKSUM TABLE \`${schema}\`.\`${t}\``))[0].Checksum);
  return out;
}

module.exports = { makeBigDump, tableChecksums, BIG_SCHEMA: SCHEMA };
