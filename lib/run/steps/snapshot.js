// Orphans and masks (lib/snapshot/): after the data is in, before its statistics are taken. (The
// progress file is still there: indexes deferred until the orphans are gone are built from it.)
var snapshotStep = require('../../snapshot/snapshot-step.js');

module.exports = {
  name: 'snapshot',
  reads: ['plan.snapshot', 'plan.loadDumpOptions', 'plan.loadDir', 'run.planned'], adds: ['report.snapshot'],
  reports: 'the rows deleted, added and masked (report.snapshot: lib/run/snapshot-report.js)',
  undo: 'release: the masks\' key leaves this session, whatever happened',
  when: function (run) { return !!run.plan.snapshot.active; },
  run: function (run) {
    var plan = run.plan;
    run.report.snapshot = snapshotStep.runSnapshot(run.host, plan.snapshot, plan.loadDumpOptions, plan.loadDir, run.planned);
  },
  release: function (run) { snapshotStep.holdMaskKey(run.host, run.plan.snapshot, false); },
};
