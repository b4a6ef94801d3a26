// What restore.load returns and says: the report it fills step by step (lib/run/steps/), the
// dry run's facts, and the failure message (which phase, what was put back, what was dropped).
var userError = require('../core/user-error.js');
var UserError = userError.UserError;
var dropExisting = require('../server/drop-existing.js');
var redoLog = require('../server/redo-log.js');
var tuning = require('../server/tuning.js');
var topology = require('../server/topology.js');
var road = require('../server/replicated-road.js');
var members = require('../server/members.js');
var restoreState = require('../server/restore-state.js');
var revert = require('../server/revert.js');
var tableRowCounts = require('../server/row-counts.js').tableRowCounts;
var withReplayed = require('../binlog/replay-tables.js').withReplayed;
var loadReport = require('./load-report.js');
var trialNote = require('./session-init-check.js').trialNote;
// What is returned and printed shows no secret (an Azure SAS token among util.loadDump's options).
var withoutSecrets = require('../options/secrets.js').withoutSecrets;

function topologyText(topo) {
  return topo.rebuild ? topo.rebuild.from + ' (topology: "rebuild")' : topology.describeTopology(topo);
}

// What a dry run returns: the plan's facts.
function dryRunFacts(pre) {
  var plan = pre.plan;
  return { dryRun: true, dumpDir: plan.dir, preset: plan.preset.name, loadDumpOptions: withoutSecrets(plan.loadDumpOptions),
    loadDumpCalls: plan.batches ? plan.batches.length : 1, toDrop: plan.drops, settings: plan.tuning, redoLog: { now: plan.redo.state, action: plan.redo.action },
    analyze: pre.own.analyze, advice: tuning.adviceLines(plan.advice), warnings: plan.warnings.concat(plan.blockers),
    topology: topologyText(plan.topology), members: members.surveyFacts(plan.topology),
    partial: pre.planned ? pre.planned.facts || null : null };
}

// The report the steps fill (phases: the run's clock).
function newReport(pre, phases) {
  var plan = pre.plan;
  return { dryRun: false, ok: false, error: null, dumpDir: plan.dir, title: plan.title, preset: plan.preset.name,
    loadDumpOptions: withoutSecrets(plan.loadDumpOptions), loadDumpCalls: plan.batches ? plan.batches.length : 1, phases: phases, tables: [], dropped: [], settings: [],
    redoLog: { before: plan.redo.state, disabled: false, after: null }, analyze: null, replay: null, advice: tuning.adviceLines(plan.advice),
    stateFile: null, partial: pre.planned ? pre.planned.facts || null : null, partialLines: [], snapshot: null,
    topology: topologyText(plan.topology), members: null, rebuildSteps: plan.topology.rebuild ? road.rebuildSteps(plan.topology) : null };
}

// After the revert step: the report completed and printed, then the load's outcome: the report
// returned, or the error thrown (a known failure as one UserError saying what is left; anything
// else as it was thrown, after the leftovers as warnings). run: lib/commands/load.js's run record;
// failure: {error, phase} or null; reverted: the revert step's result (null when it failed).
function settle(run, reverted, failure) {
  var host = run.host, report = run.report;
  var changed = report.settings.some(function (s) { return s.applied; }) || report.redoLog.disabled;
  finishReport(run, reverted, failure ? failure.error : null, failure ? failure.phase : null);
  loadReport.reportLines(report).forEach(host.out.print);
  var left = reverted ? revert.leftoverLines(reverted) : [];
  if (failure) {
    report.error = failure.error.message;
    if (userError.isKnownFailure(failure.error)) {
      throw new UserError('LOAD_FAILED', failureMessage(failure.phase, failure.error, reverted, changed, run.plan.sessionInit) +
        droppedNote(host, run.pre, run.plan, report, failure.phase), { phase: failure.phase, cause: causeOf(failure.error) });
    }
    left.forEach(host.out.warn);
    throw failure.error;
  }
  if (left.length || !reverted) {
    throw new UserError('REVERT_INCOMPLETE', 'The load finished, but the server could not be put back as it was. ' + (left.length ? left.join(' ')
      : 'Run restore.status() and restore.revert().'));
  }
  return report;
}

// The failed step's own code and data (a statement's: SQL_FAILED, data.errno).
function causeOf(e) {
  var f = userError.errorFacts(e);
  return { code: f.code, data: f.data };
}

// sessionInit: the preflight's trial of the user's sessionInitSql (lib/run/session-init-check.js).
function failureMessage(phase, e, revertResult, changed, sessionInit) {
  // No phase: a step that is not timed (the progress file's directory, before the first phase).
  var text = phase === 'util.loadDump' ? 'util.loadDump failed: ' + e.message
    : 'restore.load failed' + (phase ? ' in the ' + phase + ' phase' : '') + ': ' + e.message;
  if (!/[.!?]$/.test(text)) text += '.';
  // util.loadDump's words may name a sessionInitSql statement's error (never read here): the list's context.
  if (phase === 'util.loadDump') text += trialNote(sessionInit);
  // After util.loadDump finished, every row is in: only the later step failed.
  if (phase === 'analyze') {
    text += ' The data is in: util.loadDump finished without an error; only the statistics step failed. Fix the cause ' +
      'and run restore.analyze on the same dump (the data need not be loaded again).';
  } else if (phase === 'snapshot') {
    text += ' util.loadDump finished without an error; the step after it (since\'s trim, orphan rows, masks) did not finish, ' +
      'so the loaded tables may still hold rows it would have deleted or changed.';
  }
  var left = revertResult ? revert.leftoverLines(revertResult) : [];
  if (left.length) return text + ' ' + left.join(' ');
  return text + (changed ? ' The redo log and the server settings were put back as they were.' : ' No server setting was changed.');
}

// After a failure: what the plugin dropped, which of the planned drops the server no longer has,
// and how to get them back. "Nothing was dropped" only when the server still has every object
// and nothing could have dropped and created one again (util.loadDump with dropExistingObjects).
function droppedNote(host, pre, plan, report, phase) {
  if (!plan.drops.length) return '';
  var gone = dropExisting.goneObjects(host, pre.objects, plan.drops);
  var loaderRan = phase === 'util.loadDump' || phase === 'snapshot' || phase === 'analyze';
  var loaderDone = phase === 'snapshot' || phase === 'analyze';
  var parts = [];
  if (report.dropped.length) {
    parts.push(report.dropped.length + ' existing object(s) were dropped before the failure: ' +
      dropExisting.describeDrops(report.dropped).join(', ') + '.');
  }
  if (gone === null) parts.push('Which of the ' + plan.drops.length + ' planned object(s) the server still has could not be checked.');
  else if (gone.length) parts.push('The server no longer has ' + gone.length + ' of them: ' + dropExisting.describeDrops(gone).join(', ') + '.');
  if (loaderDone && (report.dropped.length || plan.dropNative)) {
    parts.push('util.loadDump ' + (plan.dropNative ? 'dropped them (dropExistingObjects) and ' : '') +
      'created and loaded them again (its phase finished without an error).');
    return ' ' + parts.join(' ');
  }
  if (loaderRan && (report.dropped.length || plan.dropNative)) {
    parts.push('util.loadDump ' + (plan.dropNative ? 'was asked to drop them (dropExistingObjects) and ' : '') +
      'may have created some again, partly loaded.');
  }
  if (!parts.length) return ' Nothing was dropped: the server still has all ' + plan.drops.length + ' object(s).';
  return ' ' + parts.join(' ') + ' Fix the cause and run the same restore.load again (with resetProgress: true) to ' +
    'create and load them.';
}

// Rows, redo log after, settings put back, the step's lines: never lets a report problem hide
// the load's own outcome.
function finishReport(run, reverted, failure, failedPhase) {
  var host = run.host, report = run.report, partial = run.partial;
  // Only what was applied, with the values the server read back (a setting never applied is not listed).
  var now = {};
  if (reverted) reverted.restored.forEach(function (r) { now[r.name] = r.now; });
  report.settings = report.settings.filter(function (s) { return s.applied; }).map(function (s) {
    var back = Object.prototype.hasOwnProperty.call(now, s.name);
    return { name: s.name, original: s.original, value: s.during === undefined ? s.value : s.during,
      now: back ? now[s.name] : null, restored: back };
  });
  report.stateFile = reverted ? reverted.stateFile : restoreState.statePath(host, host.sql.serverInfo().uuid);
  report.ok = !failure && !!reverted && !reverted.failed.length && reverted.redoLog !== 'failed';
  try {
    report.redoLog.after = redoLog.redoLogSupport(host).state;
    report.tables = tableRowCounts(host, withReplayed(run.pre.objects.tables, report.replay || null),
      { analyzed: run.analyzed, tableBytes: run.pre.tableBytes ? run.pre.tableBytes() : null, asLoaded: failure ? null : run.asLoaded });
  } catch (e) {
    host.out.warn('Could not read the rows loaded: ' + e.message);
  }
  if (partial && run.planned && partial.report) {
    var loaded = report.phases.some(function (p) { return p.phase === 'util.loadDump' && p.status === 'ok'; });
    var extra = partial.report(run.pre.ctx, run.planned, { error: failure, failedPhase: failedPhase || null, tables: report.tables, loaded: loaded,
      snapshot: report.snapshot });
    report.partialLines = (extra && extra.lines) || [];
  }
}

module.exports = { dryRunFacts: dryRunFacts, newReport: newReport, settle: settle };
