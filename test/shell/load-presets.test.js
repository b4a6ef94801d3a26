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

  it('a sessionInitSql statement that fails is refused before anything changes, naming it and the server\'s error (a dry run too)', async function () {
    const before = await serverFingerprint(server);
    const init = "--session-init-sql=SET @restore_test = 1,SET SESSION sort_buffer_size = 'big'";
    for (const extra of [[], ['--dry-run']]) {
      const r = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force', init, ...extra]);
      expect(r.status, r.out).to.equal(1);
      expect(r.out.trimEnd().split('\n').pop()).to.match(new RegExp('^ERROR: .*sessionInitSql statement 2 of 2 fails on this server: ' +
        '"SET SESSION sort_buffer_size = \'big\'": MySQL Error 1232: Incorrect argument type to variable \'sort_buffer_size\'\\. ' +
        '.*Fix or remove the statement\\. Nothing was changed\\.$'));
      expect(r.out, 'util.loadDump never ran, no setting was changed').to.not.match(/Loading DDL|Settings changed for the load|OFF during the load/);
    }
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(before);
  });

  it('a sessionInitSql statement not tried before the load (it reads a table) fails in util.loadDump: the last line names the error and the list\'s context', async function () {
    const before = await serverFingerprint(server);
    const r = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force',
      '--session-init-sql=SET @restore_test = 1,SET @restore_missing = (SELECT no_such_column)']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out.trimEnd().split('\n').pop()).to.match(new RegExp('^ERROR: .*util\\.loadDump failed: .*MySQL Error 1054.*no_such_column.* ' +
      'sessionInitSql: statement 1 of 2 ran without an error on a session of the plugin\'s own before the load; statement 2 was not ' +
      'tried before the load \\(it calls a function or reads a table, which may act beyond its session\\)\\. ' +
      'The redo log and the server settings were put back as they were\\.$'));
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(before);
  });

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
