// The metadata and DDL files a load view writes instead of linking the dump's, for a load under
// other schema names (schemaMap) or other definers (definers). util.loadDump finds every file by
// the base names the metadata records (@.json basenames: schema -> base, <schema>.json basenames:
// table -> base; data files are <base>@N.<ext>), never by the schema's name: so every file keeps
// its name, data files stay links, and only the contents below change.
//   @.json                     the schema list and the basenames keys (values kept)
//   <schema>.json              "schema" of a renamed schema
//   <schema>.sql               CREATE DATABASE / USE, routine and event bodies, DEFINER clauses
//   <schema>@<table>.json      options.schema (the table util.loadDump's LOAD DATA fills)
//   <schema>@<table>.sql       foreign keys to tables of renamed schemas
//   <table>.triggers.sql, <view>.pre.sql, <view>.sql   bodies and DEFINER clauses
//   @.users.sql                grants on renamed schemas (loaded only with loadUsers)
// Only files whose text changes are written; @.done.json and @.checksums.json are the view's own
// anyway (lib/partial/view-metadata.js renames their schema keys).
var UserError = require('../core/user-error.js').UserError;
var ownValue = require('../dump/dump-metadata.js').ownValue;
var dumpText = require('../dump/dump-texts.js').dumpText;
var tableFinder = require('../dump/dump-catalog.js').tableFinder;
var rawObjectName = require('../partial/load-objects.js').rawObjectName;
var selection = require('../partial/selection.js');
var rewriteSql = require('./sql-rewrite.js').rewriteSql;
var displayTable = require('../format/display-name.js').displayTable;

var GRANT = /^\s*(GRANT|REVOKE)\s[\s\S]*?\sON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(`(?:[^`]|``)*`|\*)\.(`(?:[^`]|``)*`|\*)\s+(?:TO|FROM)\s+(\S+)/i;

function own(map, key) { return ownValue(map, key); }

function copyJson(v) { return JSON.parse(JSON.stringify(v)); }

// model: the dump model (its parsed metadata: @.json, schema and table JSONs, base names; nothing
// read again); spec: {pairs: [{from, to}], rename(name) -> new name or null, definers: {mode, sql}};
// sel: the selection (dump names: only the DDL of what the load creates is read).
// Returns {files: [{name, data}], warnings: [{object, message}], definers: [{user, host, current, object}],
//   grants: [{account, schema, to, statement}], schemas: [{from, to}]}.
function renamedFiles(host, model, spec, sel) {
  var out = { files: [], warnings: [], definers: [], grants: [], schemas: spec.pairs.slice() };
  var renaming = spec.pairs.length > 0;
  var root = model.rootJson;
  var entries = model.schemas;
  var schemas = entries.map(function (e) { return e.schema; });
  // Made when first asked (a load without schemaMap asks none; 100,000 tables: a map of as many keys).
  var finder = null;
  var findTable = function (schema, table) { return (finder = finder || tableFinder(model.tables))(schema, table); };
  var rename = spec.rename;
  var renamed = spec.pairs.map(function (p) { return p.from; });

  function write(name, original, text) {
    if (text === original) return;
    if (original.indexOf('\uFFFD') >= 0) {
      throw new UserError('REWRITE_IMPOSSIBLE', name + ' in the dump is not UTF-8 text, so it cannot be rewritten for ' + (renaming ? 'schemaMap' :
        'definers') + ' without changing other bytes in it. Load without these options, or take the dump again. Nothing ' +
        'was changed.');
    }
    out.files.push({ name: name, data: text });
  }

  // The objects of each schema, for "`shop`.`x` names an object of shop" (certain renames), made
  // when first asked.
  var objects = null;
  var known = function (schema, name) {
    if (objects === null) {
      objects = {};
      entries.forEach(function (e) {
        var names = new Set();
        [e.tables, e.views, e.functions, e.procedures, e.events].forEach(function (l) {
          l.forEach(function (n) { names.add(rawObjectName(n, model.format)); });
        });
        objects[e.schema] = names;
      });
    }
    return !!objects[schema] && objects[schema].has(name);
  };

  // object: what the file defines, for warnings ("table `s`.`t`"), or [what, schema, name] (made
  // only for a file the dump has: most tables have no triggers file).
  // A copy of a schema or table document the model kept (a load under schemaMap keeps them), else
  // the dump's file read again (read: the model read it); null when there is none.
  function ownDocument(kept, read, name) {
    if (kept !== null) return copyJson(kept);
    var text = read ? dumpText(host, model, name) : null;
    return text === null ? null : JSON.parse(text);
  }

  function rewriteFile(name, schema, bodies, object) {
    var text = dumpText(host, model, name);
    if (text === null) return;
    if (Array.isArray(object)) object = object[0] + displayTable(object[1], object[2]);
    var r = rewriteSql(text, { rename: rename, renamed: renamed, known: known, definers: spec.definers, bodies: bodies,
      schema: schema, object: object });
    r.warnings.forEach(function (w) { out.warnings.push(w); });
    r.definers.forEach(function (d) { out.definers.push(d); });
    write(name, text, r.text);
  }

  if (renaming) {
    var next = copyJson(root);
    next.schemas = schemas.map(function (s) { return rename(s) === null ? s : rename(s); });
    var bases = {};
    Object.keys(root.basenames || {}).forEach(function (s) { bases[rename(s) === null ? s : rename(s)] = root.basenames[s]; });
    // A dump without basenames (format 1.0.0 may lack some): the files still have the dump's names.
    schemas.forEach(function (s) { if (rename(s) !== null && !own(root.basenames, s)) bases[rename(s)] = s; });
    next.basenames = bases;
    write('@.json', '', JSON.stringify(next, null, 4));
  }

  entries.forEach(function (e) {
    var s = e.schema;
    if (!selection.isSchemaChosen(sel, s)) return;
    var to = rename(s);
    var sb = e.basename;
    var nj = to !== null ? ownDocument(e.json, e.found, sb + '.json') : null;
    if (nj !== null) {
      nj.schema = to;
      write(sb + '.json', '', JSON.stringify(nj, null, 4));
    }
    rewriteFile(sb + '.sql', s, true, null);
    e.tables.forEach(function (t) {
      if (!selection.isTableChosen(sel, s, t)) return;
      var tb = e.bases.get(t);
      var info = to !== null ? findTable(s, t) : null;
      var tj = info ? ownDocument(info.json, info.settings !== null, tb + '.json') : null;
      if (tj !== null) {
        if (tj.options && typeof tj.options === 'object') tj.options.schema = to;
        write(tb + '.json', '', JSON.stringify(tj, null, 4));
      }
      if (renaming) rewriteFile(tb + '.sql', s, false, ['table ', s, t]);
      rewriteFile(tb + '.triggers.sql', s, true, ['triggers of ', s, t]);
    });
    e.views.forEach(function (v) {
      if (!selection.isTableChosen(sel, s, v)) return;
      var vb = e.bases.get(v);
      if (renaming) rewriteFile(vb + '.pre.sql', s, false, ['view ', s, v]);
      rewriteFile(vb + '.sql', s, true, ['view ', s, v]);
    });
  });

  var users = renaming ? dumpText(host, model, '@.users.sql') : null;
  if (users !== null) {
    users.split('\n').forEach(function (line) {
      var m = GRANT.exec(line);
      if (!m || m[2] === '*') return;
      var schema = m[2].slice(1, -1).replace(/``/g, '`');
      if (rename(schema) !== null) {
        out.grants.push({ account: m[4].replace(/;$/, ''), schema: schema, to: rename(schema), statement: m[1].toUpperCase() });
      }
    });
    var r = rewriteSql(users, { rename: rename, renamed: renamed, known: known, definers: null, bodies: false, schema: null });
    write('@.users.sql', users, r.text);
  }
  return out;
}

module.exports = { renamedFiles: renamedFiles };
