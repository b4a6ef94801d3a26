// The foreign keys of the loaded tables, read from the server's catalog after the load (the
// DDL the server actually created, whatever Shell version wrote the dump): multi-column keys in
// column order, self-references, and keys whose referenced table is not on the server (excluded
// from the load, or never dumped): those cannot be checked, only reported. Also each child's
// primary key, by which its orphans are deleted.

function tableKey(schema, table) { return JSON.stringify([schema, table]); }

// tables: [{schema, table}] that were loaded → [{name, schema, table, columns, refSchema, refTable,
// refColumns, refExists, refLoaded, childKey}], in a stable order.
function loadedForeignKeys(host, tables) {
  var loaded = {};
  var schemas = [];
  tables.forEach(function (t) {
    loaded[tableKey(t.schema, t.table)] = true;
    if (schemas.indexOf(t.schema) < 0) schemas.push(t.schema);
  });
  if (!schemas.length) return [];
  var rows = host.sql.run('SELECT rc.CONSTRAINT_SCHEMA AS s, rc.TABLE_NAME AS t, rc.CONSTRAINT_NAME AS name, ' +
    'k.COLUMN_NAME AS col, k.REFERENCED_TABLE_SCHEMA AS rs, k.REFERENCED_TABLE_NAME AS rt, ' +
    'k.REFERENCED_COLUMN_NAME AS rcol, k.ORDINAL_POSITION AS pos ' +
    'FROM information_schema.REFERENTIAL_CONSTRAINTS rc JOIN information_schema.KEY_COLUMN_USAGE k ' +
    'ON k.CONSTRAINT_SCHEMA = rc.CONSTRAINT_SCHEMA AND k.TABLE_NAME = rc.TABLE_NAME AND k.CONSTRAINT_NAME = rc.CONSTRAINT_NAME ' +
    'AND k.REFERENCED_TABLE_NAME IS NOT NULL WHERE rc.CONSTRAINT_SCHEMA IN (' + schemas.map(function () { return '?'; }).join(', ') +
    ') ORDER BY rc.CONSTRAINT_SCHEMA, rc.TABLE_NAME, rc.CONSTRAINT_NAME, k.ORDINAL_POSITION', schemas).rows;
  var byName = {};
  var out = [];
  rows.forEach(function (r) {
    var s = String(r.s);
    var t = String(r.t);
    if (!loaded[tableKey(s, t)]) return;
    var id = JSON.stringify([s, t, String(r.name)]);
    var fk = byName[id];
    if (!fk) {
      fk = byName[id] = { name: String(r.name), schema: s, table: t, columns: [], refSchema: String(r.rs),
        refTable: String(r.rt), refColumns: [], refExists: null, refLoaded: loaded[tableKey(String(r.rs), String(r.rt))] === true };
      out.push(fk);
    }
    fk.columns.push(String(r.col));
    fk.refColumns.push(String(r.rcol));
  });
  markExisting(host, out);
  markPrimaryKeys(host, out);
  return out;
}

// childKey: the child's primary key columns ([] without one), for deleting orphans in key order.
function markPrimaryKeys(host, fks) {
  var asked = {};
  fks.forEach(function (fk) {
    var k = tableKey(fk.schema, fk.table);
    if (!asked[k]) {
      asked[k] = host.sql.run("SELECT COLUMN_NAME AS c FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND " +
        "TABLE_NAME = ? AND INDEX_NAME = 'PRIMARY' ORDER BY SEQ_IN_INDEX", [fk.schema, fk.table]).rows.map(function (r) {
        return String(r.c);
      });
    }
    fk.childKey = asked[k];
  });
}

// refExists: whether the referenced table is on the server at all (FOREIGN_KEY_CHECKS=0 lets a
// table reference one that does not exist).
function markExisting(host, fks) {
  var asked = {};
  fks.forEach(function (fk) {
    var k = tableKey(fk.refSchema, fk.refTable);
    if (asked[k] === undefined) {
      asked[k] = Number(host.sql.run('SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
        [fk.refSchema, fk.refTable]).rows[0].n) > 0;
    }
    fk.refExists = asked[k];
  });
}

module.exports = { loadedForeignKeys: loadedForeignKeys, tableKey: tableKey };
