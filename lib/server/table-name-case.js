// How the server compares table names: with lower_case_table_names 1 or 2 a dump's `Orders` is the
// server's `orders` (1 stores it lowercased, 2 compares without case). Every lookup of a table the
// plugin loaded (drops, analyze, row counts) goes through the same key.

// name -> the key two names of one table share on this server.
function tableNameKey(host) {
  var fold = String(host.sql.run('SELECT @@lower_case_table_names AS l').rows[0].l) !== '0';
  return function (name) { return fold ? String(name).toLowerCase() : String(name); };
}

module.exports = { tableNameKey: tableNameKey };
