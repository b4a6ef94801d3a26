#!/usr/bin/env node
'use strict';
// npm run bench:load: a generated dump of a few hundred MB (several tables, one big chunked
// table, secondary indexes), made by the real MySQL Shell's util.dumpSchemas from a seeded
// throwaway MySQL; then, each on a fresh server, loaded with plain util.loadDump defaults and with
// a hand-tuned util.loadDump, `restore load --preset=fastest`, and fastest without each of its
// newer levers (--keep-settings), fastest with a candidate lever added, and the floor: the same
// data with the best plan the hardware allows, without util.loadDump (bench/load-floor.js). Each
// variant BENCH_RUNS (3) times, interleaved; median (min–max), ratios from medians (to the
// defaults and to the floor), the peak memory of the mysqlsh process (bench/measure.js), and the
// verdict of issue 21: fastest at least as fast as the hand-tuned load and within 1.2x the floor.
// BENCH_ROWS (rows of the big table, default 2,000,000) scales it. Not a test, but every variant
// must load every row of every table and build every index, or the run fails.
// (MySQL 9.7 has no MD5() or SHA1(): SHA2 makes the text.)
const fs = require('fs');
const path = require('path');
const os = require('os');
const { floorPlan, floorLoad } = require('./load-floor');
const { startServer } = require('../test/support/server');
const { mysqlsh, cli, tempDir, cleanTemp } = require('../test/support/shell');

const ROWS = Number(process.env.BENCH_ROWS || 2000000);
const SCHEMA = 'loadbench';

// Rows come from a numbers table (1..1000) cross joined with itself: no recursion limit, one
// INSERT … SELECT per table, all generated inside the server.
async function seed(server) {
  await server.query(`DROP SCHEMA IF EXISTS ${SCHEMA}; CREATE SCHEMA ${SCHEMA}; USE ${SCHEMA};
    CREATE TABLE nums (n INT PRIMARY KEY);
    INSERT INTO nums WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000) SELECT n FROM s;
    CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(64), email VARCHAR(96), country CHAR(2),
      created DATETIME, KEY (email), KEY (country, created));
    CREATE TABLE products (id INT PRIMARY KEY, sku VARCHAR(32), title VARCHAR(200), price DECIMAL(10,2), KEY (sku));
    CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id INT, product_id INT, qty INT, amount DECIMAL(12,2),
      status VARCHAR(16), note VARCHAR(120), created DATETIME, KEY (customer_id), KEY (product_id), KEY (created, status));
    CREATE TABLE events (id BIGINT PRIMARY KEY, kind VARCHAR(20), payload TEXT, at DATETIME, KEY (kind, at));`);
  const big = `SELECT (a.n - 1) * 1000 + b.n AS i FROM nums a CROSS JOIN nums b`;
  await server.query(`INSERT INTO ${SCHEMA}.customers SELECT i, CONCAT('customer ', i), CONCAT('c', i, '@example.com'),
    ELT(1 + i % 5, 'DE', 'FR', 'US', 'BR', 'JP'), '2020-01-01' + INTERVAL i MINUTE FROM (${big}) x WHERE i <= ${Math.ceil(ROWS / 20)}`);
  await server.query(`INSERT INTO ${SCHEMA}.products SELECT i, CONCAT('SKU-', LPAD(i, 8, '0')), CONCAT('product ', i, ' ', LEFT(SHA2(i, 256), 32)),
    (i % 1000) / 10 FROM (${big}) x WHERE i <= 20000`);
  for (let base = 0; base < ROWS; base += 200000) {
    await server.query(`INSERT INTO ${SCHEMA}.orders SELECT ${base} + (a.n - 1) * 1000 + b.n, 1 + ((a.n * 7919 + b.n) % ${Math.ceil(ROWS / 20)}),
      1 + (b.n * 31 % 20000), 1 + b.n % 9, ((a.n * b.n) % 100000) / 100, ELT(1 + b.n % 4, 'new', 'paid', 'shipped', 'returned'),
      CONCAT('note ', LEFT(SHA2(${base} + a.n * 1000 + b.n, 256), 32)), '2021-01-01' + INTERVAL (${base} + (a.n - 1) * 1000 + b.n) SECOND
      FROM nums a CROSS JOIN nums b WHERE a.n <= 200 AND ${base} + (a.n - 1) * 1000 + b.n <= ${ROWS}`);
  }
  await server.query(`INSERT INTO ${SCHEMA}.events SELECT i, ELT(1 + i % 3, 'click', 'view', 'buy'),
    REPEAT(LEFT(SHA2(i, 256), 32), 4), '2022-01-01' + INTERVAL i SECOND FROM (${big}) x WHERE i <= ${Math.ceil(ROWS / 4)}`);
  await server.query(`DROP TABLE ${SCHEMA}.nums`);
  // util.dumpSchemas chunks by the row estimate of EXPLAIN FORMAT=JSON: fresh statistics, and the
  // JSON layout Shell 9.1 reads (MySQL 9.7 defaults to version 2, which it cannot read).
  await server.query(`ANALYZE TABLE ${SCHEMA}.customers, ${SCHEMA}.products, ${SCHEMA}.orders, ${SCHEMA}.events`);
  await server.query('SET GLOBAL explain_json_format_version = 1').catch(() => {});
}

// {phase: seconds} from the Phases table of restore.load's text report.
function phasesOf(stdout) {
  const out = {};
  const at = stdout.indexOf('Phases:');
  if (at < 0) return out;
  for (const line of stdout.slice(at).split('\n').slice(3)) {
    const m = /^ {2}(\S.*?)\s+(\d+\.\d\d)\s+\S+$/.exec(line);
    if (!m) break;
    out[m[1]] = Number(m[2]);
  }
  return out;
}

function timed(fn) {
  const t0 = process.hrtime.bigint();
  const r = fn();
  return { r, seconds: Number(process.hrtime.bigint() - t0) / 1e9 };
}

// {table: rows} and {table: [index names]} of the bench's schema: what every variant must end with.
async function contents(server) {
  const rows = {};
  for (const t of TABLES) rows[t] = Number(await server.value(`SELECT COUNT(*) FROM ${SCHEMA}.${t}`));
  const indexes = {};
  for (const r of await server.query(`SELECT TABLE_NAME AS t, INDEX_NAME AS i FROM information_schema.STATISTICS
    WHERE TABLE_SCHEMA = ? GROUP BY 1, 2 ORDER BY 1, 2`, [SCHEMA])) (indexes[r.t] = indexes[r.t] || []).push(r.i);
  return { rows, indexes };
}
const TABLES = ['customers', 'products', 'orders', 'events'];

async function countRows(server) {
  const { rows } = await contents(server);
  return TABLES.reduce((n, t) => n + rows[t], 0);
}

async function main() {
  const work = tempDir('restore-loadbench-');
  const dump = path.join(work, 'dump');
  const server = await startServer();
  process.stdout.write(`Seeding ${SCHEMA} (big table: ${ROWS} rows) on MySQL ${await server.value('SELECT VERSION()')}…\n`);
  const seedTime = Date.now();
  await seed(server);
  const expected = await contents(server);
  const rows = TABLES.reduce((n, t) => n + expected.rows[t], 0);
  process.stdout.write(`  ${rows} rows in ${((Date.now() - seedTime) / 1000).toFixed(1)} s\n`);
  const d = timed(() => mysqlsh([server.uri, '--js', '-e', `util.dumpSchemas(['${SCHEMA}'], '${dump}', {bytesPerChunk: '32M', showProgress: false})`],
    { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } }));
  if (d.r.status !== 0) throw new Error('util.dumpSchemas failed: ' + d.r.out);
  await server.stop();
  const done = JSON.parse(fs.readFileSync(path.join(dump, '@.done.json'), 'utf8'));
  const dataMB = Number(done.dataBytes) / 1e6;
  const files = fs.readdirSync(dump);
  const diskMB = files.reduce((s, f) => s + fs.statSync(path.join(dump, f)).size, 0) / 1e6;
  const chunks = files.filter((f) => /\.tsv\.zst$/.test(f)).length;
  process.stdout.write(`Dump: ${dataMB.toFixed(0)} MB of data (${diskMB.toFixed(0)} MB on disk, zstd), ${chunks} chunk files, ` +
    `made in ${d.seconds.toFixed(1)} s\n\n`);

  const { runMeasured, onFreshServers, stats, fmt, machineLine, progressWindows } = require('./measure');
  const { MYSQLSH } = require('../test/support/real');
  const { shellEnv } = require('../test/support/shell');
  const threads = 4; // what fastest chooses here (the server's innodb_read_io_threads); the hand-tuned load and the floor use the same
  const ddlThreads = os.cpus().length; // the candidate lever: index-build threads = the CPUs (the server's default is 4)
  const shell = (args) => runMeasured(MYSQLSH, args, { env: shellEnv({}) });
  // A progress file of its own per load, kept to read util.loadDump's times from (progressWindows).
  let loads = 0;
  const load = (s, extra) => {
    const file = path.join(work, `load-progress-${++loads}.json`);
    const t = shell([s.uri, '--', 'restore', 'load', dump, '--preset=fastest', '--force', ...extra, `--progress-file=${file}`]);
    if (t.status === 0) t.progress = progressWindows(file);
    return t;
  };
  // A DBA following the Shell's documentation: more threads, indexes after the data, no binary log,
  // the redo log disabled by hand for the load and enabled again.
  const handTuned = `session.runSql("ALTER INSTANCE DISABLE INNODB REDO_LOG"); util.loadDump('${dump}', {threads: ${threads}, ` +
    `deferTableIndexes: "all", skipBinlog: true, showProgress: false}); session.runSql("ALTER INSTANCE ENABLE INNODB REDO_LOG")`;
  // innodb_ddl_threads in every loader session (sessionInitSql, after the preset's own
  // innodb_ddl_buffer_size) and on the Shell's own session, where util.loadDump reads
  // GREATEST(@@innodb_parallel_read_threads, @@innodb_ddl_threads) to weigh index builds.
  const ddlSet = `SET SESSION innodb_ddl_threads = ${ddlThreads}`;
  const withDdlThreads = `session.runSql('${ddlSet}'); restore.load('${dump}', {preset: 'fastest', force: true, ` +
    `sessionInitSql: ['${ddlSet}']})`;
  const plan = floorPlan(dump); // reads the dump's DDL and lists its chunks: outside the timing
  const FLOOR = 'floor: LOAD DATA, then indexes';
  const variants = [
    { name: 'util.loadDump defaults', run: (s) => shell([s.uri, '--js', '-e', `util.loadDump('${dump}', {showProgress: false})`]) },
    { name: 'hand-tuned util.loadDump', run: (s) => shell([s.uri, '--js', '-e', handTuned]) },
    { name: 'restore load --preset=fastest', run: (s) => load(s, []) },
    { name: 'fastest, innodb_ddl_buffer_size kept', run: (s) => load(s, ['--keep-settings=innodb_ddl_buffer_size']) },
    { name: `fastest + innodb_ddl_threads=${ddlThreads}`, run: (s) => shell([s.uri, '--js', '-e', withDdlThreads]) },
    { name: FLOOR, floor: true, run: async (s) => {
      const pool = Number(await s.value('SELECT @@GLOBAL.innodb_buffer_pool_size'));
      // The index-build sort buffer fastest would give each of `threads` sessions on this server.
      const ddlBuffer = Math.min(2 ** 30, Math.max(2 ** 20, Math.floor(pool / 4 / threads / 2 ** 20) * 2 ** 20));
      const timeline = {};
      return { seconds: await floorLoad(s.client, plan, { threads, ddlBuffer, timeline }), timeline, peakMB: NaN, status: 0, stdout: '',
        stderr: '' };
    } },
  ];
  const runs = Number(process.env.BENCH_RUNS || 3);
  let floorRows = null;
  const results = await onFreshServers(variants, runs, { start: startServer, check: async (s, v) => {
    const got = await contents(s);
    const wrong = TABLES.filter((x) => got.rows[x] !== expected.rows[x] ||
      JSON.stringify(got.indexes[x]) !== JSON.stringify(expected.indexes[x]));
    if (wrong.length) {
      throw new Error(`${v.name} did not load what the other variants load: ` + wrong.map((x) => `${x}: ${got.rows[x]} rows ` +
        `(expected ${expected.rows[x]}), indexes ${got.indexes[x]} (expected ${expected.indexes[x]})`).join('; '));
    }
    const redo = await s.redoLog();
    if (redo !== 'ON') throw new Error(`${v.name}: the redo log is ${redo} afterwards`);
    if (v.floor) floorRows = got.rows;
  }, done: (i, v, t) => process.stdout.write(`  run ${i + 1}: ${v.name}: ${t.seconds.toFixed(1)} s` +
    (Number.isFinite(t.peakMB) ? `, mysqlsh peak ${t.peakMB.toFixed(0)} MB` : '') + '\n') });
  const med = (name) => stats(results[name].map((x) => x.seconds)).median;
  const base = med(variants[0].name);
  const floor = med(FLOOR);
  process.stdout.write(`\n${machineLine(MYSQLSH)}\n${runs} runs of each, interleaved, each on a fresh server; median (min–max)\n\n`);
  process.stdout.write(['variant'.padEnd(38), 'seconds'.padEnd(20), 'MB/s'.padStart(7), 'vs defaults'.padStart(12),
    'vs floor'.padStart(9), 'mysqlsh peak MB'.padStart(18)].join(' ') + '\n');
  for (const v of variants) {
    const list = results[v.name];
    const m = med(v.name);
    const peaks = list.map((x) => x.peakMB);
    process.stdout.write([v.name.padEnd(38), fmt(list.map((x) => x.seconds), 1).padEnd(20), (dataMB / m).toFixed(1).padStart(7),
      `${(base / m).toFixed(2)}x`.padStart(12), `${(m / floor).toFixed(2)}x`.padStart(9),
      (peaks.every(Number.isFinite) ? fmt(peaks, 0) : '-').padStart(18)].join(' ') + '\n');
  }
  const fastest = med('restore load --preset=fastest');
  const hand = med('hand-tuned util.loadDump');
  process.stdout.write(`\nfastest vs hand-tuned: ${(hand / fastest).toFixed(2)}x; ` +
    `without the index-build buffer: ${(med('fastest, innodb_ddl_buffer_size kept') / fastest).toFixed(2)}x the time; ` +
    `with innodb_ddl_threads=${ddlThreads}: ${(med(`fastest + innodb_ddl_threads=${ddlThreads}`) / fastest).toFixed(2)}x the time\n`);
  process.stdout.write(`floor: ${threads} streams of zstd -d | mysql LOAD DATA LOCAL INFILE (decompression in the load path, timed), ` +
    `redo log off, no binlog/unique/foreign key checks, then one ALTER TABLE … ADD per table; rows loaded: ` +
    `${TABLES.map((x) => `${x} ${floorRows[x]}`).join(', ')} (the same as every other variant's)\n`);
  const pass = fastest <= hand && fastest <= 1.2 * floor;
  process.stdout.write(`verdict: ${pass ? 'PASS' : 'FAIL'}: fastest ${fastest.toFixed(1)} s ${fastest <= hand ? '<=' : '>'} ` +
    `hand-tuned ${hand.toFixed(1)} s; fastest ${(fastest / floor).toFixed(2)}x the floor (${floor.toFixed(1)} s) ` +
    `${fastest <= 1.2 * floor ? '<=' : '>'} 1.2x\n`);
  process.stdout.write(`issue 44's target: fastest within 1.1x the floor: ${fastest <= 1.1 * floor ? 'met' : 'not met'} ` +
    `(${(fastest / floor).toFixed(2)}x)\n`);
  // Where fastest's time goes: the phases of its own report (median of each), the rest is the
  // Shell's start and the plan; inside util.loadDump, the Shell's own summary (whole seconds).
  const phaseRuns = results['restore load --preset=fastest'].map((t) => phasesOf(t.stdout));
  const names = Object.keys(phaseRuns[0]);
  const phaseMed = (n) => stats(phaseRuns.map((p) => p[n] || 0)).median;
  const inPhases = stats(phaseRuns.map((p) => names.reduce((x, n) => x + (p[n] || 0), 0))).median;
  process.stdout.write(`fastest's time by phase (median s): ${names.map((n) => `${n} ${phaseMed(n).toFixed(2)}`).join(', ')}; ` +
    `outside the phases (Shell start, plan, report) ${(fastest - inPhases).toFixed(2)}; the floor ${floor.toFixed(2)}\n`);
  const shellSays = (re) => fmt(results['restore load --preset=fastest'].map((t) => Number((re.exec(t.stdout + t.stderr) || [])[1])), 0);
  process.stdout.write(`inside util.loadDump (its summary, whole seconds): data ${shellSays(/Data load duration: (\d+) sec/)}, ` +
    `indexes ${shellSays(/indexes were built in (\d+) sec/)}, total ${shellSays(/Total duration: (\d+) sec/)}\n`);
  const pw = (k) => fmt(results['restore load --preset=fastest'].map((t) => t.progress[k]), 2);
  process.stdout.write(`inside util.loadDump (its progress file, ms; first begun to last done): chunks ${pw('chunks')}, ` +
    `deferred index builds ${pw('indexes')}, chunks to the last index ${pw('data')}, DDL ${pw('ddl')}\n`);
  const tl = (k) => fmt(results[FLOOR].map((t) => t.timeline[k]), 2);
  process.stdout.write(`the floor's own (seconds from its start): last chunk in ${tl('dataEnd')}, last ALTER done ${tl('alterEnd')}, ` +
    `ALTERs' time summed over the streams ${tl('alters')}, redo log back on ${tl('end')}\n`);
  process.stdout.write(`(wall time of the whole mysqlsh process, ~0.5 s of it Shell start; the floor has no mysqlsh; ` +
    `MB = uncompressed data of the dump)\n`);
  cleanTemp();
}

if (require.main === module) main().catch((e) => { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); });
module.exports = { seed, countRows, SCHEMA, phasesOf };
