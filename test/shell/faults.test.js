'use strict';
// Faults during a load, made with real mechanisms: a second session KILLs the load's LOAD DATA
// connections as soon as they show up, and the server is shut down mid-load. Each ends with the
// redo log ON and every setting as before, or status naming what is left and revert repairing it.
const { expect } = require('chai');
const { needs } = require('../support/real');
const fs = require('fs');
const path = require('path');
const { cli, spawnShell, copyDump, defaultHome, tempDir } = require('../support/shell');
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

// Ctrl-C or KILL QUERY while a statement's rows are read: the Shell raises the server's error from
// fetchOne, not from runSql. It is a failed statement (the message alone), not "Internal error
// of the restore plugin … Please report it".
describe('a statement killed while its rows are read (real Shell, real MySQL)', function () {
  before(function () { needs(this, ['shell', 'server']); });

  it('is a failed statement with the server\'s error 1317, not a defect of the plugin', async function () {
    this.timeout(60000);
    const server = suiteServer();
    const host = path.join(defaultHome(), 'plugins', 'restore', 'restore_js', 'host.js');
    const dir = tempDir('restore-kill-');
    const file = path.join(dir, 'kill.js');
    // mysqlsh's require takes a path relative to the script, not an absolute one.
    fs.writeFileSync(file, `var h = require(${JSON.stringify('./' + path.relative(dir, host))}).makeHost(restore);
try { h.sql.run("SELECT SLEEP(1) AS restore_kill_probe FROM (VALUES ROW(1),ROW(2),ROW(3),ROW(4),ROW(5),ROW(6)) t"); println('NO ERROR'); }
catch (e) { println('CAUGHT ' + JSON.stringify({sql: !!e.isSqlError, code: e.code, message: e.message})); }
`);
    const child = spawnShell([server.uri, '--js', '-f', file]);
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const exited = new Promise((r) => child.once('exit', (code) => r(code)));
    // Killed once its first rows were sent (SLEEP(1) per row): the error arrives while fetching.
    let ids = [];
    const until = Date.now() + 30000;
    while (!ids.length && Date.now() < until) {
      ids = (await server.query("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE '%restore_kill_probe%' AND ID <> CONNECTION_ID()"))
        .map((r) => r.ID);
      if (!ids.length) await new Promise((r) => setTimeout(r, 50));
    }
    expect(ids.length, out).to.equal(1);
    await new Promise((r) => setTimeout(r, 2500));
    await server.query(`KILL QUERY ${Number(ids[0])}`);
    expect(await exited, out).to.equal(0);
    const m = /CAUGHT (.*)/.exec(out);
    expect(m, out).to.not.equal(null);
    expect(JSON.parse(m[1])).to.deep.equal({ sql: true, code: 1317, message: 'Query execution was interrupted' });
  });
});
