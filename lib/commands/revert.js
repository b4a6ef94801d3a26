// restore.revert(): puts the server back as the restore state file says, after a load that
// could not (a crash, a killed session); refused while a restore runs.
var UserError = require('../core/user-error.js').UserError;
var restoreState = require('../server/restore-state.js');
var redoLog = require('../server/redo-log.js');
var revert = require('../server/revert.js');
var restoreLock = require('../server/restore-lock.js');
var requireConnection = require('../server/require-connection.js').requireConnection;
var formatTable = require('../format/text-table.js').formatTable;
var replayApplier = require('../binlog/replay-applier.js');

// A replay by the target's applier that was killed or interrupted leaves its channel (stopped or retrying a
// listener that is gone); the next load removes it too, but revert is what the refusal after a kill points to.
function removeReplayChannel(host) {
  if (!replayApplier.removeOwnChannel(host)) return false;
  host.out.print('Replication channel \'' + replayApplier.CHANNEL + '\' left by an interrupted replay: stopped and removed (with its password).');
  return true;
}

function revertMember(host) {
  requireConnection(host, 'restore.revert()', ['revert']);
  var holder = restoreLock.lockHolder(host);
  if (holder) {
    throw new UserError('RESTORE_RUNNING', 'A restore is running on this server right now (' + restoreLock.describeHolder(holder) + '): it ' +
      'puts back its own changes when it ends. Nothing was reverted. If that session hangs, end it first ' +
      '(KILL ' + holder.connectionId + '), then run restore.revert().');
  }
  var state = restoreState.readState(host);
  if (!state) {
    var path = restoreState.statePath(host, host.sql.serverInfo().uuid);
    host.out.print('Nothing to put back: there is no restore state file for this server (' + path + ').');
    if (redoLog.redoLogSupport(host).state === 'OFF') {
      host.out.warn('The InnoDB redo log is OFF, but not by a recorded restore. restore.enableRedoLog() enables it.');
    }
    var channel = removeReplayChannel(host);
    return { reverted: channel, redoLog: null, restored: [], failed: [], stateFile: null, channelRemoved: channel };
  }
  var live = restoreState.liveOwner(host, state);
  if (live) {
    throw new UserError('RESTORE_RUNNING', 'A restore is running on this server right now (' + restoreState.describeOwner(live) + '): it ' +
      'puts back its own changes when it ends. Nothing was reverted. If that session hangs, end it first ' +
      '(KILL ' + live.connectionId + '), then run restore.revert().');
  }
  host.out.print('Putting back what the restore state file records:');
  restoreState.describeState(state).forEach(function (l) { host.out.print('  ' + l); });
  var result = revert.revertServer(host, state, null);
  var channelRemoved = removeReplayChannel(host);
  if (result.redoLog === 'enabled') host.out.print('InnoDB redo log: enabled again.');
  if (result.redoLog === 'was-on') host.out.print('InnoDB redo log: was ON; nothing to do.');
  if (result.restored.length) {
    // Both values as the server reports them, before and after.
    formatTable(['setting', 'was', 'now', ''], result.restored.map(function (r) {
      return [r.name, r.was, r.now, r.already ? 'already as it was' : 'put back'];
    })).forEach(function (l) { host.out.print(l); });
  }
  result.unknown.forEach(function (u) {
    host.out.warn(u.name + ' (recorded original ' + u.original + ') is not a variable of this server: nothing was run ' +
      'for it, and it was removed from the state file.');
  });
  var left = revert.leftoverLines(result);
  if (left.length) throw new UserError('REVERT_INCOMPLETE', left.join(' '));
  host.out.print(result.unknown.length ? 'Every recorded setting this server has is back as it was; the state file was removed.'
    : 'The server is back as it was; the state file was removed.');
  return { reverted: true, redoLog: result.redoLog, restored: result.restored, unknown: result.unknown, failed: [],
    stateFile: null, channelRemoved: channelRemoved };
}

module.exports = { revertMember: revertMember };
