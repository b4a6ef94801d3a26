// Tables a replay creates (CREATE TABLE in the binary logs, of a loaded schema): after the replay they
// are tables of the restore like the loaded ones, so the report's rows, analyze and the members'
// verification cover them too. Which ones exist is read from the server after the replay, not inferred.
var ddlTarget = require('./replay-filter.js').ddlTarget;
var statements = require('./statements.js');

function isCreateTable(text) {
  var r = statements.read(text, '');
  return !!r && r.kind === 'create-table';
}

// plan: replay-plan.js planReplay's; map: {dump schema: loaded name} or null. [{schema, dumpSchema, table}]
// named by the CREATE TABLE statements it replays, under the names they are created as.
function createdTables(plan, map) {
  var out = [];
  var seen = {};
  plan.transactions.forEach(function (t) {
    (t.statements || []).forEach(function (s) {
      if (!isCreateTable(s.text)) return;
      var d = ddlTarget(s.text, s.schema);
      (d ? d.tables : []).forEach(function (n) {
        var dot = n.indexOf('.');
        var from = n.slice(0, dot);
        var c = { schema: map && Object.prototype.hasOwnProperty.call(map, from) ? map[from] : from, dumpSchema: from, table: n.slice(dot + 1) };
        var k = JSON.stringify([c.schema, c.table]);
        if (!seen[k]) { seen[k] = true; out.push(c); }
      });
    });
  });
  return out;
}

// Of `created`, those that are base tables on the server now and not among `loaded` ([{schema, table}]).
function replayedTables(host, created, loaded) {
  var key = function (s, t) { return JSON.stringify([String(s).toLowerCase(), String(t).toLowerCase()]); };
  var have = {};
  loaded.forEach(function (t) { have[key(t.schema, t.table)] = true; });
  var todo = created.filter(function (c) { return !have[key(c.schema, c.table)]; });
  if (!todo.length) return [];
  var there = {};
  host.sql.run("SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND (" +
    todo.map(function () { return '(TABLE_SCHEMA = ? AND TABLE_NAME = ?)'; }).join(' OR ') + ')',
  [].concat.apply([], todo.map(function (c) { return [c.schema, c.table]; }))).rows.forEach(function (r) { there[key(r.s, r.t)] = true; });
  return todo.filter(function (c) { return there[key(c.schema, c.table)]; }).map(function (c) {
    return { schema: c.schema, dumpSchema: c.dumpSchema, table: c.table };
  });
}

// The tables of the restore after the replay: the loaded ones, then those the replay created
// (replayReport: report.replay, or null without a replay), as the loaded ones are described.
function withReplayed(tables, replayReport) {
  var more = replayReport && replayReport.created ? replayReport.created : [];
  return tables.concat(more.map(function (c) {
    return { schema: c.schema, dumpSchema: c.dumpSchema, table: c.table, ddl: true, histograms: [], triggers: [], replayed: true };
  }));
}

module.exports = { createdTables: createdTables, replayedTables: replayedTables, withReplayed: withReplayed };
