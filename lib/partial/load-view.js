// The load view: what util.loadDump loads for a partial import instead of the dump itself. A
// directory of the plugin's own (in <config home>/restore/views, or viewDir) holding
//   - a symbolic link to every file of the dump except the data files not chosen,
//   - an empty stub (the Shell's own empty chunk) for every chunk not chosen, whatever the dump
//     holds there: the full dump, a partial download or a read-only mount give the same rows,
//   - the view's own @.done.json and @.checksums.json (lib/partial/view-metadata.js),
//   - util.loadDump's progress file, so a killed load resumes with the same command.
// Nothing is ever written into the dump. The view's name comes from the dump, the selection and
// the server, so the same command finds the same view again; it is removed once a load from it
// succeeded.
var UserError = require('../core/user-error.js').UserError;
var shortHash = require('../core/short-hash.js').shortHash;
var pathMaker = require('../dump/dump-paths.js').pathMaker;
var stubWriter = require('./stub-writer.js');
var viewMetadata = require('./view-metadata.js');
var startProgress = require('../format/progress.js').startProgress;
var partialPlan = require('./partial-plan.js');
var chunkTable = require('../dump/chunk-table.js');
var doneFile = require('../dump/done-file.js');
var dumpText = require('../dump/dump-texts.js').dumpText;
var toNumbers = require('../core/bytes.js').toNumbers;
var settle = require('../core/memory.js').settle;

var MARK = '.restore-view.json';
var COMPLETE = '.restore-view-complete';
var PROGRESS_FILE = 'load-progress.json';
var WRITTEN = { '@.done.json': true, '@.checksums.json': true };
var BATCH = 5000;
// Links are made this many at a time (the chosen chunks looked up as many): a batch's names and
// links then die young (5,000 at a time lived long enough to reach V8's old generation).
var LINK_BATCH = 1000;

function viewsRoot(host) {
  var f = host.files;
  return f.join(f.join(host.shell.configHome, 'restore'), 'views');
}

// What makes two views the same: the dump (where, and when it was taken), the selection, the server.
// source: the dump as the user named it (a remote one) or null; serverUuid: null without a session;
// rewrite: what the view rewrites (schemaMap, definers: lib/rename/rename-plan.js) or null.
function viewIdentity(model, sel, source, serverUuid, rewrite) {
  var id = [source || model.dir, model.begin, model.end, model.recordedDataBytes, sel, serverUuid || null];
  return JSON.stringify(rewrite ? id.concat([rewrite]) : id);
}

function safeName(text) {
  return String(text).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || 'dump';
}

// {dir, key, given}: viewDir if given, else a name in the views directory made of the dump's
// name and the identity's hash.
function viewPlace(host, model, identity, viewDir, dumpName) {
  var f = host.files;
  var key = shortHash(identity);
  if (viewDir !== undefined && viewDir !== null) {
    if (typeof viewDir !== 'string' || viewDir.trim() === '') throw new UserError('OPTION_INVALID', 'Option viewDir must name a directory.',
      { option: 'viewDir' });
    var dir = f.normpath(f.isAbs(viewDir) ? viewDir : f.join(f.cwd(), viewDir));
    var prefix = f.join(model.dir, 'x').slice(0, -1);
    if (dir === model.dir || dir.indexOf(prefix) === 0) {
      throw new UserError('PATH_REFUSED', 'viewDir ' + dir + ' is inside the dump directory ' + model.dir + ': the plugin writes nothing ' +
        'into a dump. Choose a directory outside it.', { option: 'viewDir', path: dir });
    }
    return { dir: dir, key: key, given: true };
  }
  return { dir: f.join(viewsRoot(host), safeName(dumpName || f.basename(model.dir)) + '-' + key), key: key, given: false };
}

function readMark(host, dir) {
  try {
    return JSON.parse(host.files.loadText(host.files.join(dir, MARK)));
  } catch (e) {
    return null;
  }
}

// What is at the place now: 'new' (nothing), 'reuse' (a finished view of the same identity, whose
// progress file lets util.loadDump resume) or 'stale' (an unfinished view of the same identity:
// the plugin's own, made again). Anything else there is refused: the plugin never writes over
// what it did not make.
function placeState(host, place) {
  var f = host.files;
  if (!f.isDir(place.dir)) {
    if (f.isFile(place.dir)) throw new UserError('PATH_REFUSED', 'viewDir ' + place.dir + ' is a file: give a directory that does not exist yet.',
      { option: 'viewDir', path: place.dir });
    // A given viewDir is made, not its folders: refused here rather than in the prepare step, after the plan was confirmed.
    var parent = f.dirname(place.dir);
    if (place.given && !f.isDir(parent)) {
      throw new UserError('PATH_REFUSED', 'viewDir ' + place.dir + ': its folder ' + parent + (f.isFile(parent) ? ' is a file, not a folder'
        : ' does not exist') + '. Nothing was changed. Create that folder first, or give a viewDir in a folder that exists.',
        { option: 'viewDir', path: place.dir });
    }
    return 'new';
  }
  var mark = f.isFile(f.join(place.dir, MARK)) ? readMark(host, place.dir) : null;
  if (!mark) {
    throw new UserError('PATH_REFUSED', 'viewDir ' + place.dir + ' exists and is not a load view made by the restore plugin: the ' +
      'plugin never writes over what it did not make. Give a directory that does not exist yet.',
        { option: 'viewDir', path: place.dir });
  }
  if (mark.key !== place.key) {
    throw new UserError('PATH_REFUSED', 'The load view ' + place.dir + ' was made for another dump or selection (' + (mark.dump || '?') +
      '). Remove it (rm -r: it holds links and stubs only, the dump is not touched) or give another viewDir.',
        { option: 'viewDir', path: place.dir });
  }
  return f.isFile(f.join(place.dir, COMPLETE)) ? 'reuse' : 'stale';
}

// Whether the view links the dump's file `name`: not a file the view writes itself, nor a stubbed
// chunk or its .idx. stubbed: stubbedNames(plan). Only a name like a chunk's is asked about.
var PROGRESS_NAME = /^load-progress/;
var CHUNK_ISH = /@[0-9]+\./;
var IDX = /\.idx$/;
function isLinked(name, stubbed) {
  if (WRITTEN[name] || PROGRESS_NAME.test(name)) return false;
  if (!CHUNK_ISH.test(name)) return true;
  return !stubbed(name, 0, IDX.test(name) ? name.length - 4 : name.length);
}

// partialPlan.stubbedNames(plan), made when first asked: its name matcher holds every table
// (50,000 tables: two maps of 50,000 entries), and metadata files need none.
function stubbedNames(plan) {
  var test = null;
  return function (text, start, end) {
    if (test === null) test = partialPlan.stubbedNames(plan);
    return test(text, start, end);
  };
}

// Format 1.0.0 records no chunk sizes: its loader reads them from .idx files, so stubs get one too.
function needsIdxStubs(model) { return !model.done || !model.done.chunks; }

// The chosen chunks' files and .idx files that the dump holds and `files` does not name (a partial
// import reads the model without chunk names: chunk-survey.js surveys them as runs), looked up a
// batch at a time: fn(names) per batch. Names live one batch long: 100,000 chunk names made and
// kept at once, then linked, cost mysqlsh some 50 MB of peak at 50,000 tables.
function eachChosenFile(host, model, plan, fn) {
  var names = [];
  function flush() {
    if (!names.length) return;
    var got = host.files.statRuns(model.dir, names.map(function (n) { return [n]; }));
    var sizes = toNumbers(got.sizes, Float64Array, names.length, 'file sizes');
    // What a listing keeps: a file (NaN: none, a directory, or a dangling link).
    var there = names.filter(function (n, k) { return sizes[k] === sizes[k]; });
    names = [];
    if (there.length) fn(there);
  }
  plan.targets.forEach(function (e) {
    var ct = e.target.chunks;
    for (var i = e.from; i < e.to; i++) {
      var file = chunkTable.fileOf(ct, i);
      if (!model.files.has(file)) names.push(file);
      if (!model.files.has(file + '.idx')) names.push(file + '.idx');
      if (names.length >= LINK_BATCH) flush();
    }
  });
  flush();
}

// Counts for the plan, before anything is made: {links, stubs}.
function viewCounts(host, model, plan) {
  var stubbed = stubbedNames(plan);
  var links = 0;
  model.files.forEach(function (size, name) { if (isLinked(name, stubbed)) links++; });
  eachChosenFile(host, model, plan, function (names) { links += names.length; });
  settle(host, links);
  return { links: links, stubs: partialPlan.stubCount(plan) * (needsIdxStubs(model) ? 2 : 1) };
}

// Builds the view at place (state 'new' or 'stale'); returns what it holds. Links go in batches of
// {name, link}; stubs in batches of names sharing one content (the companion writes it once in the
// view and links each name to it: creating 100,000 stubs then costs a system call each).
// rewrite (schemaMap, definers: lib/rename/): {files: [{name, data}] written instead of linked,
// rename: schema -> new name or null}, or null.
function buildView(host, model, plan, place, mark, rewrite) {
  var f = host.files;
  var state = placeState(host, place);
  if (state === 'reuse') return null;
  if (state === 'stale') f.viewRemove(place.dir);
  var stubbed = stubbedNames(plan);
  var pathOf = pathMaker(host, model.dir);
  var stubIdx = needsIdxStubs(model);
  var made = { links: 0, stubs: 0, written: [] };
  var own = new Set(rewrite ? rewrite.files.map(function (x) { return x.name; }) : []);
  var rename = rewrite ? rewrite.rename : null;
  // (An upper bound: the chosen chunks' names and .idx files, when `files` does not name them.)
  var total = model.files.size + partialPlan.stubCount(plan) * (stubIdx ? 2 : 1) +
    plan.targets.reduce(function (n, e) { return n + 2 * (e.to - e.from); }, 0);
  var progress = startProgress(host, 'Building the load view', total, { unit: 'entries' });
  var count = 0;
  function advance(n) {
    count += n;
    progress.update(Math.min(count, total));
  }
  var links = [];
  function flushLinks() {
    if (!links.length) return;
    f.viewAdd(place.dir, links);
    advance(links.length);
    links = [];
  }
  // Stub names go as runs (a prefix, a range of chunk numbers, a suffix: chunk-table.js), at most
  // BATCH names a call: 100,000 names are never made here.
  function addStubs(entries, suffix, data) {
    var runs = [];
    entries.forEach(function (e) {
      chunkTable.nameRuns(e.target.chunks, e.stubbed, suffix).forEach(function (r) { runs.push(r); });
    });
    chunkTable.eachBatch(runs, BATCH, function (batch, count) {
      f.viewStubs(place.dir, batch, data);
      advance(count);
    });
  }
  f.viewCreate(place.dir, JSON.stringify(mark));
  model.files.forEach(function (size, name) {
    if (own.has(name) || !isLinked(name, stubbed)) return;
    links.push({ name: name, link: pathOf(name) });
    made.links++;
    if (links.length >= LINK_BATCH) flushLinks();
  });
  flushLinks();
  settle(host, made.links);
  eachChosenFile(host, model, plan, function (names) {
    f.viewAdd(place.dir, names.map(function (name) { return { name: name, link: pathOf(name) }; }));
    made.links += names.length;
    advance(names.length);
  });
  settle(host, made.links);
  var byCompression = new Map();
  plan.targets.forEach(function (e) {
    if (!byCompression.has(e.compression)) byCompression.set(e.compression, []);
    byCompression.get(e.compression).push(e);
  });
  byCompression.forEach(function (entries, compression) {
    addStubs(entries, '', stubWriter.stubContent(compression));
    made.stubs += partialPlan.stubCount({ targets: entries });
    if (stubIdx) addStubs(entries, '.idx', stubWriter.idxStubContent());
  });
  var written = [];
  if (model.done) {
    f.viewAdd(place.dir, [{ name: '@.done.json', data: '' }]);
    var sink = doneSink(host, place.dir, pathOf('@.done.json'), model);
    made.done = viewMetadata.viewDone(model, plan, stubbed, sink, rename);
    sink.end();
    made.written.push('@.done.json');
  }
  var checksums = dumpText(host, model, '@.checksums.json');
  if (checksums !== null) {
    var sums = viewMetadata.viewChecksums(checksums, plan, rename);
    written.push({ name: '@.checksums.json', data: sums.text });
    made.checksums = { kept: sums.kept, dropped: sums.dropped };
    made.written.push('@.checksums.json');
  }
  if (rewrite) {
    rewrite.files.forEach(function (x) { written.push(x); made.written.push(x.name); });
    made.rewritten = rewrite.files.length;
  }
  written.push({ name: COMPLETE, data: '' });
  f.viewAdd(place.dir, written);
  progress.done(made.links + ' links, ' + made.stubs + ' stubs');
  return made;
}

// Where the view's @.done.json goes. When its positions are the file's bytes (read in pieces, or
// ASCII text), the companion copies its unchanged spans from the dump file itself, and the stubbed
// ones with the substitution lib/dump/done-file.js gives (every size 0), told by a few hundred edits
// (one per run of entries): mysqlsh never holds the rewritten text. Otherwise the text is sent in
// pieces of about a megabyte.
var OPS_PER_CALL = 2000;
function doneSink(host, dir, source, model) {
  var f = host.files;
  var sourceBytes = model.files.get('@.done.json');
  if (!doneFile.offsetsAreBytes(model.done, sourceBytes)) {
    return doneFile.textSink(model.done, function (text) { f.viewAppend(dir, '@.done.json', text); }, 1048576);
  }
  var ops = [];
  var flush = function () {
    if (ops.length) f.viewAppendFrom(dir, '@.done.json', source, sourceBytes, ops, doneFile.ZERO_SIZES);
    ops = [];
  };
  var add = function (op) { ops.push(op); if (ops.length >= OPS_PER_CALL) flush(); };
  return {
    text: function (t) { add(['t', t]); },
    copy: function (start, end) { add(['c', start, end]); },
    zero: function (start, end) { add(['s', start, end]); },
    end: flush,
  };
}

function makeMark(model, place, source, sel) {
  return { view: 1, key: place.key, dump: source || model.dir, dumpDir: model.dir, begin: model.begin,
    selection: sel, made: new Date().toISOString() };
}

// Lines saying what the view changed, for the plan and the report.
function viewLines(place, made, reused) {
  var lines = [];
  if (reused) return lines; // the plan said so
  lines.push('Load view: ' + place.dir + ' (' + made.links + ' links to the dump, ' + made.stubs + ' empty stubs for ' +
    'chunks not chosen' + (made.rewritten ? ', ' + made.rewritten + ' rewritten metadata/DDL files' : '') + ')');
  if (made.done && made.done.bytesBefore !== null && made.stubs) {
    // What the view's file records (the dump's dataBytes less the stubbed chunks'), not what util.loadDump
    // reads: its filters (includeTables, …) may leave out more.
    lines.push('  @.done.json of the view: stubbed chunks recorded as 0 bytes, dataBytes ' + made.done.bytesAfter + ' (the dump\'s: ' +
      made.done.bytesBefore + '), so the Shell\'s progress and ETA do not count the stubbed chunks');
  }
  if (made.checksums) {
    lines.push('  @.checksums.json of the view: ' + made.checksums.kept + ' entries of loaded chunks kept, ' +
      made.checksums.dropped + ' of stubbed chunks left out');
  }
  return lines;
}

module.exports = { viewPlace: viewPlace, viewIdentity: viewIdentity, placeState: placeState, buildView: buildView,
  viewCounts: viewCounts, makeMark: makeMark, viewLines: viewLines, viewsRoot: viewsRoot, PROGRESS_FILE: PROGRESS_FILE,
  MARK: MARK };
