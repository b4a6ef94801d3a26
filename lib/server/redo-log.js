// The InnoDB redo log switch (MySQL 8.0.21+): ALTER INSTANCE {DISABLE|ENABLE} INNODB REDO_LOG,
// state in the Innodb_redo_log_enabled status variable. Servers without the switch (MariaDB,
// MySQL before 8.0.21) have no such variable: the feature is detected, not guessed from versions.
// Also restore.disableRedoLog() / restore.enableRedoLog(), which record in the state file.
var UserError = require('../core/user-error.js').UserError;
var redoLogState = require('./server-status.js').redoLogState;
var restoreState = require('./restore-state.js');
var safety = require('./server-safety.js');
var requireConnection = require('./require-connection.js').requireConnection;

// {state: 'ON'|'OFF'|null, reason: null or why it cannot be switched here}.
function redoLogSupport(host) {
  var state = redoLogState(host);
  if (state !== null) return { state: state, reason: null };
  var info = host.sql.serverInfo();
  return { state: null, reason: (info.flavour === 'mariadb' ? 'MariaDB ' : 'MySQL ') + info.version + ' has no ' +
    'switchable InnoDB redo log (ALTER INSTANCE DISABLE INNODB REDO_LOG needs MySQL 8.0.21 or later)' };
}

function setRedoLog(host, enabled) {
  host.sql.run('ALTER INSTANCE ' + (enabled ? 'ENABLE' : 'DISABLE') + ' INNODB REDO_LOG');
}

function now() { return new Date().toISOString(); }

// Records in the state file first, then disables. by: who, for the state file and status.
function disableWithState(host, state, by) {
  state.redoLog = { disabledBy: by, at: now() };
  restoreState.saveState(host, state);
  try {
    setRedoLog(host, false);
  } catch (e) {
    state.redoLog = null;
    restoreState.saveState(host, state);
    throw e;
  }
}

// Enables again if it is off; clears the state entry once it is on. Throws when it fails.
function enableWithState(host, state) {
  if (redoLogState(host) === 'OFF') setRedoLog(host, true);
  if (state) {
    state.redoLog = null;
    restoreState.saveState(host, state);
  }
}

function disableRedoLogMember(host, options) {
  requireConnection(host, 'restore.disableRedoLog()', 'disable-redo-log');
  var force = !!(options && options.force);
  var s = redoLogSupport(host);
  if (s.state === null) {
    host.out.print(s.reason + ': nothing to do.');
    return { supported: false, before: null, after: null };
  }
  if (s.state === 'OFF') {
    host.out.print('The InnoDB redo log is already disabled. restore.enableRedoLog() enables it.');
    return { supported: true, before: 'OFF', after: 'OFF' };
  }
  safety.checkServerSafety(host, 'disable the InnoDB redo log', force);
  safety.checkRedoLogPrivilege(host, force);
  var state = restoreState.readState(host) || restoreState.newState(host);
  restoreState.checkStateWritable(host, state.serverUuid);
  try {
    disableWithState(host, state, 'restore.disableRedoLog');
  } catch (e) {
    throw new UserError('Disabling the InnoDB redo log failed: ' + e.message + '. Nothing was changed.');
  }
  host.out.print('The InnoDB redo log is disabled. The server is NOT crash safe until you run restore.enableRedoLog() ' +
    '(a crash now means rebuilding the instance). restore.status() shows it; the state file ' +
    restoreState.statePath(host, state.serverUuid) + ' records it.');
  return { supported: true, before: 'ON', after: redoLogState(host) };
}

function enableRedoLogMember(host) {
  requireConnection(host, 'restore.enableRedoLog()', 'enable-redo-log');
  var s = redoLogSupport(host);
  if (s.state === null) {
    host.out.print(s.reason + ': nothing to do.');
    return { supported: false, before: null, after: null };
  }
  var state = restoreState.readState(host);
  try {
    enableWithState(host, state);
  } catch (e) {
    throw new UserError('Enabling the InnoDB redo log failed: ' + e.message + '. It is still OFF: the server is not ' +
      'crash safe. Retry restore.enableRedoLog(), or run ALTER INSTANCE ENABLE INNODB REDO_LOG as an administrator.');
  }
  host.out.print(s.state === 'OFF' ? 'The InnoDB redo log is enabled again.' : 'The InnoDB redo log is already enabled.');
  if (state && !restoreState.isEmpty(state)) {
    host.out.print('Settings changed by an earlier restore are still recorded: restore.revert() puts them back.');
  }
  return { supported: true, before: s.state, after: redoLogState(host) };
}

module.exports = { redoLogSupport: redoLogSupport, setRedoLog: setRedoLog, disableWithState: disableWithState,
  enableWithState: enableWithState, disableRedoLogMember: disableRedoLogMember, enableRedoLogMember: enableRedoLogMember };
