// Surveys the data files of every table and partition at once: size on disk (from the one
// directory listing), uncompressed bytes recorded for each chunk, and the state of each file
// from its first bytes. First bytes are read in one batch; .idx files (the only record of
// chunk sizes in format 1.0.0) in a second one, only when some size is recorded nowhere else.
var chunkState = require('./chunk-state.js');
var idxDataBytes = require('./idx-file.js').idxDataBytes;
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('../format/display-name.js').displayTable;
var frames = require('./zstd-frames.js');
var toBytes = require('../core/bytes.js').toBytes;
var startProgress = require('../format/progress.js').startProgress;
var verifyData = require('./data-verify.js').verifyData;
var chunkTable = require('./chunk-table.js');

var MAX_IDX_BYTES = 1048576; // an .idx of 1 MiB describes a 128 GiB chunk
// The structural check reads block headers only: a small window, so most of a block's payload
// is skipped rather than read (zstd blocks are up to 128 KiB).
var CHECK_WINDOW = 4096;
var WINDOW_BATCH_BYTES = 1048576;

// Files are read in batches of this many: the first bytes of 100,000 files in one call would
// hold them all at once, twice (Python's list and JavaScript's).
var BATCH = 2000;

// Calls fn(start, end) for consecutive slices [start, end) of n items.
function inBatches(n, fn) {
  for (var at = 0; at < n; at += BATCH) fn(at, Math.min(n, at + BATCH));
}

// A list of (target, chunk number) pairs as two arrays of numbers: no object per chunk.
function chunkRefs() {
  return { t: [], i: [], push: function (ti, i) { this.t.push(ti); this.i.push(i); } };
}

// Sets per chunk (chunk-table.js): fileBytes (null when absent), dataBytes (when chunkFileBytes
// did not: from the .idx file or the table's total; else null) and state. Sets on each target:
// counts {present, empty, stub, missing, corrupt, unchecked}, fileBytes, dataBytes (null when a
// chunk's is unknown) and usableDataBytes (the same over present and empty chunks).
// ctx: {sizes: Map name -> size, pathOf(name), tableBytes(target) -> number|null, unreadable: Map
// name -> why (such files are not read; their chunks are corrupt with that reason), verify: null or
// {threads}: then every present file is also decompressed in full (lib/dump/data-verify.js)}.
// ctx.surveyedFrom(target) -> chunk number, when given, limits the reading to the chunks from that
// number on: the others are 'unchecked' (a load view stubs them whatever they hold; they are not
// even looked up).
// Returns null, or what verify did: {files, fileBytes}.
function assignStates(host, targets, ctx) {
  var heads = chunkRefs();
  var idx = chunkRefs();
  var idxLongest = 0;
  targets.forEach(function (t, ti) {
    var ct = t.chunks;
    chunkTable.startSurvey(ct);
    var from = ctx.surveyedFrom ? Math.min(ctx.surveyedFrom(t), ct.length) : 0;
    for (var i = from; i < ct.length; i++) {
      var file = chunkTable.fileOf(ct, i);
      var size = ctx.sizes.get(file);
      chunkTable.setFileBytes(ct, i, size);
      if (size !== undefined && size !== null && !ctx.unreadable.has(file) && chunkState.needsHead(size, t.compression)) {
        heads.push(ti, i);
      }
      if (chunkTable.dataBytesOf(ct, i) !== null) continue;
      var idxSize = ctx.sizes.get(file + '.idx');
      if (idxSize >= 8 && idxSize % 8 === 0 && idxSize <= MAX_IDX_BYTES && !ctx.unreadable.has(file + '.idx')) {
        idx.push(ti, i);
        idxLongest = Math.max(idxLongest, idxSize);
      }
    }
  });
  inBatches(idx.t.length, function (start, end) {
    var paths = [];
    for (var k = start; k < end; k++) paths.push(ctx.pathOf(chunkTable.fileOf(targets[idx.t[k]].chunks, idx.i[k]) + '.idx'));
    host.files.readHeads(paths, idxLongest).forEach(function (content, j) {
      chunkTable.setDataBytes(targets[idx.t[start + j]].chunks, idx.i[start + j], idxDataBytes(content));
    });
  });
  targets.forEach(function (t) { beginCounts(t, ctx.tableBytes(t), ctx.surveyedFrom ? ctx.surveyedFrom(t) : 0); });
  readAndCheck(host, targets, heads, ctx);
  targets.forEach(function (t) {
    var ct = t.chunks;
    for (var i = surveyStart(t, ctx); i < ct.length; i++) {
      if (chunkTable.stateOf(ct, i) === null) classify(t, i, null);
      var file = ctx.unreadable.size ? chunkTable.fileOf(ct, i) : null;
      if (file === null || !ctx.unreadable.has(file)) continue;
      markCorrupt(t, i, 'cannot be read: ' + ctx.unreadable.get(file));
      chunkTable.isUnreadable(ct, i, true);
    }
  });
  findCopies(host, targets, ctx);
  return ctx.verify ? verifyData(host, targets, ctx, ctx.verify.threads, markCorrupt) : null;
}

function surveyStart(t, ctx) {
  return ctx.surveyedFrom ? Math.min(ctx.surveyedFrom(t), t.chunks.length) : 0;
}

function markCorrupt(t, i, problem) {
  var ct = t.chunks;
  chunkTable.setProblem(ct, i, problem);
  var state = chunkTable.stateOf(ct, i);
  if (state === 'corrupt') return;
  var bytes = chunkTable.dataBytesOf(ct, i);
  if (state === 'present' || state === 'empty') {
    t.usableDataBytes = bytes === null || t.usableDataBytes === null ? null : t.usableDataBytes - bytes;
  }
  t.counts[state]--;
  t.counts.corrupt++;
  chunkTable.setState(ct, i, 'corrupt');
}

// Reads the first bytes of every file in `refs` (for zstd and gzip, the first window of the
// structure walk: one read per file, no separate read of its head), classifies each, and walks
// the frames and blocks of every present zstd / gzip file without decompressing it
// (lib/dump/zstd-frames.js): a truncated file, or garbage after a valid header, becomes corrupt
// here instead of failing util.loadDump hours into the load. Files go to the host in batches of
// at most BATCH files and WINDOW_BATCH_BYTES bytes; a file walked past its first window is read
// further on its own.
function readAndCheck(host, targets, refs, ctx) {
  var progress = startProgress(host, 'Checking data files', refs.t.length, { unit: 'files' });
  var at = 0;
  while (at < refs.t.length) {
    var start = at;
    var requests = [];
    var bytes = 0;
    while (at < refs.t.length && requests.length < BATCH && bytes < WINDOW_BATCH_BYTES) {
      var t = targets[refs.t[at]];
      var length = Math.min(CHECK_WINDOW, chunkTable.fileBytesOf(t.chunks, refs.i[at]));
      requests.push({ path: ctx.pathOf(chunkTable.fileOf(t.chunks, refs.i[at])), offset: 0, length: length });
      bytes += length;
      at++;
    }
    var got = host.files.readRanges(requests);
    for (var k = start; k < at; k++) {
      var target = targets[refs.t[k]];
      var i = refs.i[k];
      var first = toBytes(got[k - start], 'file content');
      classify(target, i, first === null ? null : first.subarray(0, chunkState.HEAD_BYTES));
      if (chunkTable.stateOf(target.chunks, i) === 'present') checkOne(host, target, i, requests[k - start].path, first);
      progress.update(k + 1);
    }
  }
  progress.done();
}

// Only zstd and gzip files are read here (chunkState.needsHead).
function checkOne(host, t, i, path, first) {
  var ct = t.chunks;
  var r = frames.checkStructure(fileWindow(host, path, chunkTable.fileBytesOf(ct, i), first), t.compression,
    t.compression === 'zstd' ? chunkTable.dataBytesOf(ct, i) : null);
  if (!r.ok) markCorrupt(t, i, r.problem);
}

// first: the file's first bytes, already read.
function fileWindow(host, path, size, first) {
  return frames.windowReader(function (offset, length) {
    var got = host.files.readRanges([{ path: path, offset: offset, length: length }])[0];
    return got === null ? new Uint8Array(0) : toBytes(got, 'file content');
  }, size, CHECK_WINDOW, first);
}

// util.loadDump loads chunks with LOAD DATA … REPLACE: a chunk file that is a copy of another
// chunk of the same table (a botched rsync or copy script) loads fewer rows without a word, and
// is valid zstd. Cheap: only files of equal size are compared, by their first COPY_WINDOW bytes.
var COPY_WINDOW = 65536;
var COPY_BATCH_BYTES = 64 * 1024 * 1024;

function findCopies(host, targets, ctx) {
  targets.forEach(function (t) {
    var ct = t.chunks;
    var bySize = new Map();
    chunkTable.indexesIn(ct, 'present').forEach(function (i) {
      var size = chunkTable.fileBytesOf(ct, i);
      if (!size) return;
      if (!bySize.has(size)) bySize.set(size, []);
      bySize.get(size).push(i);
    });
    var groups = [];
    bySize.forEach(function (same) { if (same.length > 1) groups.push(same); });
    // Groups are compared a batch of bytes at a time; a group is never split.
    while (groups.length) {
      var batch = [];
      var bytes = 0;
      while (groups.length && (!batch.length || bytes < COPY_BATCH_BYTES)) {
        var g = groups.shift();
        batch.push(g);
        g.forEach(function (i) { bytes += Math.min(COPY_WINDOW, chunkTable.fileBytesOf(ct, i)); });
      }
      compareGroups(host, t, batch, ctx);
    }
  });
}

function compareGroups(host, t, groups, ctx) {
  var ct = t.chunks;
  var requests = [];
  groups.forEach(function (g) {
    g.forEach(function (i) { requests.push({ path: ctx.pathOf(chunkTable.fileOf(ct, i)), offset: 0, length: COPY_WINDOW }); });
  });
  var got = host.files.readRanges(requests);
  var at = 0;
  groups.forEach(function (g) {
    var byContent = new Map();
    g.forEach(function (i) {
      var data = got[at++];
      var key = data === null ? null : contentKey(toBytes(data, 'file content'));
      if (key === null) return;
      if (!byContent.has(key)) byContent.set(key, []);
      byContent.get(key).push(i);
    });
    byContent.forEach(function (same) {
      if (same.length < 2) return;
      same.forEach(function (i) {
        var others = same.filter(function (o) { return o !== i; }).slice(0, 4).map(function (o) { return chunkTable.fileOf(ct, o); });
        chunkTable.isCopy(ct, i, true);
        markCorrupt(t, i, 'has the same size and first ' + Math.min(COPY_WINDOW, chunkTable.fileBytesOf(ct, i)) +
          ' bytes as ' + others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '') + ': a copy of another chunk ' +
          '(a botched copy or rsync?), whose rows would load in place of its own');
      });
    });
  });
}

// A string standing for the bytes (compared only among files of one size).
function contentKey(bytes) {
  var h1 = 0x811c9dc5;
  var h2 = 0x01000193;
  for (var i = 0; i < bytes.length; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 16777619) >>> 0;
    h2 = Math.imul(h2 + bytes[i], 2246822519) >>> 0;
  }
  return bytes.length + ':' + h1 + ':' + h2;
}

// Sizes known only from the table's record, the table's totals, and the chunks not surveyed.
function beginCounts(t, tableBytes, from) {
  var ct = t.chunks;
  t.counts = { present: 0, empty: 0, stub: 0, missing: 0, corrupt: 0, unchecked: 0 };
  t.fileBytes = 0;
  t.dataBytes = 0;
  t.usableDataBytes = 0;
  // Last resort: a table's recorded total is the size of its only chunk, and a total of 0
  // means every chunk was empty.
  var onlyChunk = ct.length === 1 && t.lastChunkKnown;
  for (var i = 0; i < ct.length; i++) {
    if (chunkTable.dataBytesOf(ct, i) === null && tableBytes !== null && (tableBytes === 0 || onlyChunk)) {
      chunkTable.setDataBytes(ct, i, tableBytes);
    }
    t.dataBytes = addKnown(t.dataBytes, chunkTable.dataBytesOf(ct, i));
  }
  for (i = 0; i < Math.min(from, ct.length); i++) chunkTable.setState(ct, i, 'unchecked');
  t.counts.unchecked = Math.min(from, ct.length);
  if (tableBytes !== null) t.dataBytes = tableBytes; // what the dumper recorded for the whole table
}

// head: the file's first bytes, or null when not read.
function classify(t, i, head) {
  var ct = t.chunks;
  var size = chunkTable.fileBytesOf(ct, i);
  var bytes = chunkTable.dataBytesOf(ct, i);
  var state = chunkState.chunkState(size, head === undefined ? null : head, t.compression, bytes);
  chunkTable.setState(ct, i, state);
  t.counts[state]++;
  t.fileBytes += size || 0;
  if (state === 'present' || state === 'empty') t.usableDataBytes = addKnown(t.usableDataBytes, bytes);
}

function addKnown(total, n) {
  return total === null || n === null ? null : total + n;
}

// The subject of a sentence about some of a table's data files (indexes in order).
function filesPhrase(ct, affected) {
  var total = ct.length;
  if (affected.length === 1) {
    if (total === 1) return 'its data file ' + chunkTable.fileOf(ct, affected[0]);
    return 'the data file ' + chunkTable.fileOf(ct, affected[0]) + ' (1 of ' + total + ')';
  }
  return affected.length + ' of ' + total + ' data files (chunks ' + chunkTable.describeRanges(affected, 8) + '; first ' +
    chunkTable.fileOf(ct, affected[0]) + ')';
}

// One problem per table or partition and kind, naming the first file: a partial dump can miss
// hundreds of thousands of files, and the report must stay readable.
function stateProblems(targets) {
  var out = [];
  targets.forEach(function (t) {
    var ct = t.chunks;
    var name = displayTable(t.schema, t.table, t.partition);
    var missing = chunkTable.indexesIn(ct, 'missing');
    var bad = chunkTable.indexesIn(ct, 'corrupt');
    // file-unreadable names the unreadable ones
    var corrupt = bad.filter(function (i) { return !chunkTable.isUnreadable(ct, i) && !chunkTable.isCopy(ct, i); });
    var copies = bad.filter(function (i) { return chunkTable.isCopy(ct, i); });
    if (missing.length) {
      out.push(makeProblem('chunk-missing', name + ': ' + filesPhrase(ct, missing) + ' ' +
        (missing.length === 1 ? 'is' : 'are') + ' missing.', chunkTable.fileOf(ct, missing[0])));
    }
    if (copies.length) {
      var copy = chunkTable.fileOf(ct, copies[0]);
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(ct, copies) + ' look like copies of ' +
        'each other (' + copy + ' ' + chunkTable.problemOf(ct, copies[0]) + ').', copy, t));
    }
    if (corrupt.length) {
      var walked = corrupt.filter(function (i) { return chunkTable.problemOf(ct, i); });
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(ct, corrupt) + ' ' +
        (corrupt.length === 1 ? 'is' : 'are') + ' not valid ' + t.compression + ' data (' +
        (walked.length ? chunkTable.fileOf(ct, walked[0]) + ': ' + chunkTable.problemOf(ct, walked[0]) : 'not the start of a ' +
          t.compression + ' frame, or shorter than any') + ').', chunkTable.fileOf(ct, corrupt[0])));
    }
  });
  return out;
}

module.exports = { assignStates: assignStates, stateProblems: stateProblems };
