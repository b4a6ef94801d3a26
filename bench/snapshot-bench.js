#!/usr/bin/env node
'use strict';
// npm run bench:snapshot: the cost of a developer snapshot's orphan handling and masking, as a
// ratio to the load itself. A throwaway MySQL (../shared/bin/with-mysql) gets orders (1,000,000
// rows, generated in the server) referencing customers (100,000 rows); the real util.dumpSchemas
// dumps them; each load takes the newest half of the customers' chunks (latest: a partial import)
// and every order, so about two thirds of the orders reference a customer left out. Then, in the
// real mysqlsh, interleaved (A B C D A B C D …):
//   A  restore.load --orphans=parents --mask=(orders.email email, orders.note text, customers.name name)
//   B  restore.load --orphans=delete
//   C  restore.load --orphans=report: the plain load of the slice (plus a count), the reference
//   D  A with --preset=fastest (skipBinlog, tuned: the snapshot phase also stays out of the binlog)
// Each cost is a ratio to C's util.loadDump of the same round: parents (A's orphan step), masking
// (A's load minus C's: the masks are applied while loading, plus any UPDATE after it), delete (B's
// load and orphan step minus C's load: B loads without secondary indexes and builds them after the
// deletes), report (C's count); D's parents to D's own load. Plus the rows each mode leaves.
const fs = require('fs');
const path = require('path');
const { startServer } = require('../test/support/server');
const { runMeasured, stats, fmt, machineLine, settle } = require('./measure');
const { MYSQLSH } = require('../test/support/real');
const { runJs, tempDir, cleanTemp, shellEnv } = require('../test/support/shell');
const { DUMP_ENV, withShellDumper } = require('../test/support/shell-dumper');

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
  return fs.readdirSync(dir).filter((f) => new RegExp(`^${SRC}@customers@@?\\d+\\.tsv\\.zst$`).test(f)).length;
}

async function main() {
  const t0 = Date.now();
  const server = await startServer();
  try {
    await server.query(SEED);
    const dumpDir = path.join(tempDir('snapshot-bench-'), 'dump');
    const d = await withShellDumper(server, () => runJs(server.uri, `util.dumpSchemas(['${SRC}'], ${JSON.stringify(dumpDir)}, ` +
      `{bytesPerChunk: '1M', threads: 2, showProgress: false}); 'ok'`, { env: DUMP_ENV }));
    if (d.error) throw new Error(`dump failed: ${d.error.message}\n${d.out}`);
    // The partial import: the newest half of the customers' chunks, every order.
    const chunks = customerChunks(dumpDir);
    const keepCustomers = Math.max(1, Math.floor(chunks / 2));
    console.log(`Data: ${ORDERS} orders, ${CUSTOMERS} customers; customers' chunks chosen: ${keepCustomers} of ${chunks} ` +
      `(setup ${((Date.now() - t0) / 1000).toFixed(1)} s)`);

    const masks = `--mask=${SRC}.orders.email:email,${SRC}.orders.note:text,${SRC}.customers.name:name`;
    const runs = Number(process.env.BENCH_RUNS || 3);
    const got = {};
    const add = (k, v) => { (got[k] = got[k] || []).push(v); };
    const left = {};
    const loadTime = (r) => seconds(/^\s+util\.loadDump\s+([\d.]+)/m, r.stdout, 'util.loadDump time');
    const parentsTime = (r) => seconds(/^Parents added: \d+ row\(s\)[^\n]* in ([\d.]+) s/m, r.stdout, 'parents time');
    const deleteTime = (r) => seconds(/^Orphan rows removed: \d+ in ([\d.]+) s/m, r.stdout, 'orphan removal time');
    const maskTime = (r) => seconds(/^Masked in ([\d.]+) s/m, r.stdout, 'masking time');
    async function rows(schema) {
      const o = Number(await server.value(`SELECT COUNT(*) FROM ${schema}.orders`));
      const c = Number(await server.value(`SELECT COUNT(*) FROM ${schema}.customers`));
      const orphans = Number(await server.value(`SELECT COUNT(*) FROM ${schema}.orders o LEFT JOIN ${schema}.customers c ` +
        'ON c.id = o.customer_id WHERE c.id IS NULL'));
      return `${o} orders, ${c} customers, ${orphans} orphans`;
    }
    const indexTime = (r) => seconds(/^Secondary indexes and foreign keys built after the deletes[^:]*: ([\d.]+) s/m, r.stdout,
      'index build time');
    const snapshotTime = (r) => seconds(/^\s+snapshot\s+([\d.]+)/m, r.stdout, 'snapshot phase time');
    for (let i = 0; i < runs; i++) {
      const a = load(server, dumpDir, `bench_a${i}`, keepCustomers, ['--orphans=parents', masks]);
      const b = load(server, dumpDir, `bench_b${i}`, keepCustomers, ['--orphans=delete']);
      const c = load(server, dumpDir, `bench_c${i}`, keepCustomers, ['--orphans=report']);
      const d = load(server, dumpDir, `bench_d${i}`, keepCustomers, ['--preset=fastest', '--force', '--orphans=parents', masks]);
      const [la, lb, lc, ld] = [a, b, c, d].map(loadTime);
      add('C: util.loadDump (the plain load: the reference)', [lc, lc]);
      add('A: util.loadDump with 3 masks applied while loading', [la, lc]);
      add('A: orphans parents', [parentsTime(a), lc]);
      add('A: masking (A load - C load + UPDATE after)', [la - lc + maskTime(a), lc]);
      add('B: util.loadDump without secondary indexes', [lb, lc]);
      add('B:   delete statements', [deleteTime(b), lc]);
      add('B:   index build after the deletes', [indexTime(b), lc]);
      add('B: orphans delete (B load + snapshot - C load)', [lb + snapshotTime(b) - lc, lc]);
      add('C: orphans report', [seconds(/Orphan rows \(counted[^)]*\), ([\d.]+) s/, c.stdout, 'orphan count time'), lc]);
      add('D (preset fastest: no binlog, tuned; redo log kept on): util.loadDump', [ld, ld]);
      add('D: orphans parents (ratio to D\'s load)', [parentsTime(d), ld]);
      add('D: masking after the load (ratio to D\'s load)', [maskTime(d), ld]);
      add('peak MB of mysqlsh (A, B, C, D)', [Math.max(a.peakMB, b.peakMB, c.peakMB, d.peakMB), 1]);
      if (i === 0) {
        console.log('\nLoad A report (tail):\n' + a.stdout.slice(a.stdout.indexOf('Parents added')).split('\n').slice(0, 12).join('\n'));
        console.log('\nLoad B report (tail):\n' + b.stdout.slice(b.stdout.indexOf('Orphan rows removed')).split('\n').slice(0, 8).join('\n'));
        for (const [k, x] of [['A (parents)', 'a'], ['B (delete)', 'b'], ['C (report)', 'c'], ['D (parents, fastest)', 'd']]) {
          left[k] = await rows(`bench_${x}${i}`);
        }
      }
      for (const x of ['a', 'b', 'c', 'd']) await server.query(`DROP SCHEMA IF EXISTS bench_${x}${i}`);
    }
    console.log(`\n${machineLine(MYSQLSH)}\n${runs} runs, interleaved (A B C D A B C D …); median (min–max); ratios to C's ` +
      'util.loadDump of the same round unless said otherwise');
    console.log('Rows each mode leaves:');
    for (const [k, v] of Object.entries(left)) console.log(`  ${k.padEnd(22)}${v}`);
    console.log('step'.padEnd(72) + 'seconds'.padEnd(22) + 'ratio: median (min–max)');
    for (const [name, list] of Object.entries(got)) {
      const ratios = list.map((x) => x[0] / x[1]);
      console.log(name.padEnd(72) + fmt(list.map((x) => x[0])).padEnd(22) + (name.startsWith('peak') || name.startsWith('C: util') ||
        name.startsWith('D (') ? '' : fmt(ratios)));
    }
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { console.error(e.stack || e); process.exit(1); });
