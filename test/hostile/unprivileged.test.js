'use strict';
// Class 5 of issue 12 with real file permissions: mysqlsh runs as nobody (setpriv), so an
// unreadable chunk, unreadable metadata, a read-only or unreadable dump directory are what they
// are for a DBA; and a full file system (a tmpfs with few inodes, in a private mount namespace).
// Each case: the exit status, a message naming the path, no traceback or internal location, and
// nothing changed in the sandbox or on the server.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, skipBecause, SAMPLE_SHOP } = require('../support/real');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');
const { installPlugin } = require('../support/shell');
const { chunkRows } = require('../support/dump-facts');
const { CAN, nobodySandbox, cliAsNobody, cliOnFullDisk, openDir } = require('../support/unprivileged');

function expectClean(r) {
  expect(r.out).to.not.match(/Traceback|restore_js\/|\/lib\/|\sat \/|Internal error/);
}

describe('hostile 5: file permissions as an unprivileged user (mysqlsh as nobody)', function () {
  let server;
  let sb;
  let roots;
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    if (!CAN.nobody) skipBecause(this, 'they need root and setpriv (to run mysqlsh as nobody)');
    server = suiteServer();
    sb = nobodySandbox(SAMPLE_SHOP);
    roots = [path.dirname(sb.dump), sb.stateDir];
    await server.query('DROP SCHEMA IF EXISTS shop');
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('an unreadable chunk is named by inspect, and load refuses before anything is dropped or changed', async function () {
    const first = cliAsNobody(sb, server.uri, ['load', sb.dump, '--preset=fastest']);
    expect(first.status, first.out).to.equal(0);
    const rows = await server.value('SELECT COUNT(*) FROM shop.orders');
    fs.chmodSync(path.join(sb.dump, 'shop@orders@3.tsv.zst'), 0o000);
    const before = hashSandbox(roots);
    const fp = await serverFingerprint(server);

    const inspect = cliAsNobody(sb, null, ['inspect', sb.dump]);
    expectClean(inspect);
    expect(inspect.status, inspect.out).to.equal(0);
    expect(inspect.out).to.match(/\[file-unreadable\]/)
      .and.match(/shop@orders@3\.tsv\.zst cannot be read by the user running mysqlsh \(Permission denied\)/)
      .and.match(/Verdict: util\.loadDump would fail: 1 unreadable file\(s\)\./);

    const load = cliAsNobody(sb, server.uri, ['load', sb.dump, '--preset=fastest', '--drop-existing', '--force']);
    expectClean(load);
    expect(load.status, load.out).to.equal(1);
    expect(load.out).to.match(/shop@orders@3\.tsv\.zst \(shop\.orders\) cannot be read: Permission denied: let the user running mysqlsh read it/)
      .and.match(/Nothing was changed/);
    expect(await server.value('SELECT COUNT(*) FROM shop.orders')).to.equal(rows);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    expect(diffSandbox(before, hashSandbox(roots))).to.deep.equal(UNCHANGED);
  });

  it('unreadable metadata and an unreadable dump directory: a clear error naming the path', function () {
    fs.chmodSync(path.join(sb.dump, 'shop@orders.json'), 0o000);
    const meta = cliAsNobody(sb, null, ['inspect', sb.dump]);
    expectClean(meta);
    expect(meta.status, meta.out).to.equal(1);
    expect(meta.out).to.include(`Cannot read ${path.join(sb.dump, 'shop@orders.json')}: Permission denied. Check that the file ` +
      'exists and that the user running mysqlsh may read it.');

    fs.chmodSync(sb.dump, 0o000);
    const dir = cliAsNobody(sb, null, ['inspect', sb.dump]);
    expectClean(dir);
    expect(dir.status, dir.out).to.equal(1);
    expect(dir.out).to.match(new RegExp(`Cannot read the dump directory ${sb.dump.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*Permission denied`));
    fs.chmodSync(sb.dump, 0o755);
  });

  it('a read-only dump directory loads whole and partially, nothing written into it; restore.stub is refused', async function () {
    fs.chmodSync(sb.dump, 0o555);
    const before = hashSandbox([path.dirname(sb.dump)]);
    const load = cliAsNobody(sb, server.uri, ['load', sb.dump, '--preset=fastest']);
    expectClean(load);
    expect(load.status, load.out).to.equal(0);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(12000);
    // util.loadDump's progress file: in the state directory, under a name that a rerun finds again;
    // removed once the load finished.
    expect(load.out).to.match(new RegExp(`"progressFile":"${path.join(sb.stateDir, 'progress')}/load-progress\\..*\\.shop-[0-9a-f]{8}\\.json"`));
    expect(fs.readdirSync(path.join(sb.stateDir, 'progress'))).to.deep.equal([]);
    expect(diffSandbox(before, hashSandbox([path.dirname(sb.dump)]))).to.deep.equal(UNCHANGED);
    await server.query('DROP SCHEMA shop');

    // A partial download on a read-only mount: the stubs go into the load view, not the dump.
    fs.chmodSync(sb.dump, 0o755);
    for (const i of [0, 1, 2]) fs.rmSync(path.join(sb.dump, `shop@orders@${i}.tsv.zst`));
    fs.chmodSync(sb.dump, 0o555);
    const again = hashSandbox([path.dirname(sb.dump)]);
    const partial = cliAsNobody(sb, server.uri, ['load', sb.dump, '--latest=shop.orders:2', '--preset=fastest']);
    expectClean(partial);
    expect(partial.status, partial.out).to.equal(0);
    const want = ['shop@orders@10.tsv.zst', 'shop@orders@@11.tsv.zst'].reduce((n, f) => n + chunkRows(path.join(SAMPLE_SHOP, f)).length, 0);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(want);
    expect(partial.out).to.match(/Load view removed: /);
    expect(fs.readdirSync(path.join(sb.stateDir, 'views'))).to.deep.equal([]);
    expect(diffSandbox(again, hashSandbox([path.dirname(sb.dump)]))).to.deep.equal(UNCHANGED);

    // restore.stub writes into the directory it is given: refused before anything.
    const fp = await serverFingerprint(server);
    const r = cliAsNobody(sb, null, ['stub', sb.dump, '--latest=shop.orders:2']);
    expectClean(r);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.include(`The dump directory ${sb.dump} cannot be written by the user running mysqlsh, and 3 missing ` +
      'chunk(s) need a stub there (shop@orders@0.tsv.zst, …).').and.include('Nothing was changed.');
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    expect(diffSandbox(again, hashSandbox([path.dirname(sb.dump)]))).to.deep.equal(UNCHANGED);
    fs.chmodSync(sb.dump, 0o755);
  });
});

describe('hostile 5: a full file system while the load view is built (tmpfs in a private mount namespace)', function () {
  let server;
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    if (!CAN.tmpfs) skipBecause(this, 'they need unshare -rm (user and mount namespaces, for a small tmpfs)');
    server = suiteServer();
    await server.query('DROP SCHEMA IF EXISTS shop');
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('the load view cannot be built: the load stops in the prepare phase, nothing changed on the server or in the dump', async function () {
    const dump = path.join(openDir('restore-partial-'), 'shop');
    fs.cpSync(SAMPLE_SHOP, dump, { recursive: true });
    for (const i of [0, 1, 2, 3, 4, 5]) fs.rmSync(path.join(dump, `shop@orders@${i}.tsv.zst`));
    // The config home (where load views go) on a tmpfs with room for a few more files only.
    const home = installPlugin(openDir('restore-cfg-'));
    const mountPoint = openDir('restore-mnt-');
    const before = hashSandbox([path.dirname(dump)]);
    const fp = await serverFingerprint(server);
    const r = cliOnFullDisk({ src: home, dir: mountPoint, spare: 8, uri: server.uri, configHome: mountPoint,
      args: ['load', dump, '--latest=shop.orders:2', '--preset=fastest'] });
    expectClean(r);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(/restore\.load failed in the prepare phase: .*cannot create the view entry \(No space left on device\)/)
      .and.match(/No server setting was changed/);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    expect(diffSandbox(before, hashSandbox([path.dirname(dump)]))).to.deep.equal(UNCHANGED);
  });
});
