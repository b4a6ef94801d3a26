#!/usr/bin/env node
'use strict';
// npm test: every test file, in RESTORE_TEST_JOBS (2) mocha processes at once. Most of a test's time
// is spent waiting on mysqld and mysqlsh, so two halves on 2 cores take about half the time of one
// run. Each process has its own suite server (test/support/root-hooks.js); the files that use the
// shared replica set and group (test/support/topology.js) stay in one process, so those start once.
// The halves are balanced by the seconds each file took (test/timings.json, written by the timing
// reporter: `npm run test:timings` refreshes it). The first half prints as it runs, the other when it
// ends; then the totals, the ten slowest files of both and the skip summary of both.
// Files given (npm test -- FILE…) run in one process, as mocha would.
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const MOCHA = require.resolve('mocha/bin/mocha.js');
const TIMINGS = path.join(ROOT, 'test', 'timings.json');
const TOPOLOGY = /\b(sharedGroup|sharedReplicaSet|startReplicaSet|startGroup|startChain)\b/;

function testFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testFiles(p));
    else if (e.name.endsWith('.test.js')) out.push(path.relative(ROOT, p));
  }
  return out.sort();
}

function readJson(file, fallback) {
  try { return JSON.parse(fs.readFileSync(file, 'utf8')); } catch (e) { return fallback; }
}

// Longest first onto the lighter half; the topology files as one block.
function split(files, jobs, seconds) {
  const cost = (f) => (seconds[f] !== undefined ? seconds[f] : f.startsWith('test/unit/') ? 2 : 30);
  const topo = files.filter((f) => TOPOLOGY.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
  const items = [{ files: topo, cost: topo.reduce((n, f) => n + cost(f), 0) }]
    .concat(files.filter((f) => !topo.includes(f)).map((f) => ({ files: [f], cost: cost(f) })))
    .filter((i) => i.files.length).sort((a, b) => b.cost - a.cost);
  const halves = Array.from({ length: jobs }, () => ({ files: [], cost: 0 }));
  for (const i of items) {
    const h = halves.reduce((a, b) => (b.cost < a.cost ? b : a));
    h.files.push(...i.files);
    h.cost += i.cost;
  }
  return halves.filter((h) => h.files.length);
}

// dir: where the process writes its counts, times and skips (null: it prints them itself).
function run(files, k, live, dir) {
  const env = dir ? { ...process.env, RESTORE_TEST_PART: path.join(dir, `part-${k}`) } : process.env;
  const child = spawn(process.execPath, [MOCHA, ...files], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks = [];
  const take = (stream, to) => stream.on('data', (d) => (live ? to.write(d) : chunks.push(d)));
  take(child.stdout, process.stdout);
  take(child.stderr, process.stderr);
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code: code === null ? 1 : code, signal, out: Buffer.concat(chunks) })));
}

async function main() {
  const given = process.argv.slice(2);
  if (given.length) {
    const r = await run(given, 0, true, null);
    process.exit(r.code);
  }
  const t0 = Date.now();
  const jobs = Math.max(1, Number(process.env.RESTORE_TEST_JOBS || 2));
  const halves = split(testFiles(path.join(ROOT, 'test')), jobs, readJson(TIMINGS, {}));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-test-'));
  process.stdout.write(`npm test: ${halves.length} mocha process(es) at once (RESTORE_TEST_JOBS=${jobs}), ` +
    halves.map((h, k) => `${k ? 'the other' : 'this one, shown as it runs'}: ${h.files.length} file(s)`).join('; ') + '\n');
  const results = await Promise.all(halves.map((h, k) => run(h.files, k, k === 0, dir)));
  results.slice(1).forEach((r, k) => {
    process.stdout.write(`\n--- The other test files, run at the same time (process ${k + 2}) ---\n`);
    process.stdout.write(r.out);
  });
  // Totals, slowest files and skips of every process (written by the timing reporter and the root hooks).
  const parts = halves.map((h, k) => readJson(path.join(dir, `part-${k}.json`), null));
  const sum = (key) => parts.reduce((n, p) => n + (p ? p[key] : 0), 0);
  const seconds = Object.assign({}, ...parts.map((p) => (p ? p.seconds : {})));
  const skipped = {};
  halves.forEach((h, k) => {
    const s = readJson(path.join(dir, `part-${k}.skipped.json`), {});
    for (const why of Object.keys(s)) skipped[why] = (skipped[why] || 0) + s[why];
  });
  const wall = (Date.now() - t0) / 1000;
  const slowest = Object.entries(seconds).sort((a, b) => b[1] - a[1]).slice(0, 10);
  const failedRuns = parts.filter((p) => !p).length; // a process that ended before its reporter's end
  process.stdout.write(`\nAll test files (${halves.length} process(es), ${wall.toFixed(0)} s): ${sum('passes')} passing, ` +
    `${sum('failures')} failing, ${sum('pending')} pending` + (failedRuns ? `; ${failedRuns} process(es) did not end cleanly` : '') + '\n');
  if (slowest.length) {
    process.stdout.write('The ten slowest test files (seconds, hooks included):\n' +
      slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(7)}  ${f}`).join('\n') + '\n');
  }
  if (Object.keys(skipped).length) {
    process.stdout.write('Skipped:\n' + Object.entries(skipped).map(([why, n]) => `  ${n} test(s) skipped: ${why}`).join('\n') + '\n' +
      'To run them, put the shared folder beside the checkout (bin/mysqlsh: MySQL Shell; bin/with-mysql: a ' +
      'throwaway MySQL server; real-dumps/) and install zstd (scripts/setup-dev.sh).\n');
  }
  if (process.env.RESTORE_TEST_TIMINGS_WRITE) fs.writeFileSync(TIMINGS, JSON.stringify(Object.fromEntries(Object.entries(seconds).sort()), null, 1) + '\n');
  process.stdout.write(`${sum('passes')} passed, ${sum('failures') + failedRuns} failed, ${sum('pending')} skipped\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(results.some((r) => r.code !== 0) || failedRuns ? 1 : 0);
}

main().catch((e) => { console.error(e.stack || e.message); process.exit(1); });
