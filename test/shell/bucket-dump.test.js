'use strict';
// A dump in an S3-compatible bucket (issue 37): a real S3 server on loopback (SeaweedFS, or moto's
// standalone server; both check request signatures), filled by the real
// Shell's util.dumpSchemas/dumpTables straight to it; the plugin talks to it through a recording
// proxy that counts every request and fails the test on anything that could write. latest: 2 of
// a table of about 12 chunks (the dumper chunks by the server's row estimate) reads the metadata and
// exactly those two chunks; the newest complete dump of a
// prefix of nightly dumps; a full load read by util.loadDump from the bucket itself; the errors a
// user meets, as sentences.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, skipBecause, SAMPLE_SHOP } = require('../support/real');
const { cli, runJs, tempDir, installPlugin, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { chunkRows, DATA_FILE } = require('../support/dump-facts');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { startS3Server, s3Missing } = require('../support/s3-server');
const { startRecordingProxy } = require('../support/recording-proxy');

const BUCKET = 'dumps';
const NIGHT = 'nightly/2026-11-23';

function chunkNumber(name) { return Number(/@@?(\d+)\.tsv\.zst$/.exec(name)[1]); }

describe('a dump in an S3-compatible bucket (a real S3 server, real Shell, real MySQL)', function () {
  this.timeout(300000);
  let server;
  let s3;
  let proxy;
  let home;
  let orders; // the orders chunks of NIGHT, in order: [{name, rows}]
  before(async function () {
    needs(this, ['shell', 'server']);
    const why = s3Missing();
    if (why) skipBecause(this, why);
    server = suiteServer();
    s3 = await startS3Server();
    proxy = await startRecordingProxy({ port: s3.port });
    await s3.createBucket(BUCKET);
    home = installPlugin(tempDir('restore-cfg-'));
    // The shop into the server, then three nights dumped by the real Shell straight to the bucket:
    // two complete, the newest one unfinished (its @.done.json removed, as while the Shell writes).
    const seeded = cli(server.uri, ['load', copyDump(SAMPLE_SHOP)], { configHome: home });
    expect(seeded.status, seeded.out).to.equal(0);
    await server.query('ANALYZE TABLE shop.orders, shop.customers'); // the dumper chunks by the row estimate
    const to = (prefix) => `{s3BucketName: '${BUCKET}', s3EndpointOverride: '${s3.endpoint}', threads: 2, showProgress: false}`;
    await withShellDumper(server, async () => {
      const r = runJs(server.uri, `
        util.dumpTables('shop', ['customers'], 'nightly/2026-11-22', ${to()});
        os.sleep(1.1);
        util.dumpSchemas(['shop'], '${NIGHT}', Object.assign(${to()}, {bytesPerChunk: '128k'}));
        os.sleep(1.1);
        util.dumpTables('shop', ['customers'], 'nightly/2026-11-24', ${to()}); 1`, { env: { ...DUMP_ENV, ...s3.env } });
      expect(r.error, r.out).to.equal(null);
    });
    await s3.deleteObject(BUCKET, 'nightly/2026-11-24/@.done.json');
    await server.query('DROP SCHEMA shop');
    // What the bucket holds, read by the test itself (not through the proxy).
    const keys = await s3.listKeys(BUCKET, `${NIGHT}/shop@orders@`);
    const work = tempDir('restore-chunks-');
    orders = [];
    for (const k of keys.filter((x) => /\.tsv\.zst$/.test(x)).sort((a, b) => chunkNumber(a) - chunkNumber(b))) {
      const file = path.join(work, path.basename(k));
      fs.writeFileSync(file, await s3.getObject(BUCKET, k));
      orders.push({ name: path.basename(k), rows: chunkRows(file).map((r) => r[0]) });
    }
  });
  after(async function () {
    if (proxy) await proxy.stop();
    if (s3) await s3.stop();
  });
  beforeEach(function () { if (proxy) proxy.reset(); });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
    // Nothing is ever written to the bucket: no PUT, POST or DELETE reached it from the plugin or the Shell.
    if (proxy) expect(proxy.writes(), 'requests that could write to the bucket').to.deep.equal([]);
  });

  const s3Args = () => [`--s3-bucket-name=${BUCKET}`, `--s3-endpoint-override=${proxy.endpoint}`];
  const dataGets = () => proxy.requests.filter((r) => r.method === 'GET' && DATA_FILE.test(r.path)).map((r) => path.basename(r.path)).sort();

  it('newest on a prefix, latest: 2 of a table of ~12 chunks: the metadata and exactly those two chunks are read; the next run reads no chunk again', async function () {
    expect(orders.length).to.be.within(4, 40); // 12 or 14 seen
    const chosen = orders.slice(-2);
    const r = cli(server.uri, ['load', 'nightly', '--newest', ...s3Args(), '--include-tables=shop.orders', '--latest=shop.orders:2'],
      { configHome: home, env: s3.env });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/Newest complete dump in s3:\/\/dumps\/nightly: 2026-11-23 \(taken [^)]+\) of 2; unfinished, skipped: 2026-11-24/);
    expect(dataGets()).to.deep.equal(chosen.map((c) => c.name).sort());
    const gets = proxy.requests.filter((r) => r.method === 'GET');
    const objectGets = gets.filter((x) => !/list-type=2/.test(x.query));
    // Every object read is metadata (.json, .sql) or one of the two chunks.
    expect(objectGets.filter((x) => !/\.(json|sql)$/.test(x.path) && !DATA_FILE.test(x.path)).map((x) => x.path)).to.deep.equal([]);
    const ids = (await server.query('SELECT id FROM shop.orders')).map((x) => String(x.id)).sort();
    expect(ids).to.deep.equal(chosen.flatMap((c) => c.rows).sort());
    console.log(`      ${orders.length} chunks; requests: ${proxy.requests.length} (${gets.length - objectGets.length} listings, ${objectGets.length} object GETs of which ` +
      `${dataGets().length} data files, ${proxy.requests.filter((x) => x.method === 'HEAD').length} HEAD); data bytes read: ` +
      `${proxy.requests.filter((x) => DATA_FILE.test(x.path)).reduce((n, x) => n + x.bytes, 0)}`);
    // Again: the chunks come from the cache.
    await server.query('DROP SCHEMA shop');
    proxy.reset();
    const again = cli(server.uri, ['load', `${NIGHT}`, ...s3Args(), '--include-tables=shop.orders', '--latest=shop.orders:2'],
      { configHome: home, env: s3.env });
    expect(again.status, again.out).to.equal(0);
    expect(dataGets()).to.deep.equal([]);
    expect(again.out).to.include('Fetched 2 data file(s) from s3://dumps/nightly/2026-11-23 (0 transferred, 2 already in the cache)');
    // restore.view: the same view for the user's own util.loadDump, which reads no bucket.
    const view = cli(null, ['view', NIGHT, ...s3Args(), '--latest=shop.orders:2', '--include-tables=shop.orders',
      `--cache-dir=${path.join(tempDir(), 'cache')}`], { configHome: home, env: s3.env });
    expect(view.status, view.out).to.equal(0);
    const hint = /Load it with: (util\.loadDump\(.*\))/.exec(view.out);
    expect(hint, view.out).to.not.equal(null);
    expect(hint[1]).to.not.include('s3');
    // restore.inspect checks every data file: it says so, fetches them all, and judges the dump.
    const ins = cli(null, ['inspect', NIGHT, ...s3Args(), `--cache-dir=${path.join(tempDir(), 'cache')}`], { configHome: home, env: s3.env });
    expect(ins.status, ins.out).to.equal(0);
    expect(ins.out).to.match(/restore\.inspect reads every data file: fetching \d+ file\(s\), .* from s3:\/\/dumps\/nightly\/2026-11-23 into /);
    expect(ins.out).to.include('Verdict: util.loadDump would load this dump.');
  });

  it('a full load is read by util.loadDump from the bucket itself, its progress file outside the bucket', async function () {
    const r = cli(server.uri, ['load', NIGHT, ...s3Args()], { configHome: home, env: s3.env });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include('util.loadDump reads it there');
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(orders.reduce((n, c) => n + c.rows.length, 0));
    // The Shell read every orders chunk from the bucket: no local copy was made.
    expect(dataGets().filter((n) => /^shop@orders@/.test(n))).to.have.lengthOf(orders.length);
    const cache = path.join(home, 'restore', 'cache');
    const cached = fs.readdirSync(cache).filter((d) => d !== 'folders').flatMap((d) => fs.readdirSync(path.join(cache, d)));
    expect(cached.filter((f) => DATA_FILE.test(f)).filter((f) => !orders.slice(-2).some((c) => c.name === f))).to.deep.equal([]);
  });

  it('orphans "parents": the orders chunks read for parents are fetched from the bucket too, and no other file', async function () {
    const r = cli(server.uri, ['load', NIGHT, ...s3Args(), '--latest=shop.orders:2', '--orphans=parents',
      '--include-tables=shop.orders,shop.`order items`', '--relations=shop.`order items`.order_id:shop.orders.id'],
    { configHome: home, env: s3.env });
    expect(r.status, r.out).to.equal(0);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.`order items` i LEFT JOIN shop.orders o ON o.id = i.order_id ' +
      'WHERE o.id IS NULL'))).to.equal(0);
    const got = dataGets();
    expect(got.filter((n) => !/^shop@orders@/.test(n) && !/^shop@order%20items@/.test(n))).to.deep.equal([]);
    // Beyond the two chosen ones (in the cache since the first test): chunks read for parents.
    expect(got.filter((n) => /^shop@orders@/.test(n)).length).to.be.above(0);
    expect(got.filter((n) => orders.slice(-2).some((c) => c.name === n))).to.deep.equal([]);
  });

  it('since: the probed chunks\' heads are read by ranged GETs, nothing fetched whole into the cache', function () {
    const mid = orders[Math.floor(orders.length / 2)];
    const cache = path.join(tempDir(), 'cache');
    const r = cli(null, ['plan', NIGHT, ...s3Args(), '--include-tables=shop.orders', `--since=shop.orders.id:${mid.rows[1]}`,
      `--cache-dir=${cache}`], { configHome: home, env: s3.env });
    expect(r.status, r.out).to.equal(0);
    const heads = /Chunk heads read from the bucket \(ranged GETs\): (\d+) object\(s\), only their first bytes/.exec(r.out);
    expect(heads, r.out).to.not.equal(null);
    expect(dataGets()).to.have.lengthOf(Number(heads[1]));
    expect(Number(heads[1])).to.be.within(1, Math.ceil(Math.log2(orders.length)) + 2);
    expect(fs.readdirSync(cache).filter((f) => DATA_FILE.test(f))).to.deep.equal([]);
  });

  it('says what is wrong, in sentences: keys, bucket, prefix, an unfinished dump, an endpoint that does not answer', async function () {
    const plan = (args, env = s3.env) => cli(null, ['plan', ...args], { configHome: home, env });
    let r = plan([NIGHT, ...s3Args(), '--latest=shop.orders:2']);
    expect(r.status, r.out).to.equal(0);
    expect(r.out, r.out).to.match(new RegExp(`shop\\.orders\\s+2\\s+2\\s+\\d\\s+${orders.length - 2}\\b`));
    expect(r.out).to.include('restore.load of s3://dumps/nightly/2026-11-23 with the same selection fetches them');
    r = plan([NIGHT, ...s3Args()], { ...s3.env, AWS_SECRET_ACCESS_KEY: 'wrong-secret' });
    expect(r.status).to.equal(1);
    expect(r.out).to.match(/The bucket dumps at http:\/\/127\.0\.0\.1:\d+ refused the credentials \(SignatureDoesNotMatch, keys from environment\)/);
    r = plan([NIGHT, '--s3-bucket-name=no-such-bucket', `--s3-endpoint-override=${proxy.endpoint}`]);
    expect(r.out).to.include('There is no bucket no-such-bucket at');
    r = plan(['nightly/2026-01-01', ...s3Args()]);
    expect(r.out).to.include('There is nothing under s3://dumps/nightly/2026-01-01: check the prefix');
    r = plan(['nightly', ...s3Args()]);
    expect(r.out).to.include('s3://dumps/nightly is not a MySQL Shell dump: it has no @.json');
    expect(r.out).to.include('give newest: true');
    r = plan(['nightly/2026-11-24', ...s3Args()]);
    expect(r.status).to.equal(1);
    expect(r.out).to.match(/@\.done\.json/);
    r = plan([NIGHT, `--s3-bucket-name=${BUCKET}`, '--s3-endpoint-override=http://127.0.0.1:9']);
    expect(r.out).to.include('The endpoint http://127.0.0.1:9 does not answer');
    r = plan([NIGHT, ...s3Args()], { AWS_SHARED_CREDENTIALS_FILE: '/nonexistent', AWS_CONFIG_FILE: '/nonexistent', HOME: tempDir() });
    expect(r.out).to.include('No AWS access and secret keys were found for bucket dumps');
    expect(r.out).to.not.match(/Traceback|\.py"|\.js:\d+/);
    // A listing cut short (a policy that hides the rest): the proxy marks a page truncated without a way on.
    const cut = await startRecordingProxy({ port: s3.port, cutListings: true });
    try {
      r = plan([NIGHT, `--s3-bucket-name=${BUCKET}`, `--s3-endpoint-override=${cut.endpoint}`]);
      expect(r.out).to.include('The listing of s3://dumps/nightly/2026-11-23/ was cut off');
    } finally {
      await cut.stop();
    }
  });
});
