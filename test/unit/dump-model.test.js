'use strict';
// The dump model (lib/dump/: catalog, chunk lists, states) under plain Node, on dumps held in
// memory by test/support/fake-host.js: the committed sample dump is copied in, never read in place
// by a load, and every case changes its own copy.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const { readDumpModel } = require('../../lib/dump/dump-model.js');
const { readCatalog } = require('../../lib/dump/dump-catalog.js');
const { buildChunkLists, parseListing } = require('../../lib/dump/chunk-list.js');
const chunkTable = require('../../lib/dump/chunk-table.js');
const metadata = require('../../lib/dump/dump-metadata.js');

// The sample dump's copy at /d, a target of a model and its chunks' states (shared with chunk-survey.test.js).
const { sampleHost, targetOf: target, statesOf: states } = require('../support/sample-dump.js');

describe('dump catalog (lib/dump/dump-catalog.js)', function () {
  function catalogOf(host) {
    const pathOf = (n) => '/d/' + n;
    const root = metadata.readJsonFile(host, pathOf('@.json'));
    return readCatalog({ host, pathOf, root, done: metadata.doneFacts(null), exists: (n) => host.files.isFile(pathOf(n)) });
  }

  it('lists schemas, tables and one target per partition, with base names from the basenames maps', function () {
    const c = catalogOf(sampleHost());
    expect(c.schemas.map((s) => s.schema)).to.deep.equal(['shop']);
    expect(c.tables.map((t) => t.table).sort()).to.deep.equal(['audit_log', 'customers', 'events', 'order items', 'orders', 'products']);
    expect(c.tables.find((t) => t.table === 'order items').basename).to.equal('shop@order%20items');
    const events = c.targets.filter((t) => t.table === 'events').map((t) => t.partition);
    expect(events).to.deep.equal(['p2026_01', 'p2026_02', 'p2026_03', 'pmax']);
    expect(c.problems).to.deep.equal([]);
  });

  it('reports a table whose metadata file is missing, naming the file', function () {
    const host = sampleHost();
    host.files.remove(['/d/shop@products.json']);
    const c = catalogOf(host);
    expect(c.problems.map((p) => p.file)).to.include('shop@products.json');
  });
});

describe('chunk lists (lib/dump/chunk-list.js)', function () {
  it('takes each table\'s chunks from chunkFileBytes in @.done.json, last chunk known', function () {
    const m = readDumpModel(sampleHost(), '/d', {});
    const orders = target(m, 'orders');
    expect(orders.chunkSource).to.equal('chunkFileBytes');
    expect(orders.lastChunkKnown).to.equal(true);
    expect(orders.chunks.length).to.equal(12);
    expect(chunkTable.fileOf(orders.chunks, 11)).to.equal('shop@orders@@11.tsv.zst');
  });

  it('without chunkFileBytes, finds them from the files present, and says when the last one is unknown', function () {
    const host = sampleHost();
    const done = JSON.parse(host.fs.text('/d/@.done.json'));
    delete done.chunkFileBytes;
    host.fs.put('/d/@.done.json', JSON.stringify(done));
    host.files.remove(['/d/shop@orders@@11.tsv.zst', '/d/shop@orders@@11.tsv.zst.idx']);
    const m = readDumpModel(host, '/d', {});
    const orders = target(m, 'orders');
    expect(orders.chunkSource).to.equal('files');
    expect(orders.lastChunkKnown).to.equal(false);
    expect(m.problems.map((p) => p.code)).to.include.members(['last-chunk-unknown']);
  });

  it('a listing of the complete dump supplies what is not present, named as the dump names it', function () {
    expect(parseListing('-rw-r--r-- 1 u g 10 Jan 1 00:00 shop@orders@@11.tsv.zst\nsub/shop@orders@3.tsv.zst\n\n'))
      .to.deep.equal(['shop@orders@@11.tsv.zst', 'shop@orders@3.tsv.zst']);
    const targets = [{ schema: 's', table: 't', partition: null, base: 's@t', ext: 'tsv.zst', chunking: true, includesData: true,
      info: { dataBytes: null } }];
    buildChunkLists(targets, { chunkList: null, fileNames: ['s@t@0.tsv.zst'], listingNames: ['s@t@0.tsv.zst', 's@t@1.tsv.zst', 's@t@@2.tsv.zst'] });
    expect(targets[0].chunkSource).to.equal('files+listing');
    expect(targets[0].lastChunkKnown).to.equal(true);
    expect(targets[0].chunks.length).to.equal(3);
  });
});

describe('dump model (lib/dump/dump-model.js)', function () {
  it('reads the sample dump as complete and loadable, every chunk present', function () {
    const m = readDumpModel(sampleHost(), '/d', {});
    expect(m.format).to.equal('2.0.1');
    expect(m.complete).to.equal(true);
    expect(m.loadable).to.equal(true);
    expect(m.problems).to.deep.equal([]);
    expect(states(target(m, 'orders')).every((s) => s === 'present')).to.equal(true);
  });

  it('finds a missing chunk, a stub (an empty zstd frame) and a truncated zstd file, and says the dump does not load', function () {
    const host = sampleHost();
    host.files.remove(['/d/shop@orders@3.tsv.zst']);
    host.fs.put('/d/shop@orders@4.tsv.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00])); // stub-writer.js's
    const raw = host.files.readRanges([{ path: '/d/shop@orders@5.tsv.zst', offset: 0, length: 1 << 20 }])[0];
    host.fs.put('/d/shop@orders@5.tsv.zst', Buffer.from(raw).subarray(0, Math.floor(raw.byteLength / 2)));
    const m = readDumpModel(host, '/d', {});
    const s = states(target(m, 'orders'));
    expect(s[3]).to.equal('missing');
    expect(s[5]).to.equal('corrupt');
    expect(s[4]).to.equal('stub');
    expect(m.loadable).to.equal(false);
  });

  it('a dump without @.done.json is incomplete, and not loadable', function () {
    const host = sampleHost();
    host.files.remove(['/d/@.done.json']);
    const m = readDumpModel(host, '/d', {});
    expect(m.complete).to.equal(false);
    expect(m.loadable).to.equal(false);
  });

  // restore.inspect's way: chunk files left out of the listing, looked up as runs of numbers.
  const RUNS = { chunksInFiles: false };

  function damaged() {
    const host = sampleHost();
    host.files.remove(['/d/shop@orders@3.tsv.zst']);
    host.fs.put('/d/shop@orders@4.tsv.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]));
    const raw = host.fs.bytes('/d/shop@orders@5.tsv.zst');
    host.fs.put('/d/shop@orders@5.tsv.zst', raw.subarray(0, Math.floor(raw.length / 2)));
    return host;
  }

  it('with chunk files left out of the listing (inspect), sizes, states and problems are those of the full listing', function () {
    const listed = readDumpModel(damaged(), '/d', {});
    const host = damaged();
    const byRuns = readDumpModel(host, '/d', RUNS);
    expect(byRuns.targets.length).to.equal(listed.targets.length);
    byRuns.targets.forEach((t, k) => {
      const u = listed.targets[k];
      expect(states(t), t.table).to.deep.equal(states(u));
      for (let i = 0; i < t.chunks.length; i++) {
        expect(chunkTable.fileBytesOf(t.chunks, i)).to.equal(chunkTable.fileBytesOf(u.chunks, i));
      }
    });
    expect(byRuns.problems).to.deep.equal(listed.problems);
    expect(Array.from(byRuns.files.keys()).filter((n) => /@@?\d+\.tsv\.zst$/.test(n))).to.deep.equal([]);
    expect(host.log.filter((e) => e[0] === 'files.list')).to.have.length(1);
  });

  it('a chunk-like file no chunk list names (a leftover of another dump) is still reported without chunk files listed', function () {
    const host = sampleHost();
    host.fs.put('/d/old@t@0.tsv.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]));
    const m = readDumpModel(host, '/d', RUNS);
    expect(m.problems.map((p) => p.code)).to.include('unlisted-files');
    expect(m.problems.find((p) => p.code === 'unlisted-files').file).to.equal('old@t@0.tsv.zst');
  });

  // A zstd frame of one raw block (no content size, a 16 KiB window): valid, its bytes chosen here.
  function rawFrame(payload) {
    const block = (payload.length << 3) | 1;
    return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x20, block & 0xff, (block >> 8) & 0xff, block >> 16]), payload]);
  }

  function withChunks(frames) {
    const host = sampleHost();
    const done = JSON.parse(host.fs.text('/d/@.done.json'));
    Object.keys(frames).forEach((i) => {
      host.fs.put('/d/shop@orders@' + i + '.tsv.zst', rawFrame(frames[i]));
      done.chunkFileBytes['shop@orders@' + i + '.tsv.zst'] = frames[i].length;
    });
    host.fs.put('/d/@.done.json', JSON.stringify(done));
    return host;
  }

  function copies(m) {
    const ct = target(m, 'orders').chunks;
    const out = [];
    for (let i = 0; i < ct.length; i++) if (chunkTable.isCopy(ct, i)) out.push(i);
    return out;
  }

  it('finds chunks copied over each other, small (settled by their first bytes) or large (read again), and no others', function () {
    const small = Buffer.from('1\tsame row\n');
    const big = Buffer.alloc(5000, 'x');
    const bigOther = Buffer.from(big);
    bigOther[4000] = 0x79; // same size, same first bytes: differs further in
    const smallOther = Buffer.from('1\tsome row\n'); // same size, other bytes
    for (const options of [{}, RUNS]) {
      expect(copies(readDumpModel(withChunks({ 1: small, 2: small, 3: smallOther }), '/d', options))).to.deep.equal([1, 2]);
      expect(copies(readDumpModel(withChunks({ 1: big, 2: bigOther, 3: big }), '/d', options))).to.deep.equal([1, 3]);
    }
    const m = readDumpModel(withChunks({ 1: big, 2: big }), '/d', RUNS);
    expect(chunkTable.problemOf(target(m, 'orders').chunks, 1)).to.match(/same size and first 5009 bytes as shop@orders@2\.tsv\.zst/);
    expect(m.loadable).to.equal(false);
  });

  it('read again with metadataFrom (a remote dump once its chunks are fetched): no metadata file is read again, the data files are', function () {
    const host = sampleHost();
    host.files.remove(['/d/shop@orders@3.tsv.zst']);
    const first = readDumpModel(host, '/d', { schemaDocuments: true });
    expect(states(target(first, 'orders'))[3]).to.equal('missing');
    host.fs.put('/d/shop@orders@3.tsv.zst', require('fs').readFileSync(require('path').join(__dirname, '..', '..',
      'sample-dumps', 'shop', 'shop@orders@3.tsv.zst')));
    const before = host.calls('files.loadText').length;
    const again = readDumpModel(host, '/d', { metadataFrom: first });
    expect(host.calls('files.loadText').slice(before), 'files read as text').to.deep.equal([]);
    expect(states(target(again, 'orders'))[3], 'the data file fetched meanwhile').to.equal('present');
    expect(again.loadable).to.equal(true);
    expect(again.tables.map((t) => t.table)).to.deep.equal(first.tables.map((t) => t.table));
    expect(again.rootJson).to.equal(first.rootJson);
    expect(target(again, 'orders').chunks, 'a chunk table of its own').to.not.equal(target(first, 'orders').chunks);
    expect(states(target(first, 'orders'))[3], 'the earlier model unchanged').to.equal('missing');
  });

  it('refuses a directory that is not a dump, saying which file is missing', function () {
    const host = fakeHost({ files: { '/x/readme.txt': 'hi' } });
    expect(() => readDumpModel(host, '/x', {})).to.throw(/@\.json/);
  });
});

describe('collections asked between the phases of a big read (lib/core/memory.js)', function () {
  // A dump of n one-chunk tables in one schema, in memory; the host counts collectGarbage calls.
  function manyTables(n) {
    const tables = Array.from({ length: n }, (_, i) => 't' + i);
    const files = {
      '/d/@.json': JSON.stringify({ version: '2.0.1', schemas: ['s'], basenames: { s: 's' } }),
      '/d/@.sql': '', '/d/@.post.sql': '', '/d/s.sql': '',
      '/d/s.json': JSON.stringify({ tables, basenames: Object.fromEntries(tables.map((t) => [t, 's@' + t])) }),
      '/d/@.done.json': JSON.stringify({ dataBytes: n, chunkFileBytes: Object.fromEntries(tables.map((t) => ['s@' + t + '@@0.tsv', 1])),
        tableDataBytes: { s: Object.fromEntries(tables.map((t) => [t, 1])) } }),
    };
    tables.forEach((t) => {
      files['/d/s@' + t + '.json'] = JSON.stringify({ options: { columns: ['id'] }, extension: 'tsv', chunking: true, primaryIndex: ['id'] });
      files['/d/s@' + t + '.sql'] = '';
      files['/d/s@' + t + '@@0.tsv'] = '1\n';
    });
    let calls = 0;
    const host = fakeHost({ files, shell: { collectGarbage: () => { calls++; } } });
    return { host, calls: () => calls };
  }

  it('asks the host to collect on a dump of many tables, and not on a small one', function () {
    this.timeout(20000);
    const big = manyTables(6000);
    const model = readDumpModel(big.host, '/d', { chunksInFiles: false });
    expect(model.targets).to.have.length(6000);
    expect(model.loadable).to.equal(true);
    expect(big.calls()).to.equal(4); // after the listing, the catalog, the chunk lists and the survey
    const small = manyTables(50);
    readDumpModel(small.host, '/d', { chunksInFiles: false });
    expect(small.calls()).to.equal(0);
  });
});

describe('documents the model lets go (lib/dump/dump-catalog.js)', function () {
  const { renamedFiles } = require('../../lib/rename/renamed-files.js');
  const { parseSelection } = require('../../lib/partial/selection.js');
  const spec = { pairs: [{ from: 'shop', to: 'shop2' }], rename: (s) => (s === 'shop' ? 'shop2' : null), definers: { mode: 'keep' } };
  const rewritten = (model) => renamedFiles(sampleHost(), model, spec, parseSelection({})).files
    .filter((f) => f.name.endsWith('.json')).map((f) => [f.name, JSON.parse(f.data)]);

  it('keeps a schema JSON only when asked; schemaMap rewrites the same files from a model that let them go', function () {
    const lean = readDumpModel(sampleHost(), '/d');
    expect(lean.schemas[0].json, 'not kept').to.equal(null);
    expect(lean.schemas[0].found).to.equal(true);
    const kept = readDumpModel(sampleHost(), '/d', { tableDocuments: true });
    expect(kept.schemas[0].json.schema).to.equal('shop');
    const files = rewritten(lean);
    expect(files.find((f) => f[0] === 'shop.json')[1].schema).to.equal('shop2');
    expect(files).to.deep.equal(rewritten(kept));
  });

  it('targets answer their table\'s names and settings, and a partition its own base name', function () {
    const model = readDumpModel(sampleHost(), '/d');
    const t = model.targets.find((x) => x.table === 'orders');
    expect([t.schema, t.partition, t.base, t.ext, t.compression, t.chunking, t.includesData, t.primaryIndex])
      .to.deep.equal(['shop', null, t.info.basename, 'tsv.zst', 'zstd', true, true, ['id']]);
    expect(t.info.metadataFile).to.equal(t.info.basename + '.json');
    const p = model.targets.filter((x) => x.partition !== null);
    expect(p.length, 'the sample has a partitioned table').to.be.above(1);
    p.forEach((x) => expect(x.base).to.equal(x.info.basename + '@' + x.partition));
  });
});
