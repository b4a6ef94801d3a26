'use strict';
// Runs the stand-in's util.dump* against the test server: dumpers for any Shell version with
// their output captured, the loadDump harness for round trips, and helpers that read a dump
// directory the way a test needs it (JSON files, decompressed data files, `.idx` values).
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');
const { spawnSync } = require('child_process');
const { ClassicSession } = require('../mysqlsh/classic-session');
const { makeProfile } = require('../mysqlsh/profile');
const { createDumpers } = require('../mysqlsh/util/dump-writer');
const { LoadDumpHarness } = require('./load-dump-harness');
const { seedShop, quoteName } = require('./dump-seed');

const PREFIXES = { print: '', error: 'ERROR: ', warn: 'WARNING: ', note: 'NOTE: ' };

class DumpHarness extends LoadDumpHarness {
  // A harness with `schema` freshly seeded (dump-seed.js); cleanup() drops it and alsoOwned.
  static seeded(schema, ...alsoOwned) {
    const h = new DumpHarness();
    h.own(schema, ...alsoOwned);
    h.sql(`DROP DATABASE IF EXISTS ${quoteName(schema)}`);
    seedShop(h.checker, schema);
    return h;
  }

  // util.dumpInstance/dumpSchemas/dumpTables for Shell `version`; resets the captured lines.
  dumpers(version = '8.4.0', cwd = os.tmpdir()) {
    const profile = makeProfile(version);
    this.lines = [];
    const out = Object.fromEntries(Object.entries(PREFIXES).map(([fn, prefix]) => [fn, (t) => this.lines.push(`${prefix}${t}`)]));
    const openSession = () => new ClassicSession({ bridge: this.bridge, uri: this.uri, profile });
    return createDumpers({ profile, openSession, out, cwd });
  }

  // A path inside a fresh temp dir that does not exist yet (the dump creates it).
  outputDir(name = 'dump') { return path.join(this.tmpDir('dump-out-'), name); }
}

function readJson(dir, name) { return JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')); }

// Uncompressed content of a data file, by its extension.
function dataContent(file) {
  if (file.endsWith('.zst')) {
    const r = spawnSync('zstd', ['-dc', '-q', file], { maxBuffer: 1 << 30 });
    if (r.status !== 0) throw new Error(`zstd -d ${file}: ${r.stderr}`);
    return r.stdout;
  }
  if (file.endsWith('.gz')) return zlib.gunzipSync(fs.readFileSync(file));
  return fs.readFileSync(file);
}

function idxValues(file) {
  const b = fs.readFileSync(file);
  return Array.from({ length: b.length / 8 }, (_, i) => Number(b.readBigUInt64BE(8 * i)));
}

// Data files of one table or partition basename, in chunk order: [{name, index, last}].
function chunkFiles(dir, basename, extension = 'tsv.zst') {
  const esc = basename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^${esc}(?:@(@?)(\\d+))?\\.${extension.replace('.', '\\.')}$`);
  return fs.readdirSync(dir).map((name) => {
    const m = re.exec(name);
    return m && { name, index: m[2] === undefined ? null : Number(m[2]), last: m[1] === '@' };
  }).filter(Boolean).sort((a, b) => (a.index === null ? -1 : a.index) - (b.index === null ? -1 : b.index));
}

module.exports = { DumpHarness, readJson, dataContent, idxValues, chunkFiles };
