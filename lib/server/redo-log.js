// The InnoDB redo log switch (MySQL 8.0.21+): ALTER INSTANCE {DISABLE|ENABLE} INNODB REDO_LOG,
// state in the Innodb_redo_log_enabled status variable. Servers without the switch (MariaDB,
// MySQL before 8.0.21) have no such variable: the feature is detected, not guessed from versions.
// restore.disableRedoLog() / restore.enableRedoLog() are lib/commands/.
var redoLogState = require('./server-variables.js').redoLogState;
var restoreState = require('./restore-state.js');

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
// Returns whether it had to enable it (false: it was ON already).
function enableWithState(host, state) {
  var wasOff = redoLogState(host) === 'OFF';
  if (wasOff) setRedoLog(host, true);
  if (state) {
    state.redoLog = null;
    restoreState.saveState(host, state);
  }
  return wasOff;
}

module.exports = { redoLogSupport: redoLogSupport, setRedoLog: setRedoLog, disableWithState: disableWithState,
  enableWithState: enableWithState };
