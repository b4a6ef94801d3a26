// The analyze pass: ANALYZE TABLE for loaded tables in batches (fresh statistics after a bulk
// load, once the deferred indexes exist), plus the histograms a dump lists with mode
// "histogram": UPDATE HISTOGRAM on MySQL, PERSISTENT FOR COLUMNS on MariaDB. restore.load runs it
// after the load; restore.analyze (lib/commands/analyze.js) on its own.
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var displayTable = require('../format/display-name.js').displayTable;
var startProgress = require('../format/progress.js').startProgress;

var BATCH = 16;
var QUERY_INTERRUPTED = 1317; // Ctrl-C: stop, do not go on with the next batch
var onTheServer = require('./server-tables.js');

// The base tables of `tables` that exist on the server (one query per schema, names only).
function existingTables(host, tables) {
  var onServer = onTheServer.baseTableNames(host);
  return tables.filter(function (t) { return onServer(t.schema, t.table) !== null; });
}

// verb: 'ANALYZE TABLE ' or 'ANALYZE LOCAL TABLE ' (LOCAL keeps the histograms out of the binary log
// too: under skipBinlog they would otherwise be the only statements of the load a replica sees).
function histogramStatements(host, t, verb) {
  if (!t.histograms.length) return [];
  var target = quoteTable(t.schema, t.table);
  if (host.sql.serverInfo().flavour === 'mariadb') {
    return [verb + target + ' PERSISTENT FOR COLUMNS (' +
      t.histograms.map(function (h) { return quoteIdentifier(h.column); }).join(', ') + ') INDEXES ()'];
  }
  var byBuckets = {};
  t.histograms.forEach(function (h) { (byBuckets[h.buckets] = byBuckets[h.buckets] || []).push(quoteIdentifier(h.column)); });
  return Object.keys(byBuckets).map(function (n) {
    return verb + target + ' UPDATE HISTOGRAM ON ' + byBuckets[n].join(', ') + ' WITH ' + Number(n) + ' BUCKETS';
  });
}

// tables: [{schema, table, histograms}]; mode 'on' | 'histogram'; local: keep it out of the binlog.
// A failing statement is recorded and the pass goes on (the data is loaded; statistics can be
// redone with restore.analyze); Ctrl-C stops it. Returns {tables, histograms, statements, problems,
// analyzed: [{schema, table}] of the statements that succeeded}.
function analyzeTables(host, tables, mode, local) {
  var present = existingTables(host, tables);
  // absent: the tables asked for that are not base tables on the server (not analyzed).
  var out = { tables: 0, histograms: 0, statements: 0, problems: [], analyzed: [],
    absent: tables.filter(function (t) { return present.indexOf(t) < 0; }) };
  function run(sql, what) {
    out.statements++;
    try {
      host.sql.run(sql).rows.forEach(function (r) {
        if (String(r.Msg_type).toLowerCase() === 'error') out.problems.push({ table: String(r.Table), message: String(r.Msg_text) });
      });
      return true;
    } catch (e) {
      if (e.code === QUERY_INTERRUPTED) throw e;
      out.problems.push({ table: what, message: e.message });
      return false;
    }
  }
  var verb = 'ANALYZE ' + (local ? 'LOCAL ' : '') + 'TABLE ';
  var progress = startProgress(host, 'Analyzing tables', present.length, { unit: 'tables' });
  for (var i = 0; i < present.length; i += BATCH) {
    var batch = present.slice(i, i + BATCH);
    var names = batch.map(function (t) { return quoteTable(t.schema, t.table); });
    if (run(verb + names.join(', '), batch.map(function (t) { return displayTable(t.schema, t.table); }).join(', '))) {
      out.tables += batch.length;
      Array.prototype.push.apply(out.analyzed, batch);
    }
    progress.update(Math.min(i + BATCH, present.length));
  }
  progress.done();
  if (mode === 'histogram') {
    var hp = startProgress(host, 'Updating histograms', present.length, { unit: 'tables' });
    present.forEach(function (t, n) {
      histogramStatements(host, t, verb).forEach(function (sql) {
        if (run(sql, displayTable(t.schema, t.table) + ' (histograms)')) out.histograms++;
      });
      hp.update(n + 1);
    });
    hp.done();
  }
  return out;
}

function problemLines(result) {
  return result.problems.map(function (p) { return 'ANALYZE failed for ' + p.table + ': ' + p.message; });
}

module.exports = { analyzeTables: analyzeTables, problemLines: problemLines };
