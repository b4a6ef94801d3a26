'use strict';
// Reads a dump directory's metadata (loader-internals §1) into the plan the loader follows.
// File names come from the `basenames` maps only; every path stays inside the dump directory.
// Presence is decided by the ONE directory listing the loader took (§2.1).
const fs = require('fs');
const path = require('path');
const { shellThrowable } = require('../../shell-errors');
const { compareVersions } = require('../../profile');

const WHERE = 'Util.loadDump';

// Format version each Shell writes (§1.3); a Shell reads up to its own major.minor.
function formatWrittenBy(shellVersion) {
  if (compareVersions(shellVersion, '8.0.22') < 0) return '1.0.0';
  if (compareVersions(shellVersion, '8.0.23') < 0) return '1.0.1';
  if (compareVersions(shellVersion, '8.0.27') < 0) return '1.0.2';
  return '2.0.1';
}

class DumpDir {
  constructor(dir, profile) {
    this.dir = path.resolve(dir);
    this.profile = profile;
    this.listing = null;
  }

  file(name) {
    const full = path.join(this.dir, name);
    if (path.dirname(full) !== this.dir || name.includes('/') || name === '..') {
      throw shellThrowable(this.profile, 'RuntimeError', `Invalid file name in dump metadata: '${name}'`, undefined, WHERE);
    }
    return full;
  }

  list() {
    this.listing = new Set(fs.readdirSync(this.dir));
    return this.listing;
  }

  has(name) { return this.listing.has(name); }

  // A metadata file the dump must hold (§2.2 e).
  requireFile(name) {
    if (!this.has(name)) {
      throw shellThrowable(this.profile, 'RuntimeError',
        'Dump directory is corrupted, some of the metadata files are missing', 53029, WHERE);
    }
    return this.file(name);
  }

  readJson(name) {
    const full = this.requireFile(name);
    try {
      return JSON.parse(fs.readFileSync(full, 'utf8'));
    } catch (e) {
      throw shellThrowable(this.profile, 'RuntimeError', `Failed to parse '${name}': ${e.message}`, undefined, WHERE);
    }
  }

  readText(name) { return fs.readFileSync(this.requireFile(name), 'utf8'); }

  // Optional files (@.sql, @.post.sql): read when listed.
  readOptionalText(name) { return this.has(name) ? fs.readFileSync(this.file(name), 'utf8') : null; }
}

// @.json is read before anything else; its absence is the Shell's "Cannot open file" error.
function readRootMetadata(dumpDir, profile, out) {
  const file = path.join(dumpDir.dir, '@.json');
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    const reason = e.code === 'ENOTDIR' ? 'Not a directory' : 'No such file or directory';
    throw shellThrowable(profile, 'RuntimeError', `Cannot open file '${file}': ${reason}`, undefined, WHERE);
  }
  const root = JSON.parse(text);
  const [maj, min] = String(root.version || '1.0.0').split('.').map(Number);
  const [smaj, smin] = formatWrittenBy(profile.version).split('.').map(Number);
  if (maj > smaj || (maj === smaj && min > smin)) {
    out.error(`Dump format has version ${root.version} which is not supported by this version of MySQL Shell. Please upgrade MySQL Shell to use it.`);
    throw shellThrowable(profile, 'RuntimeError', 'Unsupported dump version', 53006, WHERE);
  }
  return root;
}

function compressionOf(tableJson) {
  const c = tableJson.compression || (tableJson.options && tableJson.options.compression);
  if (c) return c;
  const ext = tableJson.extension || '';
  if (ext.endsWith('.zst')) return 'zstd';
  if (ext.endsWith('.gz')) return 'gzip';
  return 'none';
}

function primaryIndexOf(tableJson) {
  if (Array.isArray(tableJson.primaryIndex)) return tableJson.primaryIndex;
  const legacy = tableJson.options && tableJson.options.primaryIndex;
  return legacy ? [legacy] : [];
}

function readTable(dumpDir, schema, name, base, schemaJson, filters) {
  const json = dumpDir.readJson(`${base}.json`);
  const includesDdl = schemaJson.includesDdl !== false && json.includesDdl !== false;
  if (includesDdl) dumpDir.requireFile(`${base}.sql`);
  const triggers = (json.triggers || []).filter((tr) => filters.triggerIncluded(schema, name, tr));
  if (includesDdl && triggers.length) dumpDir.requireFile(`${base}.triggers.sql`);
  const partitionNames = json.partitions || [];
  const partitionBasenames = json.basenames || {};
  return {
    schema, name, basename: base, json, includesDdl, triggers,
    includesData: schemaJson.includesData !== false && json.includesData !== false,
    extension: json.extension || 'tsv.zst',
    chunking: json.chunking !== false,
    compression: compressionOf(json),
    primaryIndex: primaryIndexOf(json),
    options: json.options || {},
    histograms: json.histograms || [],
    // One data unit per partition (8.0.27+), else the table itself.
    units: partitionNames.length
      ? partitionNames.map((p) => ({ partition: p, basename: partitionBasenames[p] || `${base}@${p}` }))
      : [{ partition: '', basename: base }],
  };
}

// The schemas and the objects the filters keep, with their files checked against the listing.
function scanMetadata(dumpDir, root, filters) {
  const schemas = [];
  for (const name of root.schemas || []) {
    if (!filters.schemaIncluded(name)) continue;
    const base = (root.basenames && root.basenames[name]) || name;
    const json = dumpDir.readJson(`${base}.json`);
    const includesDdl = json.includesDdl !== false;
    if (includesDdl) dumpDir.requireFile(`${base}.sql`);
    const objectBase = (object) => (json.basenames && json.basenames[object]) || `${base}@${object}`;
    const tables = (json.tables || []).filter((t) => filters.tableIncluded(name, t))
      .map((t) => readTable(dumpDir, name, t, objectBase(t), json, filters));
    const includesViewsDdl = json.includesViewsDdl !== undefined ? json.includesViewsDdl !== false : includesDdl;
    const views = (json.views || []).filter((v) => filters.tableIncluded(name, v)).map((v) => {
      const vbase = objectBase(v);
      if (includesViewsDdl) { dumpDir.requireFile(`${vbase}.pre.sql`); dumpDir.requireFile(`${vbase}.sql`); }
      return { schema: name, name: v, basename: vbase };
    });
    // 9.3+ multi-file schema DDL: each part is required when its object list is not empty.
    const multifileDdl = !json.multifileDdl ? [] : [
      ['events', json.events], ['libraries', json.libraries], ['routines', [...(json.functions || []), ...(json.procedures || [])]],
    ].filter(([, list]) => list && list.length).map(([part]) => dumpDir.requireFile(`${base}.${part}.sql`) && `${base}.${part}.sql`);
    schemas.push({
      name, basename: base, json, includesDdl, includesViewsDdl, tables, views, multifileDdl,
      functions: (json.functions || []).filter((f) => filters.routineIncluded(name, f)),
      procedures: (json.procedures || []).filter((p) => filters.routineIncluded(name, p)),
      events: (json.events || []).filter((e) => filters.eventIncluded(name, e)),
    });
  }
  return schemas;
}

module.exports = { DumpDir, readRootMetadata, scanMetadata, formatWrittenBy };
