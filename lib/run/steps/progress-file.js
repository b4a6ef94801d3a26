// util.loadDump's progress file in the plugin's state directory (lib/run/loader-options.js chose
// the place): its directory made before any step, the file removed once the load finished (after
// the snapshot step, which builds deferred indexes from it). Not timed phases: no phase is named
// when they fail.
var rowOwnership = require('../../snapshot/row-ownership.js');

var place = {
  name: null,
  reads: ['plan.progressDir'], adds: ['the progress file\'s directory'],
  reports: 'nothing',
  undo: 'nothing: the directory is the plugin\'s own and stays for the next load',
  when: function (run) { return !!run.plan.progressDir; },
  run: function (run) { run.host.files.makeDirs(run.plan.progressDir); },
};

// A finished load's progress file would make the same command "resume" a finished load later,
// after the tables were dropped: it goes.
var remove = {
  name: null,
  reads: ['plan.progressDir', 'plan.loadDumpOptions.progressFile'], adds: [],
  reports: 'nothing',
  undo: 'nothing: only a finished load\'s file goes (a failed one keeps it, to resume)',
  when: function (run) { return !!run.plan.progressDir; },
  run: function (run) {
    var file = run.plan.loadDumpOptions.progressFile;
    run.host.files.remove([file, rowOwnership.recordPath(file)]);
  },
};

module.exports = { place: place, remove: remove };
