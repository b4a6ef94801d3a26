// The server steps: restore-time tuning applied and the InnoDB redo log disabled, each recorded in
// the state file first (lib/server/restore-state.js) so that the revert step, or restore.revert()
// after a crash, puts them back.
var tuning = require('../../server/tuning.js');
var redoLog = require('../../server/redo-log.js');

// Who changed the server, as the state file records it.
var BY = 'restore.load';

module.exports = {
  BY: BY,
  name: 'server steps',
  reads: ['plan.tuning', 'plan.redo', 'run.state'], adds: ['run.state (what was changed, with the original values)', 'report.settings', 'report.redoLog.disabled'],
  reports: 'the settings changed (report.settings) and whether the redo log was disabled',
  undo: 'the revert step (lib/run/steps/revert.js), always, from the state file',
  when: function (run) { return !!(run.plan.tuning.length || run.plan.redo.action); },
  run: function (run) {
    var plan = run.plan;
    run.report.settings = plan.tuning;
    if (plan.tuning.length) tuning.applyTuning(run.host, run.state, plan.tuning, BY);
    if (plan.redo.action === 'disable') {
      redoLog.disableWithState(run.host, run.state, BY);
      run.report.redoLog.disabled = true;
    }
  },
};
