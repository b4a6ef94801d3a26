// A structural check of compressed data files WITHOUT decompressing them: truncation and most
// garbage show in the container structure, at the cost of reading the headers only.
//   zstd (RFC 8878): frames (magic 28 B5 2F FD), each a frame header (descriptor, window,
//   dictionary id, content size), blocks of a 3-byte header (last flag, type, size) with their
//   payload, and the optional 4-byte checksum; skippable frames (50..5F 2A 4D 18, 4-byte size).
//   gzip (RFC 1952): the member header and the 8-byte trailer; the deflate stream in between
//   cannot be walked without inflating, so a gzip file is checked by header, length and, when the
//   uncompressed size is known, the trailer's ISIZE.
// Pure functions over a reader {size, read(offset, length) -> Uint8Array}; windowReader wraps a
// host read function so that walking a file of many small blocks costs few host calls.

var MAX_BLOCK = 128 * 1024; // Block_Maximum_Size: no block is bigger, whatever the window
var SKIPPABLE_LOW = 0x184d2a50;

function bytesReader(u8) {
  return { size: u8.length, read: function (offset, length) { return u8.subarray(offset, Math.min(offset + length, u8.length)); } };
}

// readAt(offset, length) -> Uint8Array (fewer bytes at the end of the file); size: the file's size;
// first: the file's first bytes when they were read already, else nothing.
// After a jump over more than a window (a big block's payload), the next block is likely big too:
// only a few bytes are read there (a window each would be mostly payload: a 16 MiB chunk has
// about a hundred 128 KiB blocks, and every byte read costs mysqlsh memory until a GC).
var AFTER_JUMP = 64;

function windowReader(readAt, size, window, first) {
  var w = window || 1024 * 1024;
  var start = 0;
  var buf = first || new Uint8Array(0);
  return {
    size: size,
    read: function (offset, length) {
      if (offset < start || offset + length > start + buf.length) {
        var jumped = offset - (start + buf.length) >= w;
        start = offset;
        buf = readAt(offset, Math.max(length, jumped ? AFTER_JUMP : w));
      }
      return buf.subarray(offset - start, offset - start + length);
    },
  };
}

function u32(b, at) { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 16777216; }

function fail(result, offset, what) {
  result.ok = false;
  result.problem = what + ' at byte ' + offset + ' of ' + result.fileBytes;
  return result;
}

// Walks every frame and block. Returns {ok, problem, frames, blocks, contentBytes (sum of the
// frames' recorded content sizes, null when a frame does not record it), fileBytes}.
function walkZstd(reader) {
  var size = reader.size;
  var r = { ok: true, problem: null, frames: 0, blocks: 0, contentBytes: 0, fileBytes: size };
  if (size === 0) return fail(r, 0, 'empty file: not even one zstd frame');
  var at = 0;
  while (at < size) {
    if (size - at < 4) return fail(r, at, 'truncated: ' + (size - at) + ' byte(s) where a frame should start');
    var head = reader.read(at, 18); // magic + the longest frame header (14 bytes)
    var magic = u32(head, 0);
    if (magic >= SKIPPABLE_LOW && magic <= SKIPPABLE_LOW + 15) {
      if (head.length < 8) return fail(r, at, 'truncated skippable frame header');
      var skip = u32(head, 4);
      if (at + 8 + skip > size) return fail(r, at, 'truncated skippable frame (' + skip + ' bytes announced)');
      at += 8 + skip;
      continue;
    }
    if (magic !== 0xfd2fb528) return fail(r, at, (r.frames ? 'garbage after frame ' + r.frames : 'not zstd data') + ' (no frame magic)');
    if (head.length < 5) return fail(r, at, 'truncated frame header');
    var fhd = head[4];
    if (fhd & 0x08) return fail(r, at + 4, 'reserved bit set in the frame header descriptor');
    var fcsFlag = fhd >> 6;
    var single = (fhd >> 5) & 1;
    var checksum = (fhd >> 2) & 1;
    var dictBytes = [0, 1, 2, 4][fhd & 3];
    var fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag];
    var headerBytes = 1 + (single ? 0 : 1) + dictBytes + fcsBytes;
    if (head.length < 4 + headerBytes) return fail(r, at, 'truncated frame header');
    var p = 5;
    var blockMax = MAX_BLOCK;
    if (!single) {
      var wd = head[p++];
      var windowLog = 10 + (wd >> 3);
      var windowBase = Math.pow(2, windowLog);
      blockMax = Math.min(MAX_BLOCK, windowBase + (windowBase / 8) * (wd & 7));
    }
    p += dictBytes;
    var fcs = null;
    if (fcsBytes) {
      fcs = 0;
      for (var i = fcsBytes - 1; i >= 0; i--) fcs = fcs * 256 + head[p + i];
      if (fcsBytes === 2) fcs += 256;
      if (single) blockMax = Math.min(MAX_BLOCK, Math.max(fcs, 1));
    }
    r.contentBytes = fcs === null || r.contentBytes === null ? null : r.contentBytes + fcs;
    at += 4 + headerBytes;
    r.frames++;
    var last = false;
    while (!last) {
      if (size - at < 3) return fail(r, at, 'truncated: the frame ends without its last block');
      var bh = reader.read(at, 3);
      var h = bh[0] | (bh[1] << 8) | (bh[2] << 16);
      last = (h & 1) === 1;
      var type = (h >> 1) & 3;
      var bsize = h >>> 3;
      if (type === 3) return fail(r, at, 'reserved block type');
      if (bsize > blockMax) return fail(r, at, 'block of ' + bsize + ' bytes, more than the ' + blockMax + ' allowed');
      var payload = type === 1 ? 1 : type === 0 || type === 2 ? bsize : 0;
      if (type === 2 && bsize === 0) return fail(r, at, 'empty compressed block');
      if (at + 3 + payload > size) return fail(r, at, 'truncated block (' + payload + ' bytes announced, ' + (size - at - 3) + ' left)');
      at += 3 + payload;
      r.blocks++;
    }
    if (checksum) {
      if (at + 4 > size) return fail(r, at, 'truncated: the frame\'s checksum is missing');
      at += 4;
    }
  }
  return r;
}

// gzip: one or more members; only the first header and the final trailer can be checked without
// inflating. expectedBytes: the uncompressed size when known (ISIZE is it modulo 2^32), else null.
function checkGzip(reader, expectedBytes) {
  var size = reader.size;
  var r = { ok: true, problem: null, frames: 1, blocks: null, contentBytes: null, fileBytes: size };
  var head = reader.read(0, 10);
  if (head.length < 10 || head[0] !== 0x1f || head[1] !== 0x8b) return fail(r, 0, 'not gzip data (no gzip magic)');
  if (head[2] !== 8) return fail(r, 2, 'unknown gzip compression method ' + head[2]);
  if (head[3] & 0xe0) return fail(r, 3, 'reserved gzip flag bits set');
  if (size < 10 + 2 + 8) return fail(r, size, 'truncated: shorter than a gzip header, an empty deflate block and the trailer');
  var isize = u32(reader.read(size - 4, 4), 0);
  r.contentBytes = isize;
  if (typeof expectedBytes === 'number' && expectedBytes >= 0 && isize !== expectedBytes % 4294967296) {
    return fail(r, size - 4, 'the trailer records ' + isize + ' uncompressed bytes, the dump ' + expectedBytes +
      ' (truncated or damaged)');
  }
  return r;
}

// compression: 'zstd' | 'gzip' | other (uncompressed: nothing to check). expectedBytes: the
// uncompressed size recorded by the dump, or null. Returns {ok, problem, ...}.
function checkStructure(reader, compression, expectedBytes) {
  if (compression === 'zstd') {
    var r = walkZstd(reader);
    if (r.ok && r.contentBytes !== null && typeof expectedBytes === 'number' && r.contentBytes !== expectedBytes) {
      return fail(r, reader.size, 'the frames record ' + r.contentBytes + ' uncompressed bytes, the dump ' + expectedBytes);
    }
    return r;
  }
  if (compression === 'gzip') return checkGzip(reader, expectedBytes);
  return { ok: true, problem: null, frames: 0, blocks: 0, contentBytes: reader.size, fileBytes: reader.size };
}


// The first frame's first blocks as a frame of their own, which any zstd decoder decodes in full:
// a new header (the window kept, no content size, no checksum) and the blocks present in whole,
// the last of them marked last. A frame's first block needs no earlier data, so its rows read
// from the file's first bytes alone (a chunk's first row, lib/dump/chunk-heads.js). Returns
// {frame: Uint8Array | null (no whole block yet), blocks, whole: every block of the frame is in,
// needBytes: how many bytes of the file the next block needs}, or {error}. maxBlocks: at most
// that many blocks (each up to 128 KiB of rows).
function firstBlocksFrame(u8, maxBlocks) {
  var size = u8.length;
  if (size < 6) return { frame: null, blocks: 0, whole: false, needBytes: 18 };
  if (u32(u8, 0) !== 0xfd2fb528) return { error: 'not zstd data (no frame magic)' };
  var fhd = u8[4];
  if (fhd & 0x08) return { error: 'reserved bit set in the frame header descriptor' };
  var single = (fhd >> 5) & 1;
  var dictBytes = [0, 1, 2, 4][fhd & 3];
  if (dictBytes) return { error: 'the frame needs a dictionary' };
  var fcsBytes = [single ? 1 : 0, 2, 4, 8][fhd >> 6];
  var at = 5 + (single ? 0 : 1) + fcsBytes;
  if (size < at) return { frame: null, blocks: 0, whole: false, needBytes: at + 3 };
  var wd;
  if (single) {
    var fcs = 0;
    for (var i = fcsBytes - 1; i >= 0; i--) fcs = fcs * 256 + u8[5 + i];
    if (fcsBytes === 2) fcs += 256;
    var log = 10;
    while (log < 30 && Math.pow(2, log) < fcs) log++;
    wd = (log - 10) << 3;
  } else wd = u8[5];
  var start = at;
  var lastAt = -1;
  var blocks = 0;
  var whole = false;
  while (at + 3 <= size) {
    var h = u8[at] | (u8[at + 1] << 8) | (u8[at + 2] << 16);
    var type = (h >> 1) & 3;
    if (type === 3) return { error: 'reserved block type at byte ' + at };
    var payload = type === 1 ? 1 : (h >>> 3);
    if (at + 3 + payload > size) return done(at + 3 + payload);
    lastAt = at;
    at += 3 + payload;
    blocks++;
    if (h & 1) { whole = true; break; }
    if (maxBlocks && blocks >= maxBlocks) break;
  }
  return done(at + 3);
  function done(need) {
    if (!blocks) return { frame: null, blocks: 0, whole: false, needBytes: need };
    var out = new Uint8Array(6 + at - start);
    out.set([0x28, 0xb5, 0x2f, 0xfd, 0x00, wd]);
    out.set(u8.subarray(start, at), 6);
    out[6 + lastAt - start] |= 1;
    return { frame: out, blocks: blocks, whole: whole, needBytes: need };
  }
}

module.exports = { firstBlocksFrame: firstBlocksFrame, walkZstd: walkZstd, checkGzip: checkGzip, checkStructure: checkStructure, bytesReader: bytesReader,
  windowReader: windowReader };
