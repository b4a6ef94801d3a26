'use strict';
// What every benchmark here measures, the same way: a command's wall time and the peak resident
// memory of the process that does the work (the largest of the command's processes: mysqlsh
// itself, not the node process that starts it), each variant run several times, interleaved
// (A B C A B C …), reported as median with min and max.
const fs = require('fs');
const os = require('os');
const { spawnSync } = require('child_process');

// Runs the command under a small Python parent that waits for it and reads getrusage of its
// children: ru_maxrss is the peak of the largest process of the command (KiB on Linux). The bytes the
// command read: the parent's /proc/self/io after the wait less before (Linux adds a reaped child's
// counters to its parent's): rchar (every read(), the page cache's included) and read_bytes (from the disk).
const WRAPPER = [
  'import resource, subprocess, sys, time',
  'def io():',
  '    try:',
  '        d = dict(l.split(": ") for l in open("/proc/self/io").read().splitlines())',
  '        return int(d["rchar"]), int(d["read_bytes"])',
  '    except Exception:',
  '        return -1, -1',
  'i0 = io()',
  't = time.perf_counter()',
  'p = subprocess.run(sys.argv[1:])',
  'i1 = io()',
  'u = resource.getrusage(resource.RUSAGE_CHILDREN)',
  'sys.stderr.write("\\n@@MEASURE@@ %d %.6f %d %.3f %d %d\\n" % (p.returncode, time.perf_counter() - t, u.ru_maxrss,',
  '  u.ru_utime + u.ru_stime, i1[0] - i0[0] if i0[0] >= 0 else -1, i1[1] - i0[1] if i0[0] >= 0 else -1))',
].join('\n');

// → {seconds, peakMB, cpu (user + system seconds of the command's processes), readMB (rchar), diskReadMB (read_bytes;
// both null where /proc/self/io is not there), status, stdout, stderr}
function runMeasured(cmd, args, opts = {}) {
  const r = spawnSync('python3', ['-c', WRAPPER, cmd, ...args], { env: opts.env || process.env, cwd: opts.cwd,
    encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'pipe'] });
  const m = /@@MEASURE@@ (-?\d+) ([\d.]+) (\d+) ([\d.]+) (-?\d+) (-?\d+)\s*$/.exec(r.stderr || '');
  if (!m) throw new Error(`measuring ${cmd} failed: ${r.stderr}`);
  const mb = (x) => (Number(x) < 0 ? null : Number(x) / 2 ** 20);
  return { status: Number(m[1]), seconds: Number(m[2]), peakMB: Number(m[3]) / 1024, cpu: Number(m[4]), readMB: mb(m[5]),
    diskReadMB: mb(m[6]), stdout: r.stdout, stderr: r.stderr.slice(0, m.index) };
}

// variants: [{name, run: () => ({seconds, peakMB, …})}], each run `runs` times, interleaved.
function interleave(variants, runs = Number(process.env.BENCH_RUNS || 3)) {
  const out = {};
  variants.forEach((v) => { out[v.name] = []; });
  for (let i = 0; i < runs; i++) {
    for (const v of variants) out[v.name].push(v.run(i));
  }
  return out;
}

function stats(list) {
  const s = list.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return { median: s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2, min: s[0], max: s[s.length - 1] };
}

// "1.23 (1.10–1.40)"
function fmt(list, digits = 2) {
  const s = stats(list);
  return `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

function machineLine(mysqlsh) {
  let cpu = '';
  try { cpu = (/model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8')) || [])[1] || ''; } catch (e) { /* not Linux */ }
  const v = mysqlsh ? (spawnSync(mysqlsh, ['--version'], { encoding: 'utf8' }).stdout || '').trim() : '';
  return `Machine: ${os.cpus().length} CPUs${cpu ? ` (${cpu.trim()})` : ''}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ` +
    `${os.type()} ${os.release()}${v ? `; ${v}` : ''}`;
}

// Dirty pages of earlier writes would otherwise be flushed during the next timing.
function settle() { spawnSync('sync'); }

// Each variant `runs` times, interleaved, each run on a fresh server from start(): check(server,
// variant, t) reads what the run left (before the server stops) and throws when it is wrong;
// done(i, variant, t) prints the run. The next run's server starts as soon as a run's timing ends,
// while the run is checked and its server stopped (neither is timed). A variant with `runs` of its
// own runs in the first that many rounds only. → {variant name: [t]}.
async function onFreshServers(variants, runs, { start, check, done }) {
  const results = {};
  variants.forEach((v) => { results[v.name] = []; });
  const order = [];
  for (let i = 0; i < runs; i++) variants.forEach((v) => { if (i < (v.runs || runs)) order.push({ i, v }); });
  let next = order.length ? start() : null;
  try {
    for (let k = 0; k < order.length; k++) {
      const { i, v } = order[k];
      const server = await next;
      next = null;
      let t;
      try {
        settle();
        t = await v.run(server);
        if (k + 1 < order.length) next = start();
        if (t.status !== 0) throw new Error(`${v.name} failed: ${t.stdout}${t.stderr}`);
        await check(server, v, t);
      } finally {
        await server.stop();
      }
      results[v.name].push(t);
      done(i, v, t);
    }
  } finally {
    if (next) await next.then((s) => s.stop(), () => {});
  }
  return results;
}

// util.loadDump's own times, to the millisecond, from its progress file (JSON lines, each with a
// "timestamp" in ms; a blank line before each later call's lines, the batches of
// lib/run/load-batches.js sharing one file): per call, the DDL from the first TABLE-DDL begun to
// the last done, the data from the first chunk begun to the last chunk or deferred index done, of
// which chunks (to the last chunk done) and indexes (the deferred index builds, first begun to last
// done); summed over the calls. overlap: the seconds where a call's data began before its DDL
// ended (counted in both). The summaries' whole seconds could be anything within ±0.5 s a call.
const CHUNK_OPS = ['TABLE-DATA', 'TABLE-SUB-DATA', 'TABLE-DATA-BULK'];
function progressWindows(file) {
  const out = { ddl: 0, data: 0, chunks: 0, indexes: 0, overlap: 0, calls: 0 };
  for (const call of fs.readFileSync(file, 'utf8').split(/\n\s*\n/)) {
    const ev = call.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
    const span = (ops) => {
      const begun = ev.filter((e) => ops.includes(e.op) && !e.done).map((e) => e.timestamp);
      const done = ev.filter((e) => ops.includes(e.op) && e.done).map((e) => e.timestamp);
      return begun.length && done.length ? [Math.min(...begun), Math.max(...done)] : null;
    };
    const ddl = span(['TABLE-DDL']);
    const data = span(CHUNK_OPS.concat(['TABLE-INDEX']));
    if (!ddl && !data) continue;
    out.calls++;
    const add = (k, w) => { if (w) out[k] += (w[1] - w[0]) / 1000; };
    add('ddl', ddl);
    add('data', data);
    add('chunks', span(CHUNK_OPS));
    add('indexes', span(['TABLE-INDEX']));
    if (ddl && data) out.overlap += Math.max(0, Math.min(ddl[1], data[1]) - data[0]) / 1000;
  }
  return out;
}

module.exports = { runMeasured, interleave, onFreshServers, stats, fmt, machineLine, settle, progressWindows };
