// A replay into schemas loaded under other names (schemaMap, or util.loadDump's `schema` option):
// what the replay's events become. Row events name their schema in the TABLE_MAP event: the companion
// rewrites those bytes (plugins/restore/restore_py/binlog_rewrite.py), and each statement's default
// schema, from the map. A statement's text is rewritten here with the rules of the load's own DDL
// (lib/rename/sql-rewrite.js: a name rewritten only where it names a schema for certain), and a statement
// it cannot rewrite with certainty (the schema named inside a string, `shop`.x where x is no object of
// the dump nor one the replay creates, dynamic SQL) is refused in the preflight, naming its GTID and
// text: applied as it stands it would change, or create, the source's schema on the target, which may
// be the production schema the copy was loaded beside.
var UserError = require('../core/user-error.js').UserError;
var rewriteSql = require('../rename/sql-rewrite.js').rewriteSql;
var rawObjectName = require('../partial/load-objects.js').rawObjectName;
var createdTables = require('../binlog/replay-tables.js').createdTables;
var secrets = require('../options/secrets.js');
var setField = require('../binlog/plan-transactions.js').setField;

// {dump schema: loaded name} of the loaded schemas whose name changes, or null.
function schemaMapOf(objects) {
  var map = {};
  var any = false;
  objects.schemas.forEach(function (s) {
    if (s.schema !== s.dumpSchema) { map[s.dumpSchema] = s.schema; any = true; }
  });
  return any ? map : null;
}

function short(text) {
  var one = text.replace(/\s+/g, ' ');
  return one.length > 120 ? one.slice(0, 117) + '...' : one;
}

// plan: replay-plan.js planReplay's (its transactions in order, with their statements). dump: the dump
// model. Sets plan.rewrite {schemaMap, schemas: the dump's schema names (the applier road's filter needs them,
// lib/binlog/replay-channel.js serverWork)} and each transaction's texts {position: rewritten statement};
// adds the plan line. Throws where a statement cannot be rewritten with certainty.
// aliases: {name in the binary logs: the dump's name} the filter took for a loaded schema (a source with
// lower_case_table_names 1 or 2 logs `shop` for the dump's `Shop`, lib/binlog/replay-filter.js): renamed as it is.
function renameReplay(plan, objects, dump, aliases) {
  var map = schemaMapOf(objects);
  if (!map) return;
  var names = {};
  dump.schemas.forEach(function (e) {
    var set = names[e.schema] = {};
    [e.tables, e.views, e.functions, e.procedures, e.events].forEach(function (l) {
      (l || []).forEach(function (n) { set[rawObjectName(n, dump.format)] = true; });
    });
  });
  var added = [];
  Object.keys(aliases || {}).forEach(function (a) {
    var d = aliases[a];
    if (!Object.prototype.hasOwnProperty.call(map, d) || Object.prototype.hasOwnProperty.call(map, a)) return;
    map[a] = map[d];
    added.push(a);
    // The logs name its objects in lower case too (the target compares them without case: the filter took the alias).
    var set = names[a] = {};
    Object.keys(names[d] || {}).forEach(function (n) { set[n] = true; set[n.toLowerCase()] = true; });
  });
  var renamed = Object.keys(map);
  // Tables the replay itself creates (CREATE TABLE) are objects of their schema too.
  createdTables(plan, null).forEach(function (c) { (names[c.dumpSchema] = names[c.dumpSchema] || {})[c.table] = true; });
  var known = function (schema, name) { return !!names[schema] && names[schema][name] === true; };
  var rename = function (schema) { return Object.prototype.hasOwnProperty.call(map, schema) ? map[schema] : null; };
  var rewritten = 0;
  plan.transactions.forEach(function (t, k) {
    var texts = t.texts;
    (t.statements || []).forEach(function (s) {
      var r = rewriteSql(s.text, { rename: rename, renamed: renamed, known: known, bodies: true, schema: s.schema, definers: null });
      if (r.warnings.length) {
        throw new UserError('BINLOG_UNSUPPORTED', 'restore.load with binlogs: transaction ' + t.gtid + ' (' + t.file + ':' + s.position +
          ') runs ' + JSON.stringify(short(secrets.statement(s.text))) + ', which cannot be rewritten for the schema map with certainty (' + r.warnings[0].message +
          '): applied as it stands it would change the schema of the source\'s name on this server. Stop before it (stopBefore: "' + t.gtid +
          '"), or load without schemaMap. Nothing was changed.', { gtid: t.gtid });
      }
      if (r.changed) {
        texts = texts || {};
        texts[String(s.position)] = r.text;
        rewritten++;
      }
    });
    if (texts !== t.texts) setField(plan.transactions, k, 'texts', texts);
  });
  plan.rewrite = { schemaMap: map, schemas: dump.schemas.map(function (e) { return e.schema; }),
    aliases: added };
  plan.lines.splice(2, 0, '  renamed: row events and statements of ' + renamed.map(function (s) { return s + ' -> ' + map[s]; }).join(', ') +
    ' applied under the new names (' + rewritten + ' statement(s) naming a schema rewritten)');
}

module.exports = { renameReplay: renameReplay, schemaMapOf: schemaMapOf };
