// The foreign keys of the loaded tables, read from the server's catalog after the load (the
// DDL the server actually created, whatever Shell version wrote the dump): multi-column keys in
// column order, self-references, and keys whose referenced table is not on the server (excluded
// from the load, or never dumped): those cannot be checked, only reported. The `relations`
// option's virtual keys (lib/options/relations.js) join them, unless a declared key says the same.

function tableKey(schema, table) { return JSON.stringify([schema, table]); }

// tables: [{schema, table}] that were loaded; virtual: keys from relations.relationKeys, or the dump's DDL while the load defers them (or none) →
// [{name, schema, table, columns, refSchema, refTable, refColumns, refExists, refLoaded, virtual}],
// declared keys first, in a stable order.
function loadedForeignKeys(host, tables, virtual) {
  var loaded = {};
  var schemas = [];
  tables.forEach(function (t) {
    loaded[tableKey(t.schema, t.table)] = true;
    if (schemas.indexOf(t.schema) < 0) schemas.push(t.schema);
  });
  if (!schemas.length) return [];
  var out = declaredKeys(host, schemas, loaded);
  var said = {};
  out.forEach(function (fk) { said[sameKey(fk)] = true; });
  (virtual || []).forEach(function (fk) {
    if (said[sameKey(fk)]) return;
    said[sameKey(fk)] = true;
    out.push(Object.assign({}, fk, { refExists: null, refLoaded: loaded[tableKey(fk.refSchema, fk.refTable)] === true }));
  });
  markExisting(host, out);
  return out;
}

function sameKey(fk) {
  return JSON.stringify([fk.schema, fk.table, fk.columns, fk.refSchema, fk.refTable, fk.refColumns]);
}

function declaredKeys(host, schemas, loaded) {
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
        refTable: String(r.rt), refColumns: [], refExists: null, refLoaded: loaded[tableKey(String(r.rs), String(r.rt))] === true,
        virtual: false };
      out.push(fk);
    }
    fk.columns.push(String(r.col));
    fk.refColumns.push(String(r.rcol));
  });
  return out;
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
