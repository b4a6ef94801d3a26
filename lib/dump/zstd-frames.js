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
// cached(offset, length): the bytes when the window holds them, else null; want(offset, length):
// the read to make for them ({offset, length}); put(offset, bytes): what that read returned. Many
// files are walked together through these (a readAt of null): one host call for a read of each.
var AFTER_JUMP = 64;

function windowReader(readAt, size, window, first) {
  var w = window || 1024 * 1024;
  var start = 0;
  var buf = first || new Uint8Array(0);
  var reader = {
    size: size,
    cached: function (offset, length) {
      return offset < start || offset + length > start + buf.length ? null : buf.subarray(offset - start, offset - start + length);
    },
    want: function (offset, length) {
      var jumped = offset - (start + buf.length) >= w;
      return { offset: offset, length: Math.max(length, jumped ? AFTER_JUMP : w) };
    },
    put: function (offset, bytes) { start = offset; buf = bytes; },
    read: function (offset, length) {
      var got = reader.cached(offset, length);
      if (got !== null) return got;
      var r = reader.want(offset, length);
      reader.put(r.offset, readAt(r.offset, r.length));
      return buf.subarray(0, length);
    },
  };
  return reader;
}

function u32(b, at) { return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 16777216; }

function fail(result, offset, what) {
  result.ok = false;
  result.problem = what + ' at byte ' + offset + ' of ' + result.fileBytes;
  return result;
}

// A walk over every frame and block of a file of `size` bytes, one read at a time: walk.need is
// the next read ({offset, length}) until walk.done; feedZstd(walk, bytes) gives it what that read
// returned (fewer bytes at the end of the file). walk.result: {ok, problem, frames, blocks,
// contentBytes (sum of the frames' recorded content sizes, null when a frame does not record
// it), fileBytes}.
function startZstd(size) {
  var r = { ok: true, problem: null, frames: 0, blocks: 0, contentBytes: 0, fileBytes: size };
  var walk = { result: r, at: 0, inFrame: false, last: false, blockMax: MAX_BLOCK, checksum: false, need: null, done: false };
  if (size === 0) return stop(walk, 0, 'empty file: not even one zstd frame');
  nextRead(walk);
  return walk;
}

function stop(walk, offset, what) {
  if (what) fail(walk.result, offset, what);
  walk.done = true;
  walk.need = null;
  return walk;
}

// Moves to the next read the walk needs, past what needs none (a frame's checksum); done at the end.
function nextRead(walk) {
  var size = walk.result.fileBytes;
  for (;;) {
    if (!walk.inFrame) {
      if (walk.at >= size) return stop(walk);
      if (size - walk.at < 4) return stop(walk, walk.at, 'truncated: ' + (size - walk.at) + ' byte(s) where a frame should start');
      walk.need = { offset: walk.at, length: 18 }; // magic + the longest frame header (14 bytes)
      return walk;
    }
    if (!walk.last) {
      if (size - walk.at < 3) return stop(walk, walk.at, 'truncated: the frame ends without its last block');
      walk.need = { offset: walk.at, length: 3 };
      return walk;
    }
    if (walk.checksum) {
      if (walk.at + 4 > size) return stop(walk, walk.at, 'truncated: the frame\'s checksum is missing');
      walk.at += 4;
    }
    walk.inFrame = false;
  }
}

function feedZstd(walk, bytes) {
  var r = walk.result;
  var size = r.fileBytes;
  var at = walk.at;
  if (!walk.inFrame) {
    var head = bytes;
    var magic = u32(head, 0);
    if (magic >= SKIPPABLE_LOW && magic <= SKIPPABLE_LOW + 15) {
      if (head.length < 8) return stop(walk, at, 'truncated skippable frame header');
      var skip = u32(head, 4);
      if (at + 8 + skip > size) return stop(walk, at, 'truncated skippable frame (' + skip + ' bytes announced)');
      walk.at = at + 8 + skip;
      return nextRead(walk);
    }
    if (magic !== 0xfd2fb528) return stop(walk, at, (r.frames ? 'garbage after frame ' + r.frames : 'not zstd data') + ' (no frame magic)');
    if (head.length < 5) return stop(walk, at, 'truncated frame header');
    var fhd = head[4];
    if (fhd & 0x08) return stop(walk, at + 4, 'reserved bit set in the frame header descriptor');
    var fcsFlag = fhd >> 6;
    var single = (fhd >> 5) & 1;
    var dictBytes = [0, 1, 2, 4][fhd & 3];
    var fcsBytes = [single ? 1 : 0, 2, 4, 8][fcsFlag];
    var headerBytes = 1 + (single ? 0 : 1) + dictBytes + fcsBytes;
    if (head.length < 4 + headerBytes) return stop(walk, at, 'truncated frame header');
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
    walk.at = at + 4 + headerBytes;
    r.frames++;
    walk.inFrame = true;
    walk.last = false;
    walk.blockMax = blockMax;
    walk.checksum = ((fhd >> 2) & 1) === 1;
    return nextRead(walk);
  }
  var bh = bytes;
  if (bh.length < 3) return stop(walk, at, 'truncated: the frame ends without its last block');
  var h = bh[0] | (bh[1] << 8) | (bh[2] << 16);
  var type = (h >> 1) & 3;
  var bsize = h >>> 3;
  if (type === 3) return stop(walk, at, 'reserved block type');
  if (bsize > walk.blockMax) return stop(walk, at, 'block of ' + bsize + ' bytes, more than the ' + walk.blockMax + ' allowed');
  var payload = type === 1 ? 1 : type === 0 || type === 2 ? bsize : 0;
  if (type === 2 && bsize === 0) return stop(walk, at, 'empty compressed block');
  if (at + 3 + payload > size) return stop(walk, at, 'truncated block (' + payload + ' bytes announced, ' + (size - at - 3) + ' left)');
  walk.at = at + 3 + payload;
  walk.last = (h & 1) === 1;
  r.blocks++;
  return nextRead(walk);
}

// Walks every frame and block through a reader {size, read(offset, length)}. Returns walk.result.
function walkZstd(reader) {
  var walk = startZstd(reader.size);
  while (!walk.done) feedZstd(walk, reader.read(walk.need.offset, walk.need.length));
  return walk.result;
}

// A finished zstd walk against the uncompressed size the dump records (null: unknown).
function zstdAgainst(r, expectedBytes) {
  if (r.ok && r.contentBytes !== null && typeof expectedBytes === 'number' && r.contentBytes !== expectedBytes) {
    return fail(r, r.fileBytes, 'the frames record ' + r.contentBytes + ' uncompressed bytes, the dump ' + expectedBytes);
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
  if (compression === 'zstd') return zstdAgainst(walkZstd(reader), expectedBytes);
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

module.exports = { firstBlocksFrame: firstBlocksFrame, walkZstd: walkZstd, startZstd: startZstd, feedZstd: feedZstd, zstdAgainst: zstdAgainst, checkGzip: checkGzip, checkStructure: checkStructure, bytesReader: bytesReader,
  windowReader: windowReader };
