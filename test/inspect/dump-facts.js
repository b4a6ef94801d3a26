'use strict';
// Facts about a dump directory computed straight from its files (fs, JSON.parse and the zstd
// and gzip command lines), to compare with what restore.inspect reports. Deliberately simple
// and separate from lib/: a regex per table instead of the plugin's name matcher.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

function readJson(dir, name) {
  return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
}

function escapeRegex(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

// [{schema, table, partition, base, ext, compression, chunking}] as the metadata files say.
function targetsOf(dir) {
  const root = readJson(dir, '@.json');
  const out = [];
  for (const schema of root.schemas) {
    const sb = root.basenames[schema];
    if (!fs.existsSync(path.join(dir, `${sb}.json`))) continue;
    const sj = readJson(dir, `${sb}.json`);
    for (const table of sj.tables) {
      const tb = sj.basenames[table];
      const tj = readJson(dir, `${tb}.json`);
      const compression = tj.compression || tj.options.compression;
      const common = { schema, table, ext: tj.extension, compression, chunking: tj.chunking };
      if (tj.partitions && tj.partitions.length) {
        for (const p of tj.partitions) out.push({ ...common, partition: p, base: tj.basenames[p] });
      } else {
        out.push({ ...common, partition: null, base: tb });
      }
    }
  }
  return out;
}

// Data file names of a target among `names` (.idx names count for their data file).
function dataFilesAmong(names, t) {
  const re = new RegExp(`^${escapeRegex(t.base)}(@@?(0|[1-9][0-9]*))?\\.${escapeRegex(t.ext)}(\\.idx)?$`);
  return [...new Set(names.filter((n) => re.test(n)).map((n) => n.replace(/\.idx$/, '')))];
}

function chunkIndex(name, t) {
  const rest = name.slice(t.base.length, name.length - t.ext.length - 1);
  return rest === '' ? 0 : Number(rest.replace(/^@@?/, ''));
}

// The data files of each target: from chunkFileBytes when recorded, else from the directory.
function expectedChunks(dir) {
  const names = fs.readdirSync(dir);
  const done = fs.existsSync(path.join(dir, '@.done.json')) ? readJson(dir, '@.done.json') : {};
  const recorded = done.chunkFileBytes || null;
  return targetsOf(dir).map((t) => {
    const files = dataFilesAmong(recorded ? Object.keys(recorded) : names, t)
      .sort((a, b) => chunkIndex(a, t) - chunkIndex(b, t));
    return { ...t, files, recorded: recorded ? Object.fromEntries(files.map((f) => [f, recorded[f]])) : null };
  });
}

// Decompressed length of a data file, or null when the tool rejects it.
function contentBytes(file, compression) {
  if (compression === 'none') return fs.statSync(file).size;
  const tool = compression === 'gzip' ? 'gzip' : 'zstd';
  const r = spawnSync(tool, ['-dc', file], { maxBuffer: 1 << 30 });
  return r.status === 0 ? r.stdout.length : null;
}

// The state inspect should report, from what the decompressor says and what the dump recorded.
function expectedState(dir, file, compression, recordedBytes) {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) return 'missing';
  const n = contentBytes(full, compression);
  if (n === null) return 'corrupt';
  if (n === 0) return recordedBytes > 0 ? 'stub' : 'empty';
  return 'present';
}

// .idx: 8-byte big-endian cumulative offsets, the last one the chunk's uncompressed size.
function idxBytes(dir, file) {
  const b = fs.readFileSync(path.join(dir, `${file}.idx`));
  return Number(b.readBigUInt64BE(b.length - 8));
}

module.exports = { readJson, targetsOf, expectedChunks, expectedState, contentBytes, idxBytes };
