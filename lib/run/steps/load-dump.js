// util.loadDump, with the options composed in the preflight (lib/run/loader-options.js), on the
// dump or the partial step's load view. With masks applied while loading, this session holds
// their key from here to the snapshot step's release.
var snapshotStep = require('../../snapshot/snapshot-step.js');

module.exports = {
  name: 'util.loadDump',
  reads: ['plan.loadDir', 'plan.loadDumpOptions', 'plan.snapshot'], adds: ['the masks\' key held in this session'],
  reports: 'its phase (report.phases); util.loadDump prints its own progress',
  undo: 'none: the progress file stays, so the same command resumes it',
  when: function () { return true; },
  run: function (run) {
    var plan = run.plan;
    snapshotStep.holdMaskKey(run.host, plan.snapshot, true);
    run.host.util.loadDump(plan.loadDir, plan.loadDumpOptions);
  },
};
