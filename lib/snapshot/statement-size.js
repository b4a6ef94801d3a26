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
// log says, the size refused. Anything else is returned as it is.
function namedRollback(host, e, what, limit) {
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
    ' bytes; the plugin sized its batches to a quarter of it from the rows it measured. Raise the limit on every member ' +
    '(SET GLOBAL group_replication_transaction_size_limit = …) and load again, or load without this step.');
}

module.exports = { batchRows: batchRows, inBatches: inBatches, namedRollback: namedRollback };
