'use strict';
// Class 7: two restores at once. The state file names its owner (the server connection making
// the changes); while that connection lives, revert and a second load refuse, and status says a
// restore is running. Once it is gone (SIGKILL of its mysqlsh), revert puts the server back.
const path = require('path');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, spawnShell, installPlugin, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

async function waitUntil(cond, ms) {
  const until = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('hostile: two restores at once (real Shell, real MySQL)', function () {
  let server;
  let holder = null;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (holder) { holder.kill('SIGKILL'); holder = null; }
    if (server && (await server.redoLog()) === 'OFF') await server.query('ALTER INSTANCE ENABLE INNODB REDO_LOG');
  });

  it('refuses to revert or load over a live restore, and reverts once its mysqlsh is killed', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    // A session that disabled the redo log and is still connected, as a load in progress is.
    holder = spawnShell([server.uri, '--js', '-e', 'restore.disableRedoLog({force: true}); println("HOLDING"); os.sleep(120)'],
      { configHome: home });
    let out = '';
    holder.stdout.on('data', (d) => { out += d; });
    await waitUntil(async () => out.includes('HOLDING'), 60000);
    expect(await server.redoLog()).to.equal('OFF');

    const revert = cli(server.uri, ['revert'], { configHome: home });
    expect(revert.status, revert.out).to.equal(1);
    expect(revert.out).to.match(/A restore is running on this server right now \(connection \d+/);
    expect(await server.redoLog(), 'nothing reverted under a live restore').to.equal('OFF');

    const load = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force'], { configHome: home });
    expect(load.status, load.out).to.equal(1);
    expect(load.out).to.match(/Another restore is running on this server \(connection \d+/);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);

    const status = cli(server.uri, ['status'], { configHome: home });
    expect(status.status, status.out).to.equal(0);
    expect(status.out).to.match(/running now/);

    holder.kill('SIGKILL');
    await new Promise((r) => holder.once('exit', r));
    holder = null;
    const id = Number(/connection (\d+)/.exec(revert.out)[1]);
    await waitUntil(async () => Number(await server.value('SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ?', [id])) === 0, 30000);

    const after = cli(server.uri, ['revert'], { configHome: home });
    expect(after.status, after.out).to.equal(0);
    expect(await server.redoLog()).to.equal('ON');
  });

  it('a load running from another client (another config home) stops a second load and a revert at once', async function () {
    // A real restore.load, held inside util.loadDump by a global read lock this test takes.
    const homeA = installPlugin(tempDir('restore-cfg-'));
    const homeB = installPlugin(tempDir('restore-cfg-'));
    await server.query('DROP SCHEMA IF EXISTS shop');
    await server.query('FLUSH TABLES WITH READ LOCK');
    let unlocked = false;
    try {
      holder = spawnShell([server.uri, '--', 'restore', 'load', copyDump(SAMPLE_SHOP), '--preset=safe'], { configHome: homeA });
      let out = '';
      holder.stdout.on('data', (d) => { out += d; });
      holder.stderr.on('data', (d) => { out += d; });
      const done = new Promise((r) => holder.once('exit', (code) => r(code)));
      await waitUntil(async () => (await server.query("SELECT ID FROM information_schema.PROCESSLIST WHERE STATE LIKE " +
        "'Waiting for global read lock%'")).length > 0, 60000);

      const t0 = Date.now();
      const second = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=safe'], { configHome: homeB, timeout: 60000 });
      expect(second.status, second.out).to.equal(1);
      expect(second.out).to.match(/Another restore is running on this server \(connection \d+ from [^)]+\): this load did not start\. Run it again once that one has finished/);
      expect(Date.now() - t0, 'refused at once').to.be.below(30000);
      const revert = cli(server.uri, ['revert'], { configHome: homeB, timeout: 60000 });
      expect(revert.status, revert.out).to.equal(1);
      expect(revert.out).to.match(/A restore is running on this server right now \(connection \d+/);

      await server.query('UNLOCK TABLES');
      unlocked = true;
      expect(await done, out).to.equal(0);
      holder = null;
      // Once it is over, the next load goes ahead.
      await server.query('DROP SCHEMA IF EXISTS shop');
      const third = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=safe'], { configHome: homeB });
      expect(third.status, third.out).to.equal(0);
    } finally {
      if (!unlocked) await server.query('UNLOCK TABLES');
      await server.query('DROP SCHEMA IF EXISTS shop');
    }
  });
});
