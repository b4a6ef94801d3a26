// The state of one data file, from its size and first bytes only (never decompressed):
//   missing  not in the dump directory
//   corrupt  does not start with its compression's magic bytes, or is shorter than any frame:
//            util.loadDump fails on it ("zstd.read: Unknown frame descriptor")
//   stub     holds no data (zero length, or an empty frame) while the metadata says the chunk had data
//   empty    holds no data, and the chunk was empty when dumped (or nothing records otherwise)
//   present  starts like real data of its compression
var toBytes = require('../core/bytes.js').toBytes;
var HEAD_BYTES = 32;

var ZSTD_MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
var ZSTD_EMPTY_FRAMES = [
  [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00], // what MySQL Shell writes for an empty chunk
  [0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x00, 0x01, 0x00, 0x00, 0x99, 0xe9, 0xd8, 0x51], // printf '' | zstd
];
var ZSTD_SMALLEST = 9;
var GZIP_MAGIC = [0x1f, 0x8b];
// An empty gzip member ends with an empty final deflate block, CRC32 0 and length 0.
var GZIP_EMPTY_TAIL = [0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0];
var GZIP_SMALLEST = 18; // 10-byte header + 8-byte trailer


function startsWith(bytes, prefix) {
  if (bytes.length < prefix.length) return false;
  for (var i = 0; i < prefix.length; i++) if (bytes[i] !== prefix[i]) return false;
  return true;
}

function endsWith(bytes, suffix) {
  var off = bytes.length - suffix.length;
  if (off < 0) return false;
  for (var i = 0; i < suffix.length; i++) if (bytes[off + i] !== suffix[i]) return false;
  return true;
}

// True when the whole file decompresses to nothing. bytes holds the whole file whenever
// size <= HEAD_BYTES, which covers every empty form recognised here.
function holdsNoData(size, bytes, compression) {
  if (size === 0) return true;
  if (size > HEAD_BYTES || bytes.length !== size) return false;
  if (compression === 'zstd') {
    return ZSTD_EMPTY_FRAMES.some(function (f) { return f.length === size && startsWith(bytes, f); });
  }
  if (compression === 'gzip') return startsWith(bytes, GZIP_MAGIC) && endsWith(bytes, GZIP_EMPTY_TAIL);
  return false;
}

function startsLikeData(size, bytes, compression) {
  if (compression === 'zstd') return size >= ZSTD_SMALLEST && startsWith(bytes, ZSTD_MAGIC);
  if (compression === 'gzip') return size >= GZIP_SMALLEST && startsWith(bytes, GZIP_MAGIC);
  return true; // uncompressed (or a compression this code does not know): nothing to check
}

// Whether a present file's state depends on its first bytes (uncompressed data of any size is fine).
function needsHead(size, compression) {
  return size > 0 && (compression === 'zstd' || compression === 'gzip');
}

// size: bytes on disk, or null when the file is absent; head: its first HEAD_BYTES bytes (or
// null when not read); expectedBytes: uncompressed bytes the metadata records, or null.
function chunkState(size, head, compression, expectedBytes) {
  if (size === null) return 'missing';
  var bytes = toBytes(head, 'file head');
  if (bytes === null) {
    if (needsHead(size, compression)) return 'missing'; // deleted between listing and reading
    bytes = new Uint8Array(0);
  }
  if (holdsNoData(size, bytes, compression)) return expectedBytes > 0 ? 'stub' : 'empty';
  return startsLikeData(size, bytes, compression) ? 'present' : 'corrupt';
}

module.exports = { chunkState: chunkState, needsHead: needsHead, HEAD_BYTES: HEAD_BYTES };
