#!/usr/bin/env node
'use strict';
// npm run bench:snapshot: the cost of a developer snapshot's orphan removal and masking, as a
// ratio to the load itself. A throwaway MySQL (../shared/bin/with-mysql) gets orders (1,000,000
// rows, generated in the server) referencing customers (100,000 rows); the real util.dumpSchemas
// dumps them; a copy keeps only the newest half of the customers' chunks (a partial import),
// so about half the orders lose their customer. Then, in the real mysqlsh:
//   A  restore.load --orphans=delete --mask=(orders.email email, orders.note text, customers.name name)
//   B  restore.load --orphans=report
//   C  A with --preset=fastest (skipBinlog, redo log off: the snapshot phase also stays out of the binlog)
// and the times of util.loadDump, orphan removal/counting and masking from the load report.
const fs = require('fs');
const path = require('path');
const { startServer } = require('../test/support/server');
const { cli, runJs, tempDir, cleanTemp } = require('../test/support/shell');

const ORDERS = Number(process.env.BENCH_ROWS || 1000000);
const CUSTOMERS = Math.max(10, Math.floor(ORDERS / 10));
const SRC = 'bench_src';

const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, email VARCHAR(60) NOT NULL);
CREATE TABLE ${SRC}.orders (id INT PRIMARY KEY, customer_id INT NOT NULL, email VARCHAR(60) NOT NULL,
  note VARCHAR(100) NULL, total DECIMAL(10,2) NOT NULL, FOREIGN KEY (customer_id) REFERENCES customers (id));
SET SESSION cte_max_recursion_depth = ${ORDERS + 1};
SET SESSION foreign_key_checks = 0;
INSERT INTO ${SRC}.customers WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${CUSTOMERS})
  SELECT i, CONCAT('Customer ', i % 5000), CONCAT('customer', i, '@corp.test') FROM n;
INSERT INTO ${SRC}.orders WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ORDERS})
  SELECT i, 1 + (i * 7919) % ${CUSTOMERS}, CONCAT('customer', 1 + (i * 7919) % ${CUSTOMERS}, '@corp.test'),
    IF(i % 3 = 0, NULL, CONCAT('leave the parcel at door ', i % 100)), (i % 10000) / 100 FROM n;
SET SESSION foreign_key_checks = 1;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders;
`;

function seconds(re, text, what) {
  const m = re.exec(text);
  if (!m) throw new Error(`no ${what} in the report:\n${text}`);
  return Number(m[1]);
}

function load(server, dir, schema, keep, extra) {
  const r = cli(server.uri, ['load', dir, `--latest=${SRC}.customers:${keep}`, `--schema=${schema}`, ...extra]);
  if (r.status !== 0) throw new Error(`restore.load failed:\n${r.out}`);
  return r.stdout;
}

function customerChunks(dir) {
  return fs.readdirSync(dir).filter((f) => new RegExp(`^${SRC}@customers@@?\\d+\\.tsv\\.zst$`).test(f))
    .sort((a, b) => Number(/(\d+)\.tsv/.exec(a)[1]) - Number(/(\d+)\.tsv/.exec(b)[1]));
}

async function main() {
  const t0 = Date.now();
  const server = await startServer();
  try {
    await server.query(SEED);
    const dumpDir = path.join(tempDir('snapshot-bench-'), 'dump');
    const d = runJs(server.uri, `util.dumpSchemas(['${SRC}'], ${JSON.stringify(dumpDir)}, {bytesPerChunk: '1M', ` +
      `threads: 2, showProgress: false}); 'ok'`, { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    if (d.error) throw new Error(`dump failed: ${d.error.message}\n${d.out}`);
    // The partial import: only the newest half of the customers' chunks were fetched.
    const chunks = customerChunks(dumpDir);
    const keepCustomers = Math.max(1, Math.floor(chunks.length / 2));
    for (const f of chunks.slice(0, chunks.length - keepCustomers)) {
      fs.rmSync(path.join(dumpDir, f));
      fs.rmSync(path.join(dumpDir, f + '.idx'), { force: true });
    }
    console.log(`Data: ${ORDERS} orders, ${CUSTOMERS} customers; customers' chunks kept: ${keepCustomers} of ${chunks.length} ` +
      `(setup ${((Date.now() - t0) / 1000).toFixed(1)} s)`);

    const a = load(server, dumpDir, 'bench_a', keepCustomers, ['--orphans=delete',
      `--mask=${SRC}.orders.email:email,${SRC}.orders.note:text,${SRC}.customers.name:name`]);
    const b = load(server, dumpDir, 'bench_b', keepCustomers, ['--orphans=report']);
    const c = load(server, dumpDir, 'bench_c', keepCustomers, ['--preset=fastest', '--orphans=delete',
      `--mask=${SRC}.orders.email:email,${SRC}.orders.note:text,${SRC}.customers.name:name`]);
    const loadA = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, a, 'util.loadDump time');
    const loadB = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, b, 'util.loadDump time');
    const removed = seconds(/Orphan rows removed: (\d+)/, a, 'orphan count');
    const del = seconds(/Orphan rows removed: \d+ in ([\d.]+) s/, a, 'orphan removal time');
    const mask = seconds(/Masked in ([\d.]+) s/, a, 'masking time');
    const rep = seconds(/Orphan rows \(counted[^)]*\), ([\d.]+) s/, b, 'orphan count time');
    const maskedRows = Number(await server.value('SELECT COUNT(*) FROM bench_a.orders')) +
      Number(await server.value('SELECT COUNT(*) FROM bench_a.customers'));
    const loadC = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, c, 'util.loadDump time');
    const delC = seconds(/Orphan rows removed: \d+ in ([\d.]+) s/, c, 'orphan removal time');
    const maskC = seconds(/Masked in ([\d.]+) s/, c, 'masking time');
    const rows = [
      ['A: util.loadDump', loadA, 1],
      [`A: orphans delete (${removed} rows removed)`, del, del / loadA],
      [`A: masking (3 columns, ${maskedRows} rows)`, mask, mask / loadA],
      ['B: util.loadDump', loadB, 1],
      ['B: orphans report', rep, rep / loadB],
      ['C (preset fastest: no binlog, redo log off): load', loadC, 1],
      ['C: orphans delete', delC, delC / loadC],
      ['C: masking', maskC, maskC / loadC],
    ];
    console.log('step'.padEnd(52) + 'seconds'.padStart(10) + '  ratio to the load');
    for (const [name, s, ratio] of rows) console.log(name.padEnd(52) + s.toFixed(2).padStart(10) + '  ' + ratio.toFixed(2));
    console.log('\nLoad A report (tail):\n' + a.slice(a.indexOf('Orphan rows removed')).split('\n').slice(0, 12).join('\n'));
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { console.error(e.stack || e); process.exit(1); });
