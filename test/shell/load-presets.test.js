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
});
