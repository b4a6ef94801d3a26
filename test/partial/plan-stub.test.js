'use strict';
// restore.plan and restore.stub on a multi-chunk dump written by the stand-in's util.dumpSchemas
// from a seeded server, and on real fixtures: what is listed, what is written, what is never touched.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { expect } = require('chai');
const { runShell, runCli } = require('../support/standin');
const { tempDir, copyRealDump } = require('../support/paths');
const { shopDump, dataFiles } = require('../support/shop-dump');

const EMPTY_ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);

function hashes(dir) {
  const out = {};
  for (const f of fs.readdirSync(dir)) out[f] = crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, f))).digest('hex');
  return out;
}

function call(code) {
  const r = runShell({ code, uri: null });
  if (r.error) throw new Error(`${r.error.message}\n${r.stderr}`);
  return r;
}

describe('partial imports: restore.plan', () => {
  let dump;
  before(() => { dump = shopDump(); });

  it('lists the newest chunks to fetch, the rest to stub, and skips excluded tables', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    const orders = dataFiles(dir, 'shop@orders@');
    for (const f of orders) fs.rmSync(path.join(dir, f)); // metadata + .idx only, as after the first rsync
    const list = path.join(tempDir(), 'fetch.txt');
    const before = hashes(dir);
    const r = call(`restore.plan(${JSON.stringify(dir)}, {latest: {'shop.orders': 2}, excludeTables: ['shop.audit_log'], fetchListFile: ${JSON.stringify(list)}})`);
    const newest = orders.slice(-2);
    expect(r.value.fetch).to.deep.equal(newest);
    expect(fs.readFileSync(list, 'utf8')).to.equal(`${newest.join('\n')}\n`);
    expect(r.value.stub).to.deep.equal(orders.slice(0, -2));
    expect(r.value.skippedTables).to.deep.equal(['shop.audit_log']);
    expect(r.value.bytesChosen).to.be.above(0).and.below(r.value.bytesTotal);
    expect(hashes(dir)).to.deep.equal(before); // plan writes nothing in the dump
    expect(r.stdout).to.include('Files to fetch: 2');
  });

  it('takes the selection from the command line: --latest=shop.orders:3,shop.*:1', () => {
    const r = runCli(['--', 'restore', 'plan', dump.dir, '--latest=shop.orders:3,shop.*:1']);
    expect(r.status).to.equal(0, r.stderr);
    const facts = JSON.parse(r.stdout.slice(r.stdout.indexOf('\n{') + 1));
    const orders = facts.tables.find((t) => t.table === 'orders');
    expect(orders.latest).to.equal(3);
    expect(orders.chosen).to.have.length(3);
    const events = facts.tables.filter((t) => t.table === 'events');
    expect(events.map((t) => t.partition)).to.deep.equal(['p2026_01', 'p2026_02', 'p2026_03', 'pmax']);
    events.forEach((t) => expect(t.latest).to.equal(1));
  });

  it('warns that latest means nothing for a table without a key', () => {
    const r = call(`restore.plan(${JSON.stringify(dump.dir)}, {latest: {'shop.audit_log': 1}})`);
    expect(r.stderr + r.stdout).to.include('shop.audit_log has no primary key or unique index');
  });

  it('refuses bad selections with the option named', () => {
    const bad = runShell({ code: `restore.plan(${JSON.stringify(dump.dir)}, {latest: {'shop.orders': -1}})`, uri: null });
    expect(bad.error.message).to.include('latest: "shop.orders" needs a whole number of chunks');
    const table = runShell({ code: `restore.plan(${JSON.stringify(dump.dir)}, {excludeTables: ['orders']})`, uri: null });
    expect(table.error.message).to.include('excludeTables: "orders" must be schema.table');
  });
});

describe('partial imports: restore.stub', () => {
  let dump;
  before(() => { dump = shopDump(); });

  it('writes the Shell\'s empty zstd frame for every unchosen missing chunk, never over a real file, once', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    const orders = dataFiles(dir, 'shop@orders@');
    const keep = orders.slice(-2);
    orders.slice(0, -2).forEach((f) => fs.rmSync(path.join(dir, f)));
    fs.rmSync(path.join(dir, `${orders[0]}.idx`));
    const real = hashes(dir);
    const r = call(`restore.stub(${JSON.stringify(dir)}, {latest: {'shop.orders': 2}})`);
    expect(r.value.written.sort()).to.deep.equal([...orders.slice(0, -2), `${orders[0]}.idx`].sort());
    orders.slice(0, -2).forEach((f) => expect(fs.readFileSync(path.join(dir, f)).equals(EMPTY_ZSTD)).to.equal(true));
    expect(fs.readFileSync(path.join(dir, `${orders[0]}.idx`)).equals(Buffer.alloc(8))).to.equal(true);
    const after = hashes(dir);
    for (const [f, h] of Object.entries(real)) expect(after[f]).to.equal(h, `${f} changed`);
    keep.forEach((f) => expect(after[f]).to.equal(real[f]));
    // A second run changes nothing.
    const again = call(`restore.stub(${JSON.stringify(dir)}, {latest: {'shop.orders': 2}})`);
    expect(again.value.written).to.deep.equal([]);
    expect(hashes(dir)).to.deep.equal(after);
    // The real file arrives later: inspect shows it present again.
    fs.copyFileSync(path.join(dump.dir, orders[0]), path.join(dir, orders[0]));
    const inspected = call(`restore.inspect(${JSON.stringify(dir)})`).value;
    const chunk0 = inspected.tables.find((t) => t.table === 'orders').chunks[0];
    expect(chunk0.state).to.equal('present');
  });

  it('never creates both @N and @@N, nor the whole-table name of a chunked table', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    dataFiles(dir, 'shop@orders@').forEach((f) => fs.rmSync(path.join(dir, f)));
    call(`restore.stub(${JSON.stringify(dir)}, {latest: {'shop.orders': 0}})`);
    const names = fs.readdirSync(dir).filter((f) => f.startsWith('shop@orders') && f.endsWith('.zst'));
    const numbers = names.map((f) => /@(@?)(\d+)\.tsv\.zst$/.exec(f)).map((m) => Number(m[2]));
    expect(new Set(numbers).size).to.equal(numbers.length);
    expect(names).to.not.include('shop@orders.tsv.zst');
    expect(names.filter((f) => f.includes('@@'))).to.have.length(1);
  });

  it('works on a real 1.0.0 dump (no chunkFileBytes) from its .idx files, or from a listing', () => {
    const dir = copyRealDump('mysql__mysql-shell__dump_instance_8.0.21');
    fs.rmSync(path.join(dir, 'world@City@@0.tsv.zst'));
    const fromIdx = call(`restore.stub(${JSON.stringify(dir)}, {latest: {'world.City': 0}, includeSchemas: ['world']})`);
    expect(fromIdx.value.written).to.deep.equal(['world@City@@0.tsv.zst']);
    expect(fromIdx.value.skippedTables).to.include('all_features.aik');

    fs.rmSync(path.join(dir, 'world@Country@@0.tsv.zst'));
    fs.rmSync(path.join(dir, 'world@Country@@0.tsv.zst.idx'));
    const unknown = runShell({ code: `restore.stub(${JSON.stringify(dir)}, {latest: {'world.Country': 0}, includeSchemas: ['world']})`, uri: null });
    expect(unknown.error.message).to.include('world.Country: the last chunk is unknown');
    const listing = path.join(tempDir(), 'listing.txt');
    fs.writeFileSync(listing, '-rw-r--r-- 1 u g 2417 Jan 1 12:00 world@Country@@0.tsv.zst\n');
    const fromListing = call(`restore.stub(${JSON.stringify(dir)}, {latest: {'world.Country': 0}, includeSchemas: ['world'], listing: ${JSON.stringify(listing)}})`);
    expect(fromListing.value.written).to.deep.equal(['world@Country@@0.tsv.zst', 'world@Country@@0.tsv.zst.idx']);
  });
});
