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
var toNumbers = require('../core/bytes.js').toNumbers;
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

// The next chunk marked wantsHead from cursor {ti, i} on (it moves there); false when none is left.
function nextWanted(targets, cursor) {
  for (; cursor.ti < targets.length; cursor.ti++, cursor.i = 0) {
    var ct = targets[cursor.ti].chunks;
    for (; cursor.i < ct.length; cursor.i++) if (chunkTable.wantsHead(ct, cursor.i)) return true;
  }
  return false;
}

// Sets per chunk (chunk-table.js): fileBytes (null when absent), dataBytes (when chunkFileBytes
// did not: from the .idx file or the table's total; else null) and state. Sets on each target:
// counts {present, empty, stub, missing, corrupt, unchecked}, fileBytes, dataBytes (null when a
// chunk's is unknown) and usableDataBytes (the same over present and empty chunks).
// ctx: {sizes: Map name -> size, pathOf(name), tableBytes(target) -> number|null, unreadable: Map
// name -> why (such files are not read; their chunks are corrupt with that reason), notRegular: Set
// of those names that are no regular file (util.loadDump does not see them), verify: null or
// {threads}: then every present file is also decompressed in full (lib/dump/data-verify.js)}.
// ctx.surveyedFrom(target) -> chunk number, when given, limits the reading to the chunks from that
// number on: the others are 'unchecked' (a load view stubs them whatever they hold; they are not
// even looked up).
// Returns null, or what verify did: {files, fileBytes}.
function assignStates(host, targets, ctx) {
  var heads = 0; // chunks marked wantsHead
  var idx = chunkRefs();
  var idxLongest = 0;
  targets.forEach(function (t, ti) {
    var ct = t.chunks;
    chunkTable.startSurvey(ct);
    for (var i = surveyStart(t, ctx); i < ct.length; i++) {
      var file = chunkTable.fileOf(ct, i);
      var size = ctx.sizes.get(file);
      chunkTable.setFileBytes(ct, i, size);
      if (size !== undefined && size !== null && chunkState.needsHead(size, t.compression) && !ctx.unreadable.has(file)) {
        chunkTable.wantsHead(ct, i, true);
        heads++;
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
      markUnreadable(t, i, ctx.unreadable.get(file), !!(ctx.notRegular && ctx.notRegular.has(file)));
    }
  });
  return finishStates(host, targets, ctx);
}

// After every chunk has its state: copies of other chunks found, and the data verified when asked.
function finishStates(host, targets, ctx) {
  findCopies(host, targets, ctx);
  var verified = ctx.verify ? verifyData(host, targets, ctx, ctx.verify.threads, markCorrupt) : null;
  shareCounts(targets);
  return verified;
}

// Each target's counts, once every state is known, from its chunks' states; targets with equal
// counts share one frozen object (50,000 tables of 2 present chunks: one, not 50,000 of some 64
// bytes each, nor one each while the survey runs).
function shareCounts(targets) {
  var shared = new Map();
  var n = { present: 0, empty: 0, stub: 0, missing: 0, corrupt: 0, unchecked: 0 };
  targets.forEach(function (t) {
    var ct = t.chunks;
    n.present = n.empty = n.stub = n.missing = n.corrupt = n.unchecked = 0;
    for (var i = 0; i < ct.length; i++) {
      var state = chunkTable.stateOf(ct, i);
      if (state !== null) n[state]++;
    }
    var key = n.present + ',' + n.empty + ',' + n.stub + ',' + n.missing + ',' + n.corrupt + ',' + n.unchecked;
    if (!shared.has(key)) {
      shared.set(key, Object.freeze({ present: n.present, empty: n.empty, stub: n.stub, missing: n.missing, corrupt: n.corrupt,
        unchecked: n.unchecked }));
    }
    t.counts = shared.get(key);
  });
}

// What assignStates does, for a dump whose chunk files chunkFileBytes names (a complete one): every
// chunk file of every target looked up by name as runs of chunk numbers (no name made here), and
// its size and first bytes taken in the same pass (host.files.surveyRuns: one open per file, where
// a stat and then a read looked each name up twice). Adds what cannot be read to broken ({name,
// size, isDir, error, special}, as the directory listing gives them); ctx as assignStates' (its
// sizes and unreadable unused; chunks before surveyedFrom(target) are 'unchecked', not looked up). Returns {found: how many of the names exist (files,
// directories and unreadable entries), verified: as assignStates returns}.
function surveyChunkFiles(host, targets, ctx, broken) {
  var found = 0;
  var total = 0;
  targets.forEach(function (t) {
    chunkTable.startSurvey(t.chunks);
    beginCounts(t, ctx.tableBytes(t), surveyStart(t, ctx));
    total += t.chunks.length - surveyStart(t, ctx);
  });
  function startOf(ti) { return ti < targets.length ? surveyStart(targets[ti], ctx) : 0; }
  var progress = startProgress(host, 'Checking data files', total, { unit: 'files' });
  var at = { ti: 0, i: startOf(0) }; // the chunk of the next name
  var next = { ti: 0, i: startOf(0) }; // the first chunk of the next batch
  var done = 0;
  var walks = [];
  // The names of the next SURVEY_BATCH chunks as runs, made a batch at a time (50,000 tables: no
  // list of every table's runs at once).
  function nextBatch() {
    var runs = [];
    var count = 0;
    for (; next.ti < targets.length && count < SURVEY_BATCH; next.ti++, next.i = startOf(next.ti)) {
      var ct = targets[next.ti].chunks;
      var to = Math.min(ct.length, next.i + SURVEY_BATCH - count);
      if (to > next.i) chunkTable.rangeRuns(ct, next.i, to).forEach(function (r) { runs.push(r); });
      count += Math.max(0, to - next.i);
      if (to < ct.length) { next.i = to; break; }
    }
    return { runs: runs, count: count };
  }
  for (var b = nextBatch(); b.count; b = nextBatch()) {
    var count = b.count;
    var got = host.files.surveyRuns(ctx.dir, b.runs, CHECK_WINDOW);
    var sizes = toNumbers(got.sizes, Float64Array, count, 'file sizes');
    var lengths = toNumbers(got.lengths, Int32Array, count, 'file lengths');
    var data = toBytes(got.data, 'file content');
    var errors = new Map(got.errors.map(function (e) { return [e[0], e]; }));
    var offset = 0;
    for (var k = 0; k < count; k++, at.i++) {
      while (at.i >= targets[at.ti].chunks.length) { at.ti++; at.i = startOf(at.ti); }
      var t = targets[at.ti];
      var ct = t.chunks;
      var size = sizes[k] === sizes[k] ? sizes[k] : null;
      chunkTable.setFileBytes(ct, at.i, size);
      if (size !== null) found++;
      var e = errors.size ? errors.get(k) : undefined;
      if (e !== undefined) {
        if (size === null) found++; // a dangling link or an entry that cannot be stat'ed: there, not a file
        broken.push({ name: chunkTable.fileOf(ct, at.i), size: size, isDir: false, error: e[1], special: e[2] || null });
        classify(t, at.i, null);
        markUnreadable(t, at.i, e[1], !!e[2]);
      } else if (lengths[k] >= 0 && chunkState.needsHead(size, t.compression)) {
        checkFirst(host, t, at.i, data.subarray(offset, offset + lengths[k]), ctx, walks);
      } else {
        classify(t, at.i, null);
      }
      offset += Math.max(0, lengths[k]);
      progress.update(++done);
    }
    walkTogether(host, walks, ctx);
    found += got.dirs.length;
  }
  progress.done();
  return { found: found, verified: finishStates(host, targets, ctx) };
}

// Files a survey call names: their first bytes come back in the same answer (at most
// SURVEY_BATCH × CHECK_WINDOW bytes).
var SURVEY_BATCH = 1000;

function surveyStart(t, ctx) {
  return ctx.surveyedFrom ? Math.min(ctx.surveyedFrom(t), t.chunks.length) : 0;
}

// A chunk whose file cannot be read (why: the system's words): corrupt, and marked so; notRegular:
// not a regular file (util.loadDump does not see it).
function markUnreadable(t, i, why, notRegular) {
  markCorrupt(t, i, 'cannot be read: ' + why);
  chunkTable.isUnreadable(t.chunks, i, true);
  if (notRegular) chunkTable.isNotRegular(t.chunks, i, true);
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
  chunkTable.setState(ct, i, 'corrupt');
}

// Reads the first bytes of every file marked wantsHead (`count` of them; for zstd and gzip, the first window of the
// structure walk: one read per file, no separate read of its head), classifies each, and walks
// the frames and blocks of every present zstd / gzip file without decompressing it
// (lib/dump/zstd-frames.js): a truncated file, or garbage after a valid header, becomes corrupt
// here instead of failing util.loadDump hours into the load. Files go to the host in batches of
// at most BATCH files and WINDOW_BATCH_BYTES bytes; a file walked past its first window is read
// further on its own.
function readAndCheck(host, targets, count, ctx) {
  var progress = startProgress(host, 'Checking data files', count, { unit: 'files' });
  var cursor = { ti: 0, i: 0 };
  var checked = 0;
  var walks = [];
  while (checked < count) {
    var batch = chunkRefs();
    var bytes = 0;
    while (batch.t.length < BATCH && bytes < WINDOW_BATCH_BYTES && nextWanted(targets, cursor)) {
      bytes += Math.min(CHECK_WINDOW, chunkTable.fileBytesOf(targets[cursor.ti].chunks, cursor.i));
      batch.push(cursor.ti, cursor.i++);
    }
    if (!batch.t.length) break;
    var got = host.files.readRuns(ctx.dir, refRuns(targets, batch, 0, batch.t.length), CHECK_WINDOW);
    var data = toBytes(got.data, 'file content');
    var lengths = new Int32Array(batch.t.length);
    new Uint8Array(lengths.buffer).set(toBytes(got.lengths, 'file lengths'));
    var offset = 0;
    for (var k = 0; k < batch.t.length; k++) {
      var target = targets[batch.t[k]];
      var i = batch.i[k];
      chunkTable.wantsHead(target.chunks, i, false);
      var length = lengths[k];
      var first = length < 0 ? null : data.subarray(offset, offset + length);
      offset += Math.max(0, length);
      if (first === null) classify(target, i, null);
      else checkFirst(host, target, i, first, ctx, walks);
      progress.update(++checked);
    }
    walkTogether(host, walks, ctx);
  }
  progress.done();
}

// The names of refs [start, end) as host.files runs (refs come in order, a target's chunks together).
function refRuns(targets, refs, start, end) {
  var runs = [];
  for (var k = start; k < end;) {
    var ti = refs.t[k];
    var indexes = [];
    while (k < end && refs.t[k] === ti) indexes.push(refs.i[k++]);
    chunkTable.fileRuns(targets[ti].chunks, indexes, '').forEach(function (r) { runs.push(r); });
  }
  return runs;
}

// Classifies chunk i from its file's first bytes, keeps a key of them (findCopies) and walks its
// structure when it is present: a zstd file's walk is added to `walks` (walkTogether), the others
// are walked here.
function checkFirst(host, t, i, first, ctx, walks) {
  classify(t, i, first.subarray(0, chunkState.HEAD_BYTES));
  chunkTable.setHeadKey(t.chunks, i, contentKey(first, 0, Math.min(HEAD_KEY_BYTES, first.length)));
  if (chunkTable.stateOf(t.chunks, i) !== 'present') return;
  if (t.compression !== 'zstd') return checkOne(host, t, i, ctx, first);
  var walk = frames.startZstd(chunkTable.fileBytesOf(t.chunks, i));
  walks.push({ t: t, i: i, walk: walk, reader: frames.windowReader(null, walk.result.fileBytes, CHECK_WINDOW, first) });
}

// The zstd files' walks, side by side: each round reads the next block header of every file
// still walking in one host call (a dump of 21 chunk files of 100 blocks each: ~100 calls, not
// 2,061 one by one).
function walkTogether(host, walks, ctx) {
  var active = walks;
  while (active.length) {
    var waiting = [];
    var requests = [];
    active.forEach(function (x) {
      var got;
      while (!x.walk.done && (got = x.reader.cached(x.walk.need.offset, x.walk.need.length)) !== null) frames.feedZstd(x.walk, got);
      if (x.walk.done) return walked(x);
      var want = x.reader.want(x.walk.need.offset, x.walk.need.length);
      requests.push({ path: ctx.pathOf(chunkTable.fileOf(x.t.chunks, x.i)), offset: want.offset, length: want.length });
      waiting.push(x);
    });
    var answers = requests.length ? host.files.readRanges(requests) : [];
    waiting.forEach(function (x, k) {
      var bytes = answers[k] === null ? new Uint8Array(0) : toBytes(answers[k], 'file content');
      x.reader.put(requests[k].offset, bytes);
      frames.feedZstd(x.walk, bytes.subarray(0, x.walk.need.length)); // what the read returned, fewer at the end
    });
    active = waiting;
  }
  walks.length = 0;
}

function walked(x) {
  var r = frames.zstdAgainst(x.walk.result, chunkTable.dataBytesOf(x.t.chunks, x.i));
  if (!r.ok) markCorrupt(x.t, x.i, r.problem);
}

// A file that is not zstd (gzip; zstd files are walked together). first: the file's first bytes.
function checkOne(host, t, i, ctx, first) {
  var ct = t.chunks;
  var path = null; // made only for a file walked past its first bytes
  var read = function (offset, length) {
    if (path === null) path = ctx.pathOf(chunkTable.fileOf(ct, i));
    var got = host.files.readRanges([{ path: path, offset: offset, length: length }])[0];
    return got === null ? new Uint8Array(0) : toBytes(got, 'file content');
  };
  var r = frames.checkStructure(frames.windowReader(read, chunkTable.fileBytesOf(ct, i), CHECK_WINDOW, first), t.compression, null);
  if (!r.ok) markCorrupt(t, i, r.problem);
}

// util.loadDump loads chunks with LOAD DATA … REPLACE: a chunk file that is a copy of another
// chunk of the same table (a botched rsync or copy script) loads fewer rows without a word, and
// is valid zstd. Cheap: only files of equal size are compared, by their first COPY_WINDOW bytes,
// and first by a key of their first HEAD_KEY_BYTES taken while they were checked (readAndCheck):
// files that small are settled by it, larger ones are read again only when size and key agree.
var COPY_WINDOW = 65536;
var COPY_BATCH_BYTES = 64 * 1024 * 1024;
var HEAD_KEY_BYTES = 256;

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
    bySize.forEach(function (same, size) {
      if (same.length < 2) return;
      groupBy(same, function (i) { return chunkTable.headKeyOf(ct, i); }).forEach(function (g, key) {
        if (g.length < 2) return;
        if (key !== null && size <= HEAD_KEY_BYTES) markCopies(t, g);
        else groups.push(g);
      });
    });
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

// Map key -> [item] in order (null keys together).
function groupBy(items, keyOf) {
  var out = new Map();
  items.forEach(function (x) {
    var k = keyOf(x);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(x);
  });
  return out;
}

function compareGroups(host, t, groups, ctx) {
  var ct = t.chunks;
  var runs = [];
  var count = 0;
  groups.forEach(function (g) {
    chunkTable.fileRuns(ct, g, '').forEach(function (r) { runs.push(r); });
    count += g.length;
  });
  var got = host.files.readRuns(ctx.dir, runs, COPY_WINDOW);
  var data = toBytes(got.data, 'file content');
  var lengths = toNumbers(got.lengths, Int32Array, count, 'file lengths');
  var at = 0;
  var offset = 0;
  groups.forEach(function (g) {
    groupBy(g, function (i) {
      var length = lengths[at++];
      if (length < 0) return null;
      offset += length;
      return contentKey(data, offset - length, offset);
    }).forEach(function (same, key) { if (key !== null && same.length > 1) markCopies(t, same); });
  });
}

function markCopies(t, same) {
  var ct = t.chunks;
  same.forEach(function (i) {
    var others = same.filter(function (o) { return o !== i; }).slice(0, 4).map(function (o) { return chunkTable.fileOf(ct, o); });
    chunkTable.isCopy(ct, i, true);
    markCorrupt(t, i, 'has the same size and first ' + Math.min(COPY_WINDOW, chunkTable.fileBytesOf(ct, i)) +
      ' bytes as ' + others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '') + ': a copy of another chunk ' +
      '(a botched copy or rsync?), whose rows would load in place of its own');
  });
}

// A number standing for bytes[start, end) (compared only among files of one size): two 32-bit
// hashes, 53 bits of them kept (a number key: no string per file).
function contentKey(bytes, start, end) {
  var h1 = 0x811c9dc5;
  var h2 = 0x01000193;
  for (var i = start; i < end; i++) {
    h1 = Math.imul(h1 ^ bytes[i], 16777619) >>> 0;
    h2 = Math.imul(h2 + bytes[i], 2246822519) >>> 0;
  }
  return h1 * 2097152 + (h2 & 0x1fffff);
}

// Sizes known only from the table's record, the table's totals, and the chunks not surveyed.
function beginCounts(t, tableBytes, from) {
  var ct = t.chunks;
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
  if (tableBytes !== null) t.dataBytes = tableBytes; // what the dumper recorded for the whole table
}

// head: the file's first bytes, or null when not read.
function classify(t, i, head) {
  var ct = t.chunks;
  var size = chunkTable.fileBytesOf(ct, i);
  var bytes = chunkTable.dataBytesOf(ct, i);
  var state = chunkState.chunkState(size, head === undefined ? null : head, t.compression, bytes);
  chunkTable.setState(ct, i, state);
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
// hundreds of thousands of files, and the report must stay readable. Past PER_KIND tables of one
// kind, the others are one problem saying how many (50,000 tables of a partial download made
// 50,000 problems: 22 MB of messages); every table's facts still say which of its chunks are
// missing or corrupt (states).
var PER_KIND = 100;

function stateProblems(targets) {
  var out = [];
  var more = { missing: { tables: 0, files: 0 }, copies: { tables: 0, files: 0 }, corrupt: { tables: 0, files: 0 } };
  function room(which, indexes) {
    var m = more[which];
    if (m.shown === undefined) m.shown = 0;
    if (m.shown < PER_KIND) { m.shown++; return true; }
    m.tables++;
    m.files += indexes.length;
    return false;
  }
  targets.forEach(function (t) {
    var ct = t.chunks;
    var name = displayTable(t.schema, t.table, t.partition);
    var missing = chunkTable.indexesIn(ct, 'missing');
    var bad = chunkTable.indexesIn(ct, 'corrupt');
    // file-unreadable names the unreadable ones
    var corrupt = bad.filter(function (i) { return !chunkTable.isUnreadable(ct, i) && !chunkTable.isCopy(ct, i); });
    var copies = bad.filter(function (i) { return chunkTable.isCopy(ct, i); });
    if (missing.length && room('missing', missing)) {
      out.push(makeProblem('chunk-missing', name + ': ' + filesPhrase(ct, missing) + ' ' +
        (missing.length === 1 ? 'is' : 'are') + ' missing.', chunkTable.fileOf(ct, missing[0])));
    }
    if (copies.length && room('copies', copies)) {
      var copy = chunkTable.fileOf(ct, copies[0]);
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(ct, copies) + ' look like copies of ' +
        'each other (' + copy + ' ' + chunkTable.problemOf(ct, copies[0]) + ').', copy, t));
    }
    if (corrupt.length && room('corrupt', corrupt)) {
      var walked = corrupt.filter(function (i) { return chunkTable.problemOf(ct, i); });
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(ct, corrupt) + ' ' +
        (corrupt.length === 1 ? 'is' : 'are') + ' not valid ' + t.compression + ' data (' +
        (walked.length ? chunkTable.fileOf(ct, walked[0]) + ': ' + chunkTable.problemOf(ct, walked[0]) : 'not the start of a ' +
          t.compression + ' frame, or shorter than any') + ').', chunkTable.fileOf(ct, corrupt[0])));
    }
  });
  var says = { missing: ['chunk-missing', 'missing', 'missing'], copies: ['chunk-corrupt', 'copies of each other', 'corrupt'],
    corrupt: ['chunk-corrupt', 'not valid compressed data', 'corrupt'] };
  Object.keys(more).forEach(function (which) {
    var m = more[which];
    if (!m.tables) return;
    out.push(makeProblem(says[which][0], '… and ' + m.tables + ' more table(s) or partition(s) with data files ' +
      says[which][1] + ' (' + m.files + ' file(s)); each one\'s facts (tables[].states.' + says[which][2] + ') name them.', null));
  });
  return out;
}

module.exports = { assignStates: assignStates, stateProblems: stateProblems, surveyChunkFiles: surveyChunkFiles };
