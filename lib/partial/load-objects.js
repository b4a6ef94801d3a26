// What a util.loadDump call will create and fill, from the dump model (its metadata) and the call's
// options: tables (with their triggers and the histograms the dump lists), views, routines and
// events, after loadDump's filters (include/exclude schemas, tables, routines, events,
// triggers) and the `schema` option. restore.load drops exactly these before a re-import,
// analyzes these tables afterwards and counts their rows; restore.analyze reuses it.
var UserError = require('../core/user-error.js').UserError;
var selection = require('./selection.js');
var splitName = require('../dump/object-names.js').splitName;
var tableFinder = require('../dump/dump-catalog.js').tableFinder;

function stringList(v) {
  return Array.isArray(v) ? v.filter(function (x) { return typeof x === 'string'; }) : [];
}

// Format 1.0.0 (Shell 8.0.21) wrote routine and event names that need quoting already quoted
// (`new\nline`, `foo``bar(`), as the 8.0.21 instance fixture shows; later formats write them raw.
function rawObjectName(name, format) {
  if (format !== '1.0.0' || !/^`(?:[^`]|``)*`$/.test(name)) return name;
  return name.slice(1, -1).replace(/``/g, '`');
}

// include/exclude lists of "schema.object" (or "schema.table[.trigger]" for triggers) → matcher.
function objectFilter(options, kind, minParts, maxParts) {
  function parse(key) {
    return stringList(options[key]).map(function (text) {
      var parts = splitName(text, key);
      if (parts.length < minParts || parts.length > maxParts) {
        throw new UserError('OPTION_INVALID', key + ': ' + JSON.stringify(text) + ' must be ' +
          (maxParts === 3 ? 'schema.table or schema.table.trigger' : 'schema.' + kind) + ' (backticks allowed).');
      }
      return parts;
    });
  }
  var include = parse('include' + kind);
  var exclude = parse('exclude' + kind);
  function matches(list, names) {
    return list.some(function (p) {
      for (var i = 0; i < p.length; i++) if (p[i] !== names[i]) return false;
      return true;
    });
  }
  return function chosen(names) {
    if (matches(exclude, names)) return false;
    return !include.length || matches(include, names);
  };
}

function schemaChosen(sel, schema) {
  if (sel.excludeSchemas.indexOf(schema) >= 0) return false;
  return !sel.includeSchemas.length || sel.includeSchemas.indexOf(schema) >= 0;
}

// A chosen object whose metadata file is missing: util.loadDump would fail on it; nothing is guessed.
function missingMetadata(dump, file, what) {
  return new UserError('DUMP_FILE_MISSING', 'The ' + what + ' file ' + file + ' is missing from the dump in ' + dump.dir + ': the dump is ' +
    'damaged or incomplete. Copy it again from the original dump, or leave ' + what.replace(/ metadata$/, '') + ' out ' +
    'with the filters. Nothing was changed.');
}

// dump: the dump model (lib/dump/dump-model.js readDumpModel or readDumpMetadata): what it read
// of the metadata, nothing read again. options: the util.loadDump options of the call. details:
// also each table's triggers and histograms (from its table JSON). rename: restore.load's
// schemaMap (dump name -> new name or null), or null.
// Returns {dir, format, ddl, schemas, tables, views, routines, events, triggers}; every object
// carries `schema` (where it is created: the `schema` option or schemaMap renames) and `dumpSchema`.
function loadObjects(dump, options, details, rename) {
  var o = options || {};
  var format = dump.format;
  var sel = selection.parseSelection({ includeSchemas: o.includeSchemas, excludeSchemas: o.excludeSchemas,
    includeTables: o.includeTables, excludeTables: o.excludeTables });
  var routineChosen = objectFilter(o, 'Routines', 2, 2);
  var eventChosen = objectFilter(o, 'Events', 2, 2);
  var triggerChosen = objectFilter(o, 'Triggers', 2, 3);
  var findTable = details ? tableFinder(dump.tables) : null;
  var out = { dir: dump.dir, format: format, ddl: o.loadDdl !== false, schemas: [], tables: [], views: [], routines: [],
    events: [], triggers: [] };

  dump.schemas.forEach(function (entry) {
    var dumpSchema = entry.schema;
    if (!schemaChosen(sel, dumpSchema)) return;
    if (!entry.found) throw missingMetadata(dump, entry.basename + '.json', 'schema metadata');
    var renamed = rename ? rename(dumpSchema) : null;
    var schema = renamed !== null && renamed !== undefined ? renamed
      : typeof o.schema === 'string' && o.schema !== '' ? o.schema : dumpSchema;
    var ddl = entry.includesDdl;
    out.schemas.push({ schema: schema, dumpSchema: dumpSchema });
    entry.tables.forEach(function (table) {
      if (!selection.isTableChosen(sel, dumpSchema, table)) return;
      var t = { schema: schema, dumpSchema: dumpSchema, table: table, ddl: ddl, histograms: [], triggers: [] };
      if (details) {
        var info = findTable(dumpSchema, table);
        if (!info || !info.settings) throw missingMetadata(dump, entry.bases.get(table) + '.json', 'table metadata');
        var s = info.settings;
        t.histograms = s.histograms.map(function (h) { return { column: h.column, buckets: histogramBuckets(h, info.metadataFile) }; });
        var triggers = ddl && s.includesDdl ? s.triggers : [];
        t.triggers = triggers.filter(function (name) { return triggerChosen([dumpSchema, table, name]); });
        t.triggers.forEach(function (name) {
          out.triggers.push({ schema: schema, dumpSchema: dumpSchema, table: table, name: name });
        });
      }
      out.tables.push(t);
    });
    if (!ddl) return;
    entry.views.forEach(function (view) {
      if (selection.isTableChosen(sel, dumpSchema, view)) out.views.push({ schema: schema, dumpSchema: dumpSchema, view: view });
    });
    [['functions', 'FUNCTION'], ['procedures', 'PROCEDURE']].forEach(function (k) {
      entry[k[0]].forEach(function (name) {
        var raw = rawObjectName(name, format);
        if (routineChosen([dumpSchema, raw])) out.routines.push({ schema: schema, dumpSchema: dumpSchema, name: raw, type: k[1] });
      });
    });
    entry.events.forEach(function (name) {
      var raw = rawObjectName(name, format);
      if (eventChosen([dumpSchema, raw])) out.events.push({ schema: schema, dumpSchema: dumpSchema, name: raw });
    });
  });
  return out;
}

// MySQL takes 1 to 1,024 buckets (ANALYZE TABLE … WITH N BUCKETS); none recorded means its default, 100.
function histogramBuckets(h, file) {
  if (h.buckets === undefined || h.buckets === null) return 100;
  var n = Number(h.buckets);
  if (Math.floor(n) !== n || n < 1 || n > 1024) {
    throw new UserError('DUMP_DAMAGED', 'The histogram of column ' + h.column + ' in ' + file + ' has ' + JSON.stringify(h.buckets) +
      ' buckets; MySQL takes a whole number from 1 to 1024. The dump metadata is damaged: copy ' + file + ' again from ' +
      'the original dump, or load with analyze: "on" (no histograms). Nothing was changed.');
  }
  return n;
}

// options: the util.loadDump options of the call → ([dumpSchema, table, trigger]) → whether the load creates that trigger.
function triggerFilter(options) { return objectFilter(options || {}, 'Triggers', 2, 3); }

module.exports = { loadObjects: loadObjects, rawObjectName: rawObjectName, triggerFilter: triggerFilter, objectFilter: objectFilter };
