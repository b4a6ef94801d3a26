// Which of the problems restore.inspect finds in a dump stand in the way of a plan, a stub or a
// load with a given selection. A blocking problem of a chosen table, of the schema it is in, or
// of the dump as a whole is a blocker (util.loadDump would fail, or load other than what was
// chosen); one of a table outside the selection is a warning that names it. Problems of single
// chunks are left to the plan, which judges each chunk as chosen or stubbed (a load view stubs
// what is not chosen, whatever it is on disk); an unfinished dump to each command, which knows
// allowIncomplete.
var isBlocking = require('../dump/dump-problems.js').isBlocking;
var selection = require('./selection.js');
var makeNameMatcher = require('../dump/chunk-names.js').makeNameMatcher;
var chunkTable = require('../dump/chunk-table.js');

var JUDGED_PER_CHUNK = { 'chunk-missing': true, 'chunk-corrupt': true, 'dump-incomplete': true, 'unlisted-files': true };

// Which table a file belongs to (metadata, DDL, data): {get(name) -> {schema, table} or undefined,
// isChunk(name)}. Data files are recognised by name (chunk-names.js), not listed: a dump may
// have a million.
function tableFiles(model) {
  var byFile = new Map();
  model.tables.forEach(function (t) {
    var where = { schema: t.schema, table: t.table };
    [t.basename + '.json', t.basename + '.sql', t.basename + '.triggers.sql'].forEach(function (f) { byFile.set(f, where); });
  });
  var matcher = makeNameMatcher(model.targets.filter(function (t) { return t.ext !== null; }));
  function chunk(name) {
    var m = typeof name === 'string' ? matcher.match(name) : null;
    return m && m.index < m.target.chunks.length && chunkTable.fileOf(m.target.chunks, m.index) === name ? m.target : null;
  }
  return {
    get: function (name) {
      var t = chunk(name);
      return t ? { schema: t.schema, table: t.table } : byFile.get(name);
    },
    isChunk: function (name) { return chunk(name) !== null; },
  };
}

// The schema a schema-level file (schema.json, schema.sql, a view's DDL …) belongs to, or null.
function schemaOfFile(model, file) {
  if (typeof file !== 'string') return null;
  for (var i = 0; i < model.schemas.length; i++) {
    var b = model.schemas[i].basename;
    if (file.slice(0, b.length + 1) === b + '.' || file.slice(0, b.length + 1) === b + '@') return model.schemas[i].schema;
  }
  return null;
}

// {blockers: [text], warnings: [text]}.
function selectionProblems(model, sel) {
  var out = { blockers: [], warnings: [] };
  var byFile = null;
  model.problems.forEach(function (p) {
    if (JUDGED_PER_CHUNK[p.code]) return;
    byFile = byFile || tableFiles(model);
    if (p.code === 'file-unreadable' && byFile.isChunk(p.file)) return;
    var where = p.table || (p.file !== null && byFile.get(p.file)) || null;
    // With latest, the plan says itself that the newest chunks cannot be found.
    if (p.code === 'last-chunk-unknown' && where && selection.latestCount(sel, where.schema, where.table, null) !== null) return;
    var chosen;
    var outside;
    if (where) {
      chosen = selection.isTableChosen(sel, where.schema, where.table);
      outside = 'table `' + where.schema + '`.`' + where.table + '`';
    } else {
      var schema = schemaOfFile(model, p.file);
      chosen = schema === null || selection.isSchemaChosen(sel, schema);
      outside = 'schema `' + schema + '`';
    }
    if (!isBlocking(p)) {
      if (chosen) out.warnings.push(p.fact);
    } else if (chosen) {
      out.blockers.push(p.message);
    } else {
      out.warnings.push('Outside the selection (' + outside + ', not loaded): ' + p.fact);
    }
  });
  return out;
}

module.exports = { selectionProblems: selectionProblems };
