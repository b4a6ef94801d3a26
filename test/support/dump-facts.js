'use strict';
// Facts about a dump directory computed straight from its files (zstd, sha256, the JSON the
// Shell wrote), independently of the plugin, for tests to compare the plugin's words with.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');

const DATA_FILE = /\.(tsv|csv|txt)(\.zst|\.gz)?$/;
const EMPTY_ZSTD = '28b52ffd2000010000';

function readJson(file) { return JSON.parse(fs.readFileSync(file, 'utf8')); }

function sha256(file) { return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'); }

// sha256 of every file of a directory: {name: hash}.
function hashDir(dir) {
  const out = {};
  for (const f of fs.readdirSync(dir).sort()) if (fs.statSync(path.join(dir, f)).isFile()) out[f] = sha256(path.join(dir, f));
  return out;
}

function zstdOk(file) { return spawnSync('zstd', ['-tq', file], { stdio: 'ignore' }).status === 0; }

// The TSV rows of a zstd chunk file, each split into its fields.
function chunkRows(file) {
  const r = spawnSync('zstd', ['-dc', file], { maxBuffer: 1024 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`zstd -dc ${file} failed: ${r.stderr}`);
  return r.stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => l.split('\t'));
}

// Data files of table `basename`, by chunk number (-1 for an un-chunked file): {n: file}.
function chunkFiles(dir, basename) {
  const out = {};
  const re = new RegExp('^' + basename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(?:@@?(\\d+))?\\.tsv\\.zst$');
  for (const f of fs.readdirSync(dir)) {
    const m = f.match(re);
    if (m) out[m[1] === undefined ? -1 : Number(m[1])] = f;
  }
  return out;
}

// Per dump: the listed schemas, their tables and views (schema JSON files), the data files on disk
// of those schemas, how many are empty zstd frames and how many fail `zstd -t`.
function dumpFacts(dir) {
  const files = fs.readdirSync(dir);
  const top = readJson(path.join(dir, '@.json'));
  const schemaFiles = {};
  for (const f of files) {
    if (f.endsWith('.json') && !f.includes('@')) {
      const j = readJson(path.join(dir, f));
      schemaFiles[j.schema] = { base: f.slice(0, -5), json: j };
    }
  }
  const done = fs.existsSync(path.join(dir, '@.done.json')) ? readJson(path.join(dir, '@.done.json')) : null;
  const facts = { format: top.version, schemas: top.schemas.length, tables: 0, views: 0, dataFiles: 0, empty: 0, corrupt: 0,
    perTable: {}, done: !!done };
  for (const s of top.schemas) {
    const sj = schemaFiles[s].json;
    facts.tables += (sj.tables || []).length;
    facts.views += (sj.views || []).length;
    for (const t of sj.tables || []) {
      const base = (sj.basenames && sj.basenames[t]) || `${schemaFiles[s].base}@${t}`;
      const onDisk = Object.values(chunkFiles(dir, base));
      const mine = new RegExp('^' + base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(@@?\\d+)?\\.tsv\\.zst$');
      const listed = done && done.chunkFileBytes ? Object.keys(done.chunkFileBytes).filter((f) => mine.test(f)) : [];
      // The last chunk is known from a `@@N` or un-chunked file name, on disk or in @.done.json.
      const lastKnown = onDisk.concat(listed).some((f) => !/@\d+\.tsv\.zst$/.test(f) || /@@\d+\.tsv\.zst$/.test(f));
      facts.perTable[`${s}.${t}`] = { onDisk: onDisk.length, chunks: Math.max(onDisk.length, listed.length), lastKnown };
      for (const f of onDisk) {
        const p = path.join(dir, f);
        facts.dataFiles++;
        if (fs.readFileSync(p).toString('hex') === EMPTY_ZSTD) facts.empty++;
        else if (!zstdOk(p)) facts.corrupt++;
      }
    }
  }
  return facts;
}

module.exports = { sha256, hashDir, zstdOk, chunkRows, chunkFiles, dumpFacts, readJson, EMPTY_ZSTD, DATA_FILE };
