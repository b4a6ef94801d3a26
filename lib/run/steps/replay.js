// binlogs: the source's transactions after the dump replayed up to the target, after util.loadDump
// and before the progress file goes (a replay that stops keeps it: the same command resumes the
// load, which has nothing left, and the replay, which skips the GTIDs the target holds) and before
// analyze (statistics of the final rows).
var applyReplay = require('../../binlog/replay-apply.js').applyReplay;
var applyWithApplier = require('../../binlog/replay-applier.js').applyWithApplier;
var times = require('../../binlog/binlog-times.js');
var replayedTables = require('../../binlog/replay-tables.js').replayedTables;
var replayRecordStep = require('./replay-record.js');
var replayRecord = require('../../binlog/replay-record.js');
var rowFacts = require('../../snapshot/row-ownership.js').rowFacts;

// replayWith "applier" (or "auto" that chose it): the target's replication applier, fed by the plugin (its binary
// log as log_replica_updates says). "auto" falls back to the sessions when the target could not connect back
// and it is proven nothing was applied (the channel received nothing, gtid_executed unchanged); else the error stands.
function replay(host, plan, unlogged) {
  var sessions = function () { return applyReplay(host, plan, { workers: plan.sessionWorkers || plan.workers || 1, unlogged: unlogged }); };
  if (!plan.applier) return { r: sessions(), engine: 'sessions' };
  try {
    return { r: applyWithApplier(host, plan, {}), engine: 'applier' };
  } catch (e) {
    if (!plan.applier.auto || e.code !== 'REPLAY_APPLIER_REFUSED' || !e.data || !e.data.nothingApplied) throw e;
    host.out.warn('replayWith "auto": ' + e.data.reason + '; nothing was applied and the channel was removed, so the plugin\'s sessions replay instead.');
    return { r: sessions(), engine: 'sessions', fallback: e.data.reason };
  }
}

module.exports = {
  name: 'replay',
  reads: ['plan.replay', 'pre.objects.tables'], adds: ['report.replay'],
  reports: 'the transactions applied, those the target held already, the last GTID and its commit time, the tables it created (report.replay)',
  undo: 'none: each transaction keeps its GTID (the source\'s, or derived from the dump\'s position); the same command continues a replay that stopped',
  when: function (run) { return !!run.plan.replay; },
  run: function (run) {
    var plan = run.plan.replay;
    // The load's levers hold during the replay: it runs inside the tuned settings (the server steps before it,
    // the revert step after it, also on failure) and, where the load skips the binary log, so do its sessions.
    var unlogged = !!run.plan.loadDumpOptions.skipBinlog;
    // The record says the replay began: one that stops is told from one that ended (lib/binlog/replay-record.js).
    replayRecord.markReplaying(run.host, plan, rowFacts(run.plan.snapshot.ownership, run.pre.objects.tables, plan.forward));
    var done = replay(run.host, plan, unlogged);
    var r = done.r;
    if (done.engine === 'applier') unlogged = false;
    var last = r.last ? { gtid: r.last.gtid, time: r.last.time, timeText: times.timeTexts(run.host, plan.zone, [r.last.time])[0] } : null;
    run.report.replay = { applied: r.applied, onTarget: r.onTarget, last: last, zone: plan.zone.name, target: plan.target, stopNamed: plan.stopNamed || null,
      engine: done.engine, fallback: done.fallback || null, workers: r.workers, tls: r.tls || null, bytes: r.bytes, retries: r.retries, statements: r.statements,
      cpuSeconds: r.cpuSeconds, commitSeconds: r.commitSeconds, unlogged: unlogged, created: replayedTables(run.host, plan.created || [], run.pre.objects.tables),
      forward: plan.forward ? plan.forward.from || { gtid: null } : null };
    replayRecordStep.run(run); // the record for a roll forward, at once (the last step writes it again)
  },
};
