'use strict';
// The members of a replicated target read before the load (issue 42), in the real Shell on a real
// chain source → R1 → R2 on loopback (test/support/topology.js startChain): every member reachable
// is verified (R2 too), a load at R2 names the topmost source, and a member that cannot catch up is
// said in the plan at once and never waited for: a stopped replica (the load goes on, not verified,
// quickly), a delayed one (waited for its delay more), one whose filter keeps the loaded schema or
// whose applier stopped on an error (refused before anything changes). One chain for every case;
// each case puts it back as it found it. The standalone server's binary-log note: the suite's server.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { startChain } = require('../support/topology');
const { suiteServer } = require('../support/root-hooks');

const ORDERS = 12000;
const addr = (s) => `127\\.0\\.0\\.1:${s.port}`;

describe('members of a replicated target, read before the load (real Shell, a chain source → R1 → R2)', function () {
  let chain = null;
  let source, r1, r2;

  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    chain = await startChain({ length: 2 });
    [source, r1, r2] = chain.members;
  });

  after(async function () {
    this.timeout(120000);
    if (chain) await chain.stop();
  });

  afterEach(async function () {
    if (!chain) return;
    this.timeout(120000);
    for (const r of [r1, r2]) await r.query('START REPLICA').catch(() => {});
    await source.query('DROP SCHEMA IF EXISTS shop');
    await chain.waitApplied(60000);
    await chain.waitHealthy(30000);
  });

  // Runs fn with R2 changed by `change` (SQL), then puts R2 back with `back`.
  async function withR2(change, back, fn) {
    await r2.query(change);
    try {
      return await fn();
    } finally {
      await r2.query(back);
    }
  }

  async function shopOn(server) {
    return Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"));
  }

  it('a chain: R2 (a replica of the replica) is verified in the members table too', async function () {
    this.timeout(180000);
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(new RegExp(`Members \\(2, read now\\):\\s+replica ${addr(r1)}: IO Yes, SQL Yes: waited for up to 600 s, then verified\\s+` +
      `replica ${addr(r2)} \\(applies from ${addr(r1)}\\): IO Yes, SQL Yes: waited for up to 600 s, then verified`));
    expect(r.stdout).to.match(new RegExp(`${addr(r1)}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes \\(same GTIDs\\)\\s+${addr(source)}`));
    expect(r.stdout).to.match(new RegExp(`${addr(r2)}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes \\(same GTIDs\\)\\s+${addr(r1)}`));
    expect(Number(await r2.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(ORDERS);
  });

  it('a load pointed at R2 names the topmost source (walked up through R1), nothing changed', async function () {
    this.timeout(60000);
    const before = await serverFingerprint(r2);
    const r = cli(r2.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--force']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`it is a replica of ${addr(r1)}.*Point restore\\.load at ${addr(source)} instead ` +
      `\\(the topmost source: here → ${addr(r1)} → ${addr(source)}\\)`));
    expect(await shopOn(r2)).to.equal(0);
    expect(await serverFingerprint(r2)).to.deep.equal(before);
  });

  it('R1 stopped just before the load: said in the plan at once (R2 below it too), not waited for, the load ends quickly', async function () {
    this.timeout(180000);
    await r1.query('STOP REPLICA');
    expect((await source.query('SHOW REPLICAS')).map((x) => Number(x.Port)), 'the source still lists R1').to.include(r1.port);
    const t0 = Date.now();
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
    const seconds = (Date.now() - t0) / 1000;
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(new RegExp(`replica ${addr(r1)}: IO No, SQL No: NOT waited for, not verified: its replication is stopped \\(IO No, SQL No\\); ` +
      'it gets the load when started \\(START REPLICA there\\)'));
    expect(r.stdout).to.match(new RegExp(`replica ${addr(r2)} \\(applies from ${addr(r1)}\\): IO Yes, SQL Yes: NOT waited for, not verified: ` +
      `its source ${addr(r1)} is not applying the load now`));
    expect(r.out).to.not.match(/Waiting for members/);
    expect(r.stdout).to.match(new RegExp(`Not verified: replica ${addr(r1)}: its replication is stopped`));
    expect(r.stdout).to.match(/To verify them later: once each applies again, SELECT WAIT_FOR_EXECUTED_GTID_SET\('[0-9a-f-]+:1-\d+', 600\)/);
    // The load itself, without a wait for the members (membersTimeout is 600 s).
    expect(seconds, r.stdout).to.be.below(90);
    expect(await shopOn(r1)).to.equal(0);
    // Started again, both get the load from the binary log.
    await r1.query('START REPLICA');
    await chain.waitApplied(60000);
    expect(await chain.rowsEqual('shop')).to.equal(true);
  });

  it('a delayed R2 (SOURCE_DELAY) is waited for its delay more and verified; delayed past membersTimeout, not waited for', async function () {
    this.timeout(180000);
    await withR2('STOP REPLICA; CHANGE REPLICATION SOURCE TO SOURCE_DELAY = 3; START REPLICA',
      'STOP REPLICA; CHANGE REPLICATION SOURCE TO SOURCE_DELAY = 0; START REPLICA', async () => {
      await chain.waitHealthy(30000);
      // membersTimeout 3 alone would end before R2 applies the load's last transactions (3 s after their commit).
      const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--members-timeout=3']);
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.match(new RegExp(`replica ${addr(r2)} \\(applies from ${addr(r1)}\\): IO Yes, SQL Yes, SOURCE_DELAY 3 s: ` +
        'waited for up to 6 s \\(membersTimeout 3 \\+ SOURCE_DELAY 3\\), then verified'));
      expect(r.stdout).to.match(new RegExp(`${addr(r2)}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes`));
      await source.query('DROP SCHEMA shop');
      await chain.waitApplied(60000);
      const t0 = Date.now();
      const r2nd = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--members-timeout=2']);
      expect(r2nd.status, r2nd.out).to.equal(0);
      expect(r2nd.stdout).to.match(new RegExp(`replica ${addr(r2)} \\(applies from ${addr(r1)}\\): IO Yes, SQL Yes, SOURCE_DELAY 3 s: NOT waited ` +
        'for, not verified: it applies what its source commits 3 s later \\(SOURCE_DELAY\\), beyond membersTimeout 2 s'));
      expect(r2nd.stdout).to.match(new RegExp(`Not verified: replica ${addr(r2)}: it applies what its source commits 3 s later`));
      expect((Date.now() - t0) / 1000).to.be.below(60);
    });
  });

  it('a filter on R2 that ignores the loaded schema: refused first, naming the filter and the ways out', async function () {
    this.timeout(60000);
    const filter = (rule) => `STOP REPLICA SQL_THREAD; CHANGE REPLICATION FILTER REPLICATE_IGNORE_DB = (${rule}) FOR CHANNEL ''; START REPLICA SQL_THREAD`;
    await withR2(filter('shop'), filter(''), async () => {
      const before = await serverFingerprint(source);
      const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
      expect(r.status, r.out).to.equal(1);
      expect(r.out).to.match(new RegExp(`replica ${addr(r2)}: its replication filter REPLICATE_IGNORE_DB = \\(shop\\) \\(channel ''\\) keeps ` +
        'shop\\..* from it: it would never get those rows'));
      expect(r.out).to.match(/Remove the filter there .*excludeSchemas \/ excludeTables.*membersTimeout: 0.*Nothing was changed/);
      expect(await shopOn(source)).to.equal(0);
      expect(await serverFingerprint(source)).to.deep.equal(before);
    });
  });

  it('R2\'s applier stopped on an error: refused first, naming the error', async function () {
    this.timeout(60000);
    // A schema R2 has of its own: the source's CREATE of it stops R2's applier (error 1007).
    await r2.query('SET GLOBAL super_read_only = OFF; SET SESSION sql_log_bin = 0; CREATE SCHEMA members_probe; SET SESSION sql_log_bin = 1');
    try {
      await source.query('CREATE SCHEMA members_probe');
      for (let i = 0; i < 100 && !(await r2.query("SHOW REPLICA STATUS"))[0].Last_SQL_Errno; i++) await new Promise((res) => setTimeout(res, 100));
      const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
      expect(r.status, r.out).to.equal(1);
      expect(r.out).to.match(new RegExp(`replica ${addr(r2)}: its applier stopped on error 1007 \\(.*members_probe.*\\).*Fix it there`));
      expect(await shopOn(source)).to.equal(0);
    } finally {
      await r2.query('SET SESSION sql_log_bin = 0; DROP SCHEMA IF EXISTS members_probe; SET SESSION sql_log_bin = 1; START REPLICA');
      await source.query('DROP SCHEMA IF EXISTS members_probe');
      await chain.waitApplied(30000);
      await r2.query('SET GLOBAL super_read_only = ON');
    }
  });

  it('a standalone server with the binary log on: the plan says what skipBinlog keeps from a replica not connected now', async function () {
    this.timeout(60000);
    const server = suiteServer();
    const logBin = Number(await server.value('SELECT @@GLOBAL.log_bin AS v'));
    const r = cli(server.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--dry-run']);
    expect(r.status, r.out).to.equal(0);
    const note = /skipBinlog \(preset fastest\) keeps the load out of it: a replica not connected now \(stopped, or made from a backup taken before this load\) will not get the load/;
    if (logBin) expect(r.stdout).to.match(note);
    else expect(r.stdout).to.not.match(note);
  });
});
