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
var paths = require('../dump/dump-paths.js');
var metadata = require('../dump/dump-metadata.js');
var rawObjectName = require('../partial/load-objects.js').rawObjectName;
var selection = require('../partial/selection.js');
var rewriteSql = require('./sql-rewrite.js').rewriteSql;
var displayTable = require('../format/display-name.js').displayTable;

var GRANT = /^\s*(GRANT|REVOKE)\s[\s\S]*?\sON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(`(?:[^`]|``)*`|\*)\.(`(?:[^`]|``)*`|\*)\s+(?:TO|FROM)\s+(\S+)/i;

function list(v) { return Array.isArray(v) ? v.filter(function (x) { return typeof x === 'string'; }) : []; }

function own(map, key) { return metadata.ownValue(map, key); }

// spec: {pairs: [{from, to}], rename(name) -> new name or null, definers: {mode, sql}};
// sel: the selection (dump names: only what the load creates is read).
// Returns {files: [{name, data}], warnings: [{object, message}], definers: [{user, host, current, object}],
//   grants: [{account, schema, to, statement}], schemas: [{from, to}]}.
function renamedFiles(host, model, spec, sel) {
  var pathOf = paths.pathMaker(host, model.dir);
  var has = function (name) { return model.files.has(name); };
  var out = { files: [], warnings: [], definers: [], grants: [], schemas: spec.pairs.slice() };
  var renaming = spec.pairs.length > 0;
  var root = metadata.readJsonFile(host, pathOf('@.json'));
  var schemas = list(root.schemas);
  var rename = spec.rename;
  var renamed = spec.pairs.map(function (p) { return p.from; });

  function write(name, original, text) {
    if (text === original) return;
    if (original.indexOf('\uFFFD') >= 0) {
      throw new UserError(name + ' in the dump is not UTF-8 text, so it cannot be rewritten for ' + (renaming ? 'schemaMap' :
        'definers') + ' without changing other bytes in it. Load without these options, or take the dump again. Nothing ' +
        'was changed.');
    }
    out.files.push({ name: name, data: text });
  }

  // The objects of each schema, for "`shop`.`x` names an object of shop" (certain renames).
  var objects = {};
  var schemaBase = {};
  var schemaJson = {};
  schemas.forEach(function (s) {
    var sb = paths.checkFileNamePart(own(root.basenames, s) || s, 'schema ' + s, '@.json');
    schemaBase[s] = sb;
    var sj = has(sb + '.json') ? metadata.readJsonFile(host, pathOf(sb + '.json')) : {};
    schemaJson[s] = sj;
    var names = new Set();
    ['tables', 'views', 'functions', 'procedures', 'events'].forEach(function (k) {
      list(sj[k]).forEach(function (n) { names.add(rawObjectName(n, model.format)); });
    });
    objects[s] = names;
  });
  var known = function (schema, name) { return !!objects[schema] && objects[schema].has(name); };

  function rewriteFile(name, schema, bodies, object) {
    if (!has(name)) return;
    var text = host.files.loadText(pathOf(name));
    var r = rewriteSql(text, { rename: rename, renamed: renamed, known: known, definers: spec.definers, bodies: bodies,
      schema: schema, object: object });
    r.warnings.forEach(function (w) { out.warnings.push(w); });
    r.definers.forEach(function (d) { out.definers.push(d); });
    write(name, text, r.text);
  }

  if (renaming) {
    var next = JSON.parse(JSON.stringify(root));
    next.schemas = schemas.map(function (s) { return rename(s) === null ? s : rename(s); });
    var bases = {};
    Object.keys(root.basenames || {}).forEach(function (s) { bases[rename(s) === null ? s : rename(s)] = root.basenames[s]; });
    // A dump without basenames (format 1.0.0 may lack some): the files still have the dump's names.
    schemas.forEach(function (s) { if (rename(s) !== null && !own(root.basenames, s)) bases[rename(s)] = s; });
    next.basenames = bases;
    write('@.json', '', JSON.stringify(next, null, 4));
  }

  schemas.forEach(function (s) {
    if (!selection.isSchemaChosen(sel, s)) return;
    var to = rename(s);
    var sb = schemaBase[s];
    var sj = schemaJson[s];
    if (to !== null && has(sb + '.json')) {
      var nj = JSON.parse(JSON.stringify(sj));
      nj.schema = to;
      write(sb + '.json', '', JSON.stringify(nj, null, 4));
    }
    rewriteFile(sb + '.sql', s, true, null);
    function base(name) {
      return paths.checkFileNamePart(own(sj.basenames, name) || sb + '@' + name, 'table ' + name, sb + '.json');
    }
    list(sj.tables).forEach(function (t) {
      if (!selection.isTableChosen(sel, s, t)) return;
      var tb = base(t);
      if (to !== null && has(tb + '.json')) {
        var text = host.files.loadText(pathOf(tb + '.json'));
        var tj = metadata.checkObject(JSON.parse(text), tb + '.json');
        if (tj.options && typeof tj.options === 'object') tj.options.schema = to;
        write(tb + '.json', '', JSON.stringify(tj, null, 4));
      }
      if (renaming) rewriteFile(tb + '.sql', s, false, 'table ' + displayTable(s, t));
      rewriteFile(tb + '.triggers.sql', s, true, 'triggers of ' + displayTable(s, t));
    });
    list(sj.views).forEach(function (v) {
      if (!selection.isTableChosen(sel, s, v)) return;
      var vb = base(v);
      if (renaming) rewriteFile(vb + '.pre.sql', s, false, 'view ' + displayTable(s, v));
      rewriteFile(vb + '.sql', s, true, 'view ' + displayTable(s, v));
    });
  });

  if (renaming && has('@.users.sql')) {
    var users = host.files.loadText(pathOf('@.users.sql'));
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
