// dropExisting: the objects the load creates again, dropped by the plugin (before Shell 9.1;
// from 9.1 util.loadDump's dropExistingObjects does it). Last before util.loadDump: every fallible
// preparation (stubs, settings) is done.
var dropExisting = require('../../server/drop-existing.js');

module.exports = {
  name: 'drop existing',
  reads: ['plan.drops', 'plan.dropNative', 'pre.own.force'], adds: ['report.dropped'],
  reports: 'the objects dropped (report.dropped)',
  undo: 'none: a failure says what is gone and that the same load creates it again (lib/run/load-outcome.js)',
  // Asked before any step runs (interactively; force skips it).
  confirm: function (run) { dropExisting.confirmDrops(run.host, run.plan.drops, run.pre.own.force); },
  when: function (run) { return run.plan.drops.length > 0 && !run.plan.dropNative; },
  run: function (run) { dropExisting.dropObjects(run.host, run.plan.drops, run.report.dropped); },
};
