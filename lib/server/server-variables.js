// Server variables and status read one by one: the redo log switch, local_infile, tuned settings.
// restore.status() itself is lib/commands/status.js.

function globalVariable(host, name) {
  var r = host.sql.run('SHOW GLOBAL VARIABLES LIKE ?', [name]);
  return r.rows.length ? String(r.rows[0].Value) : null;
}

// Several at once, one round trip: {name: value} of those the server has (a name it lacks is absent).
function globalVariables(host, names) {
  var sql = 'SHOW GLOBAL VARIABLES WHERE Variable_name IN (' + names.map(function () { return '?'; }).join(', ') + ')';
  var vars = {};
  host.sql.run(sql, names).rows.forEach(function (r) { vars[String(r.Variable_name)] = String(r.Value); });
  return vars;
}

function globalStatus(host, name) {
  var r = host.sql.run('SHOW GLOBAL STATUS LIKE ?', [name]);
  return r.rows.length ? String(r.rows[0].Value) : null;
}

// 'ON' | 'OFF' | null where the server has no switchable redo log (MariaDB, MySQL < 8.0.21).
function redoLogState(host) {
  return globalStatus(host, 'Innodb_redo_log_enabled');
}

module.exports = { redoLogState: redoLogState, globalVariable: globalVariable, globalVariables: globalVariables,
  globalStatus: globalStatus };
