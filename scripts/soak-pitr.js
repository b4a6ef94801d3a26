#!/usr/bin/env node
'use strict';
// npm run soak:pitr — proof by difference (issue 53 item 5), many seeds: each seed's workload
// (test/support/pitr-generator.js) on a real source, then for each stop (until, a GTID, the first DROP)
// the reference restore (util.loadDump + mysqlbinlog | mysql) against the plugin's on each road
// (test/support/pitr-reference.js). Prints each seed, the shapes it made, every difference and refusal;
// exits 1 on a difference (or a reference or a generator that failed: the workload's own fault, to be fixed).
//   SOAK_SEEDS=N       seeds to run (default 3), from SOAK_SEED (default 1)
//   SOAK_SHAPES=…      shapes, comma separated ("all", "default", "-big"; default: every shape but big)
//   SOAK_EACH_SHAPE=1  one seed per shape, that shape alone: which shape the plugin equals, refuses or differs on
//   SOAK_STOPS=…       until,gtid,drop,early,early_gtid (default all; the early ones, before the dump's own
//                      point, must be refused with nothing changed); SOAK_ROADS=sessions,applier (default both)
//   SOAK_OPS=N         operations per client and phase (default 6); SOAK_CLIENTS=2..4 (default: from the seed)
//   SOAK_KEEP=1        keep each seed's folder (the dump, the binary logs, statements.sql), named per seed
//   SOAK_TOPOLOGY=…    the plugin's targets: standalone,replica,group (default all three): a server alone, a
//                      source with a replica, a three-member group's primary (built with SQL: topology.js);
//                      on a topology every member is compared with the reference. With group, the workload is
//                      one a group can hold (every table InnoDB with a primary key: generate's groupSafe).
// Needs ../shared (or RESTORE_SHARED_DIR): the real Shell and the MySQL bundle. Starts two servers and the
// targets (1 + 2 + 3 with every topology).
const { startServer } = require('../test/support/server');
const { startReplicaSet, startGroup } = require('../test/support/topology');
const { installPlugin, tempDir, cleanTemp } = require('../test/support/shell');
const { HAVE, SHARED } = require('../test/support/real');
const { generate, parseShapes } = require('../test/support/pitr-generator');
const { compareStop, resetTarget } = require('../test/support/pitr-reference');

const GTIDS = '--gtid-mode=ON --enforce-gtid-consistency=ON';
const env = process.env;
const list = (v, d) => (v ? v.split(',').map((s) => s.trim()).filter(Boolean) : d);

async function main() {
  if (!HAVE.shell || !HAVE.server) {
    console.error(`soak:pitr needs the real Shell and server in ${SHARED} (RESTORE_SHARED_DIR)`);
    return 2;
  }
  const first = Number(env.SOAK_SEED || 1);
  const stops = list(env.SOAK_STOPS, ['until', 'gtid', 'drop', 'early', 'early_gtid']);
  const roads = list(env.SOAK_ROADS, ['sessions', 'applier']);
  const shapes = parseShapes(env.SOAK_SHAPES);
  const runs = env.SOAK_EACH_SHAPE === '1' ? shapes.map((s, i) => ({ seed: first + i, shapes: [s] }))
    : Array.from({ length: Number(env.SOAK_SEEDS || 3) }, (_, i) => ({ seed: first + i, shapes }));
  const kinds = list(env.SOAK_TOPOLOGY, ['standalone', 'replica', 'group']);
  const START = { standalone: () => startServer({ opts: GTIDS }), replica: () => startReplicaSet({ replicas: 1 }), group: () => startGroup({ members: 3 }) };
  for (const k of kinds) if (!START[k]) throw new Error(`SOAK_TOPOLOGY: unknown "${k}": standalone, replica or group`);
  const [source, reference] = await Promise.all([1, 2].map(() => startServer({ opts: GTIDS })));
  const targets = [];
  for (const k of kinds) targets.push({ kind: k, target: await START[k]() });
  const groupSafe = kinds.includes('group');
  const home = installPlugin(tempDir('restore-cfg-'));
  const summary = [];
  let bad = 0;
  try {
    for (const { seed, shapes: asked } of runs) {
      const t0 = Date.now();
      let run;
      try {
        run = await generate(source, seed, { shapes: asked, ops: Number(env.SOAK_OPS || 6), clients: Number(env.SOAK_CLIENTS) || undefined, configHome: home, groupSafe });
      } catch (e) {
        // The workload's own failure (not the plugin's): said, counted, the next seed run.
        console.log(`seed ${seed} (shapes asked: ${asked.join(',')}): the generator failed: ${String(e.message).split('\n').slice(0, 3).join(' | ')}`);
        summary.push({ seed, kind: '-', shapes: asked.join(','), stop: '-', road: '-', verdict: 'generator failed', first: String(e.message).split('\n')[0] });
        bad++;
        continue;
      }
      const made = Object.entries(run.made).map(([s, n]) => `${s}×${n}`).join(', ') || 'none';
      const failed = Object.entries(run.failed).map(([s, n]) => `${s}×${n}`).join(', ');
      console.log(`seed ${seed} (${run.clients} clients; shapes asked: ${asked.join(',')}): made ${made}${failed ? `; rejected by the source: ${failed}` : ''}`);
      for (const e of [...new Set(run.errors)].slice(0, 5)) console.log(`  source said: ${e}`);
      if (env.SOAK_KEEP === '1') console.log(`  kept: ${run.dir} (dump/, binlogs/, statements.sql)`);
      for (const { kind, target } of targets) {
        for (const stopName of stops) {
          const t1 = Date.now();
          const results = await compareStop({ reference, target, run, stopName, roads, configHome: home });
          for (const res of results) {
            console.log(`  ${kind}: ${run.stops[stopName].text} / ${res.road}: ${res.verdict}`);
            for (const l of res.lines) console.log(`    ${l}`);
            if (res.verdict === 'differs' || res.verdict === 'reference failed') bad++;
            summary.push({ seed, kind, shapes: asked.join(','), stop: stopName, road: res.road, verdict: res.verdict, first: res.lines[0] || '' });
          }
          console.log(`    (${((Date.now() - t1) / 1000).toFixed(0)} s)`);
        }
      }
      console.log(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
    }
  } finally {
    await resetTarget(reference).catch(() => {});
    for (const { target } of targets) await resetTarget(target).catch(() => {});
    await Promise.all([source, reference].concat(targets.map((t) => t.target)).map((s) => s.stop()));
    if (env.SOAK_KEEP !== '1') cleanTemp();
  }
  console.log('\nSummary (seed, topology, shapes, stop, road: verdict):');
  for (const s of summary) console.log(`  ${s.seed} ${s.kind} ${s.shapes} ${s.stop} ${s.road}: ${s.verdict}${s.verdict === 'equal' ? '' : ' — ' + s.first.slice(0, 240)}`);
  console.log(bad ? `\n${bad} difference(s)` : '\nno difference');
  return bad ? 1 : 0;
}

main().then((rc) => process.exit(rc), (e) => { console.error(e && e.stack || e); process.exit(2); });
