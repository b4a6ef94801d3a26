// restore.view(dump, selection): the load view of a partial import, made and left for the user's
// own util.loadDump (restore.load makes one itself and removes it once loaded). The same step as
// restore.load's (lib/run/partial-step.js): a remote dump is fetched, nothing is written
// into the dump, and nothing on any server is needed or changed.
var UserError = require('../core/user-error.js').UserError;
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var selection = require('../partial/selection.js');
var refuseIncomplete = require('../dump/dump-complete.js').refuseIncomplete;
var step = require('../run/partial-step.js');
var frozenCopy = require('../run/load-options-value.js').frozenCopy;
var wholeChunksWarning = require('../partial/since-boundary.js').wholeChunksWarning;

function viewCommand(host, dumpArg, options) {
  var o = {};
  Object.keys(options || {}).forEach(function (k) { if (options[k] !== undefined && options[k] !== null) o[k] = options[k]; });
  if (!selection.isPartial(selection.parseSelection(o))) {
    throw new UserError('OPTION_MISSING', 'restore.view needs latest or since (e.g. latest: {"shop.orders": 2}): without it util.loadDump can load ' +
      'the dump directory itself.');
  }
  var src = openDumpSource(host, dumpArg, o);
  if (o.allowIncomplete !== true) refuseIncomplete(host, src.dir, 'restore.view');
  // The step reads the options as restore.load's does: one read-only value.
  var ctx = Object.freeze({ host: host, dumpDir: src.dir, source: src.source, serverUuid: null, options: frozenCopy(o),
    // restore.view takes no verify (lib/options/option-table.js): the structure check only.
    own: frozenCopy({ verify: false, dropExisting: false }), loadOptions: frozenCopy({}),
    shellVersion: host.shell.version, dryRun: false });
  var planned = step.plan(ctx);
  planned.lines.filter(function (l) { return l.indexOf('Load view: ') !== 0; }).forEach(host.out.print);
  wholeChunksWarning(planned.plan.since).forEach(host.out.warn);
  var made = step.prepare(ctx, planned).facts;
  var dir = planned.place.dir;
  if (made.view.reused) host.out.print('Load view: ' + dir + ' (made earlier for the same dump and selection; reused as it is)');
  var progressFile = host.files.join(dir, 'load-progress.json');
  // The filters are util.loadDump's own: the view holds every table's metadata, as the dump does.
  var filters = ['includeSchemas', 'excludeSchemas', 'includeTables', 'excludeTables'].filter(function (k) {
    return o[k] !== undefined;
  }).map(function (k) {
    return ', ' + k + ': ' + JSON.stringify(typeof o[k] === 'string' ? o[k].split(',').map(function (x) { return x.trim(); }) : o[k]);
  }).join('');
  host.out.print('Load it with: util.loadDump(' + JSON.stringify(dir) + ', {progressFile: ' + JSON.stringify(progressFile) +
    (planned.loadOptions.disableBulkLoad ? ', disableBulkLoad: true' : '') + filters + '})');
  host.out.print('It holds links to the dump, stubs and metadata files of its own: rm -r ' + dir +
    ' removes it, and leaves the dump as it is.');
  var facts = Object.assign({}, planned.facts, { view: made.view, progressFile: progressFile });
  if (made.fetched) facts.fetched = made.fetched;
  return facts;
}

module.exports = { viewCommand: viewCommand };
