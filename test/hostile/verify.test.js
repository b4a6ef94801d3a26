'use strict';
// Class 4 of issue 12, the honest verdict, in the real Shell: the default structural check stops
// a load on a truncated file before anything changes; verify: true decompresses every data file
// with the real decoders (the zstd program, zlib) and finds what the structure cannot show — a
// file cut exactly between two frames (the Shell's reader loads it short of rows without a word)
// and a gzip member whose CRC does not match. Refusals leave the sandbox and the server unchanged.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { expect } = require('chai');
const { cli, runJs, tempDir } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { sandboxHooks, expectRefused } = require('./hostile-helpers');

// Replaces a zstd data file by one frame holding only its first `keep` bytes of data: a whole,
// valid file, cut between frames as a copy that stopped at a frame boundary would be.
function cutBetweenFrames(file, keep) {
  const data = execFileSync('zstd', ['-dcq', file]);
  fs.writeFileSync(file, execFileSync('zstd', ['-qc'], { input: data.subarray(0, keep) }));
  return data.length;
}

describe('hostile 4: the structural check and verify: true', function () {
  const t = sandboxHooks();
  let server;
  let sb;
  beforeEach(function () { ({ server, sb } = t); });

  it('a truncated data file stops a full load with dropExisting before anything is dropped or changed', async function () {
    const first = cli(server.uri, ['load', sb.dump, '--preset=fastest'], { configHome: sb.home });
    expect(first.status, first.out).to.equal(0);
    const rows = await server.value('SELECT COUNT(*) FROM shop.orders');
    fs.truncateSync(path.join(sb.dump, 'shop@orders@4.tsv.zst'), 40);
    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const r = cli(server.uri, ['load', sb.dump, '--preset=fastest', '--drop-existing', '--force'], { configHome: sb.home });
    expectRefused(r, [/The load cannot be planned/, /shop@orders@4\.tsv\.zst \(shop\.orders\) is corrupt \(truncated block/,
      /Nothing was changed/], sb, before);
    expect(await server.value('SELECT COUNT(*) FROM shop.orders')).to.equal(rows);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
  });

  it('a chunk copied over another (a botched rsync): found by the default check, the load refused before anything changes', async function () {
    // util.loadDump loads chunks with LOAD DATA … REPLACE: the copy would load chunk 3's rows twice
    // and chunk 5's not at all, as a valid zstd file.
    fs.copyFileSync(path.join(sb.dump, 'shop@orders@3.tsv.zst'), path.join(sb.dump, 'shop@orders@5.tsv.zst'));
    const r = cli(null, ['inspect', sb.dump], { configHome: sb.home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/shop\.orders: 2 of \d+ data files \(chunks 3, 5; first shop@orders@3\.tsv\.zst\) look like copies of each other \(shop@orders@3\.tsv\.zst has the same size and first \d+ bytes as shop@orders@5\.tsv\.zst/)
      .and.match(/Verdict: util\.loadDump would fail or load fewer rows: 2 data file\(s\) corrupt\./);
    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const load = cli(server.uri, ['load', sb.dump, '--preset=fastest'], { configHome: sb.home });
    expectRefused(load, [/shop@orders@5\.tsv\.zst \(shop\.orders\) is corrupt \(has the same size and first \d+ bytes as shop@orders@3\.tsv\.zst: a copy of another chunk/,
      /Nothing was changed/], sb, before);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    // With verify, its decompressed size differs from what chunkFileBytes records for chunk 5.
    const verified = cli(null, ['inspect', sb.dump, '--verify'], { configHome: sb.home });
    expect(verified.out).to.match(/shop@orders@5\.tsv\.zst/).and.match(/util\.loadDump would fail or load fewer rows/);
  });

  it('a zstd file cut between two frames: unseen by the structure, found by verify; the load is refused', async function () {
    const file = path.join(sb.dump, 'shop@orders@2.tsv.zst');
    const recorded = cutBetweenFrames(file, 40000);
    const plain = cli(null, ['inspect', sb.dump], { configHome: sb.home });
    expect(plain.status, plain.out).to.equal(0);
    expect(plain.out).to.match(/Checked: +frame and block headers only \(verify: true decompresses every file\)/)
      .and.match(/Verdict: util\.loadDump would load this dump\./); // the documented limit of the default check

    const verified = cli(null, ['inspect', sb.dump, '--verify'], { configHome: sb.home });
    expect(verified.status, verified.out).to.equal(0);
    expect(verified.out).to.match(/Checked: +decompressed in full: 20 file\(s\)/)
      .and.match(new RegExp(`shop@orders@2\\.tsv\\.zst: decompresses to 40000 bytes where the dump recorded ${recorded}: data is missing`))
      .and.match(/Verdict: util\.loadDump would fail or load fewer rows: 1 data file\(s\) corrupt\./);
    const facts = JSON.parse(cli(null, ['inspect', sb.dump, '--verify', '--output-format=json'], { configHome: sb.home }).stdout);
    expect(facts.dataCheck).to.deep.include({ method: 'decompressed', files: 20 });
    expect(facts.tables.find((t) => t.table === 'orders').states.corrupt).to.equal('2');

    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const r = cli(server.uri, ['load', sb.dump, '--preset=fastest', '--verify'], { configHome: sb.home });
    expectRefused(r, [/shop@orders@2\.tsv\.zst \(shop\.orders\) is corrupt \(decompresses to 40000 bytes/, /Nothing was changed/], sb, before);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
  });

  it('verify on an intact dump finds nothing, and the verified load loads every row', async function () {
    const r = cli(server.uri, ['load', sb.dump, '--verify'], { configHome: sb.home });
    expect(r.status, r.out).to.equal(0);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(12000);
  });

  it('verify without the zstd program says what to install; nothing else is touched', function () {
    // Every program of this PATH but zstd's.
    const bin = tempDir('restore-path-');
    for (const dir of process.env.PATH.split(':').filter((d) => fs.existsSync(d))) {
      for (const tool of fs.readdirSync(dir)) {
        if (!/zstd/.test(tool) && !fs.existsSync(path.join(bin, tool))) fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
      }
    }
    const before = sb.hash();
    const r = cli(null, ['inspect', sb.dump, '--verify'], { configHome: sb.home, env: { PATH: bin } });
    expectRefused(r, [/verify needs the zstd program to decompress zstd data files, and it is not on PATH/,
      /apt-get install zstd/], sb, before);
  });
});

describe('hostile 4: verify: true on a gzip dump made by the real util.dumpSchemas', function () {
  const t = sandboxHooks();

  it('a member whose CRC does not match passes the structural check and is found by verify', async function () {
    const { server, sb } = t;
    expect(cli(server.uri, ['load', sb.dump, '--preset=fastest'], { configHome: sb.home }).status).to.equal(0);
    const dir = path.join(tempDir('restore-gzip-'), 'gz');
    const d = await withShellDumper(server, () => runJs(server.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(dir)}, ` +
      "{compression: 'gzip', bytesPerChunk: '128k', showProgress: false}); null", { configHome: sb.home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const name = fs.readdirSync(dir).filter((f) => /^shop@orders@.*\.tsv\.gz$/.test(f)).sort()[1];
    const file = path.join(dir, name);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 6] ^= 0xff; // inside the member's CRC32 trailer
    fs.writeFileSync(file, bytes);

    const plain = cli(null, ['inspect', dir], { configHome: sb.home });
    expect(plain.out).to.match(/Verdict: util\.loadDump would load this dump\./);
    const verified = cli(null, ['inspect', dir, '--verify'], { configHome: sb.home });
    expect(verified.status, verified.out).to.equal(0);
    expect(verified.out).to.include(`${name}: gzip: incorrect data check`)
      .and.match(/Verdict: util\.loadDump would fail or load fewer rows: 1 data file\(s\) corrupt\./);
  });
});
