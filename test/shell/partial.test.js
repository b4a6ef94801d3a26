'use strict';
// Partial "latest" imports in the real mysqlsh on a real MySQL, the way the README tells a DBA:
// metadata only → restore plan --fetch-list-file → fetch those files → restore stub → restore load.
// What is expected is computed here from the chunk files (zstd -dc), never from the plugin.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP, realDump } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { sha256, hashDir, chunkRows, chunkFiles, EMPTY_ZSTD, DATA_FILE } = require('../support/dump-facts');

const LATEST = 'shop.orders:2,shop.events:0,shop.events.pmax:1,shop.audit_log:1';

// A copy of a dump with its data files removed (the metadata download of step 1).
function metadataOnly(src) {
  const dir = copyDump(src);
  for (const f of fs.readdirSync(dir)) if (DATA_FILE.test(f)) fs.rmSync(path.join(dir, f));
  return dir;
}

// The chunk files of a table, by chunk number, as [file].
function chunksOf(dir, base) {
  const m = chunkFiles(dir, base);
  return Object.keys(m).map(Number).sort((a, b) => a - b).map((n) => m[n]);
}

function isEmptyChunk(file) { return fs.readFileSync(file).toString('hex') === EMPTY_ZSTD; }

// Which files of the sample dump LATEST chooses, worked out from the file names alone.
function expectedChoice() {
  const all = fs.readdirSync(SAMPLE_SHOP).filter((f) => DATA_FILE.test(f));
  const orders = chunksOf(SAMPLE_SHOP, 'shop@orders');
  // audit_log has no key: an empty last chunk does not count as one of the newest.
  let audit = chunksOf(SAMPLE_SHOP, 'shop@audit_log');
  const auditLast = audit[audit.length - 1];
  const auditChosen = isEmptyChunk(path.join(SAMPLE_SHOP, auditLast)) ? [audit[audit.length - 2], auditLast] : [auditLast];
  const notChosen = orders.slice(0, -2).concat(all.filter((f) => /^shop@events@p2026_/.test(f)),
    audit.filter((f) => !auditChosen.includes(f)));
  return { chosen: all.filter((f) => !notChosen.includes(f)), stubbed: notChosen, orders: orders.slice(-2), audit: auditChosen };
}

function rowsOf(files, col) {
  return files.flatMap((f) => chunkRows(path.join(SAMPLE_SHOP, f)).map((r) => r[col])).sort();
}

// Step 2 done: the metadata and the chosen files (what rsync --files-from brings).
function fetchedDir(chosen) {
  const dir = metadataOnly(SAMPLE_SHOP);
  for (const f of chosen) fs.copyFileSync(path.join(SAMPLE_SHOP, f), path.join(dir, f));
  return dir;
}

// Each step starts from the directory the steps before it leave, made anew: any one runs alone.
describe('partial latest import (real Shell, real MySQL)', function () {
  let server;
  let want;
  before(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    want = expectedChoice();
  });
  after(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('plan --fetch-list-file lists exactly the chosen files that are not there', function () {
    const dir = metadataOnly(SAMPLE_SHOP);
    const list = path.join(path.dirname(dir), 'fetch.txt');
    const r = cli(null, ['plan', dir, `--latest=${LATEST}`, `--fetch-list-file=${list}`]);
    expect(r.status, r.out).to.equal(0);
    const lines = fs.readFileSync(list, 'utf8').split('\n').filter(Boolean);
    expect(lines.slice().sort()).to.deep.equal(want.chosen.slice().sort());
    expect(r.stdout).to.include(`Files to fetch: ${want.chosen.length}`);
    expect(r.stdout).to.include(`Chunks stubbed: ${want.stubbed.length}`);
  });

  it('stub writes empty chunks only where files are missing, and never touches a real file', function () {
    const dir = fetchedDir(want.chosen);
    const before = Object.fromEntries(fs.readdirSync(dir).map((f) => [f, sha256(path.join(dir, f))]));
    const r = cli(null, ['stub', dir, `--latest=${LATEST}`]);
    expect(r.status, r.out).to.equal(0);
    for (const f of want.stubbed) {
      expect(fs.readFileSync(path.join(dir, f)).toString('hex'), f).to.equal(EMPTY_ZSTD);
    }
    for (const [f, h] of Object.entries(before)) {
      if (f.endsWith('.idx') || f.startsWith('@.') || DATA_FILE.test(f)) {
        if (DATA_FILE.test(f)) expect(sha256(path.join(SAMPLE_SHOP, f)), `${f} is the original`).to.equal(h);
        if (!f.startsWith('@.')) expect(sha256(path.join(dir, f)), `${f} unchanged`).to.equal(h);
      }
    }
  });

  it('load --latest loads exactly the rows of the chosen chunks, and leaves the server as it was', async function () {
    const dir = fetchedDir(want.chosen);
    const stub = cli(null, ['stub', dir, `--latest=${LATEST}`]);
    expect(stub.status, stub.out).to.equal(0);
    const before = await serverFingerprint(server);
    const r = cli(server.uri, ['load', dir, `--latest=${LATEST}`]);
    expect(r.status, r.out).to.equal(0);
    const ids = async (sql) => (await server.query(sql)).map((x) => String(Object.values(x)[0])).sort();
    expect(await ids('SELECT id FROM shop.orders')).to.deep.equal(rowsOf(want.orders, 0));
    expect(await ids('SELECT id FROM shop.events')).to.deep.equal(rowsOf(['shop@events@pmax@@0.tsv.zst'], 0));
    expect(await ids('SELECT message FROM shop.audit_log')).to.deep.equal(rowsOf(want.audit, 1));
    expect(await ids('SELECT id FROM shop.customers')).to.have.length(chunkRows(path.join(SAMPLE_SHOP, 'shop@customers@@0.tsv.zst')).length);
    // Every partition exists, only pmax holds rows.
    const parts = await server.query("SELECT PARTITION_NAME AS p FROM information_schema.PARTITIONS WHERE TABLE_SCHEMA = 'shop' " +
      "AND TABLE_NAME = 'events' ORDER BY 1");
    expect(parts.map((p) => p.p)).to.deep.equal(['p2026_01', 'p2026_02', 'p2026_03', 'pmax']);
    expect(await serverFingerprint(server)).to.deep.equal(before);
  });
});

describe('partial latest import of a format 1.0.0 dump (Shell 8.0.21, from MySQL 5.7)', function () {
  let server;
  const SRC = realDump('mysql__mysql-shell__dump_instance_8.0.21');
  beforeEach(function () {
    needs(this, ['shell', 'server', 'dumps']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS world');
  });

  it('world.City:0 creates City without rows, loads the other tables whole', async function () {
    const dir = metadataOnly(SRC);
    const keep = ['world@Country@@0.tsv.zst', 'world@CountryLanguage@@0.tsv.zst'];
    for (const f of keep) fs.copyFileSync(path.join(SRC, f), path.join(dir, f));
    const before = hashDir(dir);
    const r = cli(server.uri, ['load', dir, '--include-schemas=world', '--latest=world.City:0', '--ignore-version=true']);
    expect(r.status, r.out).to.equal(0);
    // The stub is in the load view, not in the dump directory.
    expect(hashDir(dir)).to.deep.equal(before);
    expect(fs.existsSync(path.join(dir, 'world@City@@0.tsv.zst'))).to.equal(false);
    expect(r.out).to.match(/Load view removed: /);
    expect(Number(await server.value('SELECT COUNT(*) FROM world.City'))).to.equal(0);
    for (const [t, f] of [['Country', keep[0]], ['CountryLanguage', keep[1]]]) {
      expect(Number(await server.value(`SELECT COUNT(*) FROM world.${t}`)), t).to.equal(chunkRows(path.join(SRC, f)).length);
    }
  });
});
