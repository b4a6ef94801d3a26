'use strict';
// Cost of the default structural check (lib/dump/zstd-frames.js) of every data file: the sample
// dump's chunks, then a generated set of bigger zstd chunk files. Reports the time to read the
// files alone and to read + walk them (through a 1 MiB window reader, as the host would).
// Usage: node bench/zstd-frames-bench.js [files=100] [MiB per file=8]
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const frames = require('../lib/dump/zstd-frames.js');

const count = Number(process.argv[2] || 100);
const mib = Number(process.argv[3] || 8);

function reader(file) {
  const fd = fs.openSync(file, 'r');
  const size = fs.fstatSync(fd).size;
  const r = frames.windowReader((off, len) => {
    const b = Buffer.alloc(Math.min(len, size - off));
    fs.readSync(fd, b, 0, b.length, off);
    return new Uint8Array(b.buffer, b.byteOffset, b.length);
  }, size, 1024 * 1024);
  return { r, close: () => fs.closeSync(fd), size };
}

function measure(label, files) {
  let bytes = 0;
  let t = process.hrtime.bigint();
  for (const f of files) bytes += fs.readFileSync(f).length;
  const readMs = Number(process.hrtime.bigint() - t) / 1e6;
  t = process.hrtime.bigint();
  let blocks = 0;
  let bad = 0;
  for (const f of files) {
    const x = reader(f);
    const res = frames.walkZstd(x.r);
    x.close();
    blocks += res.blocks;
    if (!res.ok) bad++;
  }
  const walkMs = Number(process.hrtime.bigint() - t) / 1e6;
  console.log(`${label}: ${files.length} files, ${(bytes / 1048576).toFixed(1)} MiB, ${blocks} blocks; ` +
    `read only ${readMs.toFixed(1)} ms, read+walk ${walkMs.toFixed(1)} ms (${(bytes / 1048576 / (walkMs / 1000)).toFixed(0)} MiB/s), ${bad} bad`);
}

const shop = path.join(__dirname, '..', 'sample-dumps', 'shop');
measure('sample dump', fs.readdirSync(shop).filter((n) => n.endsWith('.zst')).map((n) => path.join(shop, n)));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zstd-bench-'));
try {
  const raw = path.join(dir, 'raw');
  // Random digits and tabs: compresses about 2:1, like numeric TSV chunks.
  const data = require('crypto').randomBytes(mib * 1048576 * 2);
  for (let i = 0; i < data.length; i++) data[i] = data[i] < 26 ? 9 : 48 + (data[i] % 10);
  fs.writeFileSync(raw, data);
  const first = path.join(dir, 'shop@big@0.tsv.zst');
  const z = spawnSync('zstd', ['-q', '-1', '-o', first, raw]);
  if (z.status !== 0) throw new Error('zstd tool failed: ' + z.stderr);
  const files = [first];
  for (let i = 1; i < count; i++) {
    const f = path.join(dir, `shop@big@${i}.tsv.zst`);
    fs.copyFileSync(first, f);
    files.push(f);
  }
  measure(`generated (${count} x ${(fs.statSync(first).size / 1048576).toFixed(1)} MiB zstd)`, files);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
