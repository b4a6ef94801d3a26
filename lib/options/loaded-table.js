// A table a user names in an option (a mask, a relation) among the tables of a load: by the schema
// it is loaded into, or by its schema in the dump. tables: [{schema, dumpSchema, table}]
// (lib/partial/load-objects.js).

// The first table of the load that the name means, or null.
function loadedTable(tables, schema, table) {
  for (var i = 0; i < tables.length; i++) {
    var t = tables[i];
    if (t.table === table && (t.schema === schema || t.dumpSchema === schema)) return t;
  }
  return null;
}

// Every name a table of the load answers to, "schema.table" (for a "did you mean").
function loadedTableNames(tables) {
  var names = [];
  tables.forEach(function (t) { names.push(t.schema + '.' + t.table, t.dumpSchema + '.' + t.table); });
  return names;
}

module.exports = { loadedTable: loadedTable, loadedTableNames: loadedTableNames };
