// Rows per table for reports: an exact COUNT(*) where the table is small enough to scan quickly,
// otherwise InnoDB's estimate from information_schema (marked as such), so a report on a
// 300 GB restore does not scan 300 GB again.
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var baseTables = require('./server-tables.js').baseTables;

var EXACT_UP_TO_BYTES = 256 * 1024 * 1024;

// tables: [{schema, table}] → [{schema, table, rows (null if the table does not exist), exact}].
function tableRowCounts(host, tables) {
  var onServer = baseTables(host);
  return tables.map(function (t) {
    var info = onServer(t.schema, t.table);
    if (!info) return { schema: t.schema, table: t.table, rows: null, exact: false };
    if (Number(info.bytes) > EXACT_UP_TO_BYTES) return { schema: t.schema, table: t.table, rows: Number(info.est), exact: false };
    var n = host.sql.run('SELECT COUNT(*) AS n FROM ' + quoteTable(t.schema, t.table)).rows[0].n;
    return { schema: t.schema, table: t.table, rows: Number(n), exact: true };
  });
}

module.exports = { tableRowCounts: tableRowCounts };
