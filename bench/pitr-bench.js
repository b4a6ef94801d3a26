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
  '  "status": os.waitstatus_to_exitcode(sa) or os.waitstatus_to_exitcode(sb), "stderr": err.decode("utf8", "replace")}))',
].join('\n');

function measuredPipe(a, b) {
  const r = spawnSync('python3', ['-c', PIPE, JSON.stringify(a), JSON.stringify(b)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`measuring ${a[0]} | ${b[0]} failed: ${r.stderr}`);
  const m = JSON.parse(r.stdout);
  return { seconds: m.seconds, peakMB: (m.a + m.b) / 1024, sides: `mysqlbinlog ${(m.a / 1024).toFixed(0)} MB + mysql ${(m.b / 1024).toFixed(0)} MB`,
    status: m.status, stderr: m.stderr };
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

// BENCH_LARGE=tx (issue 54, item 1): the cost of planning a replay of many small transactions. A source writes
// BENCH_BEFORE (0) transactions, is dumped (util.dumpSchemas), then writes BENCH_TX more (one-row INSERTs by a
// procedure, unlogged itself; sync_binlog 0); the files from the dump's on are copied. Measured under runMeasured
// (mysqlsh's time and peak memory), against an idle mysqlsh (the plugin loaded, `restore status`): `restore load
// --dry-run --binlogs=DIR` to the end of the files, the same with --stopAfter the BENCH_STOP-th transaction after
// the dump (default 1,000), and the replay itself with BENCH_REPLAY (1: the sessions; or sessions,applier). BENCH_COMPARE: other
// checkouts, one line each.
async function largeTx() {
  const before = Number(process.env.BENCH_BEFORE || 0);
  const stopAt = Number(process.env.BENCH_STOP || 1000);
  const work = tempDir('restore-pitrbench-large-');
  const binlogDir = path.join(work, 'binlogs');
  fs.mkdirSync(binlogDir);
  const source = await startServer({ opts: `${GTIDS} --sync-binlog=0 --innodb-flush-log-at-trx-commit=2` });
  const uuid = await source.value('SELECT @@server_uuid');
  await source.query(SETUP_SQL);
  await source.query(`SET SESSION sql_log_bin = 0; CREATE PROCEDURE ${SCHEMA}.gen(n INT) BEGIN DECLARE i INT DEFAULT 0;
    WHILE i < n DO INSERT INTO ${SCHEMA}.sbtest1 (k, c, pad) VALUES (i, REPEAT('c', 120), REPEAT('p', 60)); SET i = i + 1; END WHILE; END;
    SET SESSION sql_log_bin = 1`);
  const t0 = Date.now();
  if (before) await source.query(`CALL ${SCHEMA}.gen(${before})`);
  const dump = path.join(work, 'dump');
  const dumped = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(dump)}, ` +
    '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
  if (dumped.error) throw new Error(`util.dumpSchemas failed: ${dumped.out}`);
  const dumpGtid = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8')).gtidExecuted;
  const startFile = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8')).binlogFile;
  if (TX) await source.query(`CALL ${SCHEMA}.gen(${TX})`);
  await source.query('FLUSH BINARY LOGS');
  const logs = (await source.query('SHOW BINARY LOGS')).map((r) => r.Log_name);
  const files = logs.slice(logs.indexOf(startFile), -1);
  for (const f of files) fs.copyFileSync(path.join(source.datadir, f), path.join(binlogDir, f));
  const bytes = files.reduce((s, f) => s + fs.statSync(path.join(binlogDir, f)).size, 0);
  const dumpN = gtidCount(dumpGtid);
  const stopGtid = `${uuid}:${dumpN + stopAt}`;
  await source.stop();
  process.stdout.write(`Large run (BENCH_LARGE=tx): ${before} transaction(s) before the dump, ${TX} after, written in ` +
    `${((Date.now() - t0) / 1000).toFixed(0)} s; ${files.length} file(s) from the dump's (${files[0]}), ${(bytes / 1e6).toFixed(0)} MB\n`);
  const target = await startServer({ opts: TARGET_OPTS });
  const homes = [{ name: 'this checkout', home }, ...compared.map((c) => ({ name: c.dir, home: c.home }))];
  const runs = [
    { name: 'idle mysqlsh (restore status)', args: ['restore', 'status'] },
    { name: 'dry run, to the end', args: ['restore', 'load', dump, `--binlogs=${binlogDir}`, '--dry-run'] },
    { name: `dry run, stopAfter ${stopGtid}`, args: ['restore', 'load', dump, `--binlogs=${binlogDir}`, '--dry-run', `--stopAfter=${stopGtid}`] },
  ];
  for (const h of homes) {
    for (const v of runs) {
      settle();
      const r = runMeasured(MYSQLSH, [target.uri, '--', ...v.args], { env: shellEnv({ configHome: h.home }) });
      const replayLine = (/replay: .*/.exec(r.stdout) || [''])[0].slice(0, 140);
      process.stdout.write(`  ${h.name}: ${v.name}: rc ${r.status}, ${r.seconds.toFixed(1)} s, mysqlsh peak ${r.peakMB.toFixed(0)} MB, ` +
        `CPU ${r.cpu.toFixed(1)} s${replayLine ? `; ${replayLine}` : ''}${r.status ? `\n${r.stderr.slice(-600)}${r.stdout.slice(-600)}` : ''}\n`);
    }
  }
  // BENCH_REPLAY: 1 (the sessions) or the roads, comma-separated (sessions,applier): each replay onto a fresh target,
  // for this checkout and each of BENCH_COMPARE's.
  const roads = process.env.BENCH_REPLAY === '1' ? ['sessions'] : (process.env.BENCH_REPLAY || '').split(',').filter(Boolean);
  for (const road of roads) {
    for (const h of homes) {
      settle();
      const fresh = await startServer({ opts: TARGET_OPTS });
      const r = runMeasured(MYSQLSH, [fresh.uri, '--', 'restore', 'load', dump, `--binlogs=${binlogDir}`, `--replayWith=${road}`,
        '--output-format=json'], { env: shellEnv({ configHome: h.home }) });
      await fresh.stop();
      const report = r.status === 0 ? JSON.parse(r.stdout) : null;
      const phase = (n) => (report ? report.phases.find((p) => p.phase === n) : null);
      process.stdout.write(`  ${h.name}: replay (load + ${TX} transactions, ${road}): rc ${r.status}, ${r.seconds.toFixed(1)} s ` +
        `(preflight ${phase('preflight') ? phase('preflight').seconds.toFixed(1) : '?'} s, replay ${phase('replay') ? phase('replay').seconds.toFixed(1) : '?'} s), ` +
        `mysqlsh peak ${r.peakMB.toFixed(0)} MB${r.status ? `\n${r.stderr.slice(-600)}${r.stdout.slice(-600)}` : ''}\n`);
    }
  }
  await target.stop();
  process.stdout.write(`${machineLine(MYSQLSH)}; load average ${os.loadavg()[0].toFixed(1)}\n`);
  cleanTemp();
}

async function main() {
  if (process.env.BENCH_LARGE === 'tx') return largeTx();
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

const large = { bigtx };
(large[process.env.BENCH_LARGE] || main)().catch((e) => { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); });
