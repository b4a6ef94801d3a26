// The plugin's own statements after the load on a Group Replication group: each one's transaction
// below group_replication_transaction_size_limit (a larger one is rolled back by the group at
// commit). Row changes go in batches of rows sized from the limit and the table's measured row size,
// with the same quarter as util.loadDump's maxBytesPerTransaction there (a row event holds more than the row's
// data; with binlog_row_image FULL a DELETE logs every column). When the group rolls one back all
// the same (a statement not batched: orphans "parents" copying rows), the error says so, with the
// limit and what the server's error log says.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var chunkTable = require('../dump/chunk-table.js');

// The group refusing a transaction: 3100, "Error on observer while running replication hook
// 'before_commit'" (the cause unnamed), or 3231, "The size of writeset data for the current
// transaction exceeds a limit imposed by an external component" (measured: an unbatched orphans DELETE).
var ROLLBACK_CODES = [3100, 3231];
var SAMPLE = 1000;
var MOST = 100000;

// Rows per statement for table on a group with this limit (null: no group, one statement).
function batchRows(host, schema, table, limit) {
  if (!limit) return null;
  var cols = host.sql.run('SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ' +
    "AND EXTRA NOT LIKE '%VIRTUAL%'", [schema, table]).rows.map(function (r) { return String(r.c); });
  // The largest row of a sample, its columns' bytes plus a little for each one's header.
  var widest = cols.length ? Number(host.sql.run('SELECT COALESCE(MAX(' + cols.map(function (c) {
    return 'COALESCE(LENGTH(' + quoteIdentifier(c) + '), 0)';
  }).join(' + ') + '), 0) AS w FROM (SELECT * FROM ' + quoteTable(schema, table) + ' LIMIT ' + SAMPLE + ') AS s').rows[0].w) : 0;
  var row = widest + 8 * cols.length + 32;
  return Math.max(1, Math.min(MOST, Math.floor(limit / 4 / row)));
}

// Runs the single-table statement sql with LIMIT n until it changes fewer rows;
// with n null, once. Returns the rows changed.
function inBatches(host, sql, args, n) {
  if (!n) return Number(host.sql.run(sql, args).affected || 0);
  var total = 0;
  for (;;) {
    var got = Number(host.sql.run(sql + ' LIMIT ' + n, args).affected || 0);
    total += got;
    if (got < n) return total;
  }
}

// e from a statement of `what` (words: "the orphans DELETE of shop.orders") on a group with this
// limit: a rollback by the group becomes an error that names the limit and, where the server's error
// log says, the size refused; batched: the statement was one of the batches sized here. Anything else
// is returned as it is.
function namedRollback(host, e, what, limit, batched) {
  if (!limit || !e || !e.isSqlError || ROLLBACK_CODES.indexOf(Number(e.code)) < 0) return e;
  var said = null;
  try {
    var r = host.sql.run("SELECT DATA AS d FROM performance_schema.error_log WHERE DATA LIKE '%exceeds specified limit%' " +
      'ORDER BY LOGGED DESC LIMIT 1').rows;
    said = r.length ? String(r[0].d) : null;
  } catch (x) {
    if (!x || !x.isSqlError) throw x;
  }
  return new UserError('GROUP_ROLLED_BACK', 'The group rolled back ' + what + ' (error ' + e.code + ', "' + e.message + '"): ' +
    (said ? 'the server\'s error log says "' + said + '"' : 'the server\'s error log names no size; a transaction above ' +
      'group_replication_transaction_size_limit is rolled back this way') + '. group_replication_transaction_size_limit is ' + limit +
    ' bytes' + (batched ? '; the plugin sized its batches to a quarter of it from the rows it measured' : '') +
    '. Raise the limit on every member ' +
    '(SET GLOBAL group_replication_transaction_size_limit = …) and load again, or load without this step.');
}

// In the preflight: orphans "parents" stages the chunks a partial load left out with util.importTable,
// one LOAD DATA per chunk file (MySQL Shell 9.1 does not split a compressed file by
// maxBytesPerTransaction: measured, 316 KB in one statement with 4096 given). On a group, a chunk whose
// data is above a quarter of the limit would be rolled back: refused, naming the largest one.
// planned: the partial step's plan (null: a full load stages nothing).
function refuseLargeStaging(planned, orphansMode, limit) {
  if (!limit || orphansMode !== 'parents' || !planned || !planned.partial || !planned.plan) return;
  var worst = null;
  planned.plan.targets.forEach(function (e) {
    var staged = e.stubbed.concat(e.since && e.from < e.to ? [e.from] : []);
    staged.forEach(function (i) {
      var bytes = chunkTable.dataBytesOf(e.target.chunks, i);
      if (bytes === bytes && (!worst || bytes > worst.bytes)) worst = { e: e, index: i, bytes: bytes };
    });
  });
  if (!worst || worst.bytes <= limit / 4) return;
  throw new UserError('GROUP_LIMIT_TOO_SMALL', 'orphans "parents" stages the chunks left out with util.importTable, one LOAD DATA ' +
    'per chunk file (MySQL Shell does not split a compressed file into smaller transactions), and chunk ' + worst.index + ' of ' +
    displayTable(worst.e.schema, worst.e.table, worst.e.partition) + ' holds ' + worst.bytes + ' bytes of data, above a quarter of ' +
    'group_replication_transaction_size_limit (' + limit + ' bytes): the group would roll it back. Raise the limit on every member ' +
    '(SET GLOBAL group_replication_transaction_size_limit = …), or use orphans: "delete". Nothing was changed.');
}

module.exports = { batchRows: batchRows, inBatches: inBatches, namedRollback: namedRollback, refuseLargeStaging: refuseLargeStaging };
