'use strict';
// The structural check of compressed data files (lib/dump/zstd-frames.js) over real zstd and
// gzip output: the sample dump's chunks (written by MySQL Shell) and files made by the zstd tool
// and Node's zlib, whole, truncated and with garbage. No Shell, no server.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const frames = require('../../lib/dump/zstd-frames.js');
const { skipBecause } = require('../support/real');

const SHOP = path.join(__dirname, '..', '..', 'sample-dumps', 'shop');
const chunks = fs.readdirSync(SHOP).filter((n) => n.endsWith('.tsv.zst')).map((n) => path.join(SHOP, n));

function check(buf, compression = 'zstd', expected = null) {
  return frames.checkStructure(frames.bytesReader(new Uint8Array(buf)), compression, expected);
}

function zstdTool(input, args = []) {
  const r = spawnSync('zstd', ['-c', '-q', ...args], { input });
  if (r.status !== 0) return null;
  return r.stdout;
}

describe('zstd-frames: structural check without decompressing', function () {
  it('accepts every chunk of the sample dump (written by MySQL Shell) and the empty stub', function () {
    expect(chunks.length).to.be.greaterThan(10);
    for (const c of chunks) {
      const r = check(fs.readFileSync(c));
      expect(r.ok, c + ': ' + r.problem).to.equal(true);
      expect(r.blocks).to.be.greaterThan(0);
    }
    expect(check(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00])).ok).to.equal(true);
  });

  it('finds every truncation of a real chunk, at any length', function () {
    const buf = fs.readFileSync(chunks.find((c) => /orders@0\./.test(c)));
    for (let n = 0; n < buf.length; n += Math.max(1, Math.floor(buf.length / 200))) {
      const r = check(buf.subarray(0, n));
      expect(r.ok, 'truncated to ' + n).to.equal(false);
      expect(r.problem).to.be.a('string');
    }
    expect(check(buf.subarray(0, 40)).problem).to.match(/truncated/);
  });

  it('finds garbage after a valid frame header, and after the last frame', function () {
    const buf = Buffer.from(fs.readFileSync(chunks[0]));
    const garbage = Buffer.concat([buf.subarray(0, 6), Buffer.alloc(4000, 0xab)]);
    expect(check(garbage).ok).to.equal(false);
    const tail = Buffer.concat([buf, Buffer.from('not zstd')]);
    expect(check(tail).problem).to.match(/garbage after frame 1/);
    expect(check(Buffer.from('plain text, not zstd at all')).problem).to.match(/not zstd data/);
    expect(check(Buffer.alloc(0)).ok).to.equal(false);
  });

  it('walks multi-frame files, skippable frames, checksums and content sizes made by the zstd tool', function () {
    const data = Buffer.alloc(300000);
    for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
    const one = zstdTool(data, ['--check', '--stream-size=' + data.length]);
    if (!one) skipBecause(this, 'they need the zstd program');
    const two = Buffer.concat([one, zstdTool(Buffer.from('x'.repeat(1000)), ['--no-check', '--stream-size=1000'])]);
    const skippable = Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]), two]);
    const r = check(skippable);
    expect(r.ok, r.problem).to.equal(true);
    expect(r.frames).to.equal(2);
    expect(r.blocks).to.be.greaterThan(2);
    expect(r.contentBytes).to.equal(301000); // --stream-size makes the tool record each frame's content size
    expect(check(zstdTool(data)).contentBytes).to.equal(null); // streamed without it: not recorded
    expect(check(skippable, 'zstd', 301000).ok).to.equal(true);
    expect(check(skippable, 'zstd', 302000).problem).to.match(/record 301000/);
    expect(check(one.subarray(0, one.length - 2)).problem).to.match(/checksum|truncated/);
    expect(check(skippable.subarray(0, 9)).problem).to.match(/skippable/);
  });

  it('reads a big file through a window reader with few reads', function () {
    const data = Buffer.alloc(3 * 1024 * 1024);
    for (let i = 0; i < data.length; i++) data[i] = (i * 31) % 253;
    const z = zstdTool(data, ['-1']);
    if (!z) skipBecause(this, 'they need the zstd program');
    let calls = 0;
    const reader = frames.windowReader((off, len) => { calls++; return new Uint8Array(z.subarray(off, off + len)); }, z.length, 64 * 1024);
    const r = frames.walkZstd(reader);
    expect(r.ok, r.problem).to.equal(true);
    expect(calls).to.be.below(Math.ceil(z.length / (64 * 1024)) * 2 + 4);
  });

  it('checks gzip header, length and trailer size', function () {
    const data = Buffer.from('a\tb\n'.repeat(5000));
    const gz = zlib.gzipSync(data);
    expect(check(gz, 'gzip').ok).to.equal(true);
    expect(check(gz, 'gzip', data.length).ok).to.equal(true);
    expect(check(gz.subarray(0, gz.length - 100), 'gzip', data.length).ok).to.equal(false);
    expect(check(gz.subarray(0, 12), 'gzip').problem).to.match(/truncated/);
    expect(check(Buffer.from('not gzip at all, really'), 'gzip').problem).to.match(/not gzip/);
    expect(check(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff, 0x03, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]), 'gzip', 0).ok)
      .to.equal(true);
  });
});
