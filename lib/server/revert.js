// Putting a server back as the state file says: the redo log enabled again first (crash safety
// matters most), then every recorded setting at its original value. Used at the end of every
// restore.load (success or failure) and by restore.revert() after a crash (lib/commands/revert.js).
var restoreState = require('./restore-state.js');
var redoLog = require('./redo-log.js');
var tuning = require('./tuning.js');

// Reverts what `by` recorded (everything when by is null). Never throws for a failed step:
// what could not be put back stays in the state file. Returns
// {redoLog: 'enabled'|'was-on' (recorded off, found ON: nothing run)|'failed'|null, redoLogError, restored, failed, stateFile (null when nothing is left)}.
function revertServer(host, state, by) {
  var out = { redoLog: null, redoLogError: null, restored: [], unknown: [], failed: [], stateFile: null };
  if (state.redoLog && (!by || state.redoLog.disabledBy === by)) {
    try {
      out.redoLog = redoLog.enableWithState(host, state) ? 'enabled' : 'was-on';
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

module.exports = { revertServer: revertServer, leftoverLines: leftoverLines };
