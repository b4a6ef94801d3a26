#!/usr/bin/env node
'use strict';
// npm run bench: the load view at scale. A synthetic dump of 1,000 tables (metadata, .idx files and
// a small real zstd data file for every chunk, a realistic @.done.json), then, in the real mysqlsh
// with the plugin's real Python companion, interleaved 3 times (BENCH_RUNS) for 10k, 50k and 100k
// chunk files (BENCH_SIZES):
//   idle  — mysqlsh starting and doing nothing (its peak memory is the reference)
//   plan  — restore plan with latest (the newest 2 chunks of every table): reads, writes nothing
//   view  — restore view with the same selection: links to the chosen files and the metadata, a
//           stub for every other chunk, the view's own @.done.json
//   floor — a plain Python loop creating one 9-byte file per chunk name in a fresh directory
//   inspect — restore inspect of the whole dump (reads the first bytes of every data file)
// Times: wall time of each process; the view's work is its time less idle mysqlsh's (start-up).
// Memory: peak resident memory of the mysqlsh process (bench/measure.js), not of node.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { runMeasured, interleave, stats, fmt, machineLine, settle } = require('./measure');

const TABLES = 1000;
const SIZES = (process.env.BENCH_SIZES || '10000,50000,100000').split(',').map(Number);
const ROOT = path.resolve(__dirname, '..');
const MYSQLSH = path.join(path.resolve(process.env.RESTORE_SHARED_DIR || path.join(ROOT, '..', 'shared')), 'bin', 'mysqlsh');

function writeSyntheticDump(dir, chunkFiles, data) {
  const perTable = Math.max(1, Math.floor(chunkFiles / TABLES));
  fs.mkdirSync(dir, { recursive: true });
  const schema = 'bench';
  const tables = Array.from({ length: TABLES }, (_, i) => `t${String(i).padStart(4, '0')}`);
  const chunkFileBytes = {};
  const tableDataBytes = { [schema]: {} };
  const tableRows = { [schema]: {} };
  const idx = Buffer.alloc(8);
  idx.writeBigUInt64BE(67108864n);
  for (const t of tables) {
    for (let n = 0; n < perTable; n++) {
      const name = `${schema}@${t}@${n === perTable - 1 ? '@' : ''}${n}.tsv.zst`;
      chunkFileBytes[name] = 67108864;
      fs.writeFileSync(path.join(dir, `${name}.idx`), idx);
      if (data) fs.writeFileSync(path.join(dir, name), data(`${t}:${n}`));
    }
    tableDataBytes[schema][t] = 67108864 * perTable;
    tableRows[schema][t] = 500000 * perTable;
    fs.writeFileSync(path.join(dir, `${schema}@${t}.json`), JSON.stringify({
      options: { schema, table: t, columns: ['id', 'payload'], defaultCharacterSet: 'utf8mb4', fieldsTerminatedBy: '\t',
        fieldsEnclosedBy: '', fieldsOptionallyEnclosed: false, fieldsEscapedBy: '\\', linesTerminatedBy: '\n' },
      triggers: [], histograms: [], includesData: true, includesDdl: true, extension: 'tsv.zst', chunking: true,
      compression: 'zstd', primaryIndex: ['id'], partitions: [], basenames: {},
    }));
    fs.writeFileSync(path.join(dir, `${schema}@${t}.sql`), `CREATE TABLE IF NOT EXISTS \`${t}\` (id int primary key, payload text);\n`);
  }
  fs.writeFileSync(path.join(dir, '@.json'), JSON.stringify({
    dumper: 'mysqlsh Ver 8.4.0 for Linux on x86_64 - for MySQL 8.4.0 (MySQL Community Server (GPL))',
    version: '2.0.1', origin: 'dumpSchemas', schemas: [schema], basenames: { [schema]: schema },
    defaultCharacterSet: 'utf8mb4', tzUtc: true, bytesPerChunk: 64000000, user: 'root', hostname: 'bench',
    server: 'bench', serverVersion: '8.4.0', gtidExecuted: '', gtidExecutedInconsistent: false, consistent: true,
    partialRevokes: false, compatibilityOptions: [], capabilities: [], begin: '2026-01-01 00:00:00',
  }));
  fs.writeFileSync(path.join(dir, `${schema}.json`), JSON.stringify({
    schema, includesDdl: true, includesViewsDdl: true, includesData: true, tables, views: [], events: [],
    functions: [], procedures: [], basenames: Object.fromEntries(tables.map((t) => [t, `${schema}@${t}`])),
  }));
  fs.writeFileSync(path.join(dir, `${schema}.sql`), `CREATE DATABASE IF NOT EXISTS \`${schema}\`;\n`);
  fs.writeFileSync(path.join(dir, '@.sql'), '-- bench\n');
  fs.writeFileSync(path.join(dir, '@.post.sql'), '-- bench\n');
  fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify({
    end: '2026-01-01 01:00:00', dataBytes: 67108864 * perTable * TABLES, tableDataBytes, tableRows, chunkFileBytes,
  }));
  return perTable * TABLES;
}

// Each data file a zstd frame of its own one-row content (the view links the chosen ones; equal
// files would be reported as copies of each other): a frame holding one raw block, with no content
// size recorded (as zstd writes a stream), so the dump's recorded sizes are not contradicted.
function zstdRow(key) {
  const row = Buffer.from(`1\t${key}\n`);
  const block = (row.length << 3) | 1; // last block, raw
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x00, block & 0xff, (block >> 8) & 0xff, block >> 16]), row]);
}

const FLOOR = [
  'import sys, time',
  'd = sys.argv[1]; names = open(sys.argv[2]).read().split("\\n")',
  'data = bytes([0x28,0xb5,0x2f,0xfd,0x20,0,1,0,0])',
  't = time.perf_counter()',
  'for n in names:',
  '    with open(d + "/" + n, "xb") as f: f.write(data)',
  'print(time.perf_counter() - t)',
].join('\n');

// In memory (tmpfs) where there is one and it has inodes enough (a dump of N chunks holds 2N files,
// and the view or the floor, one at a time, N more), unless BENCH_DIR
// says otherwise: the view and the floor are then measured by what they do, not by when the disk
// writes back earlier runs' files (measured on this machine's disk: the same floor took 3.6 s and 14.0 s).
function benchRoot() {
  if (process.env.BENCH_DIR) return process.env.BENCH_DIR;
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    if (fs.statfsSync('/dev/shm').ffree > 3 * Math.max(...SIZES) + 50000) return '/dev/shm';
  } catch (e) { /* no tmpfs here */ }
  return os.tmpdir();
}

function main() {
  if (!fs.existsSync(MYSQLSH)) {
    process.stderr.write(`npm run bench needs the real MySQL Shell (${MYSQLSH}): put ../shared beside the checkout.\n`);
    process.exit(1);
  }
  const base = fs.mkdtempSync(path.join(benchRoot(), 'restore-bench-'));
  const home = path.join(base, 'home');
  fs.mkdirSync(home);
  spawnSync('sh', [path.join(ROOT, 'install.sh')], { env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: home }, stdio: 'ignore' });
  const env = { ...process.env, MYSQLSH_USER_CONFIG_HOME: home };
  const data = zstdRow;
  console.log(machineLine(MYSQLSH));
  console.log(`${TABLES} tables, in ${base}; each figure: median (min–max) of ${process.env.BENCH_RUNS || 3} runs, ` +
    'interleaved; seconds of wall time, MB of peak resident memory of the process doing the work.');
  const checks = [];
  try {
    for (const size of SIZES) {
      const dump = path.join(base, `dump-${size}`);
      const files = writeSyntheticDump(dump, size, data);
      const names = Object.keys(JSON.parse(fs.readFileSync(path.join(dump, '@.done.json'), 'utf8')).chunkFileBytes);
      const list = path.join(base, 'names.txt');
      fs.writeFileSync(list, names.join('\n'));
      let n = 0;
      const fresh = (what) => path.join(base, `${what}-${size}-${n++}`);
      const shell = (args) => () => {
        settle();
        const r = runMeasured(MYSQLSH, args, { env });
        if (r.status !== 0) throw new Error(`mysqlsh ${args.join(' ')} failed: ${r.stderr.slice(-1000)}`);
        return r;
      };
      const results = interleave([
        { name: 'idle', run: shell(['--js', '-e', '1']) },
        { name: 'plan', run: shell(['--', 'restore', 'plan', dump, '--latest=bench.*:2', '--output-format=json']) },
        { name: 'view', run: () => {
          const dir = fresh('view');
          const r = shell(['--', 'restore', 'view', dump, '--latest=bench.*:2', `--view-dir=${dir}`, '--output-format=json'])();
          r.entries = fs.readdirSync(dir).length;
          fs.rmSync(dir, { recursive: true, force: true });
          return r;
        } },
        { name: 'floor', run: () => {
          const dir = fresh('floor');
          fs.mkdirSync(dir);
          settle();
          const r = runMeasured('python3', ['-c', FLOOR, dir, list]);
          fs.rmSync(dir, { recursive: true, force: true });
          return { seconds: Number(r.stdout.trim()), peakMB: r.peakMB };
        } },
        { name: 'inspect', run: shell(['--', 'restore', 'inspect', dump]) },
        // In place on the complete dump: reads what restore.stub reads, writes nothing (no chunk is missing).
        { name: 'stub', run: shell(['--', 'restore', 'stub', dump, '--latest=bench.*:2', '--output-format=json']) },
      ]);
      const col = (v, k) => results[v].map((x) => x[k]);
      const idle = stats(col('idle', 'seconds')).median;
      const work = col('view', 'seconds').map((s) => s - idle);
      const ratio = stats(work).median / stats(col('floor', 'seconds')).median;
      const above = stats(col('view', 'peakMB')).median - stats(col('idle', 'peakMB')).median;
      console.log(`\n${files} chunk files (the view: ${results.view[0].entries} entries)`);
      console.log('  variant  seconds               peak MB');
      for (const v of ['idle', 'plan', 'view', 'floor', 'inspect', 'stub']) {
        console.log(`  ${v.padEnd(7)}  ${fmt(col(v, 'seconds')).padEnd(20)}  ${fmt(col(v, 'peakMB'), 0)}`);
      }
      console.log(`  view work (view less idle mysqlsh): ${fmt(work)} s = ${ratio.toFixed(2)}x the floor`);
      const idleMB = stats(col('idle', 'peakMB')).median;
      console.log(`  peak above idle mysqlsh: view ${above.toFixed(0)} MB, plan ${(stats(col('plan', 'peakMB')).median - idleMB).toFixed(0)} MB, ` +
        `inspect ${(stats(col('inspect', 'peakMB')).median - idleMB).toFixed(0)} MB, stub ${(stats(col('stub', 'peakMB')).median - idleMB).toFixed(0)} MB`);
      // The targets are set for 100,000 chunks (1,000 tables); smaller dumps show how the cost scales
      // (at 10,000 the fixed cost of reading 1,000 tables' metadata weighs more than the floor's files).
      const judged = files >= 100000;
      const verdict = (ok) => (judged ? (ok ? 'PASS' : 'FAIL') : '(targets are set for 100,000)');
      const aboveOf = (v) => stats(col(v, 'peakMB')).median - idleMB;
      const peaks = ['plan', 'view', 'inspect', 'stub'].map((v) => `${v} ${aboveOf(v).toFixed(0)}`).join(', ');
      const worst = Math.max(...['plan', 'view', 'inspect', 'stub'].map(aboveOf));
      checks.push(`${files}: view ${ratio.toFixed(2)}x the floor (target 1.3x) ${verdict(ratio <= 1.3)}; ` +
        `peak MB above idle: ${peaks} (target 50 each) ${verdict(worst <= 50)}`);
      fs.rmSync(dump, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(base, { recursive: true, force: true });
  }
  console.log('\nTargets (issues 19 and 21):');
  checks.forEach((c) => console.log(`  ${c}`));
}

if (require.main === module) main();
module.exports = { writeSyntheticDump };
