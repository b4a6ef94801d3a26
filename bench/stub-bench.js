#!/usr/bin/env node
'use strict';
// npm run bench: a synthetic dump of 1,000 tables (metadata and .idx files only, a realistic
// @.done.json), then, in the real mysqlsh with the plugin's real Python companion:
//   plan  — restore.plan with a `latest` selection (inspect + plan, no writes)
//   stub  — restore.stub of every chunk
//   floor — a plain Python loop creating the same files in an identical copy of the dump
// for 10k, 50k and 100k chunk files; seconds and peak memory (each run in its own process).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const TABLES = 1000;
const SIZES = (process.env.BENCH_SIZES || '10000,50000,100000').split(',').map(Number);

function writeSyntheticDump(dir, chunkFiles) {
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

// One measurement in the real mysqlsh (no server needed), timed inside the Shell around the call
// alone: startup (plugins, Python) is not the plugin's work. Peak memory is the mysqlsh process's.
function measure(kind, dir) {
  const { runJs } = require('../test/support/shell');
  const call = kind === 'plan' ? `restore.plan(${JSON.stringify(dir)}, {latest: {"bench.*": 2}, outputFormat: "none"}).fetch.length`
    : `restore.stub(${JSON.stringify(dir)}, {latest: 0, outputFormat: "none"}).written.length`;
  const r = runJs(null, `var t0 = Date.now(); var n = ${call}; [Date.now() - t0, n]`);
  if (r.error) throw new Error(r.error.message);
  return { seconds: r.value[0] / 1000, value: r.value[1], peakMB: process.resourceUsage().maxRSS / 1024 };
}

function pythonFloor(dir, names) {
  const list = path.join(dir, '..', 'names.txt');
  fs.writeFileSync(list, names.join('\n'));
  const code = [
    'import sys, time, resource',
    'd = sys.argv[1]; names = open(sys.argv[2]).read().split("\\n")',
    'data = bytes([0x28,0xb5,0x2f,0xfd,0x20,0,1,0,0])',
    't = time.perf_counter()',
    'for n in names:',
    '    with open(d + "/" + n, "xb") as f: f.write(data)',
    'print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)',
  ].join('\n');
  const r = spawnSync('python3', ['-c', code, dir, list], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const [seconds, peakMB] = r.stdout.trim().split(' ').map(Number);
  return { seconds, peakMB };
}

// Dirty pages from writing the synthetic dump would otherwise be flushed during the timings.
function settle() { spawnSync('sync'); }

function child(kind, dir) {
  settle();
  const r = spawnSync(process.execPath, [__filename, '--one', kind, dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(r.stderr || r.stdout);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function main() {
  if (process.argv[2] === '--one') {
    process.stdout.write(`${JSON.stringify(measure(process.argv[3], process.argv[4]))}\n`);
    return;
  }
  const rows = [];
  for (const size of SIZES) {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-bench-'));
    const stubDir = path.join(base, 'dump');
    const floorDir = path.join(base, 'floor');
    const files = writeSyntheticDump(stubDir, size);
    const plan = child('plan', stubDir);
    const stub = child('stub', stubDir);
    writeSyntheticDump(floorDir, size); // the floor writes the same names into an identical directory
    const names = Object.keys(JSON.parse(fs.readFileSync(path.join(stubDir, '@.done.json'), 'utf8')).chunkFileBytes);
    settle();
    const floor = pythonFloor(floorDir, names);
    rows.push({ files, plan, stub, floor });
    fs.rmSync(base, { recursive: true, force: true });
  }
  const pad = (s, n) => String(s).padStart(n);
  console.log(`${TABLES} tables; times in seconds, peak memory in MB (the measuring node process; Python floor process)`);
  console.log(`${pad('chunk files', 11)} ${pad('plan s', 8)} ${pad('plan MB', 8)} ${pad('stub s', 8)} ${pad('stub MB', 8)} ${pad('floor s', 8)} ${pad('floor MB', 8)} ${pad('stub/floor', 10)}`);
  for (const r of rows) {
    console.log(`${pad(r.files, 11)} ${pad(r.plan.seconds.toFixed(2), 8)} ${pad(r.plan.peakMB.toFixed(0), 8)} ${pad(r.stub.seconds.toFixed(2), 8)} ${pad(r.stub.peakMB.toFixed(0), 8)} ${pad(r.floor.seconds.toFixed(2), 8)} ${pad(r.floor.peakMB.toFixed(0), 8)} ${pad((r.stub.seconds / r.floor.seconds).toFixed(2), 10)}`);
    if (r.stub.value !== r.files) console.log(`  (stub wrote ${r.stub.value} files, expected ${r.files})`);
  }
  console.log('Targets: plan < 1 s at 100k; stub within 1.3x of the floor; peak < 200 MB; linear growth.');
}

main();
