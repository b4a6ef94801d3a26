// Writes the stubs a partial-import plan lists, and nothing else: for each missing chunk that
// was not chosen, a file that decompresses to nothing in the table's compression, plus an
// 8-zero-byte .idx where the .idx is missing. Existing files are never written over (the file
// API refuses), names come only from the dump model (made from its base names and chunk numbers,
// checked to stay inside the dump directory), and files go out in large batches: one companion call per batch.
var BATCH = 5000;
var startProgress = require('../format/progress.js').startProgress;
var chunkTable = require('../dump/chunk-table.js');
var toBytes = require('../core/bytes.js').toBytes;

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
// host as runs of chunk numbers, at most BATCH a call: none is made here per chunk.
function writeStubs(host, plan) {
  var contents = {};
  var idx = idxStubContent();
  var out = { written: 0, skipped: 0, skippedFiles: [] };
  var progress = startProgress(host, 'Writing stubs', plan.stubFiles, { unit: 'chunks' });
  var done = 0;
  function write(runs, data) {
    chunkTable.eachBatch(runs, BATCH, function (batch) {
      var r = host.files.writeRuns(plan.dir, batch, data);
      out.written += r.written;
      out.skipped += r.skipped.length;
      r.skipped.forEach(function (name) { if (out.skippedFiles.length < 20) out.skippedFiles.push(name); });
    });
  }
  plan.targets.forEach(function (e) {
    if (!e.write.length) return;
    var ct = e.target.chunks;
    if (!contents[e.compression]) contents[e.compression] = stubContent(e.compression);
    write(chunkTable.fileRuns(ct, e.write, ''), contents[e.compression]);
    var hasIdx = idxFilesThere(host, plan.dir, ct, e.write);
    write(chunkTable.fileRuns(ct, e.write.filter(function (i, k) { return !hasIdx[k]; }), '.idx'), idx);
    done += e.write.length;
    progress.update(done);
  });
  progress.done();
  return out;
}

// For chunks `indexes` (in order) of a chunk table, whether the dump directory holds an entry at
// each one's .idx name: looked up as runs, no name made per chunk.
function idxFilesThere(host, dir, ct, indexes) {
  if (!indexes.length) return [];
  var got = host.files.statRuns(dir, chunkTable.fileRuns(ct, indexes, '.idx'));
  var sizes = new Float64Array(indexes.length);
  new Uint8Array(sizes.buffer).set(toBytes(got.sizes, 'file sizes'));
  var there = [];
  for (var k = 0; k < indexes.length; k++) there.push(sizes[k] === sizes[k]);
  got.dirs.concat(got.errors.map(function (e) { return e[0]; })).forEach(function (k) { there[k] = true; });
  return there;
}

module.exports = { writeStubs: writeStubs, stubContent: stubContent, idxStubContent: idxStubContent };
