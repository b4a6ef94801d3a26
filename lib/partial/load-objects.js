// What a util.loadDump call will create and fill, from the dump's metadata and the call's
// options: tables (with their triggers and the histograms the dump lists), views, routines and
// events, after loadDump's filters (include/exclude schemas, tables, routines, events,
// triggers) and the `schema` option. restore.load drops exactly these before a re-import,
// analyzes these tables afterwards and counts their rows; restore.analyze reuses it.
var UserError = require('../core/user-error.js').UserError;
var paths = require('../dump/dump-paths.js');
var metadata = require('../dump/dump-metadata.js');
var selection = require('./selection.js');
var splitName = require('../dump/object-names.js').splitName;

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
        throw new UserError(key + ': ' + JSON.stringify(text) + ' must be ' +
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

// options: the util.loadDump options of the call. details: also read each table's JSON
// (triggers, histograms). rename: restore.load's schemaMap (dump name -> new name or null), or null.
// Returns {dir, format, ddl, schemas, tables, views, routines, events, triggers}; every object
// carries `schema` (where it is created: the `schema` option or schemaMap renames) and `dumpSchema`.
function loadObjects(host, dumpDir, options, details, rename) {
  var o = options || {};
  var dir = paths.resolveDumpDir(host, dumpDir);
  var pathOf = paths.pathMaker(host, dir);
  var root = metadata.readJsonFile(host, pathOf('@.json'));
  var format = metadata.checkFormat(root, pathOf('@.json')).format;
  var sel = selection.parseSelection({ includeSchemas: o.includeSchemas, excludeSchemas: o.excludeSchemas,
    includeTables: o.includeTables, excludeTables: o.excludeTables });
  var routineChosen = objectFilter(o, 'Routines', 2, 2);
  var eventChosen = objectFilter(o, 'Events', 2, 2);
  var triggerChosen = objectFilter(o, 'Triggers', 2, 3);
  var out = { dir: dir, format: format, ddl: o.loadDdl !== false, schemas: [], tables: [], views: [], routines: [],
    events: [], triggers: [] };

  stringList(root.schemas).forEach(function (dumpSchema) {
    if (!schemaChosen(sel, dumpSchema)) return;
    var renamed = rename ? rename(dumpSchema) : null;
    var schema = renamed !== null && renamed !== undefined ? renamed
      : typeof o.schema === 'string' && o.schema !== '' ? o.schema : dumpSchema;
    var sb = paths.checkFileNamePart(metadata.ownValue(root.basenames, dumpSchema) || dumpSchema,
      'schema ' + dumpSchema, '@.json');
    var sj = metadata.readJsonFile(host, pathOf(sb + '.json'));
    var ddl = sj.includesDdl !== false;
    out.schemas.push({ schema: schema, dumpSchema: dumpSchema });
    function base(name) {
      return paths.checkFileNamePart(metadata.ownValue(sj.basenames, name) || sb + '@' + name, 'table ' + name, sb + '.json');
    }
    stringList(sj.tables).forEach(function (table) {
      if (!selection.isTableChosen(sel, dumpSchema, table)) return;
      var t = { schema: schema, dumpSchema: dumpSchema, table: table, ddl: ddl, histograms: [], triggers: [] };
      if (details) {
        var tj = metadata.readJsonFile(host, pathOf(base(table) + '.json'));
        t.histograms = (Array.isArray(tj.histograms) ? tj.histograms : []).filter(function (h) {
          return h && typeof h.column === 'string';
        }).map(function (h) { return { column: h.column, buckets: histogramBuckets(h, base(table) + '.json') }; });
        var triggers = ddl && tj.includesDdl !== false ? stringList(tj.triggers) : [];
        t.triggers = triggers.filter(function (name) { return triggerChosen([dumpSchema, table, name]); });
        t.triggers.forEach(function (name) {
          out.triggers.push({ schema: schema, dumpSchema: dumpSchema, table: table, name: name });
        });
      }
      out.tables.push(t);
    });
    if (!ddl) return;
    stringList(sj.views).forEach(function (view) {
      if (selection.isTableChosen(sel, dumpSchema, view)) out.views.push({ schema: schema, dumpSchema: dumpSchema, view: view });
    });
    [['functions', 'FUNCTION'], ['procedures', 'PROCEDURE']].forEach(function (k) {
      stringList(sj[k[0]]).forEach(function (name) {
        var raw = rawObjectName(name, format);
        if (routineChosen([dumpSchema, raw])) out.routines.push({ schema: schema, dumpSchema: dumpSchema, name: raw, type: k[1] });
      });
    });
    stringList(sj.events).forEach(function (name) {
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
    throw new UserError('The histogram of column ' + h.column + ' in ' + file + ' has ' + JSON.stringify(h.buckets) +
      ' buckets; MySQL takes a whole number from 1 to 1024. The dump metadata is damaged: copy ' + file + ' again from ' +
      'the original dump, or load with analyze: "on" (no histograms). Nothing was changed.');
  }
  return n;
}

module.exports = { loadObjects: loadObjects, rawObjectName: rawObjectName };
