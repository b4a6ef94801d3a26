'use strict';
// restore.load into a three-member single-primary Group Replication group (issue 33), in the real
// Shell on real MySQL on loopback (test/support/topology.js; built with SQL: Shell 9.1's AdminAPI
// refuses MySQL 9.7): fastest at the primary goes through the binary log with transactions below
// the group's size limit and every member ends ONLINE with equal rows; a load at a secondary is
// refused naming the primary.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { sharedGroup } = require('../support/topology');

describe('restore load into a Group Replication group (real Shell, real MySQL)', function () {
  let group = null;
  let primary;

  // The run's shared group (test/support/topology.js; the root hooks stop it): each test leaves it
  // as it found it.
  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    group = await sharedGroup();
    primary = await group.primary();
  });

  afterEach(async function () {
    if (!group) return;
    await primary.query('DROP SCHEMA IF EXISTS shop');
    await group.waitApplied();
  });

  it('fastest at the primary: binary log on, transactions below the size limit, every member ONLINE with every row', async function () {
    this.timeout(180000);
    const limit = Number(await primary.value('SELECT @@GLOBAL.group_replication_transaction_size_limit AS v'));
    const before = await serverFingerprint(primary);
    const r = cli(primary.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/Topology: Group Replication primary \(3 member\(s\), 3 ONLINE, group_replication_transaction_size_limit \d+, GTIDs ON\)/);
    expect(r.stdout).to.match(/sync_binlog, innodb_flush_log_at_trx_commit: relaxed with tune/);
    const lo = JSON.parse(/util\.loadDump options: (\{.*\})/.exec(r.stdout)[1]);
    expect(lo.skipBinlog).to.equal(undefined);
    expect(Number(lo.maxBytesPerTransaction)).to.be.above(0).and.below(limit);
    // shop.audit_log has no primary key: the group would refuse its rows (error 3098) without one.
    expect(lo.createInvisiblePKs).to.equal(true);
    expect(r.stdout).to.match(/createInvisiblePKs: true for 1 table\(s\) without a primary key \(shop\.audit_log\)/);
    const secondaries = await group.secondaries();
    for (const s of secondaries) {
      expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${s.port}\\s+group secondary\\s+ONLINE\\s+yes\\s+yes`));
    }
    expect(await group.rowsEqual('shop')).to.equal(true);
    expect(Number(await secondaries[0].value('SELECT COUNT(*) FROM shop.orders'))).to.equal(12000);
    expect(Number(await secondaries[1].value('SELECT COUNT(*) FROM shop.audit_log'))).to.equal(2000);
    expect(await group.allOnline()).to.equal(true);
    expect(await serverFingerprint(primary)).to.deep.equal(before);
  });

  it('a table of another engine than InnoDB (MyISAM) in the dump: refused before anything changes, naming it (util.loadDump stopped mid-load, error 3098)', async function () {
    this.timeout(60000);
    const dump = copyDump(SAMPLE_SHOP);
    const ddl = path.join(dump, 'shop@customers.sql');
    fs.writeFileSync(ddl, fs.readFileSync(ddl, 'utf8').replace(') ENGINE=InnoDB', ') ENGINE=MyISAM'));
    const before = await serverFingerprint(primary);
    const r = cli(primary.uri, ['load', dump, '--output-format=json']);
    expect(r.status, r.out).to.equal(1);
    const e = JSON.parse(r.stdout).error;
    expect(e.code, r.out).to.equal('INNODB_REQUIRED');
    expect(e.message).to.include('1 table(s) of the dump use an engine other than InnoDB (shop.customers MyISAM): Group Replication refuses their rows')
      .and.include('Nothing was changed.');
    expect(await serverFingerprint(primary)).to.deep.equal(before);
  });

  it('a load pointed at a secondary is refused naming the primary, nothing changed', async function () {
    this.timeout(60000);
    const [secondary] = await group.secondaries();
    const before = await serverFingerprint(secondary);
    const r = cli(secondary.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`Group Replication secondary \\(super_read_only ON\\).*Point restore\\.load at 127\\.0\\.0\\.1:${primary.port}`));
    expect(await serverFingerprint(secondary)).to.deep.equal(before);
    expect(await group.allOnline()).to.equal(true);
  });

  it('a member out of its group (OFFLINE, super_read_only turned off) is refused naming its state, never loaded as a standalone server', async function () {
    this.timeout(120000);
    const [secondary] = await group.secondaries();
    await secondary.query('STOP GROUP_REPLICATION');
    try {
      await secondary.query('SET GLOBAL super_read_only = OFF');
      const before = await serverFingerprint(secondary);
      const r = cli(secondary.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
      expect(r.status, r.out).to.equal(1);
      expect(r.out).to.match(/member of the Group Replication group [0-9a-f-]+ in state OFFLINE, out of its group/);
      expect(r.out).to.include('START GROUP_REPLICATION').and.include('Nothing was changed.');
      expect(await serverFingerprint(secondary)).to.deep.equal(before);
    } finally {
      await secondary.query('SET GLOBAL super_read_only = ON');
      await secondary.query('START GROUP_REPLICATION');
      const t0 = Date.now();
      while (!(await group.allOnline()) && Date.now() - t0 < 60000) await new Promise((ok) => setTimeout(ok, 250));
    }
    expect(await group.allOnline()).to.equal(true);
  });
});
