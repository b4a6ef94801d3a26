'use strict';
// restore.load into a replicated topology (issue 33), in the real Shell on a real GTID source
// with one replica on loopback (test/support/topology.js): fastest takes the replicated road
// (binary log and redo log on, every member verified), skipBinlog given explicitly and a load
// pointed at the replica are refused before anything changes, a replica that does not apply the
// load fails it by name.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { startReplicaSet } = require('../support/topology');

const SHOP_ROWS = { customers: 1000, orders: 12000, products: 100, events: 3000 };

describe('restore load into a source with a replica (real Shell, real MySQL)', function () {
  let set = null;
  let source;
  let replica;

  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    set = await startReplicaSet({ replicas: 1 });
    source = set.source;
    replica = set.replicas[0];
  });

  after(async function () {
    this.timeout(120000);
    if (set) await set.stop();
  });

  afterEach(async function () {
    if (!set) return;
    await replica.query('START REPLICA').catch(() => {});
    await source.query('DROP SCHEMA IF EXISTS shop');
    await set.waitApplied();
  });

  async function shopOn(server) {
    return Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"));
  }

  it('fastest on the source: loaded with the binary log on, the replica has every row, the plan says why per lever', async function () {
    this.timeout(120000);
    const before = await serverFingerprint(source);
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(new RegExp(`Topology: source with 1 replica\\(s\\) connected \\(127\\.0\\.0\\.1:${replica.port}\\), GTIDs ON`));
    expect(r.stdout).to.match(/skipBinlog from the preset dropped: this server's binary log feeds 1 replica/);
    expect(r.stdout).to.match(/InnoDB redo log: kept ON/);
    expect(r.stdout).to.match(/sync_binlog, innodb_flush_log_at_trx_commit: kept \(a source with async replicas/);
    expect(r.stdout).to.match(/deferTableIndexes: all \(the ALTER TABLE/);
    expect(r.stdout).to.not.match(/skip-log-bin/);
    expect(JSON.parse(/util\.loadDump options: (\{.*\})/.exec(r.stdout)[1]).skipBinlog).to.equal(undefined);
    // The members table: the replica applied the load and has the same rows.
    expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${replica.port}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes`));
    for (const [t, n] of Object.entries(SHOP_ROWS)) {
      expect(Number(await replica.value(`SELECT COUNT(*) FROM shop.\`${t}\``)), t).to.equal(n);
    }
    expect(await set.rowsEqual('shop')).to.equal(true);
    expect(await set.threadsRunning()).to.equal(true);
    expect(await serverFingerprint(source)).to.deep.equal(before);
  });

  it('skipBinlog given explicitly on the source: refused naming the replica, nothing changed', async function () {
    this.timeout(60000);
    const before = await serverFingerprint(source);
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--skip-binlog', '--force']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`skipBinlog: true refused: this server's binary log feeds 1 replica\\(s\\) \\(127\\.0\\.0\\.1:${replica.port}\\)`));
    expect(r.out).to.match(/Leave skipBinlog out/);
    expect(await shopOn(source)).to.equal(0);
    expect(await serverFingerprint(source)).to.deep.equal(before);
  });

  it('a load pointed at the replica: refused naming the source, nothing changed', async function () {
    this.timeout(60000);
    const before = await serverFingerprint(replica);
    const r = cli(replica.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`it is a replica of 127\\.0\\.0\\.1:${source.port}.*Point restore\\.load at 127\\.0\\.0\\.1:${source.port}`));
    expect(await shopOn(replica)).to.equal(0);
    expect(await serverFingerprint(replica)).to.deep.equal(before);
    expect(await set.threadsRunning()).to.equal(true);
  });

  it('a replica that does not apply the load within membersTimeout: the load fails naming it', async function () {
    this.timeout(120000);
    await replica.query('STOP REPLICA SQL_THREAD');
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--members-timeout=3']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`Waiting for members - replica 127\\.0\\.0\\.1:${replica.port}: \\d+ transaction\\(s\\) behind`));
    expect(r.out).to.match(new RegExp(`restore\\.load failed in the members phase: 1 member\\(s\\) do not have the load: replica 127\\.0\\.0\\.1:${replica.port} ` +
      'did not apply the load within 3 s'));
    expect(r.out).to.match(/replication is not running \(IO Yes, SQL No\)/);
    expect(r.stdout).to.match(/restore\.load report for .* \(FAILED\)/);
    // The load is on the source; once the replica applies again it catches up.
    expect(Number(await source.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(SHOP_ROWS.orders);
    await replica.query('START REPLICA SQL_THREAD');
    await set.waitApplied();
    expect(await set.rowsEqual('shop')).to.equal(true);
  });
});
