// Rows per table for reports: an exact COUNT(*) where the table is small enough to scan quickly,
// otherwise InnoDB's estimate from information_schema (marked as such), so a report on a
// 300 GB restore does not scan 300 GB again.
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var tableNameKey = require('./table-name-case.js').tableNameKey;

var EXACT_UP_TO_BYTES = 256 * 1024 * 1024;

// tables: [{schema, table}] → [{schema, table, rows (null if the table does not exist), exact}].
function tableRowCounts(host, tables) {
  var bySchema = new Map();
  var key = tables.length ? tableNameKey(host) : null;
  tables.forEach(function (t) {
    if (!bySchema.has(t.schema)) {
      var found = new Map();
      host.sql.run('SELECT TABLE_NAME AS name, TABLE_ROWS AS est, DATA_LENGTH AS bytes FROM information_schema.TABLES ' +
        "WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [t.schema]).rows.forEach(function (r) {
        found.set(key(r.name), r);
      });
      bySchema.set(t.schema, found);
    }
  });
  return tables.map(function (t) {
    var info = bySchema.get(t.schema).get(key(t.table)) || null;
    if (!info) return { schema: t.schema, table: t.table, rows: null, exact: false };
    if (Number(info.bytes) > EXACT_UP_TO_BYTES) return { schema: t.schema, table: t.table, rows: Number(info.est), exact: false };
    var n = host.sql.run('SELECT COUNT(*) AS n FROM ' + quoteTable(t.schema, t.table)).rows[0].n;
    return { schema: t.schema, table: t.table, rows: Number(n), exact: true };
  });
}

module.exports = { tableRowCounts: tableRowCounts };
