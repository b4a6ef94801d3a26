// Server variables and status read one by one: the redo log switch, local_infile, tuned settings.
// restore.status() itself is lib/commands/status.js.

function globalVariable(host, name) {
  var r = host.sql.run('SHOW GLOBAL VARIABLES LIKE ?', [name]);
  return r.rows.length ? String(r.rows[0].Value) : null;
}

function globalStatus(host, name) {
  var r = host.sql.run('SHOW GLOBAL STATUS LIKE ?', [name]);
  return r.rows.length ? String(r.rows[0].Value) : null;
}

// 'ON' | 'OFF' | null where the server has no switchable redo log (MariaDB, MySQL < 8.0.21).
function redoLogState(host) {
  return globalStatus(host, 'Innodb_redo_log_enabled');
}

module.exports = { redoLogState: redoLogState, globalVariable: globalVariable,
  globalStatus: globalStatus };
