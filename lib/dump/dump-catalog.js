// What the metadata of a dump says it holds: schemas, tables, views and partitions, with each
// one's file base name (always from the `basenames` maps), and per table the data settings
// (extension, compression, chunking, primary index) read the same way for formats 1.0.x
// (compression and primaryIndex inside `options`) and 2.0.1 (top level, plus partitions).
var checkFileNamePart = require('./dump-paths.js').checkFileNamePart;
var readJsonFile = require('./dump-metadata.js').readJsonFile;
var ownValue = require('./dump-metadata.js').ownValue;
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;

function stringList(v) {
  return Array.isArray(v) ? v.filter(function (x) { return typeof x === 'string'; }) : [];
}

// The loader's own fallback when a map lacks a name: the raw name (schemas) or
// "<schema base>@<raw name>" (tables, partitions). A name the map does hold must give a usable
// base name: an empty or non-text one is damage, refused (MySQL Shell never writes one, and a
// guess could name a file util.loadDump does not read). Both are checked like any other base name.
function baseName(map, name, fallback, what, source) {
  var v = ownValue(map, name);
  return checkFileNamePart(v === undefined ? fallback : v, what, source);
}

function compressionOf(ext) {
  if (/\.zst$/.test(ext)) return 'zstd';
  if (/\.gz$/.test(ext)) return 'gzip';
  return 'none';
}

// 1.0.x: options.primaryIndex is a column name ("" when the table has no usable index);
// 1.0.2 also writes the 2.0.1 top-level list. null when neither is recorded.
function primaryIndexOf(tj) {
  var v = tj.primaryIndex !== undefined ? tj.primaryIndex : (tj.options || {}).primaryIndex;
  if (Array.isArray(v)) return stringList(v);
  if (typeof v === 'string') return v === '' ? [] : [v];
  return null;
}

// What util.loadDump passes to LOAD DATA from the table JSON's options (contract §2), under
// util.importTable's option names (the same names, characterSet for defaultCharacterSet).
var LOAD_DIALECT = ['columns', 'decodeColumns', 'fieldsTerminatedBy', 'fieldsEnclosedBy', 'fieldsOptionallyEnclosed',
  'fieldsEscapedBy', 'linesTerminatedBy'];

function loadDialect(options) {
  var out = {};
  LOAD_DIALECT.forEach(function (k) { if (options[k] !== undefined && options[k] !== null) out[k] = options[k]; });
  if (typeof options.defaultCharacterSet === 'string' && options.defaultCharacterSet !== '') {
    out.characterSet = options.defaultCharacterSet;
  }
  return out;
}

function tableSettings(tj, what, source) {
  // Every Shell version writes `extension`; tsv.zst is its default, should one ever lack it.
  var ext = checkFileNamePart(typeof tj.extension === 'string' ? tj.extension : 'tsv.zst',
    'the data files of ' + what + ' (extension)', source);
  var options = tj.options && typeof tj.options === 'object' ? tj.options : {};
  var compression = tj.compression || options.compression || compressionOf(ext);
  return {
    extension: ext,
    compression: String(compression).toLowerCase(),
    chunking: tj.chunking === true,
    primaryIndex: primaryIndexOf(tj),
    includesData: tj.includesData !== false,
    includesDdl: tj.includesDdl !== false,
    triggers: stringList(tj.triggers),
    partitions: stringList(tj.partitions),
    partitionBasenames: tj.basenames,
    loadDialect: loadDialect(options),
    // The histograms util.dump* recorded ({column, buckets} as written; buckets checked where used).
    histograms: (Array.isArray(tj.histograms) ? tj.histograms : []).filter(function (h) {
      return h && typeof h.column === 'string';
    }).map(function (h) { return { column: h.column, buckets: h.buckets }; }),
  };
}

// Reads every schema and table JSON the root metadata leads to, each once; the parsed documents
// stay with their entries (json: a load view rewrites them for schemaMap), one per schema and table.
// ctx: {host, pathOf(name), exists(name) (from the directory listing), root (@.json), done (doneFacts),
// parsed: null, or a Map name -> document already parsed (the same directory's, read earlier)}.
// Returns {schemas, tables, targets, problems}: one target per table, or per partition.
// schemas: [{schema, basename, json (null when its file is missing), includesDdl, tables, views,
//   functions, procedures, events, bases: Map name -> base name of its tables and views}].
function readCatalog(ctx) {
  var out = { schemas: [], tables: [], targets: [], problems: [] };
  function needFile(name, what) {
    if (ctx.exists(name)) return true;
    out.problems.push(makeProblem('metadata-missing', 'The ' + what + ' file ' + name + ' is missing.', name));
    return false;
  }
  function damaged(fact, file) {
    if (out.problems.length < 200) out.problems.push(makeProblem('metadata-damaged', fact, file));
  }
  function readJson(name) {
    return ctx.parsed && ctx.parsed.has(name) ? ctx.parsed.get(name) : readJsonFile(ctx.host, ctx.pathOf(name));
  }
  checkedList(ctx.root, 'schemas', '@.json', damaged).forEach(function (schema) {
    var sb = baseName(ctx.root.basenames, schema, schema, 'schema ' + displayIdentifier(schema), '@.json');
    var entry = { schema: schema, basename: sb, json: null, includesDdl: true, tables: [], views: [], functions: [],
      procedures: [], events: [], bases: new Map() };
    out.schemas.push(entry);
    if (!needFile(sb + '.json', 'schema metadata')) return;
    var sj = readJson(sb + '.json');
    entry.json = sj;
    entry.includesDdl = sj.includesDdl !== false;
    entry.tables = checkedList(sj, 'tables', sb + '.json', damaged);
    entry.views = checkedList(sj, 'views', sb + '.json', damaged);
    entry.functions = stringList(sj.functions);
    entry.procedures = stringList(sj.procedures);
    entry.events = stringList(sj.events);
    if (entry.includesDdl) needFile(sb + '.sql', 'schema DDL');
    schemaPartFiles(sj).forEach(function (part) { needFile(sb + part, 'schema DDL'); });
    entry.views.forEach(function (view) {
      var vb = baseName(sj.basenames, view, sb + '@' + view, 'view ' + displayTable(schema, view), sb + '.json');
      entry.bases.set(view, vb);
      needFile(vb + '.pre.sql', 'view placeholder DDL');
      needFile(vb + '.sql', 'view DDL');
    });
    entry.tables.forEach(function (table) {
      var what = 'table ' + displayTable(schema, table);
      var tb = baseName(sj.basenames, table, sb + '@' + table, what, sb + '.json');
      entry.bases.set(table, tb);
      readTable(readJson, out, needFile, { schema: schema, table: table, basename: tb, what: what, done: ctx.done });
    });
  });
  sharedBaseNames(out.targets, damaged);
  return out;
}

// A list of names from the metadata: wrong JSON types, non-text entries and names given twice are
// damage (reported); the distinct names are used.
function checkedList(json, key, file, damaged) {
  var v = json[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    damaged(file + ': "' + key + '" is ' + JSON.stringify(v).slice(0, 40) + ', not a list of names.', file);
    return [];
  }
  var seen = {};
  var outList = [];
  v.forEach(function (x) {
    if (typeof x !== 'string') {
      damaged(file + ': "' + key + '" holds ' + JSON.stringify(x).slice(0, 40) + ', not a name.', file);
    } else if (Object.prototype.hasOwnProperty.call(seen, x)) {
      damaged(file + ': "' + key + '" lists ' + JSON.stringify(x) + ' twice.', file);
    } else {
      seen[x] = true;
      outList.push(x);
    }
  });
  return outList;
}

// Two tables (or partitions) with one file base name would load each other's data.
function sharedBaseNames(targets, damaged) {
  var byBase = {};
  targets.forEach(function (t) {
    var other = Object.prototype.hasOwnProperty.call(byBase, t.base) ? byBase[t.base] : null;
    if (other) {
      damaged(displayTable(other.schema, other.table, other.partition) + ' and ' + displayTable(t.schema, t.table, t.partition) +
        ' share the file name ' + t.base + ': each would load the other\'s data.', t.info.metadataFile || null);
    } else {
      byBase[t.base] = t;
    }
  });
}

// Format 9.3+ may split a schema's DDL; each part is required when its list is non-empty.
function schemaPartFiles(sj) {
  if (sj.multifileDdl !== true) return [];
  var parts = [];
  if (stringList(sj.events).length) parts.push('.events.sql');
  if (stringList(sj.functions).length || stringList(sj.procedures).length) parts.push('.routines.sql');
  if (stringList(sj.libraries).length) parts.push('.libraries.sql');
  return parts;
}

function readTable(readJson, out, needFile, t) {
  var info = { schema: t.schema, table: t.table, basename: t.basename, metadataFile: t.basename + '.json',
    rows: t.done.tableRows(t.schema, t.table), dataBytes: t.done.tableDataBytes(t.schema, t.table),
    settings: null, partitions: [], json: null };
  out.tables.push(info);
  if (!needFile(info.metadataFile, 'table metadata')) {
    out.targets.push(makeTarget(info, null, t.basename));
    return;
  }
  info.json = readJson(info.metadataFile);
  var s = tableSettings(info.json, t.what, info.metadataFile);
  info.settings = s;
  info.partitions = s.partitions;
  if (s.includesDdl) {
    needFile(t.basename + '.sql', 'table DDL');
    if (s.triggers.length) needFile(t.basename + '.triggers.sql', 'trigger DDL');
  }
  if (!s.partitions.length) {
    out.targets.push(makeTarget(info, null, t.basename));
    return;
  }
  s.partitions.forEach(function (p) {
    var pb = baseName(s.partitionBasenames, p, t.basename + '@' + p, 'partition ' + displayIdentifier(p) + ' of ' +
      t.what, info.metadataFile);
    out.targets.push(makeTarget(info, p, pb));
  });
}

// A target is what util.loadDump loads as one unit: a table, or one partition of it.
function makeTarget(info, partition, base) {
  var s = info.settings;
  return {
    schema: info.schema,
    table: info.table,
    partition: partition,
    base: base,
    ext: s ? s.extension : null,
    compression: s ? s.compression : null,
    chunking: s ? s.chunking : null,
    primaryIndex: s ? s.primaryIndex : null,
    includesData: s ? s.includesData : null,
    info: info,
  };
}

// tables (a catalog's) -> function (schema, table) -> the table's entry or null: one Map for every lookup.
function tableFinder(tables) {
  var byName = new Map();
  tables.forEach(function (t) { byName.set(JSON.stringify([t.schema, t.table]), t); });
  return function (schema, table) {
    var t = byName.get(JSON.stringify([schema, table]));
    return t === undefined ? null : t;
  };
}

// A catalog's parsed schema and table JSONs by file name (readCatalog's ctx.parsed).
function parsedDocuments(catalog) {
  var out = new Map();
  catalog.schemas.forEach(function (s) { if (s.json !== null) out.set(s.basename + '.json', s.json); });
  catalog.tables.forEach(function (t) { if (t.json !== null) out.set(t.metadataFile, t.json); });
  return out;
}

module.exports = { readCatalog: readCatalog, tableFinder: tableFinder, parsedDocuments: parsedDocuments };
