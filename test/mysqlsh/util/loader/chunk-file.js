'use strict';
// One data file as the loader reads it: its uncompressed size (for progress and the summary) and
// whether its compression frames can be read (loader-internals §2.2 b-d).
const fs = require('fs');
const { spawnSync } = require('child_process');

const ZSTD_MAGIC = 0xfd2fb528;
// Skippable frames: 0x184D2A50 … 0x184D2A5F.
const isSkippableMagic = (m) => (m & 0xfffffff0) === 0x184d2a50;

// Uncompressed size: chunkFileBytes when it has the file, else the last entry of `<file>.idx`
// (missing or malformed .idx → 0).
function uncompressedSize(fullPath, fileName, chunkFileBytes) {
  if (chunkFileBytes && Object.prototype.hasOwnProperty.call(chunkFileBytes, fileName)) {
    return Number(chunkFileBytes[fileName]) || 0;
  }
  try {
    const idx = fs.readFileSync(`${fullPath}.idx`);
    if (idx.length < 8 || idx.length % 8) return 0;
    return Number(idx.readBigUInt64BE(idx.length - 8));
  } catch (e) {
    return 0;
  }
}

// Returns null when the file can be read with its compression, else the reader's error text.
// A zero-length file and a valid empty frame read as no data; a truncated frame is not detected
// by the Shell (it loads what decompresses), so only a bad frame header or corrupt content fail.
function readProblem(fullPath, compression) {
  if (compression !== 'zstd') return null;
  const fd = fs.openSync(fullPath, 'r');
  let head;
  let size;
  try {
    size = fs.fstatSync(fd).size;
    head = Buffer.alloc(Math.min(4, size));
    fs.readSync(fd, head, 0, head.length, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (size === 0) return null;
  const magic = head.length === 4 ? head.readUInt32LE(0) : -1;
  if (magic !== ZSTD_MAGIC && !isSkippableMagic(magic)) return 'zstd.read: Unknown frame descriptor';
  const test = spawnSync('zstd', ['-t', '-q', fullPath], { encoding: 'utf8' });
  if (test.status === 0) return null;
  const reason = String(test.stderr || '').split(fullPath).join('').replace(/^(zstd:)?\s*:?\s*/, '').trim();
  if (/premature end|unexpected end of file|truncated/i.test(reason)) return null;
  return `zstd.read: ${reason || 'Data corruption detected'}`;
}

module.exports = { uncompressedSize, readProblem };
