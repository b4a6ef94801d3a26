'use strict';
// restore.load of the bundled sample dump in the real mysqlsh on a real MySQL: each built-in
// preset, rows exact, and every server setting as it was afterwards.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');

const SHOP_ROWS = { customers: 1000, orders: 12000, products: 100 };

describe('restore load (real Shell, real MySQL)', function () {
  let server;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  for (const preset of ['safe', 'fastest', 'dev']) {
    it(`--preset=${preset} loads every row and leaves the server as it was`, async function () {
      const before = await serverFingerprint(server);
      const dump = copyDump(SAMPLE_SHOP);
      const r = cli(server.uri, ['load', dump, `--preset=${preset}`, '--force']);
      expect(r.status, r.out).to.equal(0);
      for (const [t, n] of Object.entries(SHOP_ROWS)) {
        expect(Number(await server.value(`SELECT COUNT(*) FROM shop.\`${t}\``)), t).to.equal(n);
      }
      expect(await serverFingerprint(server)).to.deep.equal(before);
      expect(r.stdout).to.not.match(/^\s*\{\s*$/m, 'the report only, no dictionary printed after it');
    });
  }

  it('the report\'s rows are each table\'s COUNT(*): as loaded (util.loadDump\'s progress file) where nothing changed the table after, counted where a mask did', async function () {
    const dump = copyDump(SAMPLE_SHOP);
    const r = cli(server.uri, ['load', dump, '--preset=fastest', '--force', '--mask=shop.customers.email:text', '--output-format=json']);
    expect(r.status, r.out).to.equal(0);
    const report = JSON.parse(r.stdout);
    expect(report.snapshot.mask.tables.map((m) => m.table), 'the mask is an UPDATE after the load').to.deep.equal(['customers']);
    const got = {};
    for (const t of report.tables) {
      got[t.table] = [t.rows, t.source];
      expect(t.rows, t.table).to.equal(Number(await server.value(`SELECT COUNT(*) FROM shop.\`${t.table}\``)));
    }
    expect(got.customers).to.deep.equal([SHOP_ROWS.customers, 'counted']);
    expect(got.orders).to.deep.equal([SHOP_ROWS.orders, 'loaded']);
    expect(got.products).to.deep.equal([SHOP_ROWS.products, 'loaded']);
    expect(Object.values(got).map((g) => g[1]).filter((s) => s === 'loaded').length).to.be.above(3);
  });
});
