'use strict';
// restore dump in the real mysqlsh (the real util.dumpSchemas does the dumping) with each dump
// preset, and a round trip dump -> load that gives identical CHECKSUM TABLE; then the main flow
// under every other Shell bundle in ../shared/mysqlsh (8.4.3 LTS).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, ROOT, SAMPLE_SHOP, shellBundles } = require('../support/real');
let shopCopyDir = null; // the sample dump, copied once: never given to the Shell in place
const shopCopy = () => (shopCopyDir && require('fs').existsSync(shopCopyDir) ? shopCopyDir : (shopCopyDir = require('../support/shell').copyDump(SAMPLE_SHOP)));
const { cli, runJs, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');

const DUMP_ENV = { MYSQLSH_ALLOW_NEWER_SERVER: '1' }; // the Shell (9.1) is older than the server (9.7)

async function checksums(server, schema) {
  const tables = (await server.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? ' +
    "AND TABLE_TYPE = 'BASE TABLE' ORDER BY 1", [schema])).map((x) => x.t);
  const out = {};
  for (const t of tables) out[t] = String((await server.query(`CHECKSUM TABLE \`${schema}\`.\`${t.replace(/`/g, '``')}\``))[0].Checksum);
  return out;
}

function seedShop(uri) {
  const seed = path.join(ROOT, 'test', 'e2e', 'shop-seed.js');
  const r = runJs(uri, `var module = {exports: {}}; eval(os.loadTextFile(${JSON.stringify(seed)}));
    module.exports.seedShop(shell.getSession(), 'shop', {orders: 3000}); null`);
  if (r.error) throw new Error(r.error.message);
}

describe('restore dump (real Shell, real MySQL)', function () {
  let server;
  let explain = null;
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    // Shell 9.1 reads EXPLAIN's row estimate in the JSON layout of version 1 (9.7 defaults to 2).
    explain = await server.value('SELECT @@GLOBAL.explain_json_format_version');
    await server.query('SET GLOBAL explain_json_format_version = 1');
  });
  afterEach(async function () {
    if (!server) return;
    if (explain !== null) await server.query(`SET GLOBAL explain_json_format_version = ${Number(explain)}`);
    await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('each dump preset reaches util.dumpSchemas, and dump -> load gives identical CHECKSUM TABLE', async function () {
    seedShop(server.uri);
    await server.query('ANALYZE TABLE shop.orders, shop.customers');
    const before = await checksums(server, 'shop');
    expect(Object.keys(before)).to.include.members(['orders', 'customers', 'order items']);
    const work = tempDir('restore-dumps-');
    const expectations = {
      backup: (meta) => { expect(meta.bytesPerChunk).to.equal(100000000); expect(meta.options.compression).to.equal('zstd'); },
      'dev-snapshot': (meta) => expect(meta.compatibilityOptions).to.include('strip_definers'),
    };
    for (const preset of Object.keys(expectations)) {
      const dir = path.join(work, preset);
      const r = cli(server.uri, ['dump', dir, `--preset=${preset}`, '--schemas=shop'], { env: DUMP_ENV });
      expect(r.status, r.out).to.equal(0);
      expect(fs.existsSync(path.join(dir, '@.done.json')), 'a finished dump').to.equal(true);
      expectations[preset](JSON.parse(fs.readFileSync(path.join(dir, '@.json'), 'utf8')));
    }
    await server.query('DROP SCHEMA shop');
    const load = cli(server.uri, ['load', path.join(work, 'backup'), '--preset=fastest', '--force']);
    expect(load.status, load.out).to.equal(0);
    expect(await checksums(server, 'shop')).to.deep.equal(before);
  });
});

describe('the main flow under every Shell bundle in ../shared/mysqlsh', function () {
  const bundles = shellBundles().slice(1); // the newest one is the default the other tests use
  let server;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () { if (server) await server.query('DROP SCHEMA IF EXISTS shop'); });

  for (const bundle of bundles) {
    it(`${path.basename(bundle)}: inspect, then a partial latest load and the server as it was`, async function () {
      const before = await serverFingerprint(server);
      const version = runJs(null, 'restore.version({outputFormat: "none"})', { bundle });
      expect(version.error, version.out).to.equal(null);
      const inspect = cli(null, ['inspect', shopCopy()], { bundle });
      expect(inspect.status, inspect.out).to.equal(0);
      expect(inspect.stdout).to.match(/Verdict: util\.loadDump would load this dump\./);
      const dump = copyDump(shopCopy());
      // Only the newest two chunks of orders were fetched (@10 and @@11).
      for (const f of fs.readdirSync(dump)) if (/^shop@orders@\d+\.tsv\.zst$/.test(f) && !/@10\./.test(f)) fs.rmSync(path.join(dump, f));
      const load = cli(server.uri, ['load', dump, '--latest=shop.orders:2', '--preset=fastest', '--force'], { bundle });
      expect(load.status, load.out).to.equal(0);
      const n = Number(await server.value('SELECT COUNT(*) FROM shop.orders'));
      expect(n).to.be.above(0).and.below(12000);
      expect(Number(await server.value('SELECT MAX(id) FROM shop.orders'))).to.equal(12000);
      expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
      expect(await serverFingerprint(server)).to.deep.equal(before);
    });
  }
});
