// Surveys the data files of every table and partition at once: size on disk (from the one
// directory listing), uncompressed bytes recorded for each chunk, and the state of each file
// from its first bytes. First bytes are read in one batch; .idx files (the only record of
// chunk sizes in format 1.0.0) in a second one, only when some size is recorded nowhere else.
var chunkState = require('./chunk-state.js');
var idxDataBytes = require('./idx-file.js').idxDataBytes;
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('../report/display-name.js').displayTable;
var frames = require('./zstd-frames.js');
var toBytes = require('../core/bytes.js').toBytes;
var startProgress = require('../report/progress.js').startProgress;
var verifyData = require('./data-verify.js').verifyData;

var MAX_IDX_BYTES = 1048576; // an .idx of 1 MiB describes a 128 GiB chunk
// The structural check reads block headers only: a small window, so most of a block's payload
// is skipped rather than read (zstd blocks are up to 128 KiB).
var CHECK_WINDOW = 4096;

function readBatch(host, paths, n) {
  return paths.length ? host.files.readHeads(paths, n) : [];
}

// Sets on each chunk: fileBytes (null when absent), dataBytes (when chunkFileBytes did not:
// from the .idx file or the table's total; else null) and state. Sets on each target: counts
// {present, empty, stub, missing, corrupt}, fileBytes, dataBytes (null when a chunk's is
// unknown) and usableDataBytes (the same over present and empty chunks).
// ctx: {sizes: Map name -> size, pathOf(name), tableBytes(target) -> number|null, unreadable: Map
// name -> why (such files are not read; their chunks are corrupt with that reason), verify: null or
// {threads}: then every present file is also decompressed in full (lib/dump/data-verify.js)}.
// ctx.surveyed(target, chunk) -> bool, when given, limits the reading to those chunks: the others
// are 'missing' or, when present, 'unchecked' (a load view stubs them whatever they hold).
// Returns null, or what verify did: {files, fileBytes}.
function assignStates(host, targets, ctx) {
  var heads = new Map(); // keyed by file name: objects from another file's context make poor keys (GraalJS)
  var headChunks = [];
  var headPaths = [];
  var idxChunks = [];
  var idxPaths = [];
  var idxLongest = 0;
  targets.forEach(function (t) {
    t.chunks.forEach(function (c) {
      var size = ctx.sizes.get(c.file);
      c.fileBytes = size === undefined ? null : size;
      var unreadable = ctx.unreadable.has(c.file);
      if (ctx.surveyed && !ctx.surveyed(t, c)) {
        c.unchecked = true;
        return;
      }
      if (c.fileBytes !== null && !unreadable && chunkState.needsHead(c.fileBytes, t.compression)) {
        headChunks.push(c);
        headPaths.push(ctx.pathOf(c.file));
      }
      if (c.dataBytes !== null) return;
      var idxSize = ctx.sizes.get(c.file + '.idx');
      if (idxSize >= 8 && idxSize % 8 === 0 && idxSize <= MAX_IDX_BYTES && !ctx.unreadable.has(c.file + '.idx')) {
        idxChunks.push(c);
        idxPaths.push(ctx.pathOf(c.file + '.idx'));
        idxLongest = Math.max(idxLongest, idxSize);
      }
    });
  });
  readBatch(host, headPaths, chunkState.HEAD_BYTES).forEach(function (head, i) { heads.set(headChunks[i].file, head); });
  readBatch(host, idxPaths, idxLongest).forEach(function (content, i) {
    idxChunks[i].dataBytes = idxDataBytes(content);
  });
  targets.forEach(function (t) {
    classifyChunks(t, heads, ctx.tableBytes(t));
    t.chunks.forEach(function (c) {
      if (c.unchecked || !ctx.unreadable.has(c.file)) return;
      markCorrupt(t, c, 'cannot be read: ' + ctx.unreadable.get(c.file));
      c.unreadable = true;
    });
  });
  checkStructures(host, targets, ctx);
  findCopies(host, targets, ctx);
  return ctx.verify ? verifyData(host, targets, ctx, ctx.verify.threads, markCorrupt) : null;
}

function markCorrupt(t, c, problem) {
  c.problem = problem;
  if (c.state === 'corrupt') return;
  if (c.state === 'present' || c.state === 'empty') {
    t.usableDataBytes = c.dataBytes === null || t.usableDataBytes === null ? null : t.usableDataBytes - c.dataBytes;
  }
  t.counts[c.state]--;
  t.counts.corrupt++;
  c.state = 'corrupt';
}

// Walks the frames and blocks of every present zstd / gzip file without decompressing it
// (lib/dump/zstd-frames.js): a truncated file, or garbage after a valid header, becomes corrupt
// here instead of failing util.loadDump hours into the load.
function checkStructures(host, targets, ctx) {
  var todo = [];
  targets.forEach(function (t) {
    if (t.compression !== 'zstd' && t.compression !== 'gzip') return;
    t.chunks.forEach(function (c) { if (c.state === 'present') todo.push({ t: t, c: c }); });
  });
  var progress = startProgress(host, 'Checking data files', todo.length, { unit: 'files' });
  todo.forEach(function (item, i) {
    var t = item.t;
    var c = item.c;
    var path = ctx.pathOf(c.file);
    var reader = frames.windowReader(function (offset, length) {
      var got = host.files.readRanges([{ path: path, offset: offset, length: length }])[0];
      return got === null ? new Uint8Array(0) : toBytes(got, 'file content');
    }, c.fileBytes, CHECK_WINDOW);
    var r = frames.checkStructure(reader, t.compression, t.compression === 'zstd' ? c.dataBytes : null);
    if (!r.ok) markCorrupt(t, c, r.problem);
    progress.update(i + 1);
  });
  progress.done();
}

// util.loadDump loads chunks with LOAD DATA … REPLACE: a chunk file that is a copy of another
// chunk of the same table (a botched rsync or copy script) loads fewer rows without a word, and
// is valid zstd. Cheap: only files of equal size are compared, by their first COPY_WINDOW bytes.
var COPY_WINDOW = 65536;

function findCopies(host, targets, ctx) {
  var candidates = [];
  targets.forEach(function (t) {
    var bySize = new Map();
    t.chunks.forEach(function (c) {
      if (c.state !== 'present' || !c.fileBytes) return;
      if (!bySize.has(c.fileBytes)) bySize.set(c.fileBytes, []);
      bySize.get(c.fileBytes).push(c);
    });
    bySize.forEach(function (same) { if (same.length > 1) candidates.push({ t: t, chunks: same }); });
  });
  if (!candidates.length) return;
  var requests = [];
  candidates.forEach(function (g) {
    g.chunks.forEach(function (c) { requests.push({ path: ctx.pathOf(c.file), offset: 0, length: COPY_WINDOW }); });
  });
  var got = host.files.readRanges(requests);
  var at = 0;
  candidates.forEach(function (g) {
    var byContent = new Map();
    g.chunks.forEach(function (c) {
      var data = got[at++];
      var key = data === null ? null : contentKey(toBytes(data, 'file content'));
      if (key === null) return;
      if (!byContent.has(key)) byContent.set(key, []);
      byContent.get(key).push(c);
    });
    byContent.forEach(function (same) {
      if (same.length < 2) return;
      same.forEach(function (c) {
        var others = same.filter(function (o) { return o.file !== c.file; }).map(function (o) { return o.file; });
        c.copy = true;
        markCorrupt(g.t, c, 'has the same size and first ' + Math.min(COPY_WINDOW, c.fileBytes) + ' bytes as ' +
          others.slice(0, 3).join(', ') + (others.length > 3 ? ', …' : '') + ': a copy of another chunk (a botched copy ' +
          'or rsync?), whose rows would load in place of its own');
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

function classifyChunks(t, heads, tableBytes) {
  t.counts = { present: 0, empty: 0, stub: 0, missing: 0, corrupt: 0, unchecked: 0 };
  t.fileBytes = 0;
  t.dataBytes = 0;
  t.usableDataBytes = 0;
  t.chunks.forEach(function (c) {
    // Last resort: a table's recorded total is the size of its only chunk, and a total of 0
    // means every chunk was empty.
    var onlyChunk = t.chunks.length === 1 && t.lastChunkKnown;
    if (c.dataBytes === null && tableBytes !== null && (tableBytes === 0 || onlyChunk)) c.dataBytes = tableBytes;
    var head = heads.get(c.file);
    if (c.unchecked) c.state = c.fileBytes === null ? 'missing' : 'unchecked';
    else c.state = chunkState.chunkState(c.fileBytes, head === undefined ? null : head, t.compression, c.dataBytes);
    t.counts[c.state]++;
    t.fileBytes += c.fileBytes || 0;
    t.dataBytes = addKnown(t.dataBytes, c.dataBytes);
    if (c.state === 'present' || c.state === 'empty') t.usableDataBytes = addKnown(t.usableDataBytes, c.dataBytes);
  });
  if (tableBytes !== null) t.dataBytes = tableBytes; // what the dumper recorded for the whole table
}

function addKnown(total, n) {
  return total === null || n === null ? null : total + n;
}

// "chunks 0-3, 7, 9-12" (at most `limit` ranges). chunks are in index order.
function describeIndexes(chunks, limit) {
  var ranges = [];
  var more = false;
  for (var i = 0; i < chunks.length; i++) {
    var start = chunks[i].index;
    while (i + 1 < chunks.length && chunks[i + 1].index === chunks[i].index + 1) i++;
    if (ranges.length === limit) { more = true; break; }
    ranges.push(start === chunks[i].index ? String(start) : start + '-' + chunks[i].index);
  }
  return (chunks.length === 1 ? 'chunk ' : 'chunks ') + ranges.join(', ') + (more ? ', …' : '');
}

// The subject of a sentence about some of a table's data files.
function filesPhrase(affected, total) {
  if (affected.length === 1) {
    if (total === 1) return 'its data file ' + affected[0].file;
    return 'the data file ' + affected[0].file + ' (1 of ' + total + ')';
  }
  return affected.length + ' of ' + total + ' data files (' + describeIndexes(affected, 8) + '; first ' +
    affected[0].file + ')';
}

// One problem per table or partition and kind, naming the first file: a partial dump can miss
// hundreds of thousands of files, and the report must stay readable.
function stateProblems(targets) {
  var out = [];
  targets.forEach(function (t) {
    var name = displayTable(t.schema, t.table, t.partition);
    var missing = t.chunks.filter(function (c) { return c.state === 'missing'; });
    var corrupt = t.chunks.filter(function (c) { return c.state === 'corrupt' && !c.unreadable && !c.copy; }); // file-unreadable names those
    var copies = t.chunks.filter(function (c) { return c.state === 'corrupt' && c.copy; });
    if (missing.length) {
      out.push(makeProblem('chunk-missing', name + ': ' + filesPhrase(missing, t.chunks.length) + ' ' +
        (missing.length === 1 ? 'is' : 'are') + ' missing.', missing[0].file));
    }
    if (copies.length) {
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(copies, t.chunks.length) + ' look like copies of ' +
        'each other (' + copies[0].file + ' ' + copies[0].problem + ').', copies[0].file, t));
    }
    if (corrupt.length) {
      var walked = corrupt.filter(function (c) { return c.problem; });
      out.push(makeProblem('chunk-corrupt', name + ': ' + filesPhrase(corrupt, t.chunks.length) + ' ' +
        (corrupt.length === 1 ? 'is' : 'are') + ' not valid ' + t.compression + ' data (' +
        (walked.length ? walked[0].file + ': ' + walked[0].problem : 'not the start of a ' + t.compression +
          ' frame, or shorter than any') + ').', corrupt[0].file));
    }
  });
  return out;
}

module.exports = { assignStates: assignStates, stateProblems: stateProblems };
