// restore.stub(dump, selection): writes empty stubs for the chunks a selection leaves out into a
// dump directory the user prepared (a copy holding only the chosen chunks), so that util.loadDump
// loads it as it is.
var parseSource = require('../remote/remote-source.js').parseSource;
var UserError = require('../core/user-error.js').UserError;
var refuseIncompleteModel = require('../dump/dump-complete.js').refuseIncompleteModel;
var partialPlan = require('../partial/partial-plan.js');
var writeStubs = require('../partial/stub-writer.js').writeStubs;
var planReport = require('../partial/plan-report.js');
var wholeChunksWarning = require('../partial/since-boundary.js').wholeChunksWarning;

// Before anything is written or changed: the stubs need a dump directory this user can write.
function refuseReadOnly(host, plan) {
  if (!plan.stubFiles || host.files.canWrite(plan.dir)) return;
  throw new UserError('DUMP_NOT_WRITABLE', 'The dump directory ' + plan.dir + ' cannot be written by the user running mysqlsh, and ' +
    plan.stubFiles + ' missing chunk(s) need a stub there (' + plan.firstStub + (plan.stubFiles > 1 ? ', …' : '') +
    '). Make it writable for this user, or copy the metadata and the chosen chunks to a directory of your own. ' +
    'Nothing was changed.');
}

function stubCommand(host, dumpDir, options) {
  if (parseSource(dumpDir)) {
    throw new UserError('REMOTE_UNSUPPORTED', 'restore.stub writes stubs into a directory you prepared yourself; ' + dumpDir + ' is on a backup ' +
      'host. restore.load and restore.view load from there without touching it.');
  }
  var r = planReport.modelAndPlan(host, dumpDir, options, { inPlace: true });
  // A missing chunk of an unfinished dump may just not be written yet: never stub it unasked.
  if (!(options && options.allowIncomplete)) refuseIncompleteModel(r.model, 'restore.stub');
  partialPlan.refuseBlocked(r.plan);
  refuseReadOnly(host, r.plan);
  r.plan.warnings = r.plan.warnings.concat(wholeChunksWarning(r.plan.since));
  var w = writeStubs(host, r.plan);
  planReport.printPlan(host, r.plan);
  host.out.print('Stubs written: ' + w.written + ' file(s)' +
    (w.skipped ? '; ' + w.skipped + ' already existed and were left as they are (' + w.skippedFiles.join(', ') +
      (w.skipped > w.skippedFiles.length ? ', …' : '') + ')' : '') + '.');
  var result = planReport.planFacts(r.plan);
  result.written = w.written;
  result.skipped = w.skipped;
  result.skippedFiles = w.skippedFiles;
  return result;
}

module.exports = { stubCommand: stubCommand };
