// verify: true — every present zstd / gzip data file decompressed in full by the real decoders
// (the zstd program, Python's zlib: host.files.decompressedSizes), nothing kept, and the size
// compared with what the dump recorded. It finds what the structural walk cannot: damage inside
// a block, bad checksums, and a file cut exactly between two frames (Shell's reader loads such a
// file without a word, short of rows). Costs a full read and decompression of the data: on request.
var UserError = require('../core/user-error.js').UserError;
var startProgress = require('../format/progress.js').startProgress;
var formatBytes = require('../format/text-table.js').formatBytes;
var chunkTable = require('./chunk-table.js');

// One call to the companion decompresses about this much (or this many files): progress moves
// between calls, and a call never holds more than a few paths per thread.
var BATCH_BYTES = 256 * 1024 * 1024;
var BATCH_FILES_PER_THREAD = 16;

function sizeProblem(got, recorded) {
  return 'decompresses to ' + got + ' bytes where the dump recorded ' + recorded +
    (got < recorded ? ': data is missing (the file was cut short, perhaps between two frames)' : '');
}

// targets: after lib/dump/chunk-survey.js (chunk states set); ctx.pathOf(name); threads: files
// at once. Marks failing chunks corrupt with the reason, like the structural check.
function verifyData(host, targets, ctx, threads, markCorrupt) {
  var todo = [];
  var totalBytes = 0;
  targets.forEach(function (t) {
    if (t.compression !== 'zstd' && t.compression !== 'gzip') return;
    chunkTable.indexesIn(t.chunks, 'present').forEach(function (i) {
      var bytes = chunkTable.fileBytesOf(t.chunks, i) || 0;
      todo.push({ t: t, i: i, fileBytes: bytes });
      totalBytes += bytes;
    });
  });
  var progress = startProgress(host, 'Verifying data files', totalBytes, { format: formatBytes });
  var doneBytes = 0;
  var perBatch = Math.max(1, threads) * BATCH_FILES_PER_THREAD;
  for (var start = 0; start < todo.length;) {
    var batch = [];
    var batchBytes = 0;
    while (start < todo.length && batch.length < perBatch && (batch.length === 0 || batchBytes < BATCH_BYTES)) {
      batch.push(todo[start]);
      batchBytes += todo[start].fileBytes;
      start++;
    }
    var answer = host.files.decompressedSizes(batch.map(function (item) {
      return { path: ctx.pathOf(chunkTable.fileOf(item.t.chunks, item.i)), compression: item.t.compression };
    }), threads);
    if (answer.error) throw new UserError('TOOL_MISSING', answer.error);
    answer.sizes.forEach(function (r, k) {
      var item = batch[k];
      var recorded = chunkTable.dataBytesOf(item.t.chunks, item.i);
      if (r.error) markCorrupt(item.t, item.i, r.error);
      else if (recorded !== null && r.bytes !== recorded) markCorrupt(item.t, item.i, sizeProblem(r.bytes, recorded));
    });
    doneBytes += batchBytes;
    progress.update(doneBytes);
  }
  progress.done(todo.length + ' files, ' + formatBytes(totalBytes));
  return { files: todo.length, fileBytes: totalBytes };
}

module.exports = { verifyData: verifyData };
