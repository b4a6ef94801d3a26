'use strict';
// since (lib/options/since-spec.js, lib/dump/chunk-heads.js, lib/partial/since-boundary.js) on the
// fake host: the option's forms and refusals, a chunk's first row from the first zstd block of a
// real chunk (the real zstd program decodes it), and the bisection on the sample dump (12 chunks
// of shop.orders, written by MySQL Shell): the boundary chunk is right for every point, at most
// ceil(log2(12)) + 2 heads are read, and a column that does not grow with the key is refused.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
// The facts as a script gets them (outputFormat "none"): lists made at printing are arrays.
const { materialized } = require('../../lib/format/output.js');
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const { chunkRows } = require('../support/dump-facts');
const sinceSpec = require('../../lib/options/since-spec.js');
const selection = require('../../lib/partial/selection.js');
const zstdFrames = require('../../lib/dump/zstd-frames.js');
const chunkHeads = require('../../lib/dump/chunk-heads.js');
const planCommand = require('../../lib/commands/plan.js').planCommand;

const SHOP = path.resolve(__dirname, '..', '..', 'sample-dumps', 'shop');
const HAVE_ZSTD = spawnSync('sh', ['-c', 'command -v zstd'], { stdio: 'ignore' }).status === 0;

function ordersChunks() {
  const files = fs.readdirSync(SHOP).filter((f) => /^shop@orders@@?\d+\.tsv\.zst$/.test(f));
  return files.sort((a, b) => Number(/(\d+)\.tsv/.exec(a)[1]) - Number(/(\d+)\.tsv/.exec(b)[1]));
}

function planOf(options, change) {
  const host = fakeHost({ mount: { '/d': 'sample-dumps/shop' } });
  if (change) change(host);
  const r = planCommand(host, '/d', Object.assign({ outputFormat: 'none' }, options));
  return { facts: r, host, text: host.printed.join('\n') };
}

describe('since: the option, chunk heads and the bisection (fake host)', function () {
  it('reads the option as a dictionary and as command-line text (a time keeps its colons), with durations and numbers', function () {
    const r = sinceSpec.parseSince('shop.orders.created_at:2026-10-25 7:05,`my db`.`t:x`.c:30d,shop.events.id:182000000');
    expect(r.map((x) => [x.schema, x.table, x.column, x.value.kind])).to.deep.equal([
      ['shop', 'orders', 'created_at', 'time'], ['my db', 't:x', 'c', 'duration'], ['shop', 'events', 'id', 'number']]);
    expect(r[0].value.time).to.equal('2026-10-25 07:05:00');
    expect(r[1].value.seconds).to.equal(30 * 86400);
    expect(sinceSpec.parseSince({ 'shop.orders.at': '12h', 'shop.x.at': '2 weeks', 'shop.y.d': '2026-02-28' })
      .map((x) => x.value.seconds || x.value.time)).to.deep.equal([43200, 1209600, '2026-02-28 00:00:00']);
    expect(sinceSpec.timeMinus('2026-11-24 01:00:00', 30 * 86400)).to.equal('2026-10-25 01:00:00');
    expect(sinceSpec.epochOf('2026-01-01 00:00:00')).to.equal('1767225600');
  });

  it('refuses what does not parse, with what to write', function () {
    const bad = [
      [{ 'shop.orders.created_at': 'last month' }, /"last month" does not parse: give/],
      [{ 'shop.orders.created_at': '3 months' }, /"3 months" has an unknown unit "months"/],
      [{ 'shop.orders.created_at': '2026-02-30' }, /"2026-02-30" does not parse: give/],
      [{ 'shop.orders': '30d' }, /must name one column as schema\.table\.column/],
      [{ 'shop.*.at': '30d' }, /no wildcards/],
      ['shop.orders.created_at', /must be schema\.table\.column:value/],
      [{ 'shop.orders.a': '1d', 'shop.orders.b': '2d' }, /names the table of `shop`\.`orders`\.`b` twice/],
      [{ 'shop.orders.a': 1.5 }, /needs "2026-10-25 00:00:00"/],
    ];
    bad.forEach(([v, re]) => expect(() => sinceSpec.parseSince(v), JSON.stringify(v)).to.throw(re));
    expect(() => selection.parseSelection({ since: { 'shop.orders.at': '1d' }, latest: { 'shop.orders': 2 } }))
      .to.throw(/latest and since both name `shop`\.`orders`/);
    expect(() => selection.parseSelection({ since: { 'shop.orders.at': '1d' }, excludeTables: ['shop.orders'] }))
      .to.throw(/leave out of the load/);
    expect(() => selection.parseSelection({ sinceScan: true })).to.throw(/sinceScan is for since/);
    // A wildcard latest leaves a since table to since.
    const sel = selection.parseSelection({ since: { 'shop.orders.at': '1d' }, latest: { 'shop.*': 1 } });
    expect(selection.latestCount(sel, 'shop', 'orders', null)).to.equal(null);
    expect(selection.latestCount(sel, 'shop', 'events', null)).to.equal(1);
  });

  it('splits a first row as LOAD DATA reads it: escapes, \\N, the line end; no row without a line end', function () {
    const d = { fieldsTerminatedBy: '\t', linesTerminatedBy: '\n', fieldsEscapedBy: '\\' };
    expect(chunkHeads.splitFirstRow('1\t\\N\ta\\tb\\\\c\n2\t', d, false)).to.deep.equal(['1', null, 'a\tb\\c']);
    expect(chunkHeads.splitFirstRow('1\t2', d, false)).to.equal(null);
    expect(chunkHeads.splitFirstRow('1\t2', d, true)).to.deep.equal(['1', '2']);
    expect(chunkHeads.splitFirstRow('"a,b",2\r\n', { fieldsTerminatedBy: ',', linesTerminatedBy: '\r\n', fieldsEnclosedBy: '"',
      fieldsEscapedBy: '\\' }, false)).to.deep.equal(['a,b', '2']);
  });

  it('reads a first row from gzip, plain and empty chunks; more bytes when the first row is longer than the first read', function () {
    const zlib = require('zlib');
    const { newChunkTable } = require('../../lib/dump/chunk-table.js');
    const long = 'x'.repeat(300000);
    const files = {
      '/g/t@0.tsv.gz': zlib.gzipSync('1\tA\n2\tB\n'), '/g/t@0.tsv': Buffer.from('7\t\\N\n8\tz\n'), '/g/t@@1.tsv': Buffer.alloc(0),
      '/g/t@0.tsv.zst': Buffer.from('28b52ffd2000010000', 'hex'),
    };
    if (HAVE_ZSTD) files['/g/t@@1.tsv.zst'] = spawnSync('zstd', ['-q', '-c'], { input: `5\t${long}\n6\ty\n` }).stdout;
    const host = fakeHost({ files });
    const reads = [];
    const reader = { read: (names, n) => { reads.push(n); return host.files.readHeads(names.map((x) => '/g/' + x), n); } };
    const target = (ext, compression) => ({ chunks: newChunkTable('t', ext, 2, 1, false), compression,
      info: { settings: { loadDialect: { fieldsTerminatedBy: '\t', linesTerminatedBy: '\n', fieldsEscapedBy: '\\' } } } });
    expect(chunkHeads.firstRow(host, target('tsv.gz', 'gzip'), 0, reader)).to.deep.equal(['1', 'A']);
    expect(chunkHeads.firstRow(host, target('tsv', 'none'), 0, reader)).to.deep.equal(['7', null]);
    expect(chunkHeads.firstRow(host, target('tsv', 'none'), 1, reader)).to.equal(null);
    if (!HAVE_ZSTD) return;
    expect(chunkHeads.firstRow(host, target('tsv.zst', 'zstd'), 0, reader)).to.equal(null); // the Shell's empty chunk
    reads.length = 0;
    expect(chunkHeads.firstRow(host, target('tsv.zst', 'zstd'), 1, reader)).to.deep.equal(['5', long]);
    expect(reads.length).to.be.above(1); // a 300,000-byte row is more than the first block
  });

  it('makes a frame of a chunk\'s first block that the zstd program decodes to the chunk\'s first rows', function () {
    if (!HAVE_ZSTD) this.skip();
    const file = path.join(SHOP, ordersChunks()[3]);
    const bytes = new Uint8Array(fs.readFileSync(file).subarray(0, chunkHeads.FIRST_READ));
    const f = zstdFrames.firstBlocksFrame(bytes, 1);
    expect(f.blocks).to.equal(1);
    const out = spawnSync('zstd', ['-dcq'], { input: Buffer.from(f.frame) });
    expect(out.status).to.equal(0);
    const whole = spawnSync('zstd', ['-dcq', file], { maxBuffer: 64 << 20 }).stdout;
    expect(out.stdout.length).to.be.above(0);
    expect(whole.subarray(0, out.stdout.length).equals(out.stdout)).to.equal(true);
    // The Shell's empty chunk (a single-segment frame of one empty block) has no row.
    const empty = zstdFrames.firstBlocksFrame(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]), 1);
    expect(spawnSync('zstd', ['-dcq'], { input: Buffer.from(empty.frame) }).stdout.length).to.equal(0);
    expect(zstdFrames.firstBlocksFrame(new Uint8Array([1, 2, 3, 4, 5, 6, 7]), 1).error).to.match(/not zstd/);
  });

  it('finds the boundary chunk of every point by bisection, within ceil(log2(chunks)) + 2 heads', function () {
    if (!HAVE_ZSTD) this.skip();
    const chunks = ordersChunks();
    const heads = chunks.map((f) => chunkRows(path.join(SHOP, f))[0][2]); // ordered_at of each chunk's first row
    const allowed = Math.ceil(Math.log2(chunks.length)) + 2;
    // Before the first row, on a chunk's first row, inside chunks, after the last row.
    const points = ['2025-12-31 00:00:00', heads[0], heads[4], heads[7].slice(0, 15) + '9:59', '2026-01-05 03:00',
      heads[chunks.length - 1], '2027-01-01'];
    points.forEach((point) => {
      // ordered_at does not lead the key (id): the bisection's slice is approximate, and said so.
      const p = planOf({ since: { 'shop.orders.ordered_at': point }, sinceExact: false });
      const f = p.facts.since[0];
      const at = sinceSpec.normalTime(point.length === 10 ? point : point.length === 16 ? point + ':00' : point);
      // The boundary: the last chunk whose first row is before the point (0 if none).
      let want = 0;
      heads.forEach((h, i) => { if (h < at) want = i; });
      expect(f.boundary, point).to.equal(want);
      expect(f.load).to.equal(chunks.length - want);
      expect(f.headsRead, point).to.be.at.most(allowed);
      expect(f.headsAllowed).to.equal(allowed);
      expect(f.method).to.equal('bisection');
      const orders = materialized(p.facts).tables.find((t) => t.table === 'orders');
      expect(orders.chosen).to.deep.equal(chunks.slice(want));
      expect(p.text).to.include(`the first rows place the point in chunk ${want} of ${chunks.length}`);
      expect(f.approximate).to.equal(true);
      expect(p.text).to.include('ordered_at does not lead the chunking key (id): the rows inside chunks were not read');
      expect(p.text).to.include(`APPROXIMATE (sinceExact: false): rows at or after the point in chunks before ${want} are not loaded`);
    });
    // The key itself: the same search on the key's values; a key leads the chunking index.
    const key = planOf({ since: 'shop.orders.id:5500' });
    const byKey = key.facts.since[0];
    expect([byKey.boundary, byKey.ordered, byKey.exact, byKey.approximate]).to.deep.equal([5, true, true, false]);
    expect(key.text).to.include('the point falls in chunk 5 of 12');
    expect(key.text).to.include('id leads the chunking key, so chunks hold ascending ranges of it');
    expect(key.text).to.include('exact: restore.load deletes the rows before the point (or NULL) after the load (only chunk 5 can hold');
    const keyLoose = planOf({ since: 'shop.orders.id:5500', sinceExact: false });
    expect(keyLoose.text).to.include('sinceExact: false: the rows of chunk 5 before the point are kept');
    expect(keyLoose.text).to.not.include('APPROXIMATE');
  });

  it('refuses a column that does not lead the chunking key by default, naming the reason and both ways out; sinceScan ' +
    'loads every chunk (exact), sinceExact: false the bisection\'s chunks (approximate)', function () {
    if (!HAVE_ZSTD) this.skip();
    const chunks = ordersChunks();
    const point = chunkRows(path.join(SHOP, chunks[6]))[0][2];
    let err = null;
    try { planOf({ since: { 'shop.orders.ordered_at': point } }); } catch (e) { err = e; }
    expect(err).to.not.equal(null);
    expect(err.code).to.equal('SINCE_UNSUITED');
    expect(err.message).to.include('ordered_at does not lead the chunking key of shop.orders (id: the table JSON\'s primaryIndex)');
    expect(err.message).to.include('a row of an earlier chunk may hold a value at or after ' + point);
    // The cost of the exact way out, as @.done.json records it: every chunk file of the table.
    const done = JSON.parse(fs.readFileSync(path.join(SHOP, '@.done.json'), 'utf8'));
    const recorded = chunks.reduce((n, f) => n + done.chunkFileBytes[f], 0);
    const { formatBytes } = require('../../lib/format/text-table.js');
    expect(err.message).to.include(`sinceScan: true reads every chunk (${chunks.length} chunk file(s), ${formatBytes(recorded)} uncompressed ` +
      'as @.done.json records, read and loaded) and deletes the rows before the point after the load: exact');
    expect(err.message).to.include('sinceExact: false loads the chunks from the one their first rows point at: approximate');
    expect(err.message).to.include('Nothing was changed.');
    expect(err.data.ways).to.deep.equal(['sinceScan', 'sinceExact']);

    const scan = planOf({ since: { 'shop.orders.ordered_at': point }, sinceScan: true });
    const f = scan.facts.since[0];
    expect([f.method, f.boundary, f.load, f.headsRead, f.exact]).to.deep.equal(['every chunk', 0, chunks.length, 0, true]);
    expect(materialized(scan.facts).tables.find((t) => t.table === 'orders').chosen).to.deep.equal(chunks);
    expect(scan.text).to.include(`ordered_at does not lead the chunking key (id): sinceScan: every chunk loads (${chunks.length} ` +
      `chunk file(s), ${formatBytes(recorded)} uncompressed as @.done.json records, read and loaded), no first row read`);
    expect(scan.text).to.include('exact: restore.load deletes the rows before the point (or NULL) from every loaded chunk after the load');
    expect(() => planOf({ since: { 'shop.orders.ordered_at': point }, sinceScan: true, sinceExact: false }))
      .to.throw(/sinceScan reads every chunk to make since exact; sinceExact: false asks for an approximate slice/);
  });

  it('refuses first rows that go down as the key grows, even approximate, naming the chunks; sinceScan loads every chunk', function () {
    if (!HAVE_ZSTD) this.skip();
    const chunks = ordersChunks();
    // Chunk 3 holds chunk 10's rows (compressed anew): its first row is later than chunk 6's.
    const rows = spawnSync('zstd', ['-dcq', path.join(SHOP, chunks[10])], { maxBuffer: 64 << 20 }).stdout;
    const again = spawnSync('zstd', ['-q', '-c', '-1', '--no-content-size'], { input: rows, maxBuffer: 64 << 20 }).stdout;
    const swap = (host) => host.files.writeFiles([{ path: '/d/' + chunks[3], data: again }], { overwrite: true });
    const point = chunkRows(path.join(SHOP, chunks[2]))[5][2];
    expect(() => planOf({ since: { 'shop.orders.ordered_at': point }, sinceExact: false }, swap))
      .to.throw(/ordered_at does not grow with the key of shop\.orders: chunk \d+ starts at .*, lower than chunk 3 \(.*not even approximately\. Pass sinceScan: true/);
    const scan = planOf({ since: { 'shop.orders.ordered_at': point }, sinceScan: true }, swap);
    expect([scan.facts.since[0].headsRead, scan.facts.since[0].load]).to.deep.equal([0, chunks.length]);
    // The key itself out of order: the dump is not what the contract says; sinceScan would not help.
    const id = chunkRows(path.join(SHOP, chunks[5]))[0][0];
    let err = null;
    try { planOf({ since: { 'shop.orders.id': Number(id) }, sinceScan: true }, swap); } catch (e) { err = e; }
    expect(err && err.code).to.equal('DUMP_DAMAGED');
    expect(err.message).to.match(/the chunks of shop\.orders are not in the order of their key id: chunk 6 starts at \d+, lower than chunk 3/);
  });

  it('a NULL first row of a chunk after non-NULL ones is no disorder: NULL cannot move the boundary', function () {
    if (!HAVE_ZSTD) this.skip();
    const chunks = ordersChunks();
    // Chunk 3's first row with ordered_at NULL (\\N), compressed anew.
    const rows = spawnSync('zstd', ['-dcq', path.join(SHOP, chunks[3])], { maxBuffer: 64 << 20 }).stdout.toString('utf8').split('\n');
    const first = rows[0].split('\t');
    first[2] = '\\N';
    rows[0] = first.join('\t');
    const again = spawnSync('zstd', ['-q', '-c', '-1', '--no-content-size'], { input: Buffer.from(rows.join('\n')), maxBuffer: 64 << 20 }).stdout;
    const nullHead = (host) => host.files.writeFiles([{ path: '/d/' + chunks[3], data: again }], { overwrite: true });
    for (const at of [2, 7]) {
      const point = chunkRows(path.join(SHOP, chunks[at]))[5][2];
      const plain = planOf({ since: { 'shop.orders.ordered_at': point }, sinceExact: false }).facts.since[0];
      const withNull = planOf({ since: { 'shop.orders.ordered_at': point }, sinceExact: false }, nullHead).facts.since[0];
      expect(withNull.disorder).to.deep.equal([]);
      // Never fewer chunks than without the NULL (at or after the point taken for it, as for an empty chunk).
      expect(withNull.load).to.be.at.least(plain.load);
      expect(withNull.boundary).to.be.at.most(at);
    }
  });

  it('says in each sentence only what the facts show: whole tables, approximate slices, the DELETE left to the user, ' +
    'the trim\'s scope, the view\'s @.done.json', function () {
    const sb = require('../../lib/partial/since-boundary.js');
    const base = { table: 'shop.orders', schema: 'shop', table_: 'orders', partition: null, column: 'created_at',
      since: '2026-10-01 00:00:00', sql: '2026-10-01 00:00:00', how: 'as given', chunks: 1, boundary: 0, load: 1, heads: [],
      disorder: [], headsRead: 0, headsAllowed: 2 };
    const whole = (exact) => sb.sinceLines([{ ...base, method: 'not chunked', exact }]).join('\n');
    expect(whole(true)).to.include('dumped whole (not chunked): the table loads whole; restore.load deletes its rows before the point');
    expect(whole(false)).to.include('the table loads whole; sinceExact: false: its rows before the point are kept');
    // The report after an approximate load: per kind of column, what may be extra or missing.
    const lead = { ...base, chunks: 9, boundary: 4, load: 5, ordered: true, exact: false };
    const loose = { ...lead, table: 'shop.fixed', ordered: false, approximate: true };
    const lines = sb.approximateLines([lead, loose, { ...loose, table: 'shop.all', boundary: 0, load: 9 }]);
    expect(lines).to.deep.equal([
      'since with sinceExact: false: the boundary chunk(s) loaded whole, their rows before the point kept (shop.orders chunk 4, ' +
        'before 2026-10-01 00:00:00).',
      'since APPROXIMATE (sinceExact: false): shop.fixed: created_at does not lead the chunking key; chunks 4-8 of 9 loaded whole ' +
        'with their rows before 2026-10-01 00:00:00; rows at or after it in chunks before 4 (not read) are not loaded.',
      'since APPROXIMATE (sinceExact: false): shop.all: every chunk loaded whole, with its rows before 2026-10-01 00:00:00.',
    ]);
    // restore.view and restore.stub: the statement left to the user runs as printed (a quoted time, NULLs too), once per table.
    const warn = sb.wholeChunksWarning([{ ...lead, utc: true, partition: 'p0' }, { ...lead, partition: 'p1' },
      { ...base, schema: 'shop', table_: 'events', column: 'id', sql: '5500' }]);
    expect(warn).to.deep.equal(['since: util.loadDump loads whole chunks: the rows before the point in the chunks chosen load too ' +
      '(restore.load deletes them; after your own util.loadDump: DELETE FROM `shop`.`orders` WHERE `created_at` < ' +
      "'2026-10-01 00:00:00' OR `created_at` IS NULL (time_zone '+00:00'); DELETE FROM `shop`.`events` WHERE `id` < 5500 OR " +
      '`id` IS NULL).']);
    // The load report's trim sentence names the chunks the trim's facts say.
    const { snapshotLines } = require('../../lib/run/snapshot-report.js');
    const trim = { schema: 'dev', table: 'orders', column: 'created_at', value: '2026-10-01 00:00:00', deleted: 7 };
    expect(snapshotLines({ since: [{ ...trim, boundaries: [3], every: false }], notes: [] }, [])).to.deep.equal([
      'since: 7 row(s) of dev.orders before 2026-10-01 00:00:00 removed (the DELETE covered the whole table, which held no row ' +
      'before the load; boundary chunk 3).']);
    expect(snapshotLines({ since: [{ ...trim, boundaries: [0], every: true }], notes: [] }, [])).to.deep.equal([
      'since: 7 row(s) of dev.orders before 2026-10-01 00:00:00 removed (the DELETE covered the whole table, which held no row ' +
      'before the load; every chunk loaded: sinceScan).']);
    // Limited to the loaded chunks' keys (lib/snapshot/row-ownership.js): the sentence names the range.
    const range = { columns: ['id'], values: ['5329'], chunk: 8 };
    expect(snapshotLines({ since: [{ ...trim, boundaries: [8], every: false, range }], notes: [] }, [])[0]).to.match(
      /removed among the loaded chunks' keys only \(.*5329.* and after: the boundary chunk 8 on\), so the DELETE did not reach/);
    // The view's @.done.json: what the file records, not what util.loadDump's filters will read.
    const { viewLines } = require('../../lib/partial/load-view.js');
    expect(viewLines({ dir: '/v' }, { links: 3, stubs: 2, done: { bytesBefore: 900, bytesAfter: 300 } }, false)[1]).to.equal(
      '  @.done.json of the view: stubbed chunks recorded as 0 bytes, dataBytes 300 (the dump\'s: 900), so the Shell\'s progress ' +
      'and ETA do not count the stubbed chunks');
  });

  it('hands the load\'s trim each table\'s own facts: its boundary chunks, and whether every loaded chunk may hold rows before the point', function () {
    const { planSnapshot } = require('../../lib/snapshot/snapshot-step.js');
    const fact = (schema, boundary, method) => ({ schema, table_: 'orders', column: 'created_at', sql: '2026-10-01 00:00:00',
      type: 'datetime', utc: false, boundary, method });
    const snap = planSnapshot(fakeHost({}), {
      ctx: { own: { orphans: 'keep' }, loadOptions: {}, shellVersion: '9.1.0' }, dump: null, planned: { sel: { sinceExact: true,
        sinceFacts: [fact('a', 0, 'every chunk'), fact('b', 7, 'bisection')] } },
      objects: { tables: [{ schema: 'dev_a', table: 'orders', dumpSchema: 'a' }, { schema: 'dev_b', table: 'orders', dumpSchema: 'b' }] },
    });
    expect(snap.trims.map((t) => [t.schema, t.table, t.boundaries, t.every])).to.deep.equal([
      ['dev_a', 'orders', [0], true], ['dev_b', 'orders', [7], false]]);
    expect(snap.lines).to.deep.equal([
      'since: after the load, the rows of dev_a.orders whose created_at is before 2026-10-01 00:00:00 (or NULL) are deleted: ' +
        'those of every chunk loaded (sinceScan)',
      'since: after the load, the rows of dev_b.orders whose created_at is before 2026-10-01 00:00:00 (or NULL) are deleted: ' +
        'the boundary chunk\'s older rows']);
  });

  it('reads heads over ssh through the remote shell rsync uses, from a bucket by ranged GETs, and names a source it cannot probe', function () {
    const { headReader, rshArgv } = require('../../lib/remote/head-reader.js');
    expect(rshArgv('ssh -p 2222 -i "/keys/a b" -o \'X=1\'')).to.deep.equal(['ssh', '-p', '2222', '-i', '/keys/a b', '-o', 'X=1']);
    const calls = [];
    const host = fakeHost({});
    host.files.remoteHeads = (argv, target, paths, n) => { calls.push([argv, target, paths, n]); return paths.map(() => null); };
    const sizes = new Map([['t@0.tsv.zst', 10]]);
    // What the host holds, as lib/remote/dump-cache.js remoteListing answers it.
    const asked = [];
    const listing = {
      sizesOf: (names) => { asked.push(names); return new Map(names.filter((n) => sizes.has(n)).map((n) => [n, sizes.get(n)])); },
      names: () => Array.from(sizes.keys()),
    };
    // Over ssh no listing is asked: a file the host does not hold reads as null there.
    const r = headReader(host, '/cache', { source: { kind: 'ssh', url: 'backup@db1:/backups/d' }, listing }, 'ssh -p 2222');
    r.read(['t@0.tsv.zst', 't@9.tsv.zst'], 100);
    expect(calls).to.deep.equal([[['ssh', '-p', '2222'], 'backup@db1', ['/backups/d/t@0.tsv.zst', '/backups/d/t@9.tsv.zst'], 100]]);
    expect(asked).to.deep.equal([]);
    expect([r.kind, r.files]).to.deep.equal(['ssh', 2]);
    expect(() => headReader(host, '/cache', { source: { kind: 'ftp', url: 'ftp://b/d' }, listing }))
      .to.throw(/since cannot read chunk heads from a ftp source yet/).with.property('code', 'REMOTE_UNSUPPORTED');
    // A bucket: ranged GETs of the objects' heads (keys: the dump's prefix + '/' + name), nothing fetched whole.
    const ranged = [];
    host.files.bucketHeads = (s3, keys, n) => { ranged.push([s3, keys, n]); return keys.map((k) => (k ? new ArrayBuffer(3) : null)); };
    host.files.bucketFetch = () => { throw new Error('no whole object is fetched for heads'); };
    const s3 = { s3BucketName: 'b' };
    const b = headReader(host, '/cache', { source: { kind: 's3', url: 's3://b/nightly/d', bucket: 'b', prefix: 'nightly/d', s3 }, listing });
    const got = b.read(['t@0.tsv.zst', 't@9.tsv.zst'], 100);
    expect(ranged).to.deep.equal([[s3, ['nightly/d/t@0.tsv.zst', null], 100]]);
    expect([b.kind, b.files, b.transferred, got.map((x) => x && x.byteLength)]).to.deep.equal(['s3', 2, 0, [3, null]]);
    const top = headReader(host, '/cache', { source: { kind: 's3', url: 's3://b', bucket: 'b', prefix: '', s3 }, listing });
    top.read(['t@0.tsv.zst'], 100);
    expect(ranged[1][1]).to.deep.equal(['t@0.tsv.zst']);
    expect(asked).to.deep.equal([['t@0.tsv.zst', 't@9.tsv.zst'], ['t@0.tsv.zst']]);
  });

  it('refuses an unknown table, an unknown column (the closest name) and a value the column\'s type cannot take', function () {
    expect(() => planOf({ since: { 'shop.ordrs.ordered_at': '1d' } })).to.throw(/names no table of the dump: did you mean shop\.orders\?/);
    expect(() => planOf({ since: { 'shop.orders.orderd_at': '1d' } })).to.throw(/did you mean shop\.orders\.ordered_at\?/);
    expect(() => planOf({ since: { 'shop.orders.ordered_at': 12 } })).to.throw(/DATETIME column: give a time/);
    expect(() => planOf({ since: { 'shop.orders.id': '30d' } })).to.throw(/AUTO_INCREMENT key: a time means nothing/);
    expect(() => planOf({ since: { 'shop.orders.status': '30d' } })).to.throw(/ENUM column: since takes DATETIME/);
  });
});
