#!/usr/bin/env node
'use strict';
// npm run bench:cluster: a restore into a live three-member Group Replication group (built with SQL
// on loopback, test/support/topology.js), timed until every member has every row:
// - util.loadDump's defaults on the primary;
// - `restore load --preset=fastest` on the primary (what the plugin does on a group today: a refusal
//   is reported as such, a load that leaves the members unequal is a failure);
// - the clone road: the group's members leave it, one lone server is loaded with every lever
//   (`--topology=rebuild` where the plugin has it, else `--preset=fastest` on the standalone
//   server), the group is bootstrapped on it and the two others join by clone (CLONE INSTANCE:
//   the clone recovery of AdminAPI's addInstance, by hand, as Shell 9.1's AdminAPI refuses MySQL 9.7).
// The dump is made by the real Shell's util.dumpSchemas from bench/load-bench.js's seed (BENCH_ROWS
// rows in its big table, default 400,000). Each variant BENCH_RUNS (3) times, interleaved, on the
// same group (the schema is dropped through the group between runs; a group a variant broke is
// replaced); median (min–max) of the time until every member applied the load, the part of it after
// mysqlsh ended (members catching up, or the clones), and the peak memory of mysqlsh (bench/measure.js).
const fs = require('fs');
const path = require('path');

process.env.BENCH_ROWS = process.env.BENCH_ROWS || '400000'; // read by load-bench's seed
const { seed, SCHEMA } = require('./load-bench');
const { runMeasured, stats, fmt, machineLine, settle } = require('./measure');
const { startServer } = require('../test/support/server');
const { startGroup } = require('../test/support/topology');
const { mysqlsh, shellEnv, tempDir, cleanTemp } = require('../test/support/shell');
const { MYSQLSH, ROOT, HAVE } = require('../test/support/real');

const ROWS = Number(process.env.BENCH_ROWS);
const RUNS = Number(process.env.BENCH_RUNS || 3);
const TABLES = ['customers', 'products', 'orders', 'events'];

// The plugin's own load options (lib/, as the Shell gets it): does it have the clone road?
function hasRebuild() {
  const { OWN_OPTIONS } = require(path.join(ROOT, 'lib', 'options', 'load-own-options.js'));
  return Boolean(OWN_OPTIONS.topology && (OWN_OPTIONS.topology.values || []).includes('rebuild'));
}

// {table: rows, 'table indexes': names} on one server: what every member must end with.
async function contents(server) {
  const out = {};
  for (const t of TABLES) {
    out[t] = Number(await server.value(`SELECT COUNT(*) FROM ${SCHEMA}.${t}`).catch(() => -1));
  }
  const idx = await server.query(`SELECT TABLE_NAME AS t, GROUP_CONCAT(DISTINCT INDEX_NAME ORDER BY INDEX_NAME) AS i
    FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? GROUP BY 1 ORDER BY 1`, [SCHEMA]);
  for (const r of idx) out[`${r.t} indexes`] = r.i;
  return out;
}

async function makeDump(dump) {
  const server = await startServer();
  try {
    process.stdout.write(`Seeding ${SCHEMA} (big table: ${ROWS} rows) on MySQL ${await server.value('SELECT VERSION()')}…\n`);
    await seed(server);
    const expected = await contents(server);
    const r = mysqlsh([server.uri, '--js', '-e', `util.dumpSchemas(['${SCHEMA}'], '${dump}', {bytesPerChunk: '8M', showProgress: false})`],
      { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    if (r.status !== 0) throw new Error('util.dumpSchemas failed: ' + r.out);
    return expected;
  } finally {
    await server.stop();
  }
}

function firstLine(text) {
  const l = String(text).split('\n').map((x) => x.trim()).find((x) => /error|refus/i.test(x));
  return (l || String(text).trim().split('\n').pop() || '').slice(0, 160);
}

async function main() {
  if (!HAVE.shell || !HAVE.server) throw new Error('npm run bench:cluster needs ../shared (the real MySQL Shell and MySQL).');
  const work = tempDir('restore-clusterbench-');
  const dump = path.join(work, 'dump');
  const expected = await makeDump(dump);
  const done = JSON.parse(fs.readFileSync(path.join(dump, '@.done.json'), 'utf8'));
  const dataMB = Number(done.dataBytes) / 1e6;
  process.stdout.write(`Dump (util.dumpSchemas): ${dataMB.toFixed(0)} MB of data, ` +
    `${fs.readdirSync(dump).filter((f) => /\.zst$/.test(f)).length} chunk files; rows: ` +
    `${TABLES.map((t) => `${t} ${expected[t]}`).join(', ')}\n`);

  let group = await startGroup({ members: 3 });
  process.stdout.write(`Group of 3 up in ${group.startSeconds.toFixed(1)} s\n\n`);
  const shell = (args) => runMeasured(MYSQLSH, args, { env: shellEnv({}) });
  const rebuild = hasRebuild();

  // Each run → {seconds (until every member applied), after (of it, after mysqlsh ended), peakMB, status, out}.
  const live = (args) => async (g) => {
    const p = await g.primary();
    const t = shell([p.uri, ...args]);
    const t1 = Date.now();
    if (t.status === 0) await g.waitApplied(900000).catch(() => {});
    const after = (Date.now() - t1) / 1000;
    return { ...t, after, seconds: t.seconds + after };
  };
  const variants = [
    { name: 'util.loadDump defaults (live group)', run: live(['--js', '-e', `util.loadDump('${dump}', {showProgress: false})`]) },
    { name: 'restore load --preset=fastest (live group)', run: live(['--', 'restore', 'load', dump, '--preset=fastest']) },
    { name: `clone road: ${rebuild ? '--topology=rebuild' : 'fastest on a lone server'}, 2 clones`, run: async (g) => {
      const p = await g.primary();
      // Not timed: the road starts from servers outside any group, the one to load writable
      // (a member that left a group keeps super_read_only, which the group set).
      await g.dissolve();
      await p.query('SET GLOBAL super_read_only = OFF; SET GLOBAL read_only = OFF');
      const t = shell([p.uri, '--', 'restore', 'load', dump, '--preset=fastest', ...(rebuild ? ['--topology=rebuild'] : [])]);
      const t1 = Date.now();
      if (t.status === 0) {
        await g.bootstrap(p);
        for (const m of g.members.filter((x) => x !== p)) await g.join(m, { clone: p });
        await g.waitOnline(600000);
        await g.waitApplied(600000);
      }
      const after = (Date.now() - t1) / 1000;
      return { ...t, after, seconds: t.seconds + after };
    } },
  ];

  const results = {};
  variants.forEach((v) => { results[v.name] = []; });
  for (let i = 0; i < RUNS; i++) {
    for (const v of variants) {
      // A healthy group without the schema, or a new one.
      let healthy = await group.allOnline().catch(() => false);
      if (healthy) {
        const p = await group.primary();
        await p.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`);
        healthy = await group.waitApplied(120000).then(() => true, () => false);
        for (const m of group.members) {
          if (healthy && Number(await m.value('SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [SCHEMA]))) healthy = false;
        }
      }
      if (!healthy) {
        process.stdout.write('  (the group was not healthy: a new one)\n');
        await group.stop();
        group = await startGroup({ members: 3 });
      }
      // util.loadDump's own progress file (in the dump, per server) would make the next load skip.
      for (const f of fs.readdirSync(dump)) if (/^load-progress.*\.json$/.test(f)) fs.rmSync(path.join(dump, f));
      settle();
      const r = await v.run(group);
      // Every member: the expected rows and indexes; the group ONLINE.
      const online = await group.allOnline().catch(() => false);
      const wrong = [];
      for (const m of group.members) {
        const got = await contents(m);
        const bad = Object.keys(expected).filter((k) => got[k] !== expected[k]);
        if (bad.length) wrong.push(`127.0.0.1:${m.port}: ${bad.map((k) => `${k} ${got[k]} (expected ${expected[k]})`).join(', ')}`);
      }
      r.outcome = r.status !== 0 ? `failed (exit ${r.status}): ${firstLine(r.stdout + r.stderr)}`
        : !online ? 'the group is not ONLINE afterwards'
          : wrong.length ? `members differ: ${wrong.join('; ')}` : 'ok';
      results[v.name].push(r);
      process.stdout.write(`  run ${i + 1}: ${v.name}: ${r.outcome === 'ok' ? `${r.seconds.toFixed(1)} s (${r.after.toFixed(1)} s after mysqlsh), ` +
        `mysqlsh peak ${r.peakMB.toFixed(0)} MB` : r.outcome}\n`);
    }
  }
  await group.stop();

  process.stdout.write(`\n${machineLine(MYSQLSH)}\n${RUNS} runs of each, interleaved, on a live 3-member single-primary group ` +
    `(loopback, one machine); seconds until every member applied the load; median (min–max)\n\n`);
  process.stdout.write(['variant'.padEnd(48), 'seconds'.padEnd(20), 'after mysqlsh'.padEnd(20), 'vs defaults'.padStart(11),
    'mysqlsh peak MB'.padStart(16)].join(' ') + '\n');
  const med = {};
  for (const v of variants) {
    const ok = results[v.name].filter((r) => r.outcome === 'ok');
    if (ok.length < results[v.name].length) {
      const bad = results[v.name].find((r) => r.outcome !== 'ok');
      process.stdout.write(`${v.name.padEnd(48)} ${results[v.name].length - ok.length} of ${results[v.name].length} runs: ${bad.outcome}\n`);
      if (!ok.length) continue;
    }
    med[v.name] = stats(ok.map((r) => r.seconds)).median;
    const base = med[variants[0].name];
    process.stdout.write([v.name.padEnd(48), fmt(ok.map((r) => r.seconds), 1).padEnd(20), fmt(ok.map((r) => r.after), 1).padEnd(20),
      (base ? `${(base / med[v.name]).toFixed(2)}x` : '-').padStart(11), fmt(ok.map((r) => r.peakMB), 0).padStart(16)].join(' ') + '\n');
  }
  const [defaults, fastest, clone] = variants.map((v) => med[v.name]);
  const words = [];
  if (!fastest) words.push('fastest did not load the live group with every member equal (see above)');
  else words.push(`fastest on the live group ${(defaults / fastest).toFixed(2)}x util.loadDump's defaults (${fastest.toFixed(1)} s against ${defaults.toFixed(1)} s)`);
  if (clone) words.push(`the clone road ${clone.toFixed(1)} s: ${fastest ? `${(fastest / clone).toFixed(2)}x fastest on the live group` : `${(defaults / clone).toFixed(2)}x the defaults`}`);
  else words.push('the clone road failed (see above)');
  process.stdout.write(`\nverdict: ${fastest && fastest < defaults ? 'PASS' : 'FAIL'}: ${words.join('; ')}\n`);
  process.stdout.write(`(${dataMB.toFixed(0)} MB of data; wall time of mysqlsh, ~0.5 s of it Shell start, plus the wait until the ` +
    `members applied the primary's GTIDs, or the bootstrap and clones)\n`);
  cleanTemp();
}

main().catch((e) => { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); });
