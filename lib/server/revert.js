// Putting a server back as the state file says: the redo log enabled again first (crash safety
// matters most), then every recorded setting at its original value. Used at the end of every
// restore.load (success or failure) and by restore.revert() after a crash.
var UserError = require('../core/user-error.js').UserError;
var restoreState = require('./restore-state.js');
var redoLog = require('./redo-log.js');
var tuning = require('./tuning.js');
var restoreLock = require('./restore-lock.js');
var requireConnection = require('./require-connection.js').requireConnection;
var formatTable = require('../format/text-table.js').formatTable;

// Reverts what `by` recorded (everything when by is null). Never throws for a failed step:
// what could not be put back stays in the state file. Returns
// {redoLog: 'enabled'|'failed'|null, redoLogError, restored, failed, stateFile (null when nothing is left)}.
function revertServer(host, state, by) {
  var out = { redoLog: null, redoLogError: null, restored: [], unknown: [], failed: [], stateFile: null };
  if (state.redoLog && (!by || state.redoLog.disabledBy === by)) {
    try {
      redoLog.enableWithState(host, state);
      out.redoLog = 'enabled';
    } catch (e) {
      out.redoLog = 'failed';
      out.redoLogError = e.message;
    }
  }
  var settings = tuning.revertSettings(host, state, by);
  out.restored = settings.restored;
  out.unknown = settings.unknown;
  out.failed = settings.failed;
  if (!restoreState.isEmpty(state)) {
    out.stateFile = restoreState.statePath(host, state.serverUuid);
    try {
      restoreState.saveState(host, state);
    } catch (e) {
      host.out.warn('Could not update the state file ' + out.stateFile + ': ' + e.message);
    }
  }
  return out;
}

// Sentences for what is still left after revertServer (empty when everything is back).
function leftoverLines(result) {
  var lines = [];
  if (result.redoLog === 'failed') {
    lines.push('The InnoDB redo log could not be enabled again (' + result.redoLogError + '): the server is NOT crash safe.');
  }
  result.failed.forEach(function (f) {
    lines.push(f.name + ' could not be put back to ' + f.original + ' (' + f.error + ').');
  });
  if (lines.length) {
    lines.push('Recorded in ' + result.stateFile + ': run restore.revert() to put it back (restore.status() shows it).');
  }
  return lines;
}

// restore.revert()
function revertMember(host) {
  requireConnection(host, 'restore.revert()', 'revert');
  var holder = restoreLock.lockHolder(host);
  if (holder) {
    throw new UserError('A restore is running on this server right now (' + restoreLock.describeHolder(holder) + '): it ' +
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
    return { reverted: false, redoLog: null, restored: [], failed: [], stateFile: null };
  }
  var live = restoreState.liveOwner(host, state);
  if (live) {
    throw new UserError('A restore is running on this server right now (' + restoreState.describeOwner(live) + '): it ' +
      'puts back its own changes when it ends. Nothing was reverted. If that session hangs, end it first ' +
      '(KILL ' + live.connectionId + '), then run restore.revert().');
  }
  host.out.print('Putting back what the restore state file records:');
  restoreState.describeState(state).forEach(function (l) { host.out.print('  ' + l); });
  var result = revertServer(host, state, null);
  if (result.redoLog === 'enabled') host.out.print('InnoDB redo log: enabled again.');
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
  var left = leftoverLines(result);
  if (left.length) throw new UserError(left.join(' '));
  host.out.print(result.unknown.length ? 'Every recorded setting this server has is back as it was; the state file was removed.'
    : 'The server is back as it was; the state file was removed.');
  return { reverted: true, redoLog: result.redoLog, restored: result.restored, unknown: result.unknown, failed: [],
    stateFile: null };
}

module.exports = { revertServer: revertServer, leftoverLines: leftoverLines, revertMember: revertMember };
