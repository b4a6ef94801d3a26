// The partial-import step of restore.load (the extension point of lib/load-run.js): plan the
// selection against the dump, stub every unchosen missing chunk before the load, give
// util.loadDump a fresh progress file (stubbed chunks must never be recorded as done for a later
// full load), disableBulkLoad where the Shell has it, and explain the outcome afterwards.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('../options/shell-version.js').atLeast;
var selection = require('./selection.js');
var partialCommands = require('./partial-commands.js');
var partialPlan = require('./partial-plan.js');
var progressFilePlace = require('../run/progress-file-place.js');
var displayTable = require('../report/display-name.js').displayTable;

var MAX_LISTED = 5;

function missingChosen(plan) {
  return 'The selection chooses ' + plan.fetch.length + ' data file(s) that are not in the dump directory (' +
    plan.fetch.slice(0, MAX_LISTED).join(', ') + (plan.fetch.length > MAX_LISTED ? ', …' : '') + '). Fetch them first: ' +
    'restore.plan(dir, {…same selection…, fetchListFile: "fetch.txt"}) writes the list for rsync --files-from; ' +
    'or choose fewer chunks with latest.';
}

function plan(ctx) {
  var r = partialCommands.modelAndPlan(ctx.host, ctx.dumpDir, ctx.options, { verify: ctx.own.verify });
  var p = r.plan;
  var hasStubs = p.stub.length > 0 || p.targets.some(function (t) { return t.stubbed.length > 0; });
  var partial = selection.isPartial(r.sel) || hasStubs || p.fetch.length > 0;
  partialPlan.refuseBlocked(p, partial ? 'The partial import' : 'The load');
  if (!partial) return null;
  if (p.fetch.length) throw new UserError(missingChosen(p));
  if (ctx.loadOptions.checksum === true && hasStubs) {
    throw new UserError('checksum: true re-checks every chunk on the target, and stubbed chunks hold no rows: the ' +
      'check would fail. Load without checksum for a partial import.');
  }
  partialCommands.refuseReadOnly(ctx.host, p);
  var lo = {};
  if (ctx.loadOptions.progressFile === undefined) {
    progressFilePlace.useProgressPlace(ctx, progressFilePlace.freshProgressPlace(ctx.host, ctx.dumpDir));
    lo.progressFile = ctx.loadOptions.progressFile;
  }
  if (atLeast(ctx.shellVersion, '8.4.0') && ctx.loadOptions.disableBulkLoad === undefined) lo.disableBulkLoad = true;
  var lines = [];
  partialCommands.printPlan(ctx.host, p, null, { print: function (l) { lines.push(l); },
    warn: function (l) { lines.push('WARNING: ' + l); } });
  if (ctx.options.progressFile !== undefined && hasStubs) {
    lines.push('WARNING: progressFile ' + ctx.loadOptions.progressFile + ' will record the stubbed chunks as loaded: do not ' +
      'reuse it for a later full load.');
  }
  var facts = partialCommands.planFacts(p);
  facts.progressFile = lo.progressFile || ctx.loadOptions.progressFile;
  return { loadOptions: lo, lines: lines, facts: facts, plan: p };
}

function prepare(ctx, planned) {
  var w = partialCommands.stubFromPlan(ctx.host, planned.plan);
  ctx.host.out.print('Stubs written: ' + w.written.length + ' file(s).');
  return { stubsWritten: w.written, stubsSkipped: w.skipped };
}

// Replaces mysqlsh's bare "No data loaded." with the reason, and says what was stubbed.
function report(ctx, planned, outcome) {
  var p = planned.plan;
  var lines = [];
  var stubbedTables = p.targets.filter(function (t) { return t.stubbed.length; });
  if (stubbedTables.length) {
    lines.push('Stubbed (not loaded): ' + stubbedTables.slice(0, 20).map(function (t) {
      return displayTable(t.schema, t.table, t.partition) + ' ' + t.stubbed.length + ' chunk(s)';
    }).join(', ') + (stubbedTables.length > 20 ? ', …' : '') + '.');
  }
  var rows = (outcome.tables || []).reduce(function (n, t) { return n + (t.rows || 0); }, 0);
  if (!outcome.error && rows === 0) {
    var why = !p.targets.length ? 'the selection chooses no table of the dump'
      : p.bytesChosen === 0 ? 'the chunks chosen hold no data (latest: 0, or only empty chunks were chosen)'
        : 'the chosen chunks are empty on disk';
    lines.push('No data loaded, because ' + why + '. restore.plan(dir, {…}) shows what a selection chooses.');
  }
  return { lines: lines };
}

module.exports = {
  optionNames: ['latest', 'listing'],
  plan: plan,
  prepare: prepare,
  report: report,
};
