#!/usr/bin/env node
'use strict';
// npm run bench:pitr (issue 43, item 4): replaying a source's binary logs onto a target that holds
// the data as it was when they start — the point-in-time part of a restore, after the dump's load.
// The workload: a source with GTIDs (MySQL 9.7: dependency tracking by WRITESET, always), a few
// sysbench-like tables made by SETUP_SQL, then BENCH_CLIENTS (8) mysql2 connections committing small
// transactions concurrently (updates by key, inserts, delete+insert by key, two-table transactions)
// until the binary log holds at least BENCH_TX (10,000). The starting point: the same SETUP_SQL on
// each target, unlogged, and gtid_purged set to the source's gtid_executed when the workload began
// (what a dump load with its gtidExecuted does). Each variant BENCH_RUNS (3) times, interleaved,
// each on a fresh server; every run must end with every table equal to the source's (CHECKSUM
// TABLE) and the source's GTIDs executed, or the bench fails:
// - the DBA's way: `mysqlbinlog FILES | mysql`, serial;
// - the server's own applier (the relay-log method): the files copied into the target's data
//   directory as its relay log, CHANGE REPLICATION SOURCE TO RELAY_LOG_FILE…, SOURCE_HOST='dummy',
//   START REPLICA SQL_THREAD, with replica_parallel_workers 4 and 1; timed from the copy until
//   WAIT_FOR_EXECUTED_GTID_SET returns;
// - the plugin: `restore load DUMP --binlogs=DIR` on a fresh target without the setup (the dump of
//   the setup, made by util.dumpSchemas right before the workload, is what it loads); timed: the
//   report's replay phase (its util.loadDump phase is not part of the comparison). --replayWith=sessions
//   (the default, "auto", takes the applier here): over 4 sessions
//   (transactions scheduled by the source's logical clock, commit order kept), over 8, over 1 session, over
//   4 with --preset=fastest (the restore-time levers the load uses apply during the replay), and with
//   --replayWith=applier (the target's own applier fed by the plugin over the replication protocol).
// BENCH_ONLY (a regular expression on the variants' names), BENCH_TARGET_OPTS (mysqld options of every
// target), BENCH_COMPARE (other checkouts of the plugin, each one more variant over 4 sessions).
// Reported: median (min–max) seconds, transactions per second, the peak memory of the process
// doing the work (mysqlbinlog's plus mysql's; for the applier, mysqld itself) and
// the growth of the target mysqld's peak memory during the replay (/proc: VmHWM reset before).
// BENCH_LARGE (issue 54, item 1; each function below lists its own knobs): =tx, many small transactions (BENCH_TX; the
// plan by --dry-run, and with BENCH_REPLAY=1 the replay on both roads against mysqlbinlog | mysql); =files, BENCH_FILES_GB
// (10) GiB of binary logs of which a replay needs little (the bytes mysqlsh read are reported); =bigtx, one transaction of
// BENCH_BIGTX_MB (1024) MB. BENCH_RUNS and BENCH_ONLY apply to tx and files; their generated files stay in BENCH_CACHE (a
// folder in the temp folder named after the knobs) and are removed at the end unless BENCH_KEEP=1, which keeps them
// for the next run with the same knobs to reuse.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const mysql = require('mysql2/promise');
const { stats, fmt, machineLine, settle, runMeasured } = require('./measure');
const { startServer } = require('../test/support/server');
const { tempDir, cleanTemp, installPlugin, runJs, shellEnv } = require('../test/support/shell');
const { MYSQLSH } = require('../test/support/real');
const { DUMP_ENV, withShellDumper } = require('../test/support/shell-dumper');
const { HAVE } = require('../test/support/real');

const TX = Number(process.env.BENCH_TX || 10000);
const CLIENTS = Number(process.env.BENCH_CLIENTS || 8);
const RUNS = Number(process.env.BENCH_RUNS || 3);
// BENCH_ONLY: a regular expression; only the variants whose name it matches run (the first is the baseline when it runs).
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
const SCHEMA = 'pitrbench';
const TABLES = ['sbtest1', 'sbtest2', 'sbtest3', 'sbtest4'];
const ROWS = 5000; // initial rows per table
const GTIDS = '--gtid-mode=ON --enforce-gtid-consistency=ON';
// server_id differs from the source's (1): the applier skips events of its own server_id.
// BENCH_TARGET_OPTS adds options to every target (e.g. '--sync-binlog=0 --innodb-flush-log-at-trx-commit=2':
// the replay without a flush per commit).
const TARGET_OPTS = `${GTIDS} --server-id=2 --relay-log=relay --skip-replica-start ${process.env.BENCH_TARGET_OPTS || ''}`.trim();

const SETUP_SQL = `SET SESSION cte_max_recursion_depth = ${ROWS}; CREATE SCHEMA ${SCHEMA}; USE ${SCHEMA};
  ${TABLES.map((t) => `CREATE TABLE ${t} (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, c CHAR(120) NOT NULL,
    pad CHAR(60) NOT NULL, KEY k (k));
  INSERT INTO ${t} (id, k, c, pad) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
    SELECT n, n * 7 % ${ROWS}, REPEAT(LEFT(SHA2(n, 256), 60), 2), LEFT(SHA2(n + 1, 256), 60) FROM s;`).join('\n')}`;

// A deterministic generator per client (mulberry32).
function rng(seedValue) {
  let a = seedValue >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One transaction, as one multi-statement query (no round trip per statement).
function transaction(r) {
  const tbl = () => TABLES[Math.floor(r() * TABLES.length)];
  const id = () => 1 + Math.floor(r() * ROWS);
  const text = (n) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(r() * 26))).join('');
  const x = r();
  let body;
  if (x < 0.4) { // updates by key (one on the secondary index, one not)
    const t = tbl();
    body = `UPDATE ${t} SET k = k + 1 WHERE id = ${id()}; UPDATE ${t} SET c = '${text(120)}' WHERE id = ${id()};`;
  } else if (x < 0.65) {
    body = `INSERT INTO ${tbl()} (k, c, pad) VALUES (${id()}, '${text(120)}', '${text(60)}');`;
  } else if (x < 0.8) { // sysbench's delete + insert of the same key
    const t = tbl();
    const i = id();
    body = `DELETE FROM ${t} WHERE id = ${i}; INSERT INTO ${t} (id, k, c, pad) VALUES (${i}, ${id()}, '${text(120)}', '${text(60)}');`;
  } else { // two tables
    const a = tbl();
    const b = TABLES[(TABLES.indexOf(a) + 1) % TABLES.length];
    body = `UPDATE ${a} SET k = k - 1 WHERE id = ${id()}; INSERT INTO ${b} (k, c, pad) VALUES (${id()}, '${text(120)}', '${text(60)}');`;
  }
  return `START TRANSACTION; ${body} COMMIT;`;
}

async function workload(source, perClient) {
  const conns = await Promise.all(Array.from({ length: CLIENTS }, () => mysql.createConnection({ host: '127.0.0.1',
    port: source.port, user: 'root', password: '', database: SCHEMA, multipleStatements: true })));
  let retries = 0;
  await Promise.all(conns.map(async (c, n) => {
    const r = rng(1000 + n);
    for (let i = 0; i < perClient; i++) {
      const sql = transaction(r);
      for (;;) {
        try { await c.query(sql); break; } catch (e) {
          if (e.errno !== 1213 && e.errno !== 1205) throw e; // a deadlock or lock wait: again, as an application would
          retries++;
          await c.query('ROLLBACK');
        }
      }
    }
  }));
  await Promise.all(conns.map((c) => c.end()));
  return retries;
}

// Transactions in a GTID set ("uuid:1-5:7,uuid2:3").
function gtidCount(set) {
  let n = 0;
  for (const part of String(set).replace(/\s/g, '').split(',').filter(Boolean)) {
    for (const iv of part.split(':').slice(1)) {
      if (!/^\d+(-\d+)?$/.test(iv)) continue; // a tag
      const [a, b] = iv.split('-').map(Number);
      n += (b || a) - a + 1;
    }
  }
  return n;
}

async function checksums(server) {
  const out = {};
  for (const r of await server.query(`CHECKSUM TABLE ${TABLES.map((t) => `${SCHEMA}.${t}`).join(', ')}`)) out[r.Table] = String(r.Checksum);
  return out;
}

function binDir(server) { return path.dirname(server.client.trim().split(/\s+/)[0]); }

function mysqldPid(server) {
  const f = fs.readdirSync(server.datadir).find((x) => x.endsWith('.pid'));
  return Number(fs.readFileSync(path.join(server.datadir, f), 'utf8'));
}

// The target mysqld's peak RSS from now on: VmHWM reset (clear_refs 5), read after.
function serverPeak(server) {
  const pid = mysqldPid(server);
  const status = () => fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number((new RegExp(`${name}:\\s*(\\d+)`).exec(status()) || [])[1]);
  // utime + stime (fields 14 and 15 of /proc/PID/stat, in clock ticks: 100 per second on Linux).
  const cpu = () => fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ').slice(11, 13).reduce((a, b) => a + Number(b), 0) / 100;
  try { fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); } catch (e) { /* then VmHWM counts since the start */ }
  const before = kb('VmRSS');
  const cpu0 = cpu();
  return () => ({ peakMB: kb('VmHWM') / 1024, growthMB: (kb('VmHWM') - before) / 1024, cpuSeconds: cpu() - cpu0 });
}

// `A | B` timed, with the peak memory of each side (wait4 of each process): the DBA's pipe has two
// workers, so measure.js's one number (the larger) would hide the other.
const PIPE = [
  'import json, os, subprocess, sys, time',
  'a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])',
  't = time.perf_counter()',
  'pa = subprocess.Popen(a, stdout=subprocess.PIPE)',
  'pb = subprocess.Popen(b, stdin=pa.stdout, stderr=subprocess.PIPE)',
  'pa.stdout.close()',
  'err = pb.stderr.read()',
  '_, sa, ra = os.wait4(pa.pid, 0)',
  '_, sb, rb = os.wait4(pb.pid, 0)',
  'print(json.dumps({"seconds": time.perf_counter() - t, "a": ra.ru_maxrss, "b": rb.ru_maxrss,',
  '  "cpu": ra.ru_utime + ra.ru_stime + rb.ru_utime + rb.ru_stime,',
  '  "status": os.waitstatus_to_exitcode(sa) or os.waitstatus_to_exitcode(sb), "stderr": err.decode("utf8", "replace")}))',
].join('\n');

function measuredPipe(a, b) {
  const r = spawnSync('python3', ['-c', PIPE, JSON.stringify(a), JSON.stringify(b)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`measuring ${a[0]} | ${b[0]} failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout);
  return { seconds: m.seconds, peakMB: (m.a + m.b) / 1024, sides: `mysqlbinlog ${(m.a / 1024).toFixed(0)} MB + mysql ${(m.b / 1024).toFixed(0)} MB`,
    cpu: m.cpu, status: m.status, stderr: m.stderr };
}

// A fresh target holding the data as it was when the workload began (bare: only the GTIDs; the
// plugin's variant loads the dump of the setup itself).
async function freshTarget(startGtid, bare) {
  const target = await startServer({ opts: TARGET_OPTS });
  if (!bare) await target.query(`SET SESSION sql_log_bin = 0; ${SETUP_SQL} SET SESSION sql_log_bin = 1; USE mysql`);
  await target.query('SET GLOBAL gtid_purged = ?', [startGtid]);
  return target;
}

// The plugin (issue 43): `restore load DUMP --binlogs=DIR --threads=N [--preset=P]` under runMeasured
// (bench/measure.js) on a bare target; seconds: the report's replay phase; peakMB: mysqlsh's peak
// (the load's included).
const home = installPlugin(tempDir('restore-pitrbench-cfg-'));
// BENCH_COMPARE: other checkouts of the plugin (folders, comma-separated), each installed into a config
// home of its own and run as one more variant over 4 sessions, interleaved with the rest (a change measured
// against the code before it in the same runs).
const compared = (process.env.BENCH_COMPARE || '').split(',').filter(Boolean).map((dir) => {
  const cfg = tempDir('restore-pitrbench-cmp-');
  const r = spawnSync('sh', [path.join(dir, 'install.sh')], { env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: cfg }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${dir}/install.sh failed: ${r.stderr}`);
  return { dir, home: cfg };
});
let setupDump = null; // made in main, before the workload
const SESSIONS = ['--replayWith=sessions'];
const pluginReplay = (threads, preset, cfgHome = home, extra = []) => async (target, binlogDir) => {
  const peak = serverPeak(target);
  const r = runMeasured(MYSQLSH, [target.uri, '--', 'restore', 'load', setupDump, `--binlogs=${binlogDir}`, `--threads=${threads}`,
    ...(preset ? [`--preset=${preset}`] : []), ...extra, '--output-format=json'], { env: shellEnv({ configHome: cfgHome }) });
  if (r.status !== 0) return { ...r, serverMB: peak().growthMB, stderr: r.stderr + r.stdout.slice(-2000) };
  const report = JSON.parse(r.stdout);
  const phase = report.phases.find((p) => p.phase === 'replay');
  const rp = report.replay;
  const p = peak();
  return { seconds: phase.seconds, peakMB: r.peakMB, serverMB: p.growthMB, status: 0, stderr: '', engine: rp.engine,
    sides: `mysqlsh; not counted: the preflight's ${report.phases.find((p) => p.phase === 'preflight').seconds.toFixed(1)} s (the files ` +
      `read and checked), the load's ${report.phases.find((p) => p.phase === 'util.loadDump').seconds.toFixed(1)} s; ` +
      (rp.engine === 'applier' ? `${rp.applied} transactions applied by the target's applier (${rp.workers} workers), fed by the plugin; `
        : `${rp.applied} transactions applied over ${rp.workers} session(s), ${(rp.statements / rp.applied).toFixed(2)} statements per ` +
        `transaction, ${rp.retries} retried; ${(rp.commitSeconds || 0).toFixed(1)} s of the replay inside its COMMITs, summed over the sessions ` +
        `(${((rp.commitSeconds || 0) * 1000 / rp.applied).toFixed(2)} ms each); `) +
      `CPU during the replay: mysqlsh ${(rp.cpuSeconds || 0).toFixed(1)} s; target mysqld ` +
      `${p.cpuSeconds.toFixed(1)} s over the whole load` };
};

// ---- The large runs (issue 54, item 1): BENCH_LARGE=tx and BENCH_LARGE=files ----
// Their generated files (binary logs, dumps, the source's states) are kept in BENCH_CACHE (default: a folder in the
// temp folder named after the knobs) while the run lasts; BENCH_KEEP=1 keeps them after it, and a later run with the
// same knobs reuses them instead of writing them again (remove the folder to make them anew).
const say = (t) => process.stdout.write(`${t}\n`);
const KEEP = process.env.BENCH_KEEP === '1';

async function cached(name, gb, make) {
  const dir = process.env.BENCH_CACHE || path.join(os.tmpdir(), `restore-pitrbench-${name}`);
  const done = path.join(dir, 'done.json');
  if (fs.existsSync(done)) {
    say(`Reusing the generated files in ${dir} (made by an earlier run with BENCH_KEEP=1; remove the folder to make them anew)`);
    return { dir, ...JSON.parse(fs.readFileSync(done, 'utf8')) };
  }
  // Free disk: the files, the source's data directory while it writes them and the targets' (3x the size).
  const st = fs.statfsSync(os.tmpdir());
  const free = (st.bavail * st.bsize) / 2 ** 30;
  if (free < 3 * gb) throw new Error(`${os.tmpdir()}: ${free.toFixed(1)} GiB free, the run needs ${(3 * gb).toFixed(1)} (3x the ${gb} GiB it writes)`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(path.join(dir, 'binlogs'), { recursive: true });
  const t0 = Date.now();
  const meta = await make(dir);
  meta.genSeconds = (Date.now() - t0) / 1000;
  fs.writeFileSync(done, JSON.stringify(meta));
  return { dir, ...meta };
}

function dropCached(data) {
  if (KEEP) say(`Generated files kept in ${data.dir} (BENCH_KEEP=1): the next run with the same knobs reuses them`);
  else fs.rmSync(data.dir, { recursive: true, force: true });
}

// The closed binary logs of a source from `first` on, moved (same file system: no copy) into folder → [names].
function dirBytes(dir) { return fs.readdirSync(dir).reduce((s, f) => s + fs.statSync(path.join(dir, f)).size, 0); }

async function takeBinlogs(source, first, folder) {
  await source.query('FLUSH BINARY LOGS');
  const logs = (await source.query('SHOW BINARY LOGS')).map((r) => r.Log_name);
  const files = logs.slice(first ? logs.indexOf(first) : 0, -1);
  for (const f of files) fs.renameSync(path.join(source.datadir, f), path.join(folder, f));
  return files;
}

// The source's state a replay must reach: CHECKSUM TABLE of each table and its gtid_executed.
async function sourceState(source, tables) {
  const sums = {};
  for (const r of await source.query(`CHECKSUM TABLE ${tables.join(', ')}`)) sums[r.Table] = String(r.Checksum);
  return { sums, gtids: String(await source.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, ''),
    uuid: String(await source.value('SELECT @@server_uuid')).toLowerCase() };
}

// '' when the target holds the state: the same checksums, every GTID of the source's after the dump's (from) and none of
// the source's past the state's.
async function differs(t, want, from) {
  const got = {};
  for (const r of await t.query(`CHECKSUM TABLE ${Object.keys(want.sums).join(', ')}`)) got[r.Table] = String(r.Checksum);
  const out = Object.keys(want.sums).filter((k) => got[k] !== want.sums[k]).map((k) => `${k}: checksum ${got[k]}, the source's ${want.sums[k]}`);
  // The dump's own GTIDs are the target's only when the load was told (updateGtidSet): those after it must be there.
  if (!Number(await t.value('SELECT GTID_SUBSET(GTID_SUBTRACT(?, ?), @@GLOBAL.gtid_executed) AS s', [want.gtids, from]))) {
    out.push('the source\'s GTIDs after the dump are not all executed');
  }
  const extra = String(await t.value('SELECT GTID_SUBTRACT(@@GLOBAL.gtid_executed, ?) AS s', [want.gtids])).replace(/\s/g, '').split(',')
    .filter((x) => x && x.split(':')[0].toLowerCase() === want.uuid);
  if (extra.length) out.push(`GTIDs of the source's past the stop executed: ${extra.join(',')}`);
  return out.join('; ');
}

// `restore load DUMP ARGS --output-format=json` under runMeasured on a bare target.
function restoreLoad(target, dump, args, cfgHome = home) {
  const r = runMeasured(MYSQLSH, [target.uri, '--', 'restore', 'load', dump, '--threads=4', ...args, '--output-format=json'],
    { env: shellEnv({ configHome: cfgHome }) });
  let report = null;
  try { report = JSON.parse(r.stdout); } catch (e) { /* a failure, told as text */ }
  const phase = (n) => (((report && report.phases) || []).find((p) => p.phase === n) || {}).seconds;
  const rp = (report && report.replay) || {};
  const line = (/Binary logs: [^"\n]*|replay: \d+ transaction[^"\n]*/.exec(r.stdout) || [''])[0].slice(0, 160);
  return { ...r, replay: phase('replay'), stderr: r.status ? `${r.stderr.slice(-1500)}${r.stdout.slice(-1500)}` : '',
    note: [phase('preflight') !== undefined ? `preflight ${phase('preflight').toFixed(1)} s` : '',
      phase('util.loadDump') !== undefined ? `util.loadDump ${phase('util.loadDump').toFixed(1)} s` : '',
      rp.engine ? `road ${rp.engine}, ${rp.applied} applied` : '', line].filter(Boolean).join(', ') };
}

// The reference: util.loadDump, then `mysqlbinlog --exclude-gtids=<the dump's> [extra] FILES
// | mysql --binary-mode`. seconds: both; replay: the pipe's; peak and CPU: mysqlbinlog's plus mysql's.
function reference(target, dump, dumpGtid, paths, extra = []) {
  const t0 = Date.now();
  const load = runJs(target.uri, `util.loadDump(${JSON.stringify(dump)}, {showProgress: false}); null`, { configHome: home });
  if (load.error) return { status: 1, stderr: `util.loadDump: ${load.out}` };
  const loaded = (Date.now() - t0) / 1000;
  const r = measuredPipe([path.join(binDir(target), 'mysqlbinlog'), `--exclude-gtids=${dumpGtid}`, ...extra, ...paths],
    [...target.client.trim().split(/\s+/), '--binary-mode']);
  return { status: r.status, stderr: r.stderr, seconds: (Date.now() - t0) / 1000, replay: r.seconds, cpu: r.cpu, peakMB: r.peakMB, readMB: null,
    note: `util.loadDump ${loaded.toFixed(1)} s, peak ${r.sides}` };
}

// Each variant BENCH_RUNS times, interleaved, each on a fresh target (TARGET_OPTS). A run that fails is printed and
// left out of the medians; the others go on (a crash is a result too). v.run(target) → {status, seconds, replay, cpu,
// peakMB, readMB, note, stderr}; v.expect: the source's state the target must hold after it (lib: differs).
async function largeRuns(variants) {
  const chosen = variants.filter((v) => v.always || !ONLY || ONLY.test(v.name));
  const results = {};
  chosen.forEach((v) => { results[v.name] = { ok: [], failed: [] }; });
  for (let i = 0; i < RUNS; i++) {
    for (const v of chosen) {
      const target = await startServer({ opts: TARGET_OPTS });
      let r;
      try {
        settle();
        r = await v.run(target);
        if (r.status === 0 && v.expect) {
          const wrong = await differs(target, v.expect, v.from || '');
          if (wrong) Object.assign(r, { status: 1, stderr: `NOT the source's state: ${wrong}` });
        }
      } finally {
        await target.stop();
      }
      results[v.name][r.status === 0 ? 'ok' : 'failed'].push(r);
      say(`  run ${i + 1}: ${v.name}: ${r.status === 0 ? '' : `FAILED (rc ${r.status}) `}${(r.seconds || 0).toFixed(1)} s` +
        `${r.replay !== undefined ? ` (replay ${r.replay.toFixed(1)} s)` : ''}, CPU ${(r.cpu || 0).toFixed(1)} s, peak ${(r.peakMB || 0).toFixed(0)} MB` +
        `${r.readMB != null ? `, read ${r.readMB.toFixed(0)} MB` : ''}${r.note ? `; ${r.note}` : ''}` +
        `${v.expect && r.status === 0 ? '; the source\'s state (CHECKSUM TABLE, gtid_executed)' : ''}${r.status ? `\n${r.stderr}` : ''}`);
    }
  }
  return results;
}

// The table: median (min–max) of each column; +MB and read MB over the idle mysqlsh's medians.
function largeTable(results, idleName) {
  const med = (list, f) => (list.length ? stats(list.map(f)).median : NaN);
  const idle = results[idleName] ? results[idleName].ok : [];
  const idlePeak = med(idle, (r) => r.peakMB);
  const idleRead = med(idle, (r) => r.readMB || 0);
  const over = (v, base) => (Math.abs(v - base) < 0.5 ? 0 : v - base); // not "-0"
  const col = (list, f, d) => (list.length && list.every((r) => f(r) != null && !Number.isNaN(f(r))) ? fmt(list.map(f), d) : '—');
  say(`\n${['variant'.padEnd(46), 'seconds'.padEnd(20), 'replay s'.padEnd(20), 'CPU s'.padEnd(20), 'peak MB'.padEnd(16),
    '+MB over idle'.padEnd(16), 'read MB over idle'.padEnd(22), 'failed'].join(' ')}`);
  for (const [name, { ok, failed }] of Object.entries(results)) {
    const plugin = ok.length && ok[0].readMB != null;
    say([name.padEnd(46), col(ok, (r) => r.seconds, 1).padEnd(20), col(ok, (r) => r.replay, 1).padEnd(20), col(ok, (r) => r.cpu, 1).padEnd(20),
      col(ok, (r) => r.peakMB, 0).padEnd(16), (plugin ? col(ok, (r) => over(r.peakMB, idlePeak), 0) : '—').padEnd(16),
      (plugin ? col(ok, (r) => over(r.readMB, idleRead), 0) : '—').padEnd(22), `${failed.length} of ${ok.length + failed.length}`].join(' '));
  }
  say('(seconds: the whole command; replay: the plugin\'s replay phase, or the reference\'s mysqlbinlog | mysql; CPU and peak: mysqlsh ' +
    '(its Python companion inside it), or mysqlbinlog\'s plus mysql\'s for the reference; read: the bytes mysqlsh read (rchar of ' +
    '/proc/PID/io, the page cache\'s included) over an idle mysqlsh\'s)');
}

// BENCH_LARGE=tx (issue 54, item 1): many small transactions. A source writes BENCH_BEFORE (0) transactions, is dumped
// (util.dumpSchemas), then writes BENCH_TX more (one-row INSERTs by a procedure, unlogged itself; sync_binlog 0); the files
// from the dump's on are the folder. Variants, each on a fresh target: an idle mysqlsh (`restore status`), `restore load
// --dry-run --binlogs=DIR` to the end of the files and with --stopAfter the BENCH_STOP-th (1,000) transaction after the
// dump; with BENCH_REPLAY=1 the replay itself: the reference (util.loadDump, then mysqlbinlog --exclude-gtids=<the dump's>
// | mysql) and `restore load --binlogs=DIR` with --replayWith=sessions and =applier, each ending with the source's state
// (CHECKSUM TABLE of its tables, gtid_executed) or counted failed. BENCH_COMPARE: other checkouts, their plugin runs as
// more variants.
async function largeTx() {
  const before = Number(process.env.BENCH_BEFORE || 0);
  const stopAt = Number(process.env.BENCH_STOP || 1000);
  const data = await cached(`tx-${before}-${TX}`, (before + TX) / 2e6 + 1, async (dir) => {
    const binlogDir = path.join(dir, 'binlogs');
    const source = await startServer({ opts: `${GTIDS} --sync-binlog=0 --innodb-flush-log-at-trx-commit=2` });
    try {
      const uuid = await source.value('SELECT @@server_uuid');
      await source.query(SETUP_SQL);
      await source.query(`SET SESSION sql_log_bin = 0; CREATE PROCEDURE ${SCHEMA}.gen(n INT) BEGIN DECLARE i INT DEFAULT 0;
        WHILE i < n DO INSERT INTO ${SCHEMA}.sbtest1 (k, c, pad) VALUES (i, REPEAT('c', 120), REPEAT('p', 60)); SET i = i + 1; END WHILE; END;
        SET SESSION sql_log_bin = 1`);
      if (before) await source.query(`CALL ${SCHEMA}.gen(${before})`);
      const dump = path.join(dir, 'dump');
      const dumped = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(dump)}, ` +
        '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
      if (dumped.error) throw new Error(`util.dumpSchemas failed: ${dumped.out}`);
      const at = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8'));
      if (TX) await source.query(`CALL ${SCHEMA}.gen(${TX})`);
      const files = await takeBinlogs(source, at.binlogFile, binlogDir);
      const expected = await sourceState(source, TABLES.map((t) => `${SCHEMA}.${t}`));
      return { dump, dumpGtid: at.gtidExecuted, files, expected, stopGtid: `${uuid}:${gtidCount(at.gtidExecuted) + stopAt}`,
        bytes: files.reduce((s, f) => s + fs.statSync(path.join(binlogDir, f)).size, 0) };
    } finally {
      await source.stop();
    }
  });
  const binlogDir = path.join(data.dir, 'binlogs');
  const paths = data.files.map((f) => path.join(binlogDir, f));
  say(`Large run (BENCH_LARGE=tx): ${before} transaction(s) before the dump, ${TX} after${data.genSeconds ? `, written in ${data.genSeconds.toFixed(0)} s` : ''}; ` +
    `${data.files.length} file(s) from the dump's (${data.files[0]}), ${(data.bytes / 2 ** 20).toFixed(0)} MB; the dump's files ` +
    `${(dirBytes(data.dump) / 2 ** 20).toFixed(0)} MB; targets: mysqld ${TARGET_OPTS}`);
  const homes = [{ name: '', home }, ...compared.map((c) => ({ name: `@${path.basename(c.dir)} `, home: c.home }))];
  const idleName = 'idle mysqlsh (restore status)';
  const measured = (args, cfgHome) => (t) => {
    const r = runMeasured(MYSQLSH, [t.uri, '--', ...args], { env: shellEnv({ configHome: cfgHome }) });
    return { ...r, stderr: r.status ? `${r.stderr.slice(-800)}${r.stdout.slice(-800)}` : '',
      note: ((/replay: .*/.exec(r.stdout) || [''])[0]).slice(0, 140) };
  };
  const variants = [{ name: idleName, always: true, run: measured(['restore', 'status'], home) }];
  for (const h of homes) {
    variants.push({ name: `${h.name}dry run, to the end`, run: measured(['restore', 'load', data.dump, `--binlogs=${binlogDir}`, '--dry-run'], h.home) },
      { name: `${h.name}dry run, stopAfter the ${stopAt}th`, run: measured(['restore', 'load', data.dump, `--binlogs=${binlogDir}`, '--dry-run',
        `--stopAfter=${data.stopGtid}`], h.home) });
  }
  // BENCH_REPLAY: 1 (the reference and both roads) or a comma-separated list of reference, sessions, applier.
  const wanted = process.env.BENCH_REPLAY === '1' ? ['reference', 'sessions', 'applier'] : (process.env.BENCH_REPLAY || '').split(',').filter(Boolean);
  if (wanted.includes('reference')) {
    variants.push({ name: 'reference: loadDump + mysqlbinlog | mysql', expect: data.expected, from: data.dumpGtid, run: (t) => reference(t, data.dump, data.dumpGtid, paths) });
  }
  for (const h of homes) {
    for (const road of ['sessions', 'applier'].filter((r) => wanted.includes(r))) {
      variants.push({ name: `${h.name}replay, replayWith ${road}`, expect: data.expected, from: data.dumpGtid,
        run: (t) => restoreLoad(t, data.dump, [`--binlogs=${binlogDir}`, `--replayWith=${road}`], h.home) });
    }
  }
  const results = await largeRuns(variants);
  largeTable(results, idleName);
  say(`${machineLine(MYSQLSH)}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  dropCached(data);
  cleanTemp();
  if (Object.values(results).some((r) => r.failed.length)) process.exitCode = 1;
}

// BENCH_LARGE=files (issue 54, item 1): BENCH_FILES_GB (10) GiB of binary logs in files of BENCH_FILE_MB (1024) MB, and a
// replay that needs only a little of them. Written by BENCH_CLIENTS (4) sessions, each transaction one UPDATE of a
// BENCH_ROW_KB (32) KB blob (about twice that in the binary log: the row's before and after images; one table of 1,024
// rows; sync_binlog 0, the source's redo log off). Two dumps (util.dumpSchemas): an early one after about BENCH_EARLY_MB
// (512) MB, followed by BENCH_STOP (2,000) transactions of one session (the stop), and a late one at the end, followed
// by BENCH_TAIL (2,000) transactions ("the last hour"). The folder holds every file. Variants, each on a fresh target:
// - the late dump, replayed to the end of the files: nearly all of the folder lies before the dump;
// - the early dump, replayed with --stopAfter the BENCH_STOP-th transaction after it: nearly all lies past the stop;
// - `--dry-run` to the end of the files from each dump: the plan alone, of the short range and of almost everything (its
//   cost: one read of the bytes);
// each replay on both roads and by the reference (util.loadDump, mysqlbinlog --exclude-gtids=<the dump's> [--stop-position]
// over the files from the dump's to the stop's | mysql), every one ending with the source's state at its stop. Reported
// beside the time and memory: the bytes mysqlsh read (rchar) against those from the dump's position to the stop.
async function largeFiles() {
  const gb = Number(process.env.BENCH_FILES_GB || 10);
  const fileMB = Number(process.env.BENCH_FILE_MB || 1024);
  const kb = Number(process.env.BENCH_ROW_KB || 32);
  const earlyMB = Number(process.env.BENCH_EARLY_MB || 512);
  const stopN = Number(process.env.BENCH_STOP || 2000);
  const tail = Number(process.env.BENCH_TAIL || 2000);
  const clients = Number(process.env.BENCH_CLIENTS || 4);
  const ROWS_N = 1024;
  const data = await cached(`files-${gb}g-${fileMB}m-${kb}k-${earlyMB}-${stopN}-${tail}`, gb, async (dir) => {
    const binlogDir = path.join(dir, 'binlogs');
    // binlog_cache_size: a transaction over it goes through a temporary file first.
    const source = await startServer({ opts: `${GTIDS} --sync-binlog=0 --innodb-flush-log-at-trx-commit=2 --innodb-doublewrite=OFF ` +
      `--max-binlog-size=${fileMB * 2 ** 20} --binlog-cache-size=${4 * kb * 1024}` });
    try {
      const uuid = String(await source.value('SELECT @@server_uuid'));
      await source.query('ALTER INSTANCE DISABLE INNODB REDO_LOG');
      await source.query(`CREATE SCHEMA big; CREATE TABLE big.t (id INT PRIMARY KEY, k INT NOT NULL, b MEDIUMBLOB NOT NULL)`);
      await source.query(`SET SESSION cte_max_recursion_depth = ${ROWS_N}; INSERT INTO big.t WITH RECURSIVE s(n) AS (SELECT 0 UNION ALL ` +
        `SELECT n + 1 FROM s WHERE n < ${ROWS_N - 1}) SELECT n, 0, REPEAT(SHA2(n, 256), ${kb * 16}) FROM s`);
      // Session c of cs updates the rows c, c + cs, …: no two sessions wait on one row.
      await source.query(`SET SESSION sql_log_bin = 0; CREATE PROCEDURE big.gen(n INT, c INT, cs INT) BEGIN DECLARE i INT DEFAULT 0;
        WHILE i < n DO UPDATE big.t SET k = k + 1, b = REPEAT(RANDOM_BYTES(1024), ${kb}) WHERE id = c + cs * (i MOD ${Math.floor(ROWS_N / clients)});
        SET i = i + 1; END WHILE; END; SET SESSION sql_log_bin = 1`);
      const conns = await Promise.all(Array.from({ length: clients }, () => mysql.createConnection({ host: '127.0.0.1', port: source.port, user: 'root', password: '' })));
      const written = async () => (await source.query('SHOW BINARY LOGS')).reduce((s, r) => s + Number(r.File_size), 0);
      const perRound = Math.max(1, Math.round(256 * 1024 / (2 * kb) / clients)); // about 256 MB a round
      const until = async (bytes) => {
        while (await written() < bytes) await Promise.all(conns.map((c, n) => c.query(`CALL big.gen(${perRound}, ${n}, ${clients})`)));
      };
      const dumpAt = async (name) => {
        const dump = path.join(dir, name);
        const dumped = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['big'], ${JSON.stringify(dump)}, ` +
          '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
        if (dumped.error) throw new Error(`util.dumpSchemas failed: ${dumped.out}`);
        const at = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8'));
        return { dump, gtid: at.gtidExecuted, file: at.binlogFile, pos: Number(at.binlogPosition) };
      };
      const t0 = Date.now();
      await until(earlyMB * 2 ** 20);
      const early = await dumpAt('dump-early');
      await source.query(`CALL big.gen(${stopN}, 0, ${clients})`);
      const stopAt = (await source.query('SHOW BINARY LOG STATUS'))[0];
      const stop = { gtid: `${uuid}:${gtidCount(early.gtid) + stopN}`, file: stopAt.File, pos: Number(stopAt.Position),
        state: await sourceState(source, ['big.t']) };
      await until(gb * 2 ** 30);
      const late = await dumpAt('dump-late');
      await source.query(`CALL big.gen(${tail}, 1 % ${clients}, ${clients})`);
      const endAt = (await source.query('SHOW BINARY LOG STATUS'))[0];
      say(`Written in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
      await Promise.all(conns.map((c) => c.end()));
      const final = await sourceState(source, ['big.t']);
      const files = await takeBinlogs(source, null, binlogDir);
      const sizes = Object.fromEntries(files.map((f) => [f, fs.statSync(path.join(binlogDir, f)).size]));
      return { files, sizes, early, late, stop, final, end: { file: endAt.File, pos: Number(endAt.Position) },
        transactions: gtidCount(final.gtids) };
    } finally {
      await source.stop();
    }
  });
  const binlogDir = path.join(data.dir, 'binlogs');
  const { files, sizes } = data;
  const folderBytes = files.reduce((s, f) => s + sizes[f], 0);
  // Bytes from file:pos to file:pos (the end of the files when to is null).
  const span = (from, to) => files.reduce((s, f) => {
    const i = files.indexOf(f);
    if (i < files.indexOf(from.file) || (to && i > files.indexOf(to.file))) return s;
    return s + (to && f === to.file ? to.pos : sizes[f]) - (f === from.file ? from.pos : 0);
  }, 0);
  const between = (from, to) => files.slice(files.indexOf(from), to ? files.indexOf(to) + 1 : files.length).map((f) => path.join(binlogDir, f));
  const mb = (b) => `${(b / 2 ** 20).toFixed(0)} MB`;
  say(`Large run (BENCH_LARGE=files): ${files.length} files (${files[0]} … ${files[files.length - 1]}), ${(folderBytes / 2 ** 30).toFixed(2)} GiB, ` +
    `${data.transactions} transactions of one ${kb} KB blob${data.genSeconds ? `, written and dumped in ${data.genSeconds.toFixed(0)} s` : ''}\n` +
    `  the early dump at ${data.early.file}:${data.early.pos}; its stop ${data.stop.gtid} (${stopN} after it) at ${data.stop.file}:${data.stop.pos}: ` +
    `${mb(span(data.early, data.stop))} to replay, ${mb(span(data.stop, null))} past the stop; to the end ${mb(span(data.early, null))}\n` +
    `  the late dump at ${data.late.file}:${data.late.pos}: ${mb(span(data.late, null))} (${tail} transactions) to replay, ` +
    `${mb(folderBytes - span(data.late, null))} before it\n  each dump's files (read by util.loadDump inside mysqlsh, in its read MB): ` +
    `${mb(dirBytes(data.early.dump))}, ${mb(dirBytes(data.late.dump))}\n  targets: mysqld ${TARGET_OPTS}`);
  const idleName = 'idle mysqlsh (restore status)';
  const load = (dump, args) => (t) => restoreLoad(t, dump, [`--binlogs=${binlogDir}`, ...args]);
  const variants = [
    { name: idleName, always: true, run: (t) => ({ ...runMeasured(MYSQLSH, [t.uri, '--', 'restore', 'status'], { env: shellEnv({ configHome: home }) }), stderr: '' }) },
    { name: 'late dump, to the end: reference', expect: data.final, from: data.late.gtid,
      run: (t) => reference(t, data.late.dump, data.late.gtid, between(data.late.file, null)) },
    ...['sessions', 'applier'].map((road) => ({ name: `late dump, to the end: ${road}`, expect: data.final, from: data.late.gtid, run: load(data.late.dump, [`--replayWith=${road}`]) })),
    { name: `early dump, stopAfter +${stopN}: reference`, expect: data.stop.state, from: data.early.gtid,
      run: (t) => reference(t, data.early.dump, data.early.gtid, between(data.early.file, data.stop.file), [`--stop-position=${data.stop.pos}`]) },
    ...['sessions', 'applier'].map((road) => ({ name: `early dump, stopAfter +${stopN}: ${road}`, expect: data.stop.state, from: data.early.gtid,
      run: load(data.early.dump, [`--replayWith=${road}`, `--stopAfter=${data.stop.gtid}`]) })),
    // The plan alone (its one read) of each: the short range, and almost the whole folder.
    { name: 'late dump, --dry-run to the end', run: load(data.late.dump, ['--dry-run']) },
    { name: 'early dump, --dry-run to the end', run: load(data.early.dump, ['--dry-run']) },
  ];
  const results = await largeRuns(variants);
  largeTable(results, idleName);
  say(`(to read from the dump's position: the late dump to the end ${mb(span(data.late, null))}; the early dump to its stop ` +
    `${mb(span(data.early, data.stop))}, to the end ${mb(span(data.early, null))}; the folder ${mb(folderBytes)})`);
  say(`${machineLine(MYSQLSH)}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  dropCached(data);
  cleanTemp();
  if (Object.values(results).some((r) => r.failed.length)) process.exitCode = 1;
}

async function main() {
  if (!HAVE.server) throw new Error('npm run bench:pitr needs ../shared (a real MySQL server).');
  const load0 = os.loadavg()[0].toFixed(1);
  const work = tempDir('restore-pitrbench-');
  const binlogDir = path.join(work, 'binlogs');
  fs.mkdirSync(binlogDir);

  // The source and its workload.
  const source = await startServer({ opts: GTIDS });
  const version = await source.value('SELECT VERSION()');
  const deps = (await source.query("SHOW GLOBAL VARIABLES WHERE Variable_name LIKE 'binlog_transaction_dependency%' " +
    "OR Variable_name IN ('binlog_format', 'gtid_mode', 'sync_binlog', 'innodb_flush_log_at_trx_commit', " +
    "'replica_parallel_workers', 'replica_preserve_commit_order')")).map((r) => `${r.Variable_name}=${r.Value}`);
  process.stdout.write(`Source: MySQL ${version}, ${deps.join(', ')} ` +
    '(no binlog_transaction_dependency_tracking variable: WRITESET is always used since 8.4)\n');
  await source.query(SETUP_SQL);
  await source.query('FLUSH BINARY LOGS');
  const startGtid = await source.value('SELECT @@GLOBAL.gtid_executed');
  // The plugin's starting point: the setup dumped by the real util.dumpSchemas (its gtidExecuted: startGtid).
  setupDump = path.join(work, 'setup-dump');
  const dumped = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(setupDump)}, ` +
    '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
  if (dumped.error) throw new Error(`util.dumpSchemas failed: ${dumped.out}`);
  const startFile = (await source.query('SHOW BINARY LOG STATUS'))[0].File;
  const perClient = Math.ceil(TX * 1.02 / CLIENTS);
  const t0 = Date.now();
  const retries = await workload(source, perClient);
  await source.query('FLUSH BINARY LOGS');
  const endGtid = await source.value('SELECT @@GLOBAL.gtid_executed');
  const txs = gtidCount(endGtid) - gtidCount(startGtid);
  if (txs < TX) throw new Error(`the workload wrote ${txs} transactions, fewer than ${TX}`);
  const logs = (await source.query('SHOW BINARY LOGS')).map((r) => r.Log_name);
  const files = logs.slice(logs.indexOf(startFile), -1);
  for (const f of files) fs.copyFileSync(path.join(source.datadir, f), path.join(binlogDir, f));
  const expected = await checksums(source);
  const rows = await source.value(`SELECT ${TABLES.map((t) => `(SELECT COUNT(*) FROM ${SCHEMA}.${t})`).join(' + ')}`);
  const bin = binDir(source);
  await source.stop();
  const bytes = files.reduce((s, f) => s + fs.statSync(path.join(binlogDir, f)).size, 0);
  // The dependency information the source wrote: how many transactions could run beside each one.
  const decoded = spawnSync(path.join(bin, 'mysqlbinlog'), files.map((f) => path.join(binlogDir, f)), { encoding: 'latin1', maxBuffer: 1 << 30 });
  const widths = [...decoded.stdout.matchAll(/last_committed=(\d+)\s+sequence_number=(\d+)/g)].map((m) => Number(m[2]) - Number(m[1]));
  process.stdout.write(`Workload: ${CLIENTS} clients x ${perClient} transactions in ${((Date.now() - t0) / 1000).toFixed(1)} s ` +
    `(${retries} retried after a deadlock): ${txs} transactions (GTIDs) in ${files.length} binary log file(s), ` +
    `${(bytes / 1e6).toFixed(1)} MB; ${rows} rows in ${TABLES.length} tables at the end\n`);
  process.stdout.write(`Dependency information written by the source (sequence_number - last_committed: how many transactions ` +
    `before each one it may run beside): median ${stats(widths).median}, max ${stats(widths).max}, ${widths.length} transactions\n`);
  process.stdout.write(`Start: gtid_purged = '${startGtid}' on a fresh target with the same setup SQL (unlogged); ` +
    `replayed up to '${endGtid}'\n\n`);

  const paths = files.map((f) => path.join(binlogDir, f));
  const applier = (workers) => async (t) => {
    await t.query(`SET GLOBAL replica_parallel_workers = ${workers}`);
    const peak = serverPeak(t);
    const s0 = process.hrtime.bigint();
    // The files become the relay log the server has not opened yet (no replication configured).
    files.forEach((f, i) => fs.copyFileSync(path.join(binlogDir, f), path.join(t.datadir, `relay.${String(i + 1).padStart(6, '0')}`)));
    fs.writeFileSync(path.join(t.datadir, 'relay.index'), files.map((f, i) => `./relay.${String(i + 1).padStart(6, '0')}\n`).join(''));
    await t.query("CHANGE REPLICATION SOURCE TO RELAY_LOG_FILE = 'relay.000001', RELAY_LOG_POS = 4, SOURCE_HOST = 'dummy'");
    await t.query('START REPLICA SQL_THREAD');
    const waited = await t.value('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 600) AS w', [endGtid]);
    const seconds = Number(process.hrtime.bigint() - s0) / 1e9;
    const err = await t.query('SELECT LAST_ERROR_MESSAGE AS m FROM performance_schema.replication_applier_status_by_worker ' +
      'WHERE LAST_ERROR_NUMBER <> 0 UNION ALL SELECT LAST_ERROR_MESSAGE FROM ' +
      'performance_schema.replication_applier_status_by_coordinator WHERE LAST_ERROR_NUMBER <> 0');
    await t.query('STOP REPLICA SQL_THREAD');
    const p = peak();
    return { seconds, peakMB: p.peakMB, serverMB: p.growthMB, serverCpu: p.cpuSeconds, status: Number(waited) === 0 ? 0 : 1,
      stderr: err.map((r) => r.m).join('; ') || 'WAIT_FOR_EXECUTED_GTID_SET timed out' };
  };
  const variants = [
    { name: 'mysqlbinlog | mysql', how: `${path.join(bin, 'mysqlbinlog')} ${files.join(' ')} | mysql`, run: async (t) => {
      const peak = serverPeak(t);
      const r = measuredPipe([path.join(bin, 'mysqlbinlog'), ...paths], t.client.trim().split(/\s+/));
      const p = peak();
      return { ...r, serverMB: p.growthMB, serverCpu: p.cpuSeconds };
    } },
    { name: 'server applier, 4 workers', how: 'relay-log method, replica_parallel_workers = 4', run: applier(4) },
    { name: 'server applier, 1 worker', how: 'relay-log method, replica_parallel_workers = 1', run: applier(1) },
    // The sessions named: replayWith's default ("auto") takes the applier on these targets.
    { name: 'plugin, 4 sessions', how: 'restore load --binlogs --threads=4 --replayWith=sessions (issue 43)', plugin: true,
      run: pluginReplay(4, undefined, home, SESSIONS) },
    // More sessions than the clock needs: the ordered COMMITs, one at a time, are the bound (not the sessions).
    { name: 'plugin, 8 sessions', how: 'restore load --binlogs --threads=8 --replayWith=sessions', plugin: true, run: pluginReplay(8, undefined, home, SESSIONS) },
    { name: 'plugin, 1 session', how: 'restore load --binlogs --threads=1 --replayWith=sessions', plugin: true, run: pluginReplay(1, undefined, home, SESSIONS) },
    // replayWith "applier": the target's own applier (replica_parallel_workers as the server has it: 4), fed by the plugin.
    { name: 'plugin via applier', how: 'restore load --binlogs --replayWith=applier (the target\'s applier, 4 workers)', plugin: true,
      run: pluginReplay(4, undefined, home, ['--replayWith=applier']) },
    // What a user gets without choosing: replayWith "auto" (the verdict names the road it took).
    { name: 'plugin, default', how: 'restore load --binlogs --threads=4 (replayWith "auto", the default)', plugin: true,
      run: pluginReplay(4, undefined, home) },
    { name: 'plugin, 4, preset fastest', how: 'restore load --binlogs --threads=4 --preset=fastest --replayWith=sessions (its restore-time levers)',
      plugin: true, run: pluginReplay(4, 'fastest', home, SESSIONS) },
    ...compared.map((c) => ({ name: `plugin@${path.basename(c.dir)}, 4`, how: `restore load --binlogs --threads=4 --replayWith=sessions, the plugin of ${c.dir}`,
      plugin: true, run: pluginReplay(4, undefined, c.home, SESSIONS) })),
  ];
  process.stdout.write(`Commands: ${variants[0].how} (mysql = ${bin}/mysql --no-defaults -uroot -h127.0.0.1 -PPORT)\n` +
    `  applier: copy the files to DATADIR/relay.000001…, write DATADIR/relay.index; SET GLOBAL replica_parallel_workers = N; ` +
    "CHANGE REPLICATION SOURCE TO RELAY_LOG_FILE = 'relay.000001', RELAY_LOG_POS = 4, SOURCE_HOST = 'dummy'; " +
    `START REPLICA SQL_THREAD; SELECT WAIT_FOR_EXECUTED_GTID_SET('${endGtid}', 600)\n` +
    `  targets: mysqld ${TARGET_OPTS} (binary log and log_replica_updates on, as the server's defaults)\n\n`);

  const results = {};
  variants.forEach((v) => { results[v.name] = []; });
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) {
      if (!v.run || (ONLY && !ONLY.test(v.name))) continue;
      const target = await freshTarget(startGtid, !!v.plugin);
      let r;
      try {
        settle();
        r = await v.run(target, binlogDir, files);
        if (r.status === 0) {
          const got = await checksums(target);
          const wrong = Object.keys(expected).filter((k) => got[k] !== expected[k]);
          const all = Number(await target.value('SELECT GTID_SUBSET(?, @@GLOBAL.gtid_executed) AS s', [endGtid]));
          // The source's transactions committed before an earlier one of the source (the target's binary log order).
          const logs = (await target.query('SHOW BINARY LOGS')).map((x) => path.join(target.datadir, x.Log_name));
          const dec = spawnSync(path.join(bin, 'mysqlbinlog'), logs, { encoding: 'latin1', maxBuffer: 1 << 30 });
          const su = String(endGtid).split(':')[0].trim();
          const nums = [...dec.stdout.matchAll(new RegExp(`GTID_NEXT= '${su}:(\\d+)'`, 'g'))].map((m) => Number(m[1]));
          let low = Infinity;
          r.early = nums.length ? 0 : null;
          for (let k = nums.length - 1; k >= 0; k--) { if (nums[k] > low) r.early++; low = Math.min(low, nums[k]); }
          if (wrong.length || !all) {
            r.status = 1;
            r.stderr = `${wrong.map((k) => `${k}: checksum ${got[k]}, the source's ${expected[k]}`).join('; ')}` +
              `${all ? '' : '; the source\'s GTIDs are not all executed'}`;
          }
        }
      } finally {
        await target.stop();
      }
      if (r.status !== 0) throw new Error(`${v.name} (run ${i + 1}) failed: ${r.stderr}`);
      results[v.name].push(r);
      process.stdout.write(`  run ${i + 1}: ${v.name}: ${r.seconds.toFixed(2)} s, ${(txs / r.seconds).toFixed(0)} tx/s, ` +
        `worker peak ${r.peakMB.toFixed(0)} MB${r.sides ? ` (${r.sides})` : ''}, target mysqld +${r.serverMB.toFixed(0)} MB` +
        `${r.serverCpu !== undefined ? `, its CPU ${r.serverCpu.toFixed(1)} s` : ''}; checksums equal; ` +
        (r.early === null ? 'the target\'s binary log off\n' : `${r.early} committed before an earlier one of the source's (the target's binary log)\n`));
    }
  }

  process.stdout.write(`\n${machineLine()}; load average ${load0} at the start, ${os.loadavg()[0].toFixed(1)} at the end\n${RUNS} runs of each, interleaved, each on a fresh target; ${txs} transactions; ` +
    'median (min–max); every run verified: CHECKSUM TABLE of every table equal to the source\'s\n\n');
  process.stdout.write(['variant'.padEnd(28), 'seconds'.padEnd(20), 'tx/s'.padStart(7), 'vs mysqlbinlog'.padStart(15),
    'worker peak MB'.padStart(16), 'target mysqld +MB'.padStart(18)].join(' ') + '\n');
  const base = results[variants[0].name].length ? stats(results[variants[0].name].map((r) => r.seconds)).median : NaN;
  for (const v of variants) {
    const list = results[v.name];
    if (!list.length) { process.stdout.write(`${v.name.padEnd(28)} not run (BENCH_ONLY)\n`); continue; }
    const m = stats(list.map((r) => r.seconds)).median;
    process.stdout.write([v.name.padEnd(28), fmt(list.map((r) => r.seconds), 2).padEnd(20), (txs / m).toFixed(0).padStart(7),
      (Number.isNaN(base) ? '—' : `${(base / m).toFixed(2)}x`).padStart(15), fmt(list.map((r) => r.peakMB), 0).padStart(16),
      fmt(list.map((r) => r.serverMB), 0).padStart(18)].join(' ') + '\n');
  }
  // Issue 43's targets: at least 2x mysqlbinlog | mysql, within 1.2x of the server's own applier (same targets).
  const median = (name) => (results[name] && results[name].length ? stats(results[name].map((r) => r.seconds)).median : NaN);
  const applierTime = median('server applier, 4 workers');
  for (const name of ['plugin, 4 sessions', 'plugin via applier', 'plugin, default']) {
    const m = median(name);
    if (Number.isNaN(m)) continue;
    const parts = [];
    if (!Number.isNaN(base) && variants[0].name === 'mysqlbinlog | mysql') parts.push(`${(base / m).toFixed(2)}x faster than mysqlbinlog | mysql (target 2x: ${base / m >= 2 ? 'PASS' : 'FAIL'})`);
    if (!Number.isNaN(applierTime)) parts.push(`${(m / applierTime).toFixed(2)}x the server applier's time (target 1.2x: ${m / applierTime <= 1.2 ? 'PASS' : 'FAIL'})`);
    const roads = [...new Set(results[name].map((r) => r.engine).filter(Boolean))];
    if (parts.length) process.stdout.write(`Verdict ${name}${name === 'plugin, default' ? ` (auto took: ${roads.join(', ')})` : ''}: ${parts.join('; ')}\n`);
  }
  process.stdout.write('(worker peak: mysqlbinlog\'s plus mysql\'s peak RSS; for the applier the worker is the target mysqld ' +
    'itself (its peak RSS during the replay); target mysqld +MB: its peak RSS during the replay over its RSS before)\n');
  cleanTemp();
}

// BENCH_LARGE=bigtx (issue 53 item 1, issue 54 item 1): ONE transaction of BENCH_BIGTX_MB (1024) MB of row
// events after a dump (1 MB multi-row INSERTs of 1 KB rows inside one BEGIN … COMMIT, then one small
// transaction), replayed onto fresh targets by the reference (util.loadDump, then mysqlbinlog
// --exclude-gtids=<the dump's> | mysql) and by the plugin on each road; each compared with the reference
// (CHECKSUM TABLE, gtid_executed without the target's own GTIDs). Reported: seconds, mysqlsh's peak RSS (the
// Python companion runs inside it) against an idle mysqlsh's and a load of the dump alone.
async function bigtx() {
  if (!HAVE.server) throw new Error('npm run bench:pitr needs ../shared (a real MySQL server).');
  const mb = Number(process.env.BENCH_BIGTX_MB || 1024);
  const work = tempDir('restore-bigtx-');
  const folder = path.join(work, 'binlogs');
  fs.mkdirSync(folder);
  const say = (t) => process.stdout.write(`${t}\n`);
  const source = await startServer({ opts: GTIDS });
  await source.query(`CREATE SCHEMA big; CREATE TABLE big.t (id BIGINT PRIMARY KEY, k INT UNSIGNED NOT NULL, pad VARCHAR(1000) CHARACTER SET ascii NOT NULL);
    CREATE TABLE big.after (id INT PRIMARY KEY, v INT); INSERT INTO big.t VALUES (0, 0, 'before the dump'); FLUSH BINARY LOGS`);
  const dump = path.join(work, 'dump');
  const dumped = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['big'], ${JSON.stringify(dump)}, {showProgress: false}); null`,
    { configHome: home, env: DUMP_ENV }));
  if (dumped.error) throw new Error(`util.dumpSchemas failed: ${dumped.out}`);
  const dumpGtids = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8')).gtidExecuted;
  const startFile = (await source.query('SHOW BINARY LOG STATUS'))[0].File;
  let t0 = Date.now();
  // 1,000 rows of 1 KB per INSERT (each its own BINLOG statement of about 1 MB): one transaction of mb MB.
  const per = 1000;
  // BENCH_BIGTX_COMPRESSED=1: written with binlog_transaction_compression (one TRANSACTION_PAYLOAD event, zstd).
  const compressed = process.env.BENCH_BIGTX_COMPRESSED === '1';
  await source.query(`SET SESSION binlog_transaction_compression = ${compressed ? 'ON' : 'OFF'}; SET SESSION cte_max_recursion_depth = 100000; BEGIN`);
  const inserts = Math.ceil(mb * 1024 / per);
  for (let i = 0; i < inserts; i++) {
    await source.query(`INSERT INTO big.t WITH RECURSIVE s(n) AS (SELECT ${i * per + 1} UNION ALL SELECT n + 1 FROM s WHERE n < ${(i + 1) * per}) ` +
      "SELECT n, CRC32(n), RPAD(SHA2(n, 256), 1000, SHA2(n + 1, 512)) FROM s");
  }
  await source.query('COMMIT; INSERT INTO big.after VALUES (1, 1); FLUSH BINARY LOGS');
  const logs = (await source.query('SHOW BINARY LOGS')).map((r) => r.Log_name);
  const files = logs.slice(logs.indexOf(startFile), -1);
  for (const f of files) fs.copyFileSync(path.join(source.datadir, f), path.join(folder, f));
  const bytes = files.reduce((n, f) => n + fs.statSync(path.join(folder, f)).size, 0);
  const bin = binDir(source);
  say(`Source: one ${compressed ? 'compressed ' : ''}transaction of ${inserts * per} rows of 1 KB (${inserts} INSERTs) written in ${((Date.now() - t0) / 1000).toFixed(0)} s; ` +
    `binary logs after the dump: ${files.join(', ')}, ${(bytes / 2 ** 20).toFixed(0)} MB`);
  await source.stop();

  const state = async (t) => {
    const own = String(await t.value('SELECT @@server_uuid')).toLowerCase();
    const sums = (await t.query('CHECKSUM TABLE big.t, big.after')).map((r) => `${r.Table} ${r.Checksum}`).join(', ');
    const gtids = String(await t.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '').split(',')
      .filter((x) => x && x.split(':')[0].toLowerCase() !== own).join(',');
    return `${sums}; gtid_executed ${gtids}`;
  };
  const idle = runMeasured(MYSQLSH, ['--js', '-e', 'null'], { env: shellEnv({ configHome: home }) });
  say(`An idle mysqlsh (the plugin loaded): peak ${idle.peakMB.toFixed(0)} MB`);
  let reference = null;
  const roads = [
    ['reference', async (t) => {
      t0 = Date.now();
      const load = runJs(t.uri, `util.loadDump(${JSON.stringify(dump)}, {showProgress: false}); null`, { configHome: home });
      if (load.error) throw new Error(`util.loadDump: ${load.out}`);
      const r = measuredPipe([path.join(bin, 'mysqlbinlog'), `--exclude-gtids=${dumpGtids}`, ...files.map((f) => path.join(folder, f))],
        [...t.client.trim().split(/\s+/), '--binary-mode']);
      if (r.status) throw new Error(`mysqlbinlog | mysql: ${r.stderr}`);
      return `${((Date.now() - t0) / 1000).toFixed(1)} s (mysqlbinlog | mysql ${r.seconds.toFixed(1)} s, peak ${r.sides})`;
    }],
    ['dump only (no binlogs)', (t) => plugin(t, [])],
    ...['sessions', 'applier'].map((road) => [`plugin, replayWith ${road}`, (t) => plugin(t, [`--binlogs=${folder}`, `--replayWith=${road}`])]),
  ];
  function plugin(t, extra) {
    const r = runMeasured(MYSQLSH, [t.uri, '--', 'restore', 'load', dump, '--threads=4', ...extra, '--output-format=json'],
      { env: shellEnv({ configHome: home }) });
    if (r.status !== 0) throw new Error(`restore load ${extra.join(' ')}: ${r.stdout.slice(-3000)}${r.stderr.slice(-2000)}`);
    const report = JSON.parse(r.stdout);
    const phase = (n) => (report.phases.find((p) => p.phase === n) || { seconds: 0 }).seconds.toFixed(1);
    return `${r.seconds.toFixed(1)} s in all (preflight ${phase('preflight')} s, replay ${phase('replay')} s), mysqlsh CPU ${r.cpu.toFixed(1)} s, peak ${r.peakMB.toFixed(0)} MB ` +
      `(+${(r.peakMB - idle.peakMB).toFixed(0)} MB over idle)${report.replay ? `, road ${report.replay.engine}` : ''}`;
  }
  let failed = 0;
  for (const [name, run] of roads) {
    if (ONLY && name !== 'reference' && !ONLY.test(name)) continue;
    const target = await startServer({ opts: TARGET_OPTS });
    try {
      settle();
      const line = await run(target);
      const got = await state(target);
      if (name === 'reference') reference = got;
      const same = name === 'dump only (no binlogs)' || name === 'reference' ? '' : got === reference ? '; equal to the reference' : `; DIFFERS: ${got}`;
      if (same.startsWith('; DIFFERS')) failed++;
      say(`${name}: ${line}${same}${name === 'reference' ? `; ${got}` : ''}`);
    } finally {
      await target.stop();
    }
  }
  say(`\n${machineLine(MYSQLSH)}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  cleanTemp();
  if (failed) process.exit(1);
}

const large = { bigtx, tx: largeTx, files: largeFiles };
(large[process.env.BENCH_LARGE] || main)().catch((e) => { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); });
