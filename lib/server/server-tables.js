// The server's tables as the plugin looks them up after a load (drops, analyze, row counts, the
// redo log check): with lower_case_table_names 1 or 2 a dump's `Orders` is the server's `orders`
// (1 stores it lowercased, 2 compares without case), so every lookup goes through one key.

// Schemas of the server itself: never loaded, analyzed or counted as a user's.
var SYSTEM_SCHEMAS = ['mysql', 'sys', 'information_schema', 'performance_schema'];

function isSystemSchema(name) { return SYSTEM_SCHEMAS.indexOf(String(name).toLowerCase()) >= 0; }

// Whether this server takes table names case aside (lower_case_table_names 1 or 2): with the
// session's serverInfo where its host reads it there (once; a load asked 5 times).
function foldsTableNames(host) {
  var known = host.sql.serverInfo ? host.sql.serverInfo().lowerCaseTableNames : undefined;
  var l = known !== undefined ? known : host.sql.run('SELECT @@lower_case_table_names AS l').rows[0].l;
  return String(l) !== '0';
}

// name -> the key two names of one table share on this server.
function tableNameKey(host) {
  var fold = foldsTableNames(host);
  return function (name) { return fold ? String(name).toLowerCase() : String(name); };
}

// Schemas that exist on the server, of these names.
function existingSchemas(host, names) {
  if (!names.length) return [];
  return host.sql.run('SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN (' +
    names.map(function () { return '?'; }).join(', ') + ')', names).rows.map(function (r) { return String(r.s); });
}

// (schema, table) -> the server's name of that base table, or null: names only, one query per
// schema, no table opened (TABLE_ROWS and DATA_LENGTH open every table without fresh statistics:
// 15 s for 10,000 tables just loaded, on a shared machine).
function baseTableNames(host) {
  var key = null;
  var bySchema = new Map();
  return function (schema, table) {
    key = key || tableNameKey(host);
    if (!bySchema.has(schema)) {
      var found = new Map();
      host.sql.run('SELECT TABLE_NAME AS name FROM information_schema.TABLES ' +
        "WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'", [schema]).rows.forEach(function (r) { found.set(key(r.name), String(r.name)); });
      bySchema.set(schema, found);
    }
    var name = bySchema.get(schema).get(key(table));
    return name === undefined ? null : name;
  };
}

var STATS_BATCH = 500;

// The server's {est (TABLE_ROWS), bytes (DATA_LENGTH)} of base tables of one schema, by the
// server's names (baseTableNames): only these are opened for their statistics. → Map name -> row.
function tableStats(host, schema, names) {
  var out = new Map();
  for (var i = 0; i < names.length; i += STATS_BATCH) {
    var batch = names.slice(i, i + STATS_BATCH);
    host.sql.run('SELECT TABLE_NAME AS name, TABLE_ROWS AS est, DATA_LENGTH AS bytes FROM information_schema.TABLES ' +
      'WHERE TABLE_SCHEMA = ? AND TABLE_NAME IN (' + batch.map(function () { return '?'; }).join(', ') + ')', [schema].concat(batch))
      .rows.forEach(function (r) { out.set(String(r.name), r); });
  }
  return out;
}

module.exports = { isSystemSchema: isSystemSchema, existingSchemas: existingSchemas, foldsTableNames: foldsTableNames, tableNameKey: tableNameKey, baseTableNames: baseTableNames,
  tableStats: tableStats };
