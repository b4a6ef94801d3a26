'use strict';
// Faults during a load, made with real mechanisms: a second session KILLs the load's LOAD DATA
// connections as soon as they show up, and the server is shut down mid-load. Each ends with the
// redo log ON and every setting as before, or status naming what is left and revert repairing it.
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, spawnShell, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { startServer } = require('../support/server');
const { serverFingerprint } = require('../support/fingerprint');
const { makeBigDump, BIG_SCHEMA } = require('../support/big-dump');

async function loadDataConnections(server) {
  return (await server.query("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%LOAD DATA%' AND ID <> CONNECTION_ID()"))
    .map((r) => r.ID);
}

// Runs `restore load` in the background and calls act() once the server runs its LOAD DATA.
async function faultMidLoad(server, dir, args, act) {
  const child = spawnShell([server.uri, '--', 'restore', 'load', dir, ...args]);
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise((r) => child.once('exit', (code) => r(code)));
  const until = Date.now() + 60000;
  let ids = [];
  while (!ids.length && Date.now() < until) {
    ids = await loadDataConnections(server).catch(() => []);
    if (!ids.length) await new Promise((r) => setTimeout(r, 50));
  }
  expect(ids.length, `no LOAD DATA showed up; mysqlsh said: ${out}`).to.be.above(0);
  await act(ids);
  return { code: await exited, out };
}

describe('faults mid-load (real Shell, real MySQL)', function () {
  let big;
  before(async function () {
    needs(this, ['shell', 'server']);
    big = await makeBigDump(suiteServer());
  });

  it('a second session KILLs the load\'s connections: the load fails, and the redo log and settings are put back', async function () {
    const server = suiteServer();
    const before = await serverFingerprint(server);
    try {
      const r = await faultMidLoad(server, copyDump(big.dir), ['--preset=fastest', '--force'], async (ids) => {
        for (const id of ids) await server.query(`KILL ${Number(id)}`).catch(() => {});
      });
      expect(r.code, r.out).to.equal(1);
      expect(r.out).to.match(/util\.loadDump failed/);
      expect(r.out).to.not.match(/restore_js\/|\sat \//);
      expect(await serverFingerprint(server)).to.deep.equal(before);
    } finally {
      await server.query(`DROP SCHEMA IF EXISTS ${BIG_SCHEMA}`);
    }
  });

  it('the server shut down mid-load: after a restart, status names what is left and revert puts it back', async function () {
    const own = await startServer();
    try {
      const pristine = await serverFingerprint(own);
      const r = await faultMidLoad(own, copyDump(big.dir), ['--preset=fastest', '--force'], async () => {
        await own.query('SHUTDOWN');
      });
      expect(r.code, r.out).to.equal(1);
      await own.restart();
      const status = cli(own.uri, ['status']);
      expect(status.status, status.out).to.equal(0);
      expect(status.out).to.match(/left behind/);
      const revert = cli(own.uri, ['revert']);
      expect(revert.status, revert.out).to.equal(0);
      expect(await serverFingerprint(own)).to.deep.equal(pristine);
    } finally {
      await own.stop();
    }
  });
});
