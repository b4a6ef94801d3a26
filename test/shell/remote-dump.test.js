'use strict';
// A dump on a backup host (issue 19): the real rsync over the real ssh (sshd on 127.0.0.1 with a
// throwaway key) and from a real rsync daemon; the newest complete dump of a folder of nightly
// dumps; only the metadata and the chosen data files fetched, into a cache reused by the next
// run; the backup untouched; what a missing rsync or a refused login says.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, skipBecause, SAMPLE_SHOP } = require('../support/real');
const { cli, tempDir, installPlugin } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');
const { chunkRows, DATA_FILE } = require('../support/dump-facts');
const { remoteMissing, startSshHost, startRsyncDaemon } = require('../support/remote-host');
const { nightlyDumps } = require('../support/nightly-dumps');

const ORDERS_CHOSEN = ['shop@orders@10.tsv.zst', 'shop@orders@@11.tsv.zst'];

// A folder of nightly dumps: two complete ones and a newer unfinished one.
function backups() {
  return nightlyDumps(tempDir('restore-backups-'), SAMPLE_SHOP, [['2026-11-22', '2026-11-22 01:00:00', true],
    ['2026-11-23', '2026-11-23 01:00:00', true], ['2026-11-24', '2026-11-24 01:00:00', false]]);
}

async function orderIds(server) {
  return (await server.query('SELECT id FROM shop.orders')).map((x) => String(x.id)).sort();
}

function chosenIds() {
  return ORDERS_CHOSEN.flatMap((f) => chunkRows(path.join(SAMPLE_SHOP, f)).map((r) => r[0])).sort();
}

describe('a dump on a backup host: rsync over ssh and from an rsync daemon (real Shell, real MySQL)', function () {
  this.timeout(300000);
  let server;
  let ssh;
  let daemon;
  let folder;
  before(async function () {
    needs(this, ['shell', 'server']);
    const why = remoteMissing();
    if (why) skipBecause(this, why);
    server = suiteServer();
    folder = backups();
    ssh = await startSshHost();
    daemon = await startRsyncDaemon({ backups: folder });
  });
  after(async function () {
    if (ssh) await ssh.stop();
    if (daemon) await daemon.stop();
  });
  beforeEach(async function () { if (server) await server.query('DROP SCHEMA IF EXISTS shop'); });
  afterEach(async function () { if (server) await server.query('DROP SCHEMA IF EXISTS shop'); });

  it('newest over ssh: the newest complete dump, only its metadata and chosen files fetched; the next run reuses them', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    const before = hashSandbox([folder]);
    const src = `root@127.0.0.1:${folder}`;
    const r = cli(server.uri, ['load', src, '--newest', '--latest=shop.orders:2', `--rsh=${ssh.rsh}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include(`Newest complete dump in ${src}: 2026-11-23 (taken 2026-11-23 01:00:00) of 2; unfinished, skipped: 2026-11-24`);
    expect(r.out).to.match(/Fetched 11 data file\(s\) from root@127\.0\.0\.1:.*\/2026-11-23 \(11 transferred, 0 already in the cache\)/);
    expect(await orderIds(server)).to.deep.equal(chosenIds());
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
    // The cache: every metadata file, the chosen data files, nothing else.
    const caches = fs.readdirSync(path.join(home, 'restore', 'cache')).filter((d) => d !== 'folders');
    expect(caches).to.have.lengthOf(1);
    const cache = path.join(home, 'restore', 'cache', caches[0]);
    const dataThere = fs.readdirSync(cache).filter((f) => DATA_FILE.test(f)).sort();
    const dataAll = fs.readdirSync(SAMPLE_SHOP).filter((f) => DATA_FILE.test(f));
    const want = dataAll.filter((f) => !/^shop@orders@/.test(f) || ORDERS_CHOSEN.includes(f)).sort();
    expect(dataThere).to.deep.equal(want);
    for (const f of fs.readdirSync(SAMPLE_SHOP).filter((n) => /\.(json|sql)$/.test(n))) {
      expect(fs.readFileSync(path.join(cache, f)).equals(fs.readFileSync(path.join(folder, '2026-11-23', f))), f).to.equal(true);
    }
    expect(fs.readdirSync(path.join(home, 'restore', 'views'))).to.deep.equal([]);
    // The same load again (RSYNC_RSH this time): nothing is transferred again.
    await server.query('DROP SCHEMA shop');
    const again = cli(server.uri, ['load', src, '--newest', '--latest=shop.orders:2'], { configHome: home, env: ssh.env });
    expect(again.status, again.out).to.equal(0);
    expect(again.out).to.match(/Fetched 11 data file\(s\) .* \(0 transferred, 11 already in the cache\)/);
    expect(await orderIds(server)).to.deep.equal(chosenIds());
    expect(diffSandbox(before, hashSandbox([folder]))).to.deep.equal(UNCHANGED);
  });

  it('from an rsync daemon into a cacheDir of one\'s own; plan says what a load would fetch', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    const url = daemon.url('backups', '2026-11-22');
    const cacheDir = path.join(tempDir('restore-cache-'), 'c');
    const plan = cli(null, ['plan', url, '--latest=shop.orders:2', `--cache-dir=${cacheDir}`], { configHome: home });
    expect(plan.status, plan.out).to.equal(0);
    expect(plan.out).to.include('Files to fetch: 11').and.include(`restore.load of ${url} with the same selection fetches them into ${cacheDir}.`);
    expect(fs.readdirSync(cacheDir).filter((f) => DATA_FILE.test(f))).to.deep.equal([]);
    const r = cli(server.uri, ['load', url, '--latest=shop.orders:2', `--cache-dir=${cacheDir}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(await orderIds(server)).to.deep.equal(chosenIds());
    // restore.view on the filled cache: nothing transferred again; the bytes are the host's.
    const view = cli(null, ['view', url, '--latest=shop.orders:2', `--cache-dir=${cacheDir}`,
      `--view-dir=${path.join(tempDir('restore-view-'), 'v')}`, '--output-format=json'], { configHome: home });
    expect(view.status, view.out).to.equal(0);
    const fetched = fs.readdirSync(cacheDir).filter((f) => DATA_FILE.test(f));
    const bytes = fetched.reduce((n, f) => n + fs.statSync(path.join(folder, '2026-11-22', f)).size, 0);
    expect(JSON.parse(view.stdout).fetched).to.deep.equal({ files: 11, transferred: 0, bytes });
    // A directory the plugin did not make is never a cache: rsync would write over its files.
    const foreign = tempDir('restore-foreign-');
    fs.writeFileSync(path.join(foreign, '@.json'), 'mine');
    const refused = cli(server.uri, ['load', url, '--latest=shop.orders:2', `--cache-dir=${foreign}`], { configHome: home });
    expect(refused.status, refused.out).to.equal(1);
    expect(refused.out).to.include(`cacheDir ${foreign} exists and is not a cache made by the restore plugin`);
    expect(fs.readFileSync(path.join(foreign, '@.json'), 'utf8')).to.equal('mine');
  });

  it('a refused ssh login and a missing rsync are told, with what to do; nothing changes', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    const fp = await serverFingerprint(server);
    const noKey = `ssh -p ${ssh.port} -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o IdentitiesOnly=yes -o IdentityFile=/dev/null`;
    const r = cli(server.uri, ['load', `root@127.0.0.1:${folder}/2026-11-23`, '--latest=shop.orders:2', `--rsh=${noKey}`], { configHome: home });
    expect(r.status, r.out).to.equal(1);
    // rsync exits 255 (ssh failed) or, when ssh's end races its own stream, 12: both are the refused login.
    expect(r.out, r.out).to.include(`rsync failed listing root@127.0.0.1:${folder}/2026-11-23 (exit `).and.match(/\(exit (255|12)\): /);
    expect(r.out, r.out).to.include('Permission denied (publickey)')
      .and.include('ssh could not log in: set up key-based login for this host (ssh-copy-id), or give the remote shell with the rsh option');
    // Every program of this PATH but rsync.
    const bin = tempDir('restore-path-');
    for (const dir of process.env.PATH.split(':').filter((d) => fs.existsSync(d))) {
      for (const tool of fs.readdirSync(dir)) {
        if (tool !== 'rsync' && !fs.existsSync(path.join(bin, tool))) fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
      }
    }
    const none = cli(server.uri, ['load', daemon.url('backups', '2026-11-23'), '--latest=shop.orders:2'],
      { configHome: home, env: { PATH: bin } });
    expect(none.status, none.out).to.equal(1);
    expect(none.out).to.include('A remote dump is fetched with the rsync program, and it is not on PATH. Install it (apt-get install rsync');
    expect(none.out).to.not.match(/Traceback|restore_js\/|\/lib\/|\sat \//);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
  });
});
