// Writes the stubs a partial-import plan lists, and nothing else: for each missing chunk that
// was not chosen, a file that decompresses to nothing in the table's compression, plus an
// 8-zero-byte .idx where the .idx is missing. Existing files are never written over (the file
// API refuses), names come only from the dump model (made from its base names and chunk numbers,
// checked to stay inside the dump directory), and files go out in large batches: one companion call per batch.
var BATCH = 5000;
var startProgress = require('../format/progress.js').startProgress;
var chunkTable = require('../dump/chunk-table.js');
var toNumbers = require('../core/bytes.js').toNumbers;

// The Shell's own empty chunk: the 9-byte zstd frame (contract §2).
var EMPTY_ZSTD = [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00];
// An empty gzip member: header, an empty final deflate block, CRC32 0, size 0.
var EMPTY_GZIP = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff, 0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
var EMPTY_IDX = [0, 0, 0, 0, 0, 0, 0, 0];

function bytes(list) {
  var buf = new ArrayBuffer(list.length);
  var view = new Uint8Array(buf);
  for (var i = 0; i < list.length; i++) view[i] = list[i];
  return buf;
}

function stubContent(compression) {
  if (compression === 'zstd') return bytes(EMPTY_ZSTD);
  if (compression === 'gzip') return bytes(EMPTY_GZIP);
  return bytes([]);
}

// An .idx file with no chunk offsets: a format 1.0.0 loader reads a stubbed chunk's size there.
function idxStubContent() { return bytes(EMPTY_IDX); }

// plan: from lib/partial/partial-plan.js, in place. Returns {written: count, skipped: count,
// skippedFiles: the first names skipped}, names relative to the dump directory. Names go to the
// host as runs of chunk numbers, at most BATCH a call, the tables of one compression together:
// none is made here per chunk, and a thousand small tables make a few calls, not thousands.
function writeStubs(host, plan) {
  var out = { written: 0, skipped: 0, skippedFiles: [] };
  var progress = startProgress(host, 'Writing stubs', plan.stubFiles, { unit: 'chunks' });
  var done = 0;
  function write(runs, data, counts) {
    chunkTable.eachBatch(runs, BATCH, function (batch, count) {
      var r = host.files.writeRuns(plan.dir, batch, data);
      out.written += r.written;
      out.skipped += r.skipped.length;
      r.skipped.forEach(function (name) { if (out.skippedFiles.length < 20) out.skippedFiles.push(name); });
      if (counts) progress.update(done += count);
    });
  }
  var byCompression = new Map();
  var idxRuns = [];
  plan.targets.forEach(function (e) {
    if (!e.write.length) return;
    var ct = e.target.chunks;
    if (!byCompression.has(e.compression)) byCompression.set(e.compression, []);
    var runs = byCompression.get(e.compression);
    chunkTable.fileRuns(ct, e.write, '').forEach(function (r) { runs.push(r); });
    chunkTable.fileRuns(ct, e.write, '.idx').forEach(function (r) { idxRuns.push(r); });
  });
  byCompression.forEach(function (runs, compression) { write(runs, stubContent(compression), true); });
  write(missingOf(host, plan.dir, idxRuns), idxStubContent(), false);
  progress.done();
  return out;
}

// The runs' names where the directory holds nothing (an .idx file a chunk lacks), as runs: looked
// up a batch at a time, no name made per chunk.
function missingOf(host, dir, runs) {
  var missing = [];
  chunkTable.eachBatch(runs, BATCH, function (batch, count) {
    var got = host.files.statRuns(dir, batch);
    var sizes = toNumbers(got.sizes, Float64Array, count, 'file sizes');
    var there = new Set(got.dirs.concat(got.errors.map(function (e) { return e[0]; })));
    var k = 0;
    batch.forEach(function (r) {
      if (r.length === 1) {
        if (sizes[k] !== sizes[k] && !there.has(k)) missing.push(r);
        k++;
        return;
      }
      for (var n = r[1]; n < r[2]; n++, k++) {
        if (sizes[k] === sizes[k] || there.has(k)) continue;
        var last = missing.length ? missing[missing.length - 1] : null;
        if (last && last.length > 1 && last[0] === r[0] && last[3] === r[3] && last[2] === n) last[2] = n + 1;
        else missing.push([r[0], n, n + 1, r[3]]);
      }
    });
  });
  return missing;
}

module.exports = { writeStubs: writeStubs, stubContent: stubContent, idxStubContent: idxStubContent };
