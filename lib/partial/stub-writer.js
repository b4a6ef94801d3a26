// Writes the stubs a partial-import plan lists, and nothing else: for each missing chunk that
// was not chosen, a file that decompresses to nothing in the table's compression, plus an
// 8-zero-byte .idx where the .idx is missing. Existing files are never written over (the file
// API refuses), names come only from the dump model (made from its base names and chunk numbers,
// checked to stay inside the dump directory), and files go out in large batches: one companion call per batch.
var BATCH = 5000;
var startProgress = require('../format/progress.js').startProgress;
var chunkTable = require('../dump/chunk-table.js');

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

// plan: from lib/partial/partial-plan.js (plan.files: the model's listing of the dump directory), in place.
// Returns {written: count, skipped: count, skippedFiles: the first names skipped}, names
// relative to the dump directory.
function writeStubs(host, plan) {
  var existing = plan.files;
  var f = host.files;
  var contents = {};
  var idx = idxStubContent();
  var out = { written: 0, skipped: 0, skippedFiles: [] };
  var files = [];
  var names = [];
  var progress = startProgress(host, 'Writing stubs', plan.stubFiles, { unit: 'chunks' });
  var done = 0;
  // Files go out BATCH at a time, their names made on the way (chunk-table.js).
  function flush() {
    if (!files.length) return;
    var r = f.writeFiles(files, { overwrite: false });
    var writtenSet = new Set(r.written);
    files.forEach(function (file, j) {
      if (writtenSet.has(file.path)) { out.written++; return; }
      out.skipped++;
      if (out.skippedFiles.length < 20) out.skippedFiles.push(names[j]);
    });
    files = [];
    names = [];
    progress.update(done);
  }
  plan.targets.forEach(function (e) {
    var compression = e.compression;
    if (!contents[compression]) contents[compression] = stubContent(compression);
    e.write.forEach(function (i) {
      var file = chunkTable.fileOf(e.target.chunks, i);
      files.push({ path: f.join(plan.dir, file), data: contents[compression] });
      names.push(file);
      if (!existing.has(file + '.idx')) {
        files.push({ path: f.join(plan.dir, file + '.idx'), data: idx });
        names.push(file + '.idx');
      }
      done++;
      if (files.length >= BATCH) flush();
    });
  });
  flush();
  progress.done();
  return out;
}

module.exports = { writeStubs: writeStubs, stubContent: stubContent, idxStubContent: idxStubContent };
