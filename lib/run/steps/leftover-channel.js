// A replay killed on the applier road leaves its replication channel, with its password in
// mysql.slave_master_info: the preflight finds it and the plan says so (lib/binlog/replay-applier.js);
// it is removed here, first of the changes, once every check of the preflight has passed (a refused
// load changes nothing, the channel included). Not a timed phase.
var replayApplier = require('../../binlog/replay-applier.js');

module.exports = {
  name: null,
  reads: ['plan.leftoverChannel'], adds: ['the leftover channel removed'],
  reports: 'one line when it is removed',
  undo: 'nothing: the channel was the plugin\'s own, left by an interrupted replay',
  when: function (run) { return !!run.plan.leftoverChannel; },
  run: function (run) { replayApplier.removeLeftover(run.host); },
};
