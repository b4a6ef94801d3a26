// restore.status(): what a DBA checks before and after a load on the connected server.
var formatPairs = require('./text-table.js').formatPairs;
var UserError = require('./user-error.js').UserError;

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

function serverStatus(host, extraChecks) {
  if (!host.sql.connected()) {
    throw new UserError('restore.status() needs a connection: connect first (\\connect root@host), or run ' +
      'mysqlsh root@host -- restore status');
  }
  var info = host.sql.serverInfo();
  var facts = {
    server: info.version,
    flavour: info.flavour,
    serverUuid: info.uuid,
    localInfile: globalVariable(host, 'local_infile'),
    redoLog: redoLogState(host),
  };
  var lines = [
    ['Server', info.version + ' (' + (info.flavour === 'mariadb' ? 'MariaDB' : 'MySQL') + ')'],
    ['Server UUID', info.uuid],
    ['local_infile', facts.localInfile],
    ['InnoDB redo log', facts.redoLog === null ? 'cannot be switched on this server' : facts.redoLog],
  ];
  (extraChecks || []).forEach(function (check) { check(host, facts, lines); });
  formatPairs(lines).forEach(host.out.print);
  if (facts.redoLog === 'OFF') {
    host.out.warn('The InnoDB redo log is disabled: the server is not crash safe. Run restore.enableRedoLog() ' +
      'once no load is running.');
  }
  return facts;
}

module.exports = { serverStatus: serverStatus, redoLogState: redoLogState, globalVariable: globalVariable,
  globalStatus: globalStatus };
