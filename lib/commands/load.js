// restore.load(dumpDir, options): the pipeline.
//
//   preflight      lib/run/load-preflight.js: reads the topology, resolves the options (a preset
//                  overridden by explicit ones), plans every step and composes util.loadDump's
//                  options once (lib/run/loader-options.js); changes nothing; takes the restore lock
//   plan printed   then a dry run stops; blockers and the drops' confirmation before any change
//   STEPS          below, in order, each a module of lib/run/steps/ declaring what it reads, what it
//                  adds, what it reports and how it is undone; a failure stops the later ones
//   release        each step's release, whatever happened (the masks' key)
//   revert         ALWAYS, whatever failed before it (lib/run/steps/revert.js)
//   outcome        lib/run/load-outcome.js: the report printed and returned, or one error saying
//                  what failed, what was put back and what is left
//
// A step: {name (the phase in the report; null: not timed), reads, adds, reports, undo (the
// declaration), when(run), run(run), and optionally confirm(run) (before any step runs) and
// release(run) (after the last one, whatever happened)}. run: {host, pre (the preflight's result,
// read only), plan (pre.plan), partial (the partial step: lib/run/partial-step.js, or a test's),
// state (the state file the server steps record into), report (filled by the steps), planned
// (the partial step's plan; prepare may replace it)}.
var UserError = require('../core/user-error.js').UserError;
var phaseClock = require('../run/phase-clock.js').phaseClock;
var partialStep = require('../run/partial-step.js');
var preflight = require('../run/load-preflight.js').preflight;
var loadReport = require('../run/load-report.js');
var outcome = require('../run/load-outcome.js');
var restoreState = require('../server/restore-state.js');
var progressFile = require('../run/steps/progress-file.js');

var STEPS = [
  require('../run/steps/leftover-channel.js'),
  progressFile.place,
  require('../run/steps/prepare.js'),
  require('../run/steps/server-settings.js'),
  require('../run/steps/drop.js'),
  require('../run/steps/load-dump.js'),
  require('../run/steps/replay.js'),
  require('../run/steps/snapshot.js'),
  progressFile.remove,
  require('../run/steps/analyze.js'),
  require('../run/steps/members.js'),
  require('../run/steps/replay-record.js'),
];
var REVERT = require('../run/steps/revert.js');

// extensions: {partial: the partial step} (tests; default lib/run/partial-step.js, null: none).
function runLoad(host, dumpDir, options, extensions) {
  var partial = extensions && extensions.partial !== undefined ? extensions.partial : partialStep;
  var clock = phaseClock();
  var pre = clock.run('preflight', function () { return preflight(host, dumpDir, options, partial); });
  try {
    return lockedRun(host, pre, clock, partial);
  } finally {
    pre.release();
  }
}

function lockedRun(host, pre, clock, partial) {
  var plan = pre.plan;
  loadReport.planLines(plan).forEach(host.out.print);
  if (pre.own.dryRun) {
    host.out.print('Dry run: nothing was dropped, changed or loaded.');
    return outcome.dryRunFacts(pre);
  }
  if (plan.blockers.length) throw new UserError('LOAD_BLOCKED', plan.blockers.join(' '));
  var run = { host: host, pre: pre, plan: plan, partial: partial, state: null, report: outcome.newReport(pre, clock.phases),
    planned: pre.planned };
  STEPS.forEach(function (s) { if (s.confirm) s.confirm(run); });
  // Once confirmed: the state file's record begins now.
  run.state = pre.existing || restoreState.newState(host);
  var failure = runSteps(run, clock);
  var reverted = null;
  try {
    reverted = clock.run(REVERT.name, function () { return REVERT.run(run); });
  } catch (e) {
    host.out.warn('Putting the server back failed: ' + e.message + '. Run restore.status() and restore.revert().');
  }
  return outcome.settle(run, reverted, failure);
}

// Every step whose time has come, in order, then every release. Returns the first failure,
// {error, phase}, or null.
function runSteps(run, clock) {
  var failure = null;
  var current = null;
  try {
    STEPS.forEach(function (s) {
      if (!s.when(run)) return;
      current = s.name;
      if (s.name) clock.run(s.name, function () { s.run(run); });
      else s.run(run);
    });
  } catch (e) {
    failure = { error: e, phase: current };
  }
  STEPS.slice().reverse().forEach(function (s) {
    if (!s.release) return;
    try {
      s.release(run);
    } catch (e) {
      if (!failure) failure = { error: e, phase: s.name };
    }
  });
  return failure;
}

module.exports = { runLoad: runLoad, STEPS: STEPS, REVERT: REVERT };
