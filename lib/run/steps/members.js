// A source with replicas or a group primary: every member has applied all of the above (parents,
// masks, analyze, the replay and the tables it created included) and has the same rows (lib/server/members.js). Last.
var members = require('../../server/members.js');
var withReplayed = require('../../binlog/replay-tables.js').withReplayed;

module.exports = {
  name: 'members',
  reads: ['plan.verifyMembers', 'plan.topology', 'pre.objects.tables', 'report.replay', 'pre.own.membersTimeout'], adds: ['report.members'],
  reports: 'each member\'s role, state, GTIDs applied and rows equal (report.members)',
  undo: 'none: it changes nothing; a member that lags or differs fails the load with its name',
  when: function (run) { return !!run.plan.verifyMembers; },
  run: function (run) {
    run.report.members = members.verifyMembers(run.host, run.plan.topology, withReplayed(run.pre.objects.tables, run.report.replay),
      run.pre.own.membersTimeout);
    if (!run.report.members.ok) throw members.failure(run.report.members);
  },
};
