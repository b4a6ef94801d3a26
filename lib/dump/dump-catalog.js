// What the metadata of a dump says it holds: schemas, tables, views and partitions, with each
// one's file base name (always from the `basenames` maps), and per table the data settings
// (extension, compression, chunking, primary index) read the same way for formats 1.0.x
// (compression and primaryIndex inside `options`) and 2.0.1 (top level, plus partitions).
var checkFileNamePart = require('./dump-paths.js').checkFileNamePart;
var tooLongFact = require('./dump-paths.js').tooLongFact;
var readJsonFile = require('./dump-metadata.js').readJsonFile;
var ownValue = require('./dump-metadata.js').ownValue;
var makeProblem = require('./dump-problems.js').makeProblem;
var memberReader = require('./loader-json.js').memberReader;
var cast = require('./loader-json.js').cast;
var loaderCompression = require('./loader-json.js').loaderCompression;
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;

var NONE = Object.freeze([]); // the one empty list of names or partitions

function stringList(v) {
  return Array.isArray(v) ? v.filter(function (x) { return typeof x === 'string'; }) : [];
}

// The loader's own fallback when a map lacks a name: the raw name (schemas) or
// "<schema base>@<raw name>" (tables, partitions). A name the map does hold must give a usable
// base name: an empty or non-text one is damage, refused (MySQL Shell never writes one, and a
// guess could name a file util.loadDump does not read). Both are checked like any other base name.
function baseName(map, name, fallback, what, source, reader, mapName) {
  var v = reader ? reader.get(map, name, 'String', (mapName || 'basenames') + '.' + name) : ownValue(map, name);
  return checkFileNamePart(v == null ? fallback : v, what, source);
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

// A table JSON as util.loadDump reads it (MySQL Shell 9.1.0 modules/util/load/dump_reader.cc,
// Table_info::update_metadata): includesDdl, includesData and chunking are Bool (default true,
// true, false), extension a String (default "tsv"), options a Map it cannot do without,
// compression a String (top level, else options.compression as 1.0.x wrote it, else from the
// extension), primaryIndex an Array of names (1.0.x: options.primaryIndex, a String), triggers
// and histograms Arrays, basenames a Map of partition -> base name: a non-empty one makes the
// table partitioned (the loader reads partitions from it, not from "partitions").
// typeProblem(fact) gets what the loader would stop on.
function tableSettings(tj, what, source, typeProblem) {
  var r = memberReader(source, typeProblem);
  var options = r.require(tj, 'options', 'Map');
  if (options == null) options = {};
  var includesDdl = r.get(tj, 'includesDdl', 'Bool');
  var includesData = r.get(tj, 'includesData', 'Bool');
  var extension = r.get(tj, 'extension', 'String');
  var chunking = r.get(tj, 'chunking', 'Bool');
  var compressionName = r.get(options, 'compression', 'String', 'options.compression');
  var topCompression = r.get(tj, 'compression', 'String');
  if (topCompression != null) compressionName = topCompression;
  var oldIndex = r.get(options, 'primaryIndex', 'String', 'options.primaryIndex');
  var index = r.get(tj, 'primaryIndex', 'Array');
  var ext = checkFileNamePart(extension == null ? 'tsv' : extension, 'the data files of ' + what + ' (extension)', source);
  var compression = loaderCompression(compressionName, ext);
  if (compression.unknown != null) {
    typeProblem(source + ': "compression" is ' + JSON.stringify(compression.unknown) + ', which util.loadDump does ' +
      'not know; it stops with "Unknown compression type: ' + compression.unknown + '".', 'compression-unknown');
  }
  var triggers = r.entries(r.get(tj, 'triggers', 'Array'), 'AnyString', 'triggers');
  var histograms = (r.get(tj, 'histograms', 'Array') || []).filter(function (h, i) {
    if (h === null) return false;
    if (cast('Map', h).error) { r.get({ h: h }, 'h', 'Map', 'histograms[' + i + ']'); return false; }
    r.get(h, 'column', 'String', 'histograms[' + i + '].column');
    r.get(h, 'buckets', 'Integer', 'histograms[' + i + '].buckets');
    return typeof h.column === 'string';
  });
  var partitionBases = r.get(tj, 'basenames', 'Map');
  var partitionEntries = r.entries(partitionBases, 'AnyString', 'basenames');
  var partitionMap = {};
  partitionEntries.forEach(function (e) { partitionMap[e[0]] = e[1]; });
  return {
    extension: ext,
    compression: compression.unknown != null ? 'none' : compression.compression,
    chunking: chunking === true,
    primaryIndex: index != null ? r.entries(index, 'AnyString', 'primaryIndex') : oldIndex != null ? (oldIndex === '' ? [] : [oldIndex])
      : null,
    includesData: includesData !== false,
    includesDdl: includesDdl !== false,
    triggers: triggers,
    partitions: partitionEntries.map(function (e) { return e[0]; }),
    partitionBasenames: partitionMap,
    loadDialect: loadDialect(options),
    // The histograms util.dump* recorded ({column, buckets} as written; buckets checked where used).
    histograms: histograms.map(function (h) { return { column: h.column, buckets: h.buckets }; }),
  };
}

// Reads every schema and table JSON the root metadata leads to, each once; each parsed document is
// read for what it says and let go unless ctx.tableDocuments (50,000 tables: 20 MB; a load that
// rewrites them, under schemaMap or with masks, keeps them as entry.json and info.json). Tables of
// one shape share one settings object (a schema-per-tenant estate). ctx.schemaDocuments keeps the
// schema JSONs alone (a catalog read again with ctx.parsed then reads no schema JSON again).
// ctx: {host, pathOf(name), exists(name) (from the directory listing), root (@.json), done (doneFacts),
// parsed: null, or parsedDocuments() of a catalog of the same directory read earlier, tableDocuments,
// schemaDocuments}.
// Returns {schemas, tables, targets, problems}: one target per table, or per partition.
// schemas: [{schema, basename, found (its JSON is there and was read), json (as parsed, with
//   ctx.tableDocuments only; else null), includesDdl, tables, views,
//   functions, procedures, events, bases: {get(name)} -> base name of one of its tables or views}].
function readCatalog(ctx) {
  var out = { schemas: [], tables: [], targets: [], problems: [] };
  function needFile(name, what) {
    if (ctx.exists(name)) return true;
    var tooLong = tooLongFact(name, 'the metadata');
    out.problems.push(tooLong ? makeProblem('name-too-long', 'The ' + what + ' file ' + tooLong, name)
      : makeProblem('metadata-missing', 'The ' + what + ' file ' + name + ' is missing.', name));
    return false;
  }
  function damaged(fact, file) {
    if (out.problems.length < 200) out.problems.push(makeProblem('metadata-damaged', fact, file));
  }
  function readJson(name) {
    return ctx.parsed && ctx.parsed.docs.has(name) ? ctx.parsed.docs.get(name) : readJsonFile(ctx.host, ctx.pathOf(name));
  }
  var shapes = new Map(); // settings as JSON text -> the one settings object of that shape
  function settingsOf(name, what) {
    var earlier = ctx.parsed ? ctx.parsed.tables.get(name) : undefined;
    if (earlier && (earlier.json !== null || !ctx.tableDocuments)) {
      (earlier.typeFacts || []).forEach(function (f) { typeProblem(f[0], f[1]); });
      return earlier;
    }
    var facts = [];
    var json = readJsonFile(ctx.host, ctx.pathOf(name));
    var settings = tableSettings(json, what, name, function (fact, code) {
      facts.push([fact, code]);
      typeProblem(fact, code);
    });
    var key = JSON.stringify(settings);
    if (shapes.has(key)) settings = shapes.get(key);
    else shapes.set(key, settings);
    return { settings: settings, typeFacts: facts.length ? facts : null, json: ctx.tableDocuments ? json : null };
  }
  function typeProblem(fact, code) {
    if (out.problems.length < 200) out.problems.push(makeProblem(code || 'metadata-type', fact, currentFile));
  }
  var currentFile = '@.json';
  // @.json as Dump_reader::open reads it (9.1.0 modules/util/load/dump_reader.cc): "schemas" an
  // Array and "basenames" a Map, both used without a check that they are there.
  var rootReader = memberReader('@.json', typeProblem);
  var schemas = checkedList(rootReader, ctx.root, 'schemas', true);
  var rootBases = schemas.length ? rootReader.require(ctx.root, 'basenames', 'Map') : undefined;
  schemas.forEach(function (schema) {
    currentFile = '@.json';
    var sb = baseName(rootBases, schema, schema, 'schema ' + displayIdentifier(schema), '@.json', rootReader);
    var entry = { schema: schema, basename: sb, found: false, json: null, includesDdl: true, tables: NONE, views: NONE,
      functions: NONE, procedures: NONE, events: NONE, bases: null };
    entry.bases = new BaseFinder(out.tables, out.tables.length, schema, null);
    out.schemas.push(entry);
    if (!needFile(sb + '.json', 'schema metadata')) return;
    var sj = readJson(sb + '.json');
    entry.found = true;
    // Kept only for a read that keeps documents (its basenames map alone: 6 MB at 100,000 tables).
    entry.json = ctx.tableDocuments || ctx.schemaDocuments ? sj : null;
    // <schema>.json as Schema_info::update_metadata reads it: includesDdl / includesViewsDdl /
    // includesData Bool, the object lists Arrays of names, "basenames" a Map (used unchecked
    // when there are tables or views).
    currentFile = sb + '.json';
    var sr = memberReader(currentFile, typeProblem);
    entry.includesDdl = sr.get(sj, 'includesDdl', 'Bool') !== false;
    sr.get(sj, 'includesViewsDdl', 'Bool');
    sr.get(sj, 'includesData', 'Bool');
    entry.tables = checkedList(sr, sj, 'tables');
    entry.views = checkedList(sr, sj, 'views');
    entry.functions = checkedList(sr, sj, 'functions');
    entry.procedures = checkedList(sr, sj, 'procedures');
    entry.events = checkedList(sr, sj, 'events');
    var bases = entry.tables.length || entry.views.length ? sr.require(sj, 'basenames', 'Map') : sr.get(sj, 'basenames', 'Map');
    // A map of view base names only for a schema with views (a schema per tenant: 50,000 maps less).
    var viewBases = entry.views.length ? new Map() : null;
    entry.bases.viewBases = viewBases;
    if (entry.includesDdl) needFile(sb + '.sql', 'schema DDL');
    schemaPartFiles(sj).forEach(function (part) { needFile(sb + part, 'schema DDL'); });
    entry.views.forEach(function (view) {
      var vb = baseName(bases, view, sb + '@' + view, 'view ' + displayTable(schema, view), sb + '.json', sr);
      viewBases.set(view, vb);
      needFile(vb + '.pre.sql', 'view placeholder DDL');
      needFile(vb + '.sql', 'view DDL');
    });
    entry.tables.forEach(function (table) {
      var what = 'table ' + displayTable(schema, table);
      currentFile = sb + '.json';
      var tb = baseName(bases, table, sb + '@' + table, what, sb + '.json', sr);
      currentFile = tb + '.json';
      readTable(settingsOf, out, needFile, { schema: schema, table: table, basename: tb, what: what, done: ctx.done });
    });
  });
  sharedBaseNames(out.targets, damaged);
  return out;
}

// A schema's {get(name)} -> the base name of one of its tables (from their catalog entries, from
// `first` on) or views (viewBases: null without views). The table map is made when first asked (a
// load under schemaMap, a partial load): 50,000 tables, a map less while the model is read. An object
// of its own, not a closure, so that it keeps only these, not readCatalog's context (@.done.json as
// read and the listing: 20 MB at 100,000 tables), and a schema per tenant costs no closure each.
function BaseFinder(tables, first, schema, viewBases) {
  this.tables = tables;
  this.first = first;
  this.schema = schema;
  this.viewBases = viewBases;
  this.tableBases = null;
}
BaseFinder.prototype.get = function (name) {
  if (this.tableBases === null) {
    var tables = this.tables;
    this.tableBases = new Map();
    for (var i = this.first; i < tables.length && tables[i].schema === this.schema; i++) this.tableBases.set(tables[i].table, tables[i].basename);
  }
  return this.tableBases.has(name) ? this.tableBases.get(name) : this.viewBases !== null ? this.viewBases.get(name) : undefined;
};

// A list of names as util.loadDump reads it: an Array (absent: none), each entry cast to text
// (Value::as_string); a name given twice is one object (the loader keeps them in a map).
// required: the loader uses the list without checking it is there. An empty list is the one
// frozen NONE (a schema per tenant: four empty lists per schema otherwise).
function checkedList(reader, json, key, required) {
  var v = required ? reader.require(json, key, 'Array') : reader.get(json, key, 'Array');
  var list = reader.entries(v, 'AnyString', key);
  if (!list.length) return NONE;
  if (!repeats(list)) return list;
  var seen = {};
  return list.filter(function (x) {
    if (Object.prototype.hasOwnProperty.call(seen, x)) return false;
    seen[x] = true;
    return true;
  });
}

// Whether a text is in the list twice: a sorted copy finds it without a map of 50,000 names
// (usually there is none).
function repeats(list) {
  var sorted = list.slice().sort();
  return sorted.some(function (x, i) { return i > 0 && x === sorted[i - 1]; });
}

// Two tables (or partitions) with one file base name would load each other's data.
function sharedBaseNames(targets, damaged) {
  if (!repeats(targets.map(function (t) { return t.base; }))) return;
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

// A table's catalog entry: {schema, table, basename, rows, dataBytes, settings (null: its JSON is
// missing), typeFacts, json}; metadataFile and partitions are answered from these, not kept, and
// typeFacts and json, rarely set, are null from the prototype until set (100,000 tables: 7 MB less).
function TableInfo(t) {
  this.schema = t.schema;
  this.table = t.table;
  this.basename = t.basename;
  this.rows = t.done.tableRows(t.schema, t.table);
  this.dataBytes = t.done.tableDataBytes(t.schema, t.table);
  this.settings = null;
}
TableInfo.prototype.typeFacts = null;
TableInfo.prototype.json = null;
Object.defineProperties(TableInfo.prototype, {
  metadataFile: { get: function () { return this.basename + '.json'; } },
  partitions: { get: function () { return this.settings === null ? NONE : this.settings.partitions; } },
});

function readTable(settingsOf, out, needFile, t) {
  var info = new TableInfo(t);
  out.tables.push(info);
  var metadataFile = info.metadataFile;
  if (!needFile(metadataFile, 'table metadata')) {
    out.targets.push(new TableTarget(info));
    return;
  }
  var read = settingsOf(metadataFile, t.what);
  var s = read.settings;
  info.settings = s;
  if (read.typeFacts !== null) info.typeFacts = read.typeFacts; // what tableSettings reported, for a catalog read again
  if (read.json !== null) info.json = read.json; // the parsed document, with ctx.tableDocuments only
  if (s.includesDdl) {
    needFile(t.basename + '.sql', 'table DDL');
    if (s.triggers.length) needFile(t.basename + '.triggers.sql', 'trigger DDL');
  }
  if (!s.partitions.length) {
    out.targets.push(new TableTarget(info));
    return;
  }
  s.partitions.forEach(function (p) {
    var pb = baseName(s.partitionBasenames, p, t.basename + '@' + p, 'partition ' + displayIdentifier(p) + ' of ' +
      t.what, metadataFile);
    out.targets.push(new PartitionTarget(info, p, pb));
  });
}

// A target is what util.loadDump loads as one unit: a table (TableTarget), or one partition of it
// (PartitionTarget). Its schema, table and data settings (ext, compression, chunking, primaryIndex,
// includesData: null when the table JSON is missing) are answered from its info, not copied into
// each target (100,000 tables: 7 MB less); a table's partition is null and its base the table's.
// The members set later by chunk-list.js and chunk-survey.js are declared here so that every target
// has one layout (members added later cost a property array of their own per target).
function TableTarget(info) {
  this.info = info;
  this.chunks = null; this.lastChunkKnown = null; this.chunkSource = null; this.counts = null; this.fileBytes = null;
  this.dataBytes = null; this.usableDataBytes = null;
}
function PartitionTarget(info, partition, base) {
  TableTarget.call(this, info);
  this.partition = partition;
  this.base = base;
}
function setting(name) {
  return { get: function () { var s = this.info.settings; return s === null ? null : s[name]; } };
}
[TableTarget.prototype, PartitionTarget.prototype].forEach(function (proto) {
  Object.defineProperties(proto, {
    schema: { get: function () { return this.info.schema; } },
    table: { get: function () { return this.info.table; } },
    ext: setting('extension'),
    compression: setting('compression'),
    chunking: setting('chunking'),
    primaryIndex: setting('primaryIndex'),
    includesData: setting('includesData'),
  });
});
Object.defineProperties(TableTarget.prototype, {
  partition: { get: function () { return null; } },
  base: { get: function () { return this.info.basename; } },
});

// tables (a catalog's) -> function (schema, table) -> the table's entry or null: one Map for every lookup.
function tableFinder(tables) {
  var byName = new Map();
  tables.forEach(function (t) { byName.set(JSON.stringify([t.schema, t.table]), t); });
  return function (schema, table) {
    var t = byName.get(JSON.stringify([schema, table]));
    return t === undefined ? null : t;
  };
}

// A catalog's parsed schema JSONs and table settings by file name (readCatalog's ctx.parsed):
// {docs: Map name -> document, tables: Map name -> {settings, typeFacts, json}}.
function parsedDocuments(catalog) {
  var out = { docs: new Map(), tables: new Map() };
  catalog.schemas.forEach(function (s) { if (s.json !== null) out.docs.set(s.basename + '.json', s.json); });
  catalog.tables.forEach(function (t) {
    if (t.settings !== null) out.tables.set(t.metadataFile, { settings: t.settings, typeFacts: t.typeFacts, json: t.json });
  });
  return out;
}

module.exports = { readCatalog: readCatalog, tableFinder: tableFinder, parsedDocuments: parsedDocuments };
