#!/usr/bin/env node
'use strict';
// npm run bench:members: the members check after a load of many small tables into a source with a
// replica (issue 56). A real dump (util.dumpSchemas) of BENCH_TABLES (50,000) empty tables is loaded
// with `restore load --preset=fastest` into a GTID source whose replica applies it; the report's
// members phase is the check: the replica applied every GTID of the source and holds none of its own,
// so no table is scanned. For comparison the script then times what the check did before (an exact
// COUNT(*) of every loaded table, one statement each, on the source and on the replica), and the
// batched counts it still uses where GTIDs cannot prove equality (100 tables a statement).
// BENCH_RUNS (1) loads, each on a fresh schema; seconds, and the peak memory of mysqlsh.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { startServer } = require('../test/support/server');
const { startReplicaSet } = require('../test/support/topology');
const { mysqlsh, cleanTemp, shellEnv } = require('../test/support/shell');
const { MYSQLSH } = require('../test/support/real');
const { runMeasured, stats, fmt, machineLine } = require('./measure');
const { phasesOf } = require('./load-bench');

const TABLES = Number(process.env.BENCH_TABLES || 50000);
const RUNS = Number(process.env.BENCH_RUNS || 1);
const SCHEMA = 'membersbench';
const name = (i) => `t${String(i).padStart(6, '0')}`;

async function makeDump(dump) {
  if (fs.existsSync(path.join(dump, '@.done.json'))) return;
  fs.rmSync(dump, { recursive: true, force: true });
  const server = await startServer();
  try {
    const t0 = Date.now();
    await server.query(`CREATE SCHEMA ${SCHEMA}`);
    for (let i = 0; i < TABLES; i += 500) {
      const sql = [];
      for (let j = i; j < Math.min(TABLES, i + 500); j++) sql.push(`CREATE TABLE ${SCHEMA}.${name(j)} (id INT PRIMARY KEY)`);
      await server.query(sql.join(';'));
    }
    const d = mysqlsh([server.uri, '--js', '-e', `util.dumpSchemas(['${SCHEMA}'], '${dump}', {showProgress: false})`],
      { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    if (d.status !== 0) throw new Error('util.dumpSchemas failed: ' + d.out);
    process.stdout.write(`Dump of ${TABLES} empty tables made in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${dump}\n`);
  } finally {
    await server.stop();
  }
}

async function timeCounts(servers, perStatement) {
  const t0 = Date.now();
  for (const s of servers) {
    for (let i = 0; i < TABLES; i += perStatement) {
      const parts = [];
      for (let j = i; j < Math.min(TABLES, i + perStatement); j++) parts.push(`SELECT ${j - i} AS k, COUNT(*) AS n FROM ${SCHEMA}.${name(j)}`);
      await s.query(parts.join(' UNION ALL '));
    }
  }
  return (Date.now() - t0) / 1000;
}

async function main() {
  const dump = process.env.BENCH_DUMP || path.join(os.tmpdir(), `restore-membersbench-${TABLES}`);
  await makeDump(dump);
  const set = await startReplicaSet({ replicas: 1 });
  const replica = set.replicas[0];
  const members = [];
  const peaks = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      await set.source.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`);
      await set.waitApplied(600000);
      const r = runMeasured(MYSQLSH, [set.source.uri, '--', 'restore', 'load', dump, '--preset=fastest', '--members-timeout=3600'], { env: shellEnv({}) });
      if (r.status !== 0) throw new Error('restore load failed: ' + r.out.slice(-2000));
      const phases = phasesOf(r.stdout);
      members.push(phases.members);
      peaks.push(r.peakMB);
      const line = r.stdout.split('\n').find((l) => l.includes(`${replica.port}`) && /IO Yes/.test(l));
      process.stdout.write(`run ${run + 1}: members phase ${phases.members} s of ${Object.values(phases).reduce((a, b) => a + b, 0).toFixed(1)} s; ` +
        `${(line || '').trim()}\n`);
    }
    const one = await timeCounts([set.source, replica], 1);
    const batched = await timeCounts([set.source, replica], 100);
    process.stdout.write(`\n${machineLine()}\nMembers check after a load of ${TABLES} tables into a source with one replica:\n` +
      `  restore load's members phase (waiting for the replica to apply the load, then GTIDs prove its rows): ${fmt(members)} s\n` +
      `  what it did before, once: COUNT(*) of every table, a statement each, on the source and the replica: ${one.toFixed(1)} s ` +
      `(up to three times when a count differed)\n` +
      `  counts where GTIDs cannot prove equality, 100 tables a statement, both servers: ${batched.toFixed(1)} s\n` +
      `  mysqlsh peak memory: ${fmt(peaks, 0)} MB\n`);
  } finally {
    await set.source.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`).catch(() => {});
    await set.stop();
    cleanTemp();
  }
}

main().catch((e) => { console.error(e.stack || e.message); process.exit(1); });
