'use strict';
// Partial imports from the untouched dump, through a load view (issue 19), in the real mysqlsh on
// a real MySQL: the same rows whatever is on disk (the full dump, a partial download), nothing
// written into the dump, the view's own @.done.json and @.checksums.json, a view kept after a
// failed load and resumed, restore.view for one's own util.loadDump, newest of a folder of dumps.
// What is expected comes from the chunk files (zstd -dc), never from the plugin.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, runJs, copyDump, tempDir, installPlugin } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');
const { chunkRows, DATA_FILE, EMPTY_ZSTD } = require('../support/dump-facts');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { makeBigDump, BIG_SCHEMA } = require('../support/big-dump');
const { killMidLoad } = require('../support/kill-load');
const { nightlyDumps } = require('../support/nightly-dumps');

const LATEST = 'shop.orders:2,shop.events.pmax:1,shop.events:0';
const ORDERS_CHOSEN = ['shop@orders@10.tsv.zst', 'shop@orders@@11.tsv.zst'];

function idsOf(dir, files) {
  return files.flatMap((f) => chunkRows(path.join(dir, f)).map((r) => String(r[0]))).sort();
}

async function ids(server, sql) {
  return (await server.query(sql)).map((x) => String(Object.values(x)[0])).sort();
}

// A copy of the sample holding only the metadata and the chosen data files (what a fetch brings).
function partialDownload() {
  const dir = copyDump(SAMPLE_SHOP);
  const orders = /^shop@orders@/;
  const events = /^shop@events@p2026_/;
  for (const f of fs.readdirSync(dir)) {
    if (DATA_FILE.test(f) && ((orders.test(f) && !ORDERS_CHOSEN.includes(f)) || events.test(f))) fs.rmSync(path.join(dir, f));
  }
  return dir;
}

describe('load view: partial imports from the untouched dump (real Shell, real MySQL)', function () {
  let server;
  let home;
  before(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  beforeEach(async function () {
    home = installPlugin(tempDir('restore-cfg-'));
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('latest loads the same rows from the full dump and from a partial download; neither is touched; the view goes', async function () {
    const wantOrders = idsOf(SAMPLE_SHOP, ORDERS_CHOSEN);
    const wantEvents = idsOf(SAMPLE_SHOP, ['shop@events@pmax@@0.tsv.zst']);
    for (const dir of [copyDump(SAMPLE_SHOP), partialDownload()]) {
      const before = hashSandbox([path.dirname(dir)]);
      const fp = await serverFingerprint(server);
      const r = cli(server.uri, ['load', dir, `--latest=${LATEST}`], { configHome: home });
      expect(r.status, r.out).to.equal(0);
      expect(await ids(server, 'SELECT id FROM shop.orders')).to.deep.equal(wantOrders);
      expect(await ids(server, 'SELECT id FROM shop.events')).to.deep.equal(wantEvents);
      expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
      // The Shell itself counts only the chosen data: the view's @.done.json says stubs hold 0 bytes.
      const chosen = JSON.parse(fs.readFileSync(path.join(SAMPLE_SHOP, '@.done.json'), 'utf8')).chunkFileBytes;
      const stubbed = Object.keys(chosen).filter((f) => (/^shop@orders@/.test(f) && !ORDERS_CHOSEN.includes(f)) ||
        /^shop@events@p2026_/.test(f));
      const bytes = Object.keys(chosen).reduce((n, f) => n + (stubbed.includes(f) ? 0 : chosen[f]), 0);
      expect(r.out).to.include(`${(bytes / 1000).toFixed(2)} KB) for 6 tables in 1 schemas were loaded`);
      expect(r.out).to.match(/Load view: .*\((\d+) links to the dump, 13 empty stubs for chunks not chosen\)/);
      expect(r.out).to.match(/Load view removed: /);
      expect(fs.readdirSync(path.join(home, 'restore', 'views'))).to.deep.equal([]);
      expect(diffSandbox(before, hashSandbox([path.dirname(dir)]))).to.deep.equal(UNCHANGED);
      await server.query('DROP SCHEMA shop');
      expect(await serverFingerprint(server)).to.deep.equal(fp);
    }
  });

  it('a chosen chunk that is missing is named, with the fetch command; nothing changes', async function () {
    const dir = partialDownload();
    fs.rmSync(path.join(dir, ORDERS_CHOSEN[0]));
    const before = hashSandbox([path.dirname(dir), path.join(home, 'restore')]);
    const fp = await serverFingerprint(server);
    const r = cli(server.uri, ['load', dir, `--latest=${LATEST}`, '--preset=fastest'], { configHome: home });
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.include(`The selection chooses 1 data file(s) that are not in the dump directory (${ORDERS_CHOSEN[0]})`)
      .and.include('rsync -a --files-from=fetch.txt');
    expect(r.out).to.not.match(/restore_js\/|\/lib\/|\sat \//);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    expect(diffSandbox(before, hashSandbox([path.dirname(dir), path.join(home, 'restore')]))).to.deep.equal(UNCHANGED);
  });

  it('restore.view makes the view for one\'s own util.loadDump: links, stubs, its own @.done.json; refuses a foreign viewDir', async function () {
    const dir = copyDump(SAMPLE_SHOP);
    const view = path.join(tempDir('restore-view-'), 'v');
    const before = hashSandbox([path.dirname(dir)]);
    const r = cli(null, ['view', dir, '--latest=shop.orders:2', `--view-dir=${view}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include(`Load it with: util.loadDump("${view}", {progressFile: "${view}/load-progress.json", disableBulkLoad: true})`);
    const names = fs.readdirSync(view);
    for (const f of ORDERS_CHOSEN) expect(fs.readlinkSync(path.join(view, f))).to.equal(path.join(dir, f));
    for (const f of names.filter((n) => /^shop@orders@\d+\.tsv\.zst$/.test(n) && !ORDERS_CHOSEN.includes(n))) {
      // Every stub links to the one file in the view that holds the empty frame: never into the dump.
      expect(fs.readlinkSync(path.join(view, f)), f).to.match(/^\.restore-stub-[0-9a-f]{16}$/);
      expect(fs.readFileSync(path.join(view, f)).toString('hex'), f).to.equal(EMPTY_ZSTD);
    }
    expect(fs.readlinkSync(path.join(view, '@.json'))).to.equal(path.join(dir, '@.json'));
    const done = JSON.parse(fs.readFileSync(path.join(view, '@.done.json'), 'utf8'));
    const orig = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8'));
    expect(done.chunkFileBytes['shop@orders@0.tsv.zst']).to.equal(0);
    expect(done.chunkFileBytes[ORDERS_CHOSEN[0]]).to.equal(orig.chunkFileBytes[ORDERS_CHOSEN[0]]);
    expect(done.tableDataBytes.shop.orders).to.equal(orig.chunkFileBytes[ORDERS_CHOSEN[0]] + orig.chunkFileBytes[ORDERS_CHOSEN[1]]);
    expect(done.tableDataBytes.shop.customers).to.equal(orig.tableDataBytes.shop.customers);
    // What it prints about the files is what they hold: dataBytes as written, the dump's beside it; files of its own.
    expect(r.out).to.include(`@.done.json of the view: stubbed chunks recorded as 0 bytes, dataBytes ${done.dataBytes} (the dump's: ` +
      `${orig.dataBytes})`);
    expect(r.out).to.include('It holds links to the dump, stubs and metadata files of its own: rm -r');
    const own = names.filter((n) => !fs.lstatSync(path.join(view, n)).isSymbolicLink());
    expect(own.every((n) => !/\.(tsv|csv)(\.zst|\.gz)?$/.test(n) || n.startsWith('.restore-stub-')), own.join(' ')).to.equal(true);
    // The printed call, in the real Shell.
    const load = runJs(server.uri, `util.loadDump(${JSON.stringify(view)}, {progressFile: ${JSON.stringify(view + '/load-progress.json')}, ` +
      'disableBulkLoad: true, showProgress: false}); 1', { configHome: home });
    expect(load.error, load.out).to.equal(null);
    expect(await ids(server, 'SELECT id FROM shop.orders')).to.deep.equal(idsOf(SAMPLE_SHOP, ORDERS_CHOSEN));
    // restore.inspect of the view: its own files and the progress file of the printed call are no leftovers of another dump.
    const inspect = cli(null, ['inspect', view], { configHome: home });
    expect(inspect.status, inspect.out).to.equal(0);
    expect(inspect.stdout).to.include('Verdict: util.loadDump would load this dump.');
    expect(inspect.stdout).to.not.include('unlisted-files');
    expect(diffSandbox(before, hashSandbox([path.dirname(dir)]))).to.deep.equal(UNCHANGED);
    // A directory the plugin did not make is never used; nor one inside the dump.
    const foreign = tempDir('restore-foreign-');
    fs.writeFileSync(path.join(foreign, 'keep.txt'), 'mine');
    const refused = cli(null, ['view', dir, '--latest=shop.orders:2', `--view-dir=${foreign}`], { configHome: home });
    expect(refused.status, refused.out).to.equal(1);
    expect(refused.out).to.include(`viewDir ${foreign} exists and is not a load view made by the restore plugin`);
    expect(fs.readdirSync(foreign)).to.deep.equal(['keep.txt']);
    const inside = cli(null, ['view', dir, '--latest=shop.orders:2', `--view-dir=${dir}/v`], { configHome: home });
    expect(inside.status, inside.out).to.equal(1);
    expect(inside.out).to.include('is inside the dump directory');
    expect(diffSandbox(before, hashSandbox([path.dirname(dir)]))).to.deep.equal(UNCHANGED);
  });

  it('restore.view with filters prints them in the util.loadDump call (the view holds every table, as the dump does)', function () {
    const view = path.join(tempDir('restore-view-'), 'v');
    const r = cli(null, ['view', copyDump(SAMPLE_SHOP), '--latest=shop.orders:2', '--exclude-tables=shop.audit_log', `--view-dir=${view}`],
      { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include(`Load it with: util.loadDump("${view}", {progressFile: "${view}/load-progress.json", ` +
      'disableBulkLoad: true, excludeTables: ["shop.audit_log"]})');
  });

  it('newest: takes the newest complete dump of a folder, skips an unfinished newer one, and says so', async function () {
    const folder = nightlyDumps(tempDir('restore-backups-'), SAMPLE_SHOP, [['2026-11-22', '2026-11-22 01:00:00', true],
      ['b-newest-by-time', '2026-11-23 01:00:00', true], ['z-unfinished', '2026-11-24 01:00:00', false]]);
    const r = cli(null, ['plan', folder, '--newest', '--latest=shop.orders:1'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include(`Newest complete dump in ${folder}: b-newest-by-time (taken 2026-11-23 01:00:00) of 2; ` +
      'unfinished, skipped: z-unfinished');
    expect(r.out).to.include(`Partial import of ${path.join(folder, 'b-newest-by-time')}`);
    const none = tempDir('restore-nobackups-');
    const empty = cli(null, ['plan', none, '--newest'], { configHome: home });
    expect(empty.status, empty.out).to.equal(1);
    expect(empty.out).to.include(`newest: ${none} holds no complete MySQL Shell dump`);
  });
});

describe('load view: a failed partial load keeps its view, and the same command resumes (real Shell, real MySQL)', function () {
  let server;
  let home;
  let dump;
  before(async function () {
    this.timeout(300000);
    needs(this, ['shell', 'server']);
    server = suiteServer();
    home = installPlugin(tempDir('restore-cfg-'));
    // A dump made with checksum: true by the real Shell.
    const seeded = copyDump(SAMPLE_SHOP);
    await server.query('DROP SCHEMA IF EXISTS shop');
    // Analyzed: the dumper chunks by the row estimates.
    expect(cli(server.uri, ['load', seeded, '--analyze=on'], { configHome: home }).status).to.equal(0);
    dump = path.join(tempDir('restore-ck-'), 'ck');
    const d = await withShellDumper(server, () => runJs(server.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(dump)}, ` +
      "{checksum: true, bytesPerChunk: '128k', showProgress: false}); null", { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await server.query('DROP SCHEMA shop');
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  function ordersChunks(dir) {
    return fs.readdirSync(dir).filter((f) => /^shop@orders@@?\d+\.tsv\.zst$/.test(f))
      .sort((a, b) => Number(a.replace(/\D+/g, '')) - Number(b.replace(/\D+/g, '')));
  }

  it('checksum: true verifies a partial import (the view keeps only the loaded chunks\' entries)', async function () {
    const files = ordersChunks(dump);
    expect(files.length).to.be.greaterThan(3);
    const r = cli(server.uri, ['load', dump, '--latest=shop.orders:2', '--checksum=true'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/@\.checksums\.json of the view: \d+ entries of loaded chunks kept, \d+ of stubbed chunks left out/);
    expect(r.out).to.not.match(/Checksum verification failed/);
    expect(await ids(server, 'SELECT id FROM shop.orders')).to.deep.equal(idsOf(dump, files.slice(-2)));
  });

  it('a damaged chosen chunk fails the checksum: the view is kept with its path; repaired, a rerun with dropExisting reuses it', async function () {
    const dir = copyDump(dump);
    const files = ordersChunks(dir);
    const victim = path.join(dir, files[files.length - 2]);
    const original = fs.readFileSync(victim);
    // A valid zstd file with other rows: the structural check passes, the rows do not match.
    fs.copyFileSync(path.join(dir, files[files.length - 3]), victim);
    const args = ['load', dir, '--latest=shop.orders:2', '--checksum=true'];
    const r = cli(server.uri, args, { configHome: home });
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(/Checksum verification failed for: `shop`\.`orders`/);
    const kept = /Load view kept: (\S+) \(util\.loadDump's progress file is there\): run the same restore\.load again to resume/.exec(r.out);
    expect(kept, r.out).to.not.equal(null);
    expect(fs.existsSync(path.join(kept[1], 'load-progress.json'))).to.equal(true);
    fs.writeFileSync(victim, original);
    // What the failed load put in must go first: dropExisting, which also starts the view's progress afresh.
    const again = cli(server.uri, args.concat(['--drop-existing=true']), { configHome: home });
    expect(again.status, again.out).to.equal(0);
    expect(again.out).to.include(`Load view: ${kept[1]} (made by an earlier load of the same dump and selection that did not finish` +
      ': util.loadDump resumes from its progress file; dropExisting starts it afresh)');
    expect(again.out).to.include(`Load view removed: ${kept[1]}.`);
    expect(fs.existsSync(kept[1])).to.equal(false);
    expect(await ids(server, 'SELECT id FROM shop.orders')).to.deep.equal(idsOf(dir, files.slice(-2)));
  });
});

describe('load view: a partial load killed mid-load resumes with the same command (real Shell, real MySQL)', function () {
  let server;
  before(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (server) await server.query(`DROP SCHEMA IF EXISTS ${BIG_SCHEMA}`);
  });

  it('SIGKILL of mysqlsh: the view and its progress file stay; the same command resumes, loads exactly the chosen rows', async function () {
    this.timeout(300000);
    const big = await makeBigDump(server);
    const home = installPlugin(tempDir('restore-cfg-'));
    const dir = copyDump(big.dir);
    const before = hashSandbox([path.dirname(dir)]);
    const chunks = fs.readdirSync(dir).filter((f) => /^w10big@orders@@?\d+\.tsv\.zst$/.test(f))
      .sort((a, b) => Number(a.replace(/\D+/g, '')) - Number(b.replace(/\D+/g, '')));
    const keep = Math.max(2, chunks.length - 2);
    const args = [`--latest=${BIG_SCHEMA}.orders:${keep}`];
    await killMidLoad(server, dir, args, { configHome: home });
    const views = fs.readdirSync(path.join(home, 'restore', 'views'));
    expect(views).to.have.lengthOf(1);
    const view = path.join(home, 'restore', 'views', views[0]);
    expect(fs.existsSync(path.join(view, 'load-progress.json'))).to.equal(true);
    const r = cli(server.uri, ['load', dir, ...args], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include(`Load view: ${view} (made by an earlier load of the same dump and selection that did not finish`);
    expect(r.out).to.match(/Load progress file detected\. Load will be resumed/);
    expect(r.out).to.include(`Load view removed: ${view}.`);
    const want = chunks.slice(-keep).reduce((n, f) => n + chunkRows(path.join(dir, f)).length, 0);
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${BIG_SCHEMA}.orders`))).to.equal(want);
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${BIG_SCHEMA}.customers`))).to.equal(big.rows.customers);
    expect(diffSandbox(before, hashSandbox([path.dirname(dir)]))).to.deep.equal(UNCHANGED);
  });
});
