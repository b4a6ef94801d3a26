// restore.disableRedoLog(): the redo log off for a load run some other way, recorded in the
// restore state file first (restore.status() shows it, restore.revert() undoes it).
var UserError = require('../core/user-error.js').UserError;
var redoLog = require('../server/redo-log.js');
var redoLogState = require('../server/server-variables.js').redoLogState;
var restoreState = require('../server/restore-state.js');
var safety = require('../server/server-safety.js');
var requireConnection = require('../server/require-connection.js').requireConnection;

function disableRedoLogMember(host, options) {
  requireConnection(host, 'restore.disableRedoLog()', ['disable-redo-log']);
  var force = !!(options && options.force);
  var s = redoLog.redoLogSupport(host);
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
    redoLog.disableWithState(host, state, 'restore.disableRedoLog');
  } catch (e) {
    throw new UserError('REDO_LOG_FAILED', 'Disabling the InnoDB redo log failed: ' + e.message + '. Nothing was changed.');
  }
  host.out.print('The InnoDB redo log is disabled. The server is NOT crash safe until you run restore.enableRedoLog() ' +
    '(a crash now means rebuilding the instance). restore.status() shows it; the state file ' +
    restoreState.statePath(host, state.serverUuid) + ' records it.');
  return { supported: true, before: 'ON', after: redoLogState(host) };
}

module.exports = { disableRedoLogMember: disableRedoLogMember };
