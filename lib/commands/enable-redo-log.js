// restore.enableRedoLog(): the redo log on again, whoever disabled it; the record of it leaves
// the restore state file.
var UserError = require('../core/user-error.js').UserError;
var redoLog = require('../server/redo-log.js');
var redoLogState = require('../server/server-variables.js').redoLogState;
var restoreState = require('../server/restore-state.js');
var requireConnection = require('../server/require-connection.js').requireConnection;

function enableRedoLogMember(host) {
  requireConnection(host, 'restore.enableRedoLog()', ['enable-redo-log']);
  var s = redoLog.redoLogSupport(host);
  if (s.state === null) {
    host.out.print(s.reason + ': nothing to do.');
    return { supported: false, before: null, after: null };
  }
  var state = restoreState.readState(host);
  try {
    redoLog.enableWithState(host, state);
  } catch (e) {
    throw new UserError('REDO_LOG_FAILED', 'Enabling the InnoDB redo log failed: ' + e.message + '. It is still OFF: the server is not ' +
      'crash safe. Retry restore.enableRedoLog(), or run ALTER INSTANCE ENABLE INNODB REDO_LOG as an administrator.');
  }
  host.out.print(s.state === 'OFF' ? 'The InnoDB redo log is enabled again.' : 'The InnoDB redo log is already enabled.');
  if (state && !restoreState.isEmpty(state)) {
    host.out.print('Settings changed by an earlier restore are still recorded: restore.revert() puts them back.');
  }
  return { supported: true, before: s.state, after: redoLogState(host) };
}

module.exports = { enableRedoLogMember: enableRedoLogMember };
