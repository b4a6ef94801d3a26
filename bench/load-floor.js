'use strict';
// The floor of npm run bench:load: the same dump loaded with the plan the hardware allows best,
// without util.loadDump. The tables are created from the dump's own DDL without their secondary
// indexes, the redo log is disabled (and enabled again at the end), every chunk is decompressed
// by zstd straight into a `mysql` client's LOAD DATA LOCAL INFILE '/dev/stdin' (decompression is
// in the load path and timed), `threads` chunks at a time, in sessions without binary log,
// unique or foreign key checks; then one ALTER TABLE … ADD per table with all its indexes.
// Written for what util.dumpSchemas/dumpInstance write with their defaults (TSV, zstd, chunked
// or not); the bench's own dump is one.
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

function q(name) { return '`' + String(name).replace(/`/g, '``') + '`'; }
function hex(s) { return s === '' ? "''" : "X'" + Buffer.from(s, 'utf8').toString('hex') + "'"; }
function readJson(f) { return JSON.parse(fs.readFileSync(f, 'utf8')); }

// One table's CREATE TABLE without its secondary indexes, and those indexes as ALTER clauses.
// Foreign keys stay (none in the bench); the primary key stays.
function splitIndexes(ddl) {
  const start = ddl.search(/CREATE TABLE/i);
  const end = ddl.indexOf(';', ddl.lastIndexOf(') ENGINE='));
  if (start < 0 || end < 0) throw new Error('no CREATE TABLE … ENGINE= statement in the table\'s DDL');
  const lines = ddl.slice(start, end).split('\n');
  const keep = [];
  const indexes = [];
  lines.forEach((l) => {
    if (/^\s*(UNIQUE KEY|KEY|INDEX|FULLTEXT KEY|SPATIAL KEY)\s/i.test(l)) indexes.push('ADD ' + l.trim().replace(/,$/, ''));
    else keep.push(l);
  });
  // The line before the closing ") ENGINE=…" must not end with a comma any more.
  const close = keep.findIndex((l) => /^\)\s*ENGINE=/i.test(l));
  keep[close - 1] = keep[close - 1].replace(/,\s*$/, '');
  return { create: keep.join('\n'), indexes };
}

// What the floor runs: {schemas: [CREATE DATABASE …], tables: [{schema, table, create, indexes,
// chunks: [{file, bytes}], load: LOAD DATA text}]}, tables in the dump's order, chunk files in
// chunk order. Read before the timing (a few small files).
function floorPlan(dump) {
  const top = readJson(path.join(dump, '@.json'));
  const done = readJson(path.join(dump, '@.done.json'));
  const files = fs.readdirSync(dump);
  const plan = { schemas: [], tables: [] };
  for (const schema of top.schemas) {
    const sbase = (top.basenames && top.basenames[schema]) || schema;
    const sjson = readJson(path.join(dump, `${sbase}.json`));
    const ssql = fs.readFileSync(path.join(dump, `${sbase}.sql`), 'utf8');
    const create = /CREATE DATABASE[^;]*;/i.exec(ssql);
    plan.schemas.push(create ? create[0].replace(/;$/, '') : `CREATE DATABASE ${q(schema)}`);
    for (const table of sjson.tables) {
      const tbase = (sjson.basenames && sjson.basenames[table]) || `${sbase}@${table}`;
      const meta = readJson(path.join(dump, `${tbase}.json`));
      const o = meta.options;
      const { create: ct, indexes } = splitIndexes(fs.readFileSync(path.join(dump, `${tbase}.sql`), 'utf8'));
      const ext = meta.extension || 'tsv.zst';
      if (!/\.zst$/.test(ext)) throw new Error(`the floor reads zstd chunks; ${tbase} has ${ext}`);
      const chunkRe = new RegExp(`^${tbase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:@@?(\\d+))?\\.${ext.replace(/\./g, '\\.')}$`);
      const chunks = files.map((f) => [f, chunkRe.exec(f)]).filter((x) => x[1])
        .map(([f, m]) => ({ file: path.join(dump, f), n: m[1] === undefined ? 0 : Number(m[1]),
          bytes: Number((done.chunkFileBytes || {})[f] || fs.statSync(path.join(dump, f)).size) }))
        .sort((a, b) => a.n - b.n);
      const load = `LOAD DATA LOCAL INFILE '/dev/stdin' INTO TABLE ${q(schema)}.${q(table)} CHARACTER SET ` +
        `${o.defaultCharacterSet || 'utf8mb4'} FIELDS TERMINATED BY ${hex(o.fieldsTerminatedBy)} ` +
        `${o.fieldsOptionallyEnclosed ? 'OPTIONALLY ' : ''}ENCLOSED BY ${hex(o.fieldsEnclosedBy)} ESCAPED BY ${hex(o.fieldsEscapedBy)} ` +
        `LINES TERMINATED BY ${hex(o.linesTerminatedBy)} (${o.columns.map(q).join(', ')})`;
      plan.tables.push({ schema, table, create: `USE ${q(schema)};\n${ct}`, indexes, chunks, load,
        bytes: chunks.reduce((s, c) => s + c.bytes, 0) });
    }
  }
  return plan;
}

// Runs `client … -e sql`, stdin from `zstd -dc file` when a file is given. Resolves when done.
function run(client, sql, file) {
  const argv = client.trim().split(/\s+/);
  const args = file ? ['-c', 'f=$1; shift; exec zstd -qdc -- "$f" | "$@"', 'sh', file, ...argv, '--local-infile=1', '-e', sql]
    : ['-c', '"$@"', 'sh', ...argv, '-e', sql];
  return new Promise((resolve, reject) => {
    const p = spawn('sh', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`floor: ${sql.slice(0, 120)}… failed (${code}): ${err}`))));
  });
}

// Session settings of every floor session: the load goes nowhere but into the tables.
const SESSION = "SET SESSION sql_log_bin = 0, unique_checks = 0, foreign_key_checks = 0, time_zone = '+00:00'";

// Loads the plan into the server behind `client` with `threads` parallel streams; index builds
// with `ddlBuffer` bytes of sort buffer each. Chunks go biggest table first (the longest work
// starts first); each table's ALTER starts as soon as its last chunk is in, on the same streams,
// ahead of the chunks still waiting. → seconds, from the redo log switch to the redo log back on.
// (Tried on the bench's dump, one run each, 2 CPUs: all ALTERs after all data 8.26/8.30 s against
// 8.11/8.16 s; a 64 MiB sort buffer 8.21/8.20 s; 2 streams instead of 4 7.93/8.04 s.)
// timeline (optional, filled in seconds from the start): dataEnd (the last chunk in), alters (the
// ALTERs' own seconds, summed), alterEnd (the last ALTER done), end.
async function floorLoad(client, plan, { threads, ddlBuffer, timeline }) {
  const t0 = process.hrtime.bigint();
  const at = () => Number(process.hrtime.bigint() - t0) / 1e9;
  const tl = timeline || {};
  Object.assign(tl, { dataEnd: 0, alters: 0, alterEnd: 0, end: 0 });
  await run(client, 'ALTER INSTANCE DISABLE INNODB REDO_LOG');
  await run(client, `${SESSION}; ${plan.schemas.join(';\n')}; ${plan.tables.map((t) => t.create).join(';\n')}`);
  const queue = [];
  const left = new Map();
  plan.tables.slice().sort((a, b) => b.bytes - a.bytes).forEach((t) => {
    left.set(t, t.chunks.length);
    t.chunks.forEach((c) => queue.push({ kind: 'chunk', t, c }));
  });
  const alter = (t) => ({ kind: 'alter', t });
  plan.tables.filter((t) => !t.chunks.length && t.indexes.length).forEach((t) => queue.unshift(alter(t)));
  async function worker() {
    while (queue.length) {
      const job = queue.shift();
      if (job.kind === 'chunk') {
        await run(client, `${SESSION}; ${job.t.load}`, job.c.file);
        tl.dataEnd = Math.max(tl.dataEnd, at());
        left.set(job.t, left.get(job.t) - 1);
        if (left.get(job.t) === 0 && job.t.indexes.length) queue.unshift(alter(job.t));
      } else {
        const a0 = at();
        await run(client, `${SESSION}, innodb_ddl_buffer_size = ${ddlBuffer}; ` +
          `ALTER TABLE ${q(job.t.schema)}.${q(job.t.table)} ${job.t.indexes.join(', ')}`);
        tl.alters += at() - a0;
        tl.alterEnd = Math.max(tl.alterEnd, at());
      }
    }
  }
  // A worker that finds the queue empty ends; the last chunks' ALTERs are queued by the workers
  // still running, so each worker keeps looking until every table is done.
  const workers = [];
  const all = () => [...left.values()].every((n) => n === 0) && !queue.length;
  async function steady() {
    for (;;) {
      await worker();
      if (all()) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  for (let i = 0; i < threads; i++) workers.push(steady());
  await Promise.all(workers);
  await run(client, 'ALTER INSTANCE ENABLE INNODB REDO_LOG');
  tl.end = at();
  return tl.end;
}

module.exports = { floorPlan, floorLoad, splitIndexes };
