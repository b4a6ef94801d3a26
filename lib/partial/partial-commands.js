// restore.plan and restore.stub, and the partial-import step of restore.load: read the dump,
// apply the selection, report what to fetch and what to stub, write the fetch list / stubs.
var readDumpModel = require('../dump/dump-model.js').readDumpModel;
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var parseSource = require('../remote/remote-source.js').parseSource;
var selection = require('./selection.js');
var partialPlan = require('./partial-plan.js');
var writeStubs = require('./stub-writer.js').writeStubs;
var UserError = require('../core/user-error.js').UserError;
var refuseIncomplete = require('../dump/dump-complete.js').refuseIncomplete;
var text = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var describeRanges = require('../dump/chunk-table.js').describeRanges;

var MAX_ROWS = 40;

// how.inPlace: restore.stub, which writes into the directory itself (every file there is then
// loaded, and read here); otherwise a load view holds the chosen files only, and only they are read.
// how.source: a remote dump's {source, sizes} (lib/remote/dump-source.js).
function modelAndPlan(host, dumpDir, options, how) {
  var o = options || {};
  var inPlace = !!(how && how.inPlace);
  var sel = selection.parseSelection(o);
  var sizes = how && how.source ? how.source.sizes : null;
  var model = readDumpModel(host, dumpDir, { listing: o.listing, listingNames: sizes ? Array.from(sizes.keys()) : null,
    surveyedFrom: inPlace || !selection.isPartial(sel) ? null : partialPlan.chosenOnly(sel), idxFiles: inPlace });
  var plan = partialPlan.planPartial(model, sel, { inPlace: inPlace });
  return { sel: sel, model: model, plan: plan };
}

function stubCount(plan) {
  return plan.inPlace ? plan.stubFiles : partialPlan.stubCount(plan);
}

function tableRows(plan) {
  return plan.targets.filter(function (t) { return t.latest !== null || t.fetch.length || t.stubbed.length; })
    .map(function (t) {
      return [displayTable(t.schema, t.table, t.partition), t.latest === null ? 'all' : t.latest,
        t.chosen.length, t.fetch.length, t.stubbed.length];
    });
}

// emit: where the lines go (host.out by default; restore.load collects them for its plan).
function printPlan(host, plan, extra, emit) {
  var out = emit || host.out;
  out.print('Partial import of ' + plan.dir);
  text.formatPairs([
    ['Tables chosen', String(new Set(plan.targets.map(function (t) { return t.schema + '.' + t.table; })).size)],
    ['Tables skipped', plan.skippedTables.length ? plan.skippedTables.length + ' (' + plan.skippedTables.slice(0, 5)
      .map(function (t) { return displayTable(t.schema, t.table); }).join(', ') + (plan.skippedTables.length > 5 ? ', …' : '') + ')' : '0'],
    ['Data chosen', text.formatBytes(plan.bytesChosen) + ' of ' + text.formatBytes(plan.bytesTotal) +
      (plan.bytesUnknown ? ' (some chunk sizes are not recorded)' : '')],
    ['Files to fetch', String(plan.fetch.length) + (extra && extra.fetchListFile ? ' (listed in ' + extra.fetchListFile + ')' : '')],
    [plan.inPlace ? 'Files to stub' : 'Chunks stubbed', String(stubCount(plan))],
  ]).forEach(out.print);
  var rows = tableRows(plan);
  if (rows.length) {
    out.print('');
    text.formatTable(['table', 'latest', 'chosen', 'fetch', 'stubs'], rows.slice(0, MAX_ROWS), { right: [2, 3, 4] })
      .forEach(out.print);
    if (rows.length > MAX_ROWS) out.print('… and ' + (rows.length - MAX_ROWS) + ' more tables (all in outputFormat "json" or "none")');
  }
  plan.warnings.forEach(out.warn);
}

function facts(plan) {
  return {
    dumpDir: plan.dir,
    fetch: plan.fetch.slice(),
    stubs: stubCount(plan),
    skippedTables: plan.skippedTables.map(function (t) { return t.schema + '.' + t.table; }),
    tables: plan.targets.map(function (t) {
      // Stubbed chunks by number ("0-97"): a dump may have a million of them.
      var o = { schema: t.schema, table: t.table, latest: t.latest, chosen: t.chosen.slice(), fetch: t.fetch.slice(),
        stubbed: t.stubbed.length, stubbedChunks: describeRanges(t.stubbed) };
      if (t.partition !== null) o.partition = t.partition;
      return o;
    }),
    bytesChosen: plan.bytesChosen,
    bytesTotal: plan.bytesTotal,
    warnings: plan.warnings.slice(),
  };
}

// A new file only: never over an existing one (it may be a chunk, @.json or anything the user
// keeps), never inside the dump directory (nothing is written into a dump), never through a
// symlink (the companion opens it O_EXCL|O_NOFOLLOW and reports it skipped).
function writeFetchList(host, plan, file) {
  var f = host.files;
  if (typeof file !== 'string' || file.trim() === '') throw new UserError('fetchListFile must name a file.');
  var full = f.normpath(f.isAbs(file) ? file : f.join(f.cwd(), file));
  if (f.isDir(full)) throw new UserError('fetchListFile ' + full + ' is a directory: give a file name.');
  var prefix = f.join(plan.dir, 'x').slice(0, -1);
  if (full.indexOf(prefix) === 0) {
    throw new UserError('Refusing fetchListFile ' + full + ': it is inside the dump directory ' + plan.dir + ', where the ' +
      'plugin writes nothing (restore.stub alone writes stubs there, when asked). Write the list outside it, e.g. ' + f.join(f.dirname(plan.dir), 'fetch.txt') + '.');
  }
  if (f.isFile(full)) {
    throw new UserError('Refusing fetchListFile ' + full + ': the file exists and the plugin never writes over a file. ' +
      'Remove it first, or give a new name.');
  }
  var parent = f.dirname(full);
  if (!f.isDir(parent)) {
    throw new UserError('Cannot write fetchListFile ' + full + ': its directory ' + parent + ' does not exist. Create it first.');
  }
  var r;
  try {
    r = f.writeFiles([{ path: full, data: plan.fetch.join('\n') + (plan.fetch.length ? '\n' : '') }], { overwrite: false });
  } catch (e) {
    throw new UserError('Cannot write fetchListFile ' + full + ': ' + String(e.message).replace(/; 0 file\(s\) of this batch were written before it$/, '') + '. Nothing was written.');
  }
  if (r.skipped.length) {
    throw new UserError('Refusing fetchListFile ' + full + ': something exists there already (a symbolic link, or a file ' +
      'created meanwhile); nothing was written. Remove it first, or give a new name.');
  }
  return full;
}

// 'text' for a POSIX shell: single quotes, an embedded ' written as '\''.
function shellQuote(text) {
  return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

// restore.plan(dump, selection): no file in the dump is touched; a remote dump's metadata is
// fetched into its cache.
function planCommand(host, dumpDir, options) {
  var src = openDumpSource(host, dumpDir, options);
  var r = modelAndPlan(host, src.dir, options, { source: src.source });
  // What restore.load would refuse, the plan does not present as loadable.
  if (!r.model.complete && !(options && options.allowIncomplete)) refuseIncomplete(host, r.model.dir, 'restore.plan');
  partialPlan.refuseBlocked(r.plan);
  var listFile = options && options.fetchListFile ? writeFetchList(host, r.plan, options.fetchListFile) : null;
  printPlan(host, r.plan, { fetchListFile: listFile });
  if (src.source && r.plan.fetch.length) {
    host.out.print('restore.load of ' + src.source.source.url + ' with the same selection fetches them into ' + src.dir + '.');
  } else if (listFile && r.plan.fetch.length) {
    host.out.print('Fetch them with: rsync -a --files-from=' + shellQuote(listFile) + ' <backup-host>:<dump-dir>/ ' +
      shellQuote(r.plan.dir + '/'));
  }
  var result = facts(r.plan);
  result.fetchListFile = listFile;
  return result;
}

// Before anything is written or changed: the stubs need a dump directory this user can write.
function refuseReadOnly(host, plan) {
  if (!plan.stubFiles || host.files.canWrite(plan.dir)) return;
  throw new UserError('The dump directory ' + plan.dir + ' cannot be written by the user running mysqlsh, and ' +
    plan.stubFiles + ' missing chunk(s) need a stub there (' + plan.firstStub + (plan.stubFiles > 1 ? ', …' : '') +
    '). Make it writable for this user, or copy the metadata and the chosen chunks to a directory of your own. ' +
    'Nothing was changed.');
}

function stubCommand(host, dumpDir, options) {
  if (parseSource(dumpDir)) {
    throw new UserError('restore.stub writes stubs into a directory you prepared yourself; ' + dumpDir + ' is on a backup ' +
      'host. restore.load and restore.view load from there without touching it.');
  }
  var r = modelAndPlan(host, dumpDir, options, { inPlace: true });
  // A missing chunk of an unfinished dump may just not be written yet: never stub it unasked.
  if (!r.model.complete && !(options && options.allowIncomplete)) refuseIncomplete(host, r.model.dir, 'restore.stub');
  partialPlan.refuseBlocked(r.plan);
  refuseReadOnly(host, r.plan);
  var w = writeStubs(host, r.plan);
  printPlan(host, r.plan);
  host.out.print('Stubs written: ' + w.written + ' file(s)' +
    (w.skipped ? '; ' + w.skipped + ' already existed and were left as they are (' + w.skippedFiles.join(', ') +
      (w.skipped > w.skippedFiles.length ? ', …' : '') + ')' : '') + '.');
  var result = facts(r.plan);
  result.written = w.written;
  result.skipped = w.skipped;
  result.skippedFiles = w.skippedFiles;
  return result;
}

module.exports = { planCommand: planCommand, stubCommand: stubCommand, modelAndPlan: modelAndPlan, printPlan: printPlan,
  planFacts: facts };
