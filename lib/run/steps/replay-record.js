// What a later roll forward checks the target against (lib/binlog/replay-record.js): written by the replay step
// once it is done, and again by this step, last of the steps (those after the replay write GTIDs of their own:
// since's trim, ANALYZE TABLE).
var replayRecord = require('../../binlog/replay-record.js');
var rowFacts = require('../../snapshot/row-ownership.js').rowFacts;

function recordReplay(run) {
  var plan = run.plan.replay;
  var r = run.report.replay;
  try {
    replayRecord.writeRecord(run.host, { key: plan.recordKey, rows: rowFacts(run.plan.snapshot.ownership, run.pre.objects.tables, plan.forward),
      last: r && r.last ? { gtid: r.last.gtid, time: r.last.timeText } : plan.forward && plan.forward.from
        ? { gtid: plan.forward.from.gtid, time: plan.forward.from.timeText } : null });
  } catch (e) {
    // The replay is done; only a later roll forward needs the record.
    run.host.out.warn('The record of this replay could not be written (' + e.message + '): the same command with a later stop still continues ' +
      'from the target\'s GTIDs, but cannot tell a write made on the target since from this restore\'s own.');
  }
}

module.exports = {
  name: null,
  reads: ['plan.replay', 'report.replay'], adds: ['the replay\'s record for a roll forward (<config home>/restore/replays/<server uuid>.json)'],
  reports: 'nothing',
  undo: 'nothing: the plugin\'s own file, replaced by the next replay on this server',
  when: function (run) { return !!run.plan.replay && !!run.report.replay; },
  run: function (run) { recordReplay(run); },
};
