// Writes the stubs a partial-import plan lists, and nothing else: for each missing chunk that
// was not chosen, a file that decompresses to nothing in the table's compression, plus an
// 8-zero-byte .idx where the .idx is missing. Existing files are never written over (the file
// API refuses), names come only from the dump model (never rebuilt, checked to stay inside the
// dump directory), and files go out in large batches: one companion call per batch.
var BATCH = 5000;
var startProgress = require('../report/progress.js').startProgress;

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

// plan: from lib/partial-plan.js (plan.files: the model's listing of the dump directory).
// Returns {written: [name], skipped: [name]} with names relative to the dump directory.
function writeStubs(host, plan) {
  var existing = plan.files;
  var f = host.files;
  var contents = {};
  var idx = idxStubContent();
  var files = [];
  var names = [];
  plan.stub.forEach(function (s) {
    var c = s.chunk;
    var compression = s.target.compression;
    if (!contents[compression]) contents[compression] = stubContent(compression);
    files.push({ path: f.join(plan.dir, c.file), data: contents[compression] });
    names.push(c.file);
    if (!existing.has(c.file + '.idx')) {
      files.push({ path: f.join(plan.dir, c.file + '.idx'), data: idx });
      names.push(c.file + '.idx');
    }
  });
  var written = [];
  var skipped = [];
  var progress = startProgress(host, 'Writing stubs', files.length, { unit: 'files' });
  for (var i = 0; i < files.length; i += BATCH) {
    var r = f.writeFiles(files.slice(i, i + BATCH), { overwrite: false });
    var writtenSet = new Set(r.written);
    for (var j = i; j < Math.min(i + BATCH, files.length); j++) {
      (writtenSet.has(files[j].path) ? written : skipped).push(names[j]);
    }
    progress.update(Math.min(i + BATCH, files.length));
  }
  progress.done();
  return { written: written, skipped: skipped };
}

module.exports = { writeStubs: writeStubs, stubContent: stubContent, idxStubContent: idxStubContent };
