// util.loadDump, with the options composed in the preflight (lib/run/loader-options.js), on the
// dump or the partial step's load view. With masks applied while loading, this session holds
// their key from here to the snapshot step's release.
var snapshotStep = require('../../snapshot/snapshot-step.js');
var rowOwnership = require('../../snapshot/row-ownership.js');
var loadedRows = require('../loaded-rows.js');
var loadBatches = require('../load-batches.js');

module.exports = {
  name: 'util.loadDump',
  reads: ['plan.loadDir', 'plan.loadDumpOptions', 'plan.batches', 'plan.snapshot'], adds: ['the masks\' key held in this session', 'the record of rows of their own beside the progress file'],
  reports: 'its phase (report.phases); util.loadDump prints its own progress',
  undo: 'none: the progress file stays, so the same command resumes it',
  // A replay rolled forward: the tables hold the dump already (lib/binlog/replay-record.js).
  when: function (run) { return !(run.plan.replay && run.plan.replay.forward); },
  run: function (run) {
    var plan = run.plan;
    // A first attempt records which tables held rows of their own, for a resumed one.
    rowOwnership.writeRecord(run.host, plan.snapshot.ownership);
    snapshotStep.holdMaskKey(run.host, plan.snapshot, true);
    var was = loadedRows.before(run.host, plan);
    // Many tables: one call per slice, then the load's own options (lib/run/load-batches.js).
    var calls = plan.batches || [plan.loadDumpOptions];
    calls.forEach(function (options, i) {
      if (calls.length > 1) run.host.out.print(loadBatches.callLine(calls, i));
      run.host.util.loadDump(plan.loadDir, options);
    });
    run.asLoaded = loadedRows.measure(run.host, plan, was, calls.length);
  },
};
