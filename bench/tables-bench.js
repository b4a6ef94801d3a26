#!/usr/bin/env node
'use strict';
// npm run bench:tables: many small tables (issue 44). A real dump (the real MySQL Shell's
// util.dumpSchemas) of BENCH_TABLES (10,000) tables of 20 rows with two secondary indexes each,
// loaded, each variant on a fresh server, by util.loadDump's defaults, a hand-tuned util.loadDump
// (the one of npm run bench:load), and `restore load` with each load preset (safe, fastest, dev).
// BENCH_RUNS (3) runs of each, interleaved (bench/measure.js); median (min–max), ratio to the
// defaults from medians, the peak memory of the mysqlsh process, and the lines each printed.
// Verdict: fastest at least 1.5x faster than the defaults, no preset slower than them; the
// hand-tuned load shown beside it (BENCH_HAND_RUNS: fewer runs of it). Every variant must create
// every table with its rows and indexes, or the run fails. The dump is made once and kept
// (BENCH_DUMP); BENCH_ONLY=safe,fastest limits the variants; BENCH_FASTEST_THREADS=8 adds fastest with 8 threads.
// Against the floor (bench/tables-floor.js), fastest's DDL and data phases are read to the
// millisecond from util.loadDump's progress file (progressWindows), not its whole-second summaries.
const fs = require('fs');
const path = require('path');
const os = require('os');
const { startServer } = require('../test/support/server');
const { mysqlsh, cleanTemp, shellEnv, tempDir } = require('../test/support/shell');
const { runMeasured, onFreshServers, stats, fmt, machineLine, progressWindows } = require('./measure');
const { MYSQLSH } = require('../test/support/real');
const { phasesOf } = require('./load-bench');
const { tablesPlan, floorTables } = require('./tables-floor');

const TABLES = Number(process.env.BENCH_TABLES || 10000);
const ROWS = 20;
const SCHEMA = 'tablesbench';
const name = (i) => `t${String(i).padStart(5, '0')}`;

async function seed(server) {
  await server.query(`DROP SCHEMA IF EXISTS ${SCHEMA}; CREATE SCHEMA ${SCHEMA}; USE ${SCHEMA};
    CREATE TABLE nums (n INT PRIMARY KEY);
    INSERT INTO nums WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS}) SELECT n FROM s;`);
  for (let i = 0; i < TABLES; i += 100) {
    const sql = [];
    for (let j = i; j < Math.min(TABLES, i + 100); j++) {
      sql.push(`CREATE TABLE ${SCHEMA}.${name(j)} (id INT PRIMARY KEY, code VARCHAR(32), qty INT, at DATETIME, ` +
        `KEY (code), KEY (qty, at))`);
      sql.push(`INSERT INTO ${SCHEMA}.${name(j)} SELECT n, CONCAT('c', n * ${j + 1}), n % 7, '2024-01-01' + INTERVAL n HOUR FROM ${SCHEMA}.nums`);
    }
    await server.query(sql.join(';\n'));
  }
  await server.query(`DROP TABLE ${SCHEMA}.nums`);
  await server.query('SET GLOBAL explain_json_format_version = 1').catch(() => {});
}

// What every variant must end with: the tables, their rows (summed), their index count.
async function contents(server) {
  const tables = Number(await server.value('SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?', [SCHEMA]));
  const indexes = Number(await server.value(`SELECT COUNT(DISTINCT TABLE_NAME, INDEX_NAME) FROM information_schema.STATISTICS
    WHERE TABLE_SCHEMA = ?`, [SCHEMA]));
  let rows = 0;
  for (let i = 0; i < TABLES; i += 500) {
    const parts = [];
    for (let j = i; j < Math.min(TABLES, i + 500); j++) parts.push(`SELECT COUNT(*) AS n FROM ${SCHEMA}.${name(j)}`);
    rows += Number(await server.value(`SELECT SUM(n) FROM (${parts.join(' UNION ALL ')}) x`));
  }
  return { tables, indexes, rows };
}

// The dump is made once per BENCH_TABLES and kept (BENCH_DUMP, default
// $TMPDIR/restore-tablesbench-N): seeding and dumping 10,000 tables takes minutes, the loads do not
// change it. A kept dump is used only when util.dumpSchemas finished it with every table.
function keptDump(dir) {
  try {
    const done = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8'));
    const meta = JSON.parse(fs.readFileSync(path.join(dir, `${SCHEMA}.json`), 'utf8'));
    return (meta.tables || []).length === TABLES ? done : null;
  } catch (e) {
    return null;
  }
}

// util.loadDump without a progressFile option writes one into the dump, named by the server's
// UUID (every run's is new): removed after each run, so that the kept dump stays as it was made.
function tidy(dump) {
  for (const f of fs.readdirSync(dump)) if (/^load-progress\..*\.json$/.test(f)) fs.rmSync(path.join(dump, f));
}

async function makeDump(dump) {
  fs.rmSync(dump, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(dump), { recursive: true });
  const server = await startServer();
  try {
    process.stdout.write(`Seeding ${SCHEMA}: ${TABLES} tables of ${ROWS} rows, 2 secondary indexes each…\n`);
    const t0 = Date.now();
    await seed(server);
    process.stdout.write(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const t1 = Date.now();
    const d = mysqlsh([server.uri, '--js', '-e', `util.dumpSchemas(['${SCHEMA}'], '${dump}', {showProgress: false})`],
      { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    if (d.status !== 0) throw new Error('util.dumpSchemas failed: ' + d.out);
    process.stdout.write(`  dumped by util.dumpSchemas in ${((Date.now() - t1) / 1000).toFixed(1)} s\n`);
  } finally {
    await server.stop();
  }
}

function floorSessions() {
  return String(process.env.BENCH_FLOOR === undefined ? '2,4,8' : process.env.BENCH_FLOOR).split(',').map(Number).filter((n) => n > 0);
}

async function main() {
  const began = Date.now();
  const dump = process.env.BENCH_DUMP || path.join(os.tmpdir(), `restore-tablesbench-${TABLES}`);
  let done = keptDump(dump);
  if (done) {
    tidy(dump);
    process.stdout.write(`Reusing the dump in ${dump} (remove it or set BENCH_DUMP to make a new one)\n`);
  }
  else {
    await makeDump(dump);
    done = keptDump(dump);
    if (!done) throw new Error(`${dump}: util.dumpSchemas did not write ${TABLES} tables`);
  }
  const expected = { tables: TABLES, indexes: TABLES * 3, rows: TABLES * ROWS };
  process.stdout.write(`Dump: ${(Number(done.dataBytes) / 1e6).toFixed(1)} MB of data, ${fs.readdirSync(dump).length} files\n\n`);

  let floorText = null;
  const floorPlan = () => (floorText = floorText || tablesPlan(dump));
  const threads = 4;
  const shell = (args) => runMeasured(MYSQLSH, args, { env: shellEnv({}) });
  // Every preset's load is given a progress file of its own (outside the dump, as the plugin's own
  // place is), kept to read util.loadDump's times from (progressWindows).
  const progressDir = tempDir('restore-tablesbench-progress-');
  let loads = 0;
  const preset = (p, extra = []) => (s) => {
    const file = path.join(progressDir, `load-progress-${++loads}.json`);
    const t = shell([s.uri, '--', 'restore', 'load', dump, `--preset=${p}`, ...extra, '--force', `--progress-file=${file}`]);
    if (t.status === 0) t.progress = progressWindows(file);
    return t;
  };
  const handTuned = `session.runSql("ALTER INSTANCE DISABLE INNODB REDO_LOG"); util.loadDump('${dump}', {threads: ${threads}, ` +
    `deferTableIndexes: "all", skipBinlog: true, showProgress: false}); session.runSql("ALTER INSTANCE ENABLE INNODB REDO_LOG")`;
  const DEFAULTS = 'util.loadDump defaults';
  const variants = [
    { name: DEFAULTS, run: (s) => shell([s.uri, '--js', '-e', `util.loadDump('${dump}', {showProgress: false})`]) },
    // Shown, not in the verdict, and the slowest (one ALTER TABLE per table): BENCH_HAND_RUNS=1 saves two of its runs.
    { name: 'hand-tuned util.loadDump', run: (s) => shell([s.uri, '--js', '-e', handTuned]), runs: Number(process.env.BENCH_HAND_RUNS) || undefined },
    { name: 'restore load --preset=safe', run: preset('safe') },
    { name: 'restore load --preset=fastest', run: preset('fastest') },
    { name: 'restore load --preset=dev', run: preset('dev') },
    // BENCH_FASTEST_THREADS=8: fastest with the threads given, beside the preset's own choice (its threads lever).
    // The floor (bench/tables-floor.js): the dump's DDL and rows sent by N plain sessions, redo and binary log off.
    // BENCH_FLOOR=2,4,8 (the sessions tried; 0: none); the best is the floor the verdict compares with.
    ...floorSessions().map((n) => ({ name: `floor, ${n} plain sessions`, floor: n, run: async (s) => {
      const f = await floorTables(s, floorPlan(), n);
      return { status: 0, seconds: f.seconds, ddl: f.ddl, data: f.data, peakMB: NaN, cpu: NaN, stdout: '', stderr: '' };
    } })),
    ...(process.env.BENCH_FASTEST_THREADS ? [{ name: `restore load --preset=fastest --threads=${process.env.BENCH_FASTEST_THREADS}`,
      run: preset('fastest', [`--threads=${process.env.BENCH_FASTEST_THREADS}`]) }] : []),
  ].filter((v) => !process.env.BENCH_ONLY || v.name === DEFAULTS || v.floor || process.env.BENCH_ONLY.split(',').some((x) => v.name.includes(x)));
  const runs = Number(process.env.BENCH_RUNS || 3);
  const results = await onFreshServers(variants, runs, { start: startServer, check: async (s, v, t) => {
    tidy(dump);
    const got = await contents(s);
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      throw new Error(`${v.name} loaded ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
    }
    const redo = await s.redoLog();
    if (redo !== 'ON') throw new Error(`${v.name}: the redo log is ${redo} afterwards`);
    t.lines = (t.stdout.match(/\n/g) || []).length;
  }, done: (i, v, t) => process.stdout.write(`  run ${i + 1}: ${v.name}: ${t.seconds.toFixed(1)} s, mysqlsh peak ${t.peakMB.toFixed(0)} MB, ` +
    `${t.lines} lines printed\n`) });
  const med = (n) => stats(results[n].map((x) => x.seconds)).median;
  const base = med(DEFAULTS);
  const fewer = variants.filter((v) => results[v.name].length !== runs).map((v) => `${v.name}: ${results[v.name].length}`);
  process.stdout.write(`\n${machineLine(MYSQLSH)}\n${TABLES} tables; ${runs} runs of each${fewer.length ? ` (${fewer.join(', ')})` : ''}, ` +
    'interleaved, each on a fresh server; median (min–max)\n\n');
  process.stdout.write(['variant'.padEnd(32), 'seconds'.padEnd(20), 'vs defaults'.padStart(12), 'mysqlsh peak MB'.padStart(18),
    'lines'.padStart(6)].join(' ') + '\n');
  for (const v of variants) {
    const list = results[v.name];
    process.stdout.write([v.name.padEnd(32), fmt(list.map((x) => x.seconds), 1).padEnd(20), `${(base / med(v.name)).toFixed(2)}x`.padStart(12),
      fmt(list.map((x) => x.peakMB), 0).padStart(18), String(list[0].lines).padStart(6)].join(' ') + '\n');
  }
  const presets = variants.filter((v) => /--preset=/.test(v.name));
  const slower = presets.filter((v) => med(v.name) > base);
  const fastest = results['restore load --preset=fastest'] ? base / med('restore load --preset=fastest') : NaN;
  const hand = results['hand-tuned util.loadDump'] ? base / med('hand-tuned util.loadDump') : NaN;
  const pass = fastest >= 1.5 && !slower.length;
  process.stdout.write(`\nverdict: ${pass ? 'PASS' : 'FAIL'}: fastest ${fastest.toFixed(3)}x the defaults (target >= 1.5x); ` +
    `${slower.length ? 'slower than the defaults: ' + slower.map((v) => v.name).join(', ') : 'no preset slower than the defaults'}` +
    `${Number.isFinite(hand) ? `; hand-tuned util.loadDump ${hand.toFixed(2)}x` : ''}\n`);
  const f = results['restore load --preset=fastest'];
  // util.loadDump's durations read "25 sec", "1 min 25 sec" or "1 h 2 min 3 sec".
  const secondsOf = (m) => (m ? Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3]) : NaN);
  const span = '(?:(\\d+) h(?:ours?)? )?(?:(\\d+) min )?(\\d+) sec';
  // Summed over the summaries: a load of many tables is several util.loadDump calls (lib/run/load-batches.js).
  const summed = (text, head) => Array.from(text.matchAll(new RegExp(head + span, 'g'))).reduce((n, m) => n + secondsOf(m), 0) || NaN;
  if (f) {
    const said = (head) => fmt(f.map((t) => summed(t.stdout + t.stderr, head)), 0);
    const calls = f.map((t) => ((t.stdout + t.stderr).match(/Total duration: /g) || []).length);
    const phases = f.map((t) => phasesOf(t.stdout));
    const inPhases = f.map((t, k) => Object.values(phases[k]).reduce((a, b) => a + b, 0));
    process.stdout.write(`fastest by phase (median s): ${Object.keys(phases[0]).map((n) => `${n} ${fmt(phases.map((p) => p[n] || 0), 2)}`)
      .join(', ')}; outside the phases (Shell start, plan, row counts, report) ${fmt(f.map((t, k) => t.seconds - inPhases[k]), 2)}\n`);
    process.stdout.write(`fastest inside util.loadDump (its summaries, whole seconds, summed over its ${fmt(calls, 0)} call(s)): DDL ${said('DDL files were executed in ')}, ` +
      `data ${said('Data load duration: ')}, total ${said('Total duration: ')}; mysqlsh CPU ` +
      `${fmt(f.map((t) => t.cpu), 1)} s\n`);
    const pw = (k) => fmt(f.map((t) => t.progress[k]), 2);
    process.stdout.write(`fastest inside util.loadDump (its progress file, ms): DDL ${pw('ddl')}, data ${pw('data')} s ` +
      `(first begun to last done, summed over its calls; DDL and data overlapping ${pw('overlap')} s)\n`);
  }
  const floors = variants.filter((v) => v.floor);
  if (floors.length) {
    floors.forEach((v) => process.stdout.write(`${v.name}: DDL ${fmt(results[v.name].map((t) => t.ddl), 2)} s, data ` +
      `${fmt(results[v.name].map((t) => t.data), 2)} s, all ${fmt(results[v.name].map((t) => t.seconds), 2)} s\n`));
    const best = (k) => Math.min(...floors.map((v) => stats(results[v.name].map((t) => t[k])).median));
    if (f) {
      const medOf = (k) => stats(f.map((t) => t.progress[k])).median;
      const ddl = medOf('ddl');
      const data = medOf('data');
      process.stdout.write(`floor verdict: fastest's DDL ${ddl.toFixed(2)} s = ${(ddl / best('ddl')).toFixed(2)}x the best floor's ` +
        `${best('ddl').toFixed(2)} s (target <= 1.1x); its data ${data.toFixed(2)} s = ${(data / best('data')).toFixed(2)}x the best floor's ` +
        `${best('data').toFixed(2)} s (target <= 1.1x; util.loadDump's times from its progress file)\n`);
    }
  }
  process.stdout.write('(wall time of the whole mysqlsh process, ~0.5 s of it Shell start; lines = what it printed; ' +
    `the whole bench took ${((Date.now() - began) / 60000).toFixed(1)} min)\n`);
  cleanTemp();
}

if (require.main === module) main().catch((e) => { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); });
module.exports = { seed, SCHEMA };
