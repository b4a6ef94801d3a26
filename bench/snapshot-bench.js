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
const { runMeasured, stats, fmt, machineLine, settle } = require('./measure');
const { MYSQLSH } = require('../test/support/real');
const { runJs, tempDir, cleanTemp, shellEnv } = require('../test/support/shell');

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

// → {stdout, peakMB} of the mysqlsh process that ran the load.
function load(server, dir, schema, keep, extra) {
  settle();
  const r = runMeasured(MYSQLSH, [server.uri, '--', 'restore', 'load', dir, `--latest=${SRC}.customers:${keep}`,
    `--schema=${schema}`, ...extra], { env: shellEnv({}) });
  if (r.status !== 0) throw new Error(`restore.load failed:\n${r.stdout}${r.stderr}`);
  return r;
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

    const masks = `--mask=${SRC}.orders.email:email,${SRC}.orders.note:text,${SRC}.customers.name:name`;
    const runs = Number(process.env.BENCH_RUNS || 3);
    const got = {};
    const add = (k, v) => { (got[k] = got[k] || []).push(v); };
    let removed = 0;
    let maskedRows = 0;
    for (let i = 0; i < runs; i++) {
      const a = load(server, dumpDir, `bench_a${i}`, keepCustomers, ['--orphans=delete', masks]);
      const b = load(server, dumpDir, `bench_b${i}`, keepCustomers, ['--orphans=report']);
      const c = load(server, dumpDir, `bench_c${i}`, keepCustomers, ['--preset=fastest', '--force', '--orphans=delete', masks]);
      const loadA = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, a.stdout, 'util.loadDump time');
      const loadB = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, b.stdout, 'util.loadDump time');
      const loadC = seconds(/^\s+util\.loadDump\s+([\d.]+)/m, c.stdout, 'util.loadDump time');
      removed = seconds(/Orphan rows removed: (\d+)/, a.stdout, 'orphan count');
      maskedRows = Number(await server.value(`SELECT COUNT(*) FROM bench_a${i}.orders`)) +
        Number(await server.value(`SELECT COUNT(*) FROM bench_a${i}.customers`));
      add('A: util.loadDump', [loadA, loadA]);
      add('A: orphans delete', [seconds(/Orphan rows removed: \d+ in ([\d.]+) s/, a.stdout, 'orphan removal time'), loadA]);
      add('A: masking (3 columns)', [seconds(/Masked in ([\d.]+) s/, a.stdout, 'masking time'), loadA]);
      add('B: util.loadDump', [loadB, loadB]);
      add('B: orphans report', [seconds(/Orphan rows \(counted[^)]*\), ([\d.]+) s/, b.stdout, 'orphan count time'), loadB]);
      add('C (preset fastest: no binlog, tuned; redo log kept on: other schemas here)', [loadC, loadC]);
      add('C: orphans delete', [seconds(/Orphan rows removed: \d+ in ([\d.]+) s/, c.stdout, 'orphan removal time'), loadC]);
      add('C: masking', [seconds(/Masked in ([\d.]+) s/, c.stdout, 'masking time'), loadC]);
      add('peak MB of mysqlsh (A, B, C)', [Math.max(a.peakMB, b.peakMB, c.peakMB), 1]);
      if (i === 0) console.log('\nLoad A report (tail):\n' + a.stdout.slice(a.stdout.indexOf('Orphan rows removed')).split('\n').slice(0, 12).join('\n'));
      for (const x of ['a', 'b', 'c']) await server.query(`DROP SCHEMA IF EXISTS bench_${x}${i}`);
    }
    console.log(`\n${machineLine(MYSQLSH)}\n${runs} runs, interleaved (A B C A B C …); ${removed} orphan rows removed, ` +
      `${maskedRows} rows masked per run; median (min–max)`);
    console.log('step'.padEnd(52) + 'seconds'.padEnd(22) + 'ratio to its load (median)');
    for (const [name, list] of Object.entries(got)) {
      const ratios = list.map((x) => x[0] / x[1]);
      console.log(name.padEnd(52) + fmt(list.map((x) => x[0])).padEnd(22) + (name.startsWith('peak') ? '' : stats(ratios).median.toFixed(2)));
    }
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { console.error(e.stack || e); process.exit(1); });
