// orphans: "delete" with the secondary indexes built after the orphans are gone. Deleting a row
// costs most in its secondary index entries: on bench:snapshot's data (666,640 of 1,000,000 orders
// deleted) the DELETE takes 3.5 s with the orders' customer_id index and 2.2 s without it, and
// util.loadDump takes 4.1 s building that index on every row against 2.8 s without. So the load
// runs with deferTableIndexes: "all" and loadIndexes: false, the orphans are deleted from tables
// holding their primary keys only, and a second util.loadDump call on the same directory and
// progress file (loadDdl and loadData false, loadIndexes true) builds the deferred indexes and
// foreign keys exactly as the dump's DDL says, on the rows that are left.
//
// Only when the deletes need no deferred index: every key (declared or a relation) between loaded
// tables references its table's primary key, whose lookups need no secondary index. Not when the
// user chose deferTableIndexes (other than "all") or loadIndexes, nor without DDL or data to load,
// nor into tables that may exist already (ignoreExistingObjects).
var atLeast = require('../options/shell-version.js').atLeast;
var loadedTable = require('../options/loaded-table.js').loadedTable;
var eachDumpForeignKey = require('./table-ddl.js').eachDumpForeignKey;

function sameColumns(a, b) {
  return a.length === b.length && a.every(function (c) { return b.indexOf(c) >= 0; });
}

// ctx: the load's preflight context; tables: the loaded tables; ddl: lib/snapshot/table-ddl.js
// dumpTableColumns of them; rels: parsed relations. Returns null (defer) or why not.
function whyNotDeferred(ctx, tables, ddl, rels) {
  var lo = ctx.loadOptions;
  if (lo.loadIndexes !== undefined) return 'loadIndexes is given';
  if (lo.deferTableIndexes !== undefined && lo.deferTableIndexes !== 'all') return 'deferTableIndexes is given';
  if (lo.loadDdl === false || lo.loadData === false || lo.dryRun || ctx.own.dryRun) return 'the load creates no tables or loads no data';
  if (lo.ignoreExistingObjects) return 'ignoreExistingObjects: tables that exist keep the indexes they have';
  if (!atLeast(ctx.shellVersion, '8.0.21')) return 'MySQL Shell ' + ctx.shellVersion;
  function ddlOf(t) { return ddl[JSON.stringify([t.schema, t.table])]; }
  var keys = [];
  eachDumpForeignKey(tables, ddl, function (t, fk, ref) { keys.push({ ref: ref, refColumns: fk.refColumns }); });
  rels.forEach(function (r) { keys.push({ ref: loadedTable(tables, r.refSchema, r.refTable), refColumns: r.refColumns }); });
  for (var i = 0; i < keys.length; i++) {
    var ref = keys[i].ref;
    if (!ref) continue; // not loaded: the server's table keeps its indexes
    var d = ddlOf(ref);
    if (!d) return 'a referenced table has no CREATE TABLE in the dump';
    if (!sameColumns(keys[i].refColumns, d.primary)) return 'a key references columns other than its table\'s primary key';
  }
  for (var j = 0; j < tables.length; j++) if (!ddlOf(tables[j])) return 'a table has no CREATE TABLE in the dump';
  return null;
}

// The foreign keys of the dump's DDL between loaded tables, under the names they are loaded as, in
// the form lib/snapshot/foreign-keys.js takes (the server has none of them until they are built).
function ddlForeignKeys(tables, ddl) {
  var out = [];
  eachDumpForeignKey(tables, ddl, function (t, fk, ref) {
    out.push({ name: fk.name, schema: t.schema, table: t.table, columns: fk.columns.slice(),
      refSchema: ref ? ref.schema : fk.refSchema === null ? t.schema : fk.refSchema, refTable: fk.refTable,
      refColumns: fk.refColumns.slice(), virtual: false });
  });
  return out;
}

// The second util.loadDump call's options: the load's own, building the deferred indexes only.
// (util.loadDump needs something besides indexes to do: it analyzes the tables, which is cheap.)
function indexBuildOptions(lo) {
  var o = Object.assign({}, lo);
  ['resetProgress', 'dropExistingObjects', 'includeUsers', 'excludeUsers', 'updateGtidSet', 'checksum', 'createInvisiblePKs',
    'ignoreExistingObjects'].forEach(function (k) { delete o[k]; });
  o.loadDdl = false;
  o.loadData = false;
  o.loadUsers = false;
  o.loadIndexes = true;
  o.deferTableIndexes = 'all';
  o.analyzeTables = 'on';
  o.showProgress = false;
  return o;
}

// Builds what the load deferred; returns the seconds it took.
function buildDeferredIndexes(host, loadDir, lo) {
  var t0 = Date.now();
  host.util.loadDump(loadDir, indexBuildOptions(lo));
  return (Date.now() - t0) / 1000;
}

module.exports = { whyNotDeferred: whyNotDeferred, ddlForeignKeys: ddlForeignKeys, indexBuildOptions: indexBuildOptions, buildDeferredIndexes: buildDeferredIndexes };
