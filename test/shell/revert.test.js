'use strict';
// restore.status and restore.revert after what a crash leaves: the mysqlsh running a fastest load
// SIGKILLed mid-load (redo log OFF, settings tuned), then the same followed by a server restart.
// On a server of its own (restartable, pristine).
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, copyDump, installPlugin, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { startServer } = require('../support/server');
const { serverFingerprint } = require('../support/fingerprint');
const { makeBigDump, BIG_SCHEMA } = require('../support/big-dump');
const { killMidLoad } = require('../support/kill-load');

describe('revert after a killed load (real Shell, own MySQL)', function () {
  let own;
  let big;
  let pristine;
  before(async function () {
    needs(this, ['shell', 'server']);
    big = await makeBigDump(suiteServer());
    own = await startServer();
    pristine = await serverFingerprint(own);
  });
  after(async function () {
    if (own) await own.stop();
  });
  afterEach(async function () {
    if (!own) return;
    cli(own.uri, ['revert']); // after a failed test: the next one starts from a repaired server
    await own.query(`DROP SCHEMA IF EXISTS ${BIG_SCHEMA}`);
  });

  it('SIGKILL of mysqlsh mid-load: status names the redo log and the settings left; revert puts all back', async function () {
    await killMidLoad(own, copyDump(big.dir), ['--preset=fastest', '--force']);
    expect(await own.redoLog()).to.equal('OFF');
    expect(await serverFingerprint(own)).to.not.deep.equal(pristine);
    const st = cli(own.uri, ['status']);
    expect(st.status, st.out).to.equal(0);
    expect(st.stdout).to.match(/left behind:\s+InnoDB redo log disabled by restore\.load/);
    expect(st.stdout).to.match(/left behind:\s+innodb_flush_log_at_trx_commit = 2 \(original 1, set by restore\.load\)/);
    const rv = cli(own.uri, ['revert']);
    expect(rv.status, rv.out).to.equal(0);
    expect(await own.redoLog()).to.equal('ON');
    expect(await serverFingerprint(own)).to.deep.equal(pristine);
    expect(cli(own.uri, ['status']).stdout).to.not.include('left behind');
  });

  it('the same, then a server restart: revert still repairs what is left', async function () {
    await killMidLoad(own, copyDump(big.dir), ['--preset=fastest', '--force']);
    await own.restart();
    const st = cli(own.uri, ['status']);
    expect(st.status, st.out).to.equal(0);
    expect(st.stdout).to.match(/left behind:\s+InnoDB redo log disabled by restore\.load/);
    const rv = cli(own.uri, ['revert']);
    expect(rv.status, rv.out).to.equal(0);
    expect(await own.redoLog()).to.equal('ON');
    expect(await serverFingerprint(own)).to.deep.equal(pristine);
    expect(cli(own.uri, ['status']).stdout).to.not.include('left behind');
  });

  it('what a killed load left is visible from another config home too, as the server records it', async function () {
    await killMidLoad(own, copyDump(big.dir), ['--preset=fastest', '--force']);
    const other = installPlugin(tempDir('restore-cfg-other-'));
    const st = cli(own.uri, ['status'], { configHome: other });
    expect(st.status, st.out).to.equal(0);
    expect(st.stdout).to.match(/InnoDB redo log: +OFF/)
      .and.match(/Set at runtime: +innodb_flush_log_at_trx_commit = 2 \(set at runtime at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d by root@/)
      .and.match(/Set at runtime: +sync_binlog = 0 /).and.not.match(/left behind/);
    expect(st.out).to.match(/WARNING: Settings at the values restore tuning uses were set at runtime and no restore state file here records them/);
    const json = JSON.parse(cli(own.uri, ['status', '--output-format=json'], { configHome: other }).stdout);
    expect(json.runtimeChanges.map((c) => c.name)).to.include.members(['innodb_flush_log_at_trx_commit', 'sync_binlog']);
    // The client that holds the state file puts everything back; then no client sees anything left.
    expect(cli(own.uri, ['revert']).status).to.equal(0);
    expect(await serverFingerprint(own)).to.deep.equal(pristine);
    const after = cli(own.uri, ['status'], { configHome: other });
    expect(after.stdout).to.not.match(/Set at runtime/);
    expect(after.out).to.not.match(/WARNING: Settings at/);
  });
});
