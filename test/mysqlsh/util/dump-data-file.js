'use strict';
// One data file of a dump and its `.idx`: rows are collected uncompressed, then compressed as a
// whole (zstd through the zstd CLI, gzip through zlib), written under `<name>.dumping` and renamed,
// as the Shell does. The `.idx` holds 8-byte big-endian uncompressed offsets: one each time the
// stream passes another MiB (at a row end), then the total (an empty file's `.idx` is 8 zero bytes).
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { execFileSync } = require('child_process');

const MIB = 1024 * 1024;
// The frame the Shell writes for an empty chunk (no content checksum).
const EMPTY_ZSTD_FRAME = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);

function compress(data, compression, level) {
  if (compression === 'none') return data;
  if (compression === 'gzip') return zlib.gzipSync(data, level === null ? {} : { level });
  if (!data.length) return EMPTY_ZSTD_FRAME;
  // Read from stdin with --no-check: the frame header the Shell's own writer produces.
  return execFileSync('zstd', ['-q', '-c', '--no-check', `-${level === null ? 1 : level}`],
    { input: data, maxBuffer: data.length + 64 * MIB });
}

function indexFile(offsets, total) {
  const all = offsets.concat([total]);
  const buf = Buffer.alloc(8 * all.length);
  all.forEach((v, i) => buf.writeBigUInt64BE(BigInt(v), 8 * i));
  return buf;
}

class DataFile {
  constructor(dir, name, { compression, level, encoding = 'utf8' }) {
    this.dir = dir;
    this.name = name;
    this.encoding = encoding;
    this.compression = compression;
    this.level = level;
    this.parts = [];
    this.bytes = 0;
    this.rows = 0;
    this.offsets = [];
    this.nextMark = MIB;
  }

  addRow(line) {
    const b = Buffer.from(line, this.encoding);
    this.parts.push(b);
    this.bytes += b.length;
    this.rows++;
    if (this.bytes >= this.nextMark) {
      this.offsets.push(this.bytes);
      this.nextMark = (Math.floor(this.bytes / MIB) + 1) * MIB;
    }
  }

  // Writes the file and its .idx; returns {name, dataBytes, fileBytes, rows}.
  finish() {
    const body = compress(Buffer.concat(this.parts), this.compression, this.level);
    const target = path.join(this.dir, this.name);
    fs.writeFileSync(`${target}.dumping`, body);
    fs.renameSync(`${target}.dumping`, target);
    fs.writeFileSync(`${target}.idx`, indexFile(this.offsets, this.bytes));
    this.parts = [];
    return { name: this.name, dataBytes: this.bytes, fileBytes: body.length, rows: this.rows };
  }
}

module.exports = { DataFile, EMPTY_ZSTD_FRAME, compress };
