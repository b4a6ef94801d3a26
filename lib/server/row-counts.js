// Rows per table for reports: an exact COUNT(*) where the table is small enough to scan quickly,
// otherwise InnoDB's estimate from information_schema (marked as such), so a report on a
// 300 GB restore does not scan 300 GB again. A table the load has just analyzed has a fresh
// estimate: it is counted only up to 32 MiB (a 2,000,000-row table's scan took 0.2-0.4 s of a
// 10 s fastest load: issue 44). A table the dump records as small enough is counted without its
// statistics being read (reading them opens every table: 15 s of a 10,000-table report). A table
// whose rows util.loadDump's own count gives (lib/run/loaded-rows.js decides) is not opened at all.
// Each count says where it comes from (source): "loaded", "counted" (COUNT(*)) or "estimate".
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var onTheServer = require('./server-tables.js');

var EXACT_UP_TO_BYTES = 256 * 1024 * 1024;
var EXACT_UP_TO_BYTES_ANALYZED = 32 * 1024 * 1024;
// COUNT(*)s per statement (UNION ALL): 50,000 small tables are not 50,000 round trips.
var BATCH = 100;

function keyOf(t) { return JSON.stringify([t.schema, t.table]); }

// tables: [{schema, table, dumpSchema?}]; opts (optional): {analyzed: [{schema, table}] just
// analyzed, tableBytes: (dumpSchema, table) -> bytes the dump records, or null, asLoaded:
// (schema, table) -> the rows util.loadDump loaded, where they are the table's rows, or null}
// → [{schema, table, rows (null if the table does not exist), exact, source (null if it does not)}].
function tableRowCounts(host, tables, opts) {
  var o = opts || {};
  var fresh = new Set((o.analyzed || []).map(keyOf));
  var nameOf = onTheServer.baseTableNames(host);
  var cutOf = function (t) { return fresh.has(keyOf(t)) ? EXACT_UP_TO_BYTES_ANALYZED : EXACT_UP_TO_BYTES; };
  var counted = [];
  var unsized = new Map(); // schema -> [{r, name}] whose size the server tells
  var out = tables.map(function (t) {
    var r = { schema: t.schema, table: t.table, rows: null, exact: false, source: null };
    var name = nameOf(t.schema, t.table);
    if (name === null) return r;
    var loaded = o.asLoaded ? o.asLoaded(t.schema, t.table) : null;
    if (loaded !== null && loaded !== undefined) {
      r.rows = loaded;
      r.exact = true;
      r.source = 'loaded';
      return r;
    }
    r.source = 'counted';
    var recorded = o.tableBytes && t.dumpSchema !== undefined ? o.tableBytes(t.dumpSchema, t.table) : null;
    if (recorded !== null && recorded !== undefined && Number(recorded) <= cutOf(t)) {
      r.exact = true;
      counted.push(r);
    } else {
      if (!unsized.has(t.schema)) unsized.set(t.schema, []);
      unsized.get(t.schema).push({ r: r, t: t, name: name });
    }
    return r;
  });
  unsized.forEach(function (list, schema) {
    var stats = onTheServer.tableStats(host, schema, list.map(function (x) { return x.name; }));
    list.forEach(function (x) {
      var info = stats.get(x.name);
      if (info && Number(info.bytes) > cutOf(x.t)) {
        x.r.rows = Number(info.est);
        x.r.source = 'estimate';
        return;
      }
      x.r.exact = true;
      counted.push(x.r);
    });
  });
  countTables(function (sql) { return host.sql.run(sql); }, counted).forEach(function (n, k) { counted[k].rows = n; });
  return out;
}

// COUNT(*) of each of tables [{schema, table}], BATCH a statement; run: a statement -> its result. [rows]
function countTables(run, tables) {
  var out = [];
  tables.forEach(function (t, k) {
    if (k % BATCH) return;
    run(tables.slice(k, k + BATCH).map(function (b, j) { return 'SELECT ' + j + ' AS k, COUNT(*) AS n FROM ' + quoteTable(b.schema, b.table); })
      .join(' UNION ALL ')).rows.forEach(function (row) { out[k + Number(row.k)] = Number(row.n); });
  });
  return out;
}

// The server's count of rows updated and deleted in user tables ({updated, deleted}, or null where
// performance_schema cannot be read): unchanged across util.loadDump, no loaded row replaced another.
function rowChangeCounters(host) {
  try {
    var c = {};
    host.sql.run("SELECT VARIABLE_NAME AS n, VARIABLE_VALUE AS v FROM performance_schema.global_status WHERE VARIABLE_NAME IN " +
      "('Innodb_rows_updated', 'Innodb_rows_deleted')").rows.forEach(function (r) { c[String(r.n).toLowerCase()] = String(r.v); });
    if (c.innodb_rows_updated === undefined || c.innodb_rows_deleted === undefined) return null;
    return { updated: c.innodb_rows_updated, deleted: c.innodb_rows_deleted };
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    return null;
  }
}

module.exports = { tableRowCounts: tableRowCounts, countTables: countTables, BATCH: BATCH, rowChangeCounters: rowChangeCounters };
