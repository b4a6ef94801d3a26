'use strict';
// restore.load into a replicated topology (issue 33), in the real Shell on a real GTID source
// with one replica on loopback (test/support/topology.js): fastest takes the replicated road
// (binary log and redo log on, every member verified), skipBinlog given explicitly and a load
// pointed at the replica are refused before anything changes, a running replica that does not apply the
// load fails it by name, a stopped one is said and not waited for.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { sharedReplicaSet } = require('../support/topology');

const SHOP_ROWS = { customers: 1000, orders: 12000, products: 100, events: 3000 };

describe('restore load into a source with a replica (real Shell, real MySQL)', function () {
  let set = null;
  let source;
  let replica;

  // The run's shared source and replica (test/support/topology.js; the root hooks stop it): each
  // test leaves it as it found it.
  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    set = await sharedReplicaSet();
    source = set.source;
    replica = set.replicas[0];
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
    // The shop's tables are small: fastest's deferred indexes are left to util.loadDump's default there.
    expect(r.stdout).to.match(/deferTableIndexes: fulltext \(the ALTER TABLE/);
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

  it('skipBinlog given explicitly on the source, sql_log_bin in sessionInitSql, updateGtidSet: refused naming the replica, nothing changed', async function () {
    this.timeout(60000);
    const before = await serverFingerprint(source);
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--skip-binlog', '--force']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`skipBinlog: true refused: this server's binary log feeds 1 replica\\(s\\) \\(127\\.0\\.0\\.1:${replica.port}\\)`));
    expect(r.out).to.match(/Leave skipBinlog out/);
    // The same in other words: util.loadDump's sessions told to leave the binary log.
    const init = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--session-init-sql=SET SESSION sql_log_bin = 0']);
    expect(init.status, init.out).to.equal(1);
    expect(init.out).to.match(new RegExp('sessionInitSql refused: "SET SESSION sql_log_bin = 0" sets sql_log_bin in util\\.loadDump\'s ' +
      `sessions, and this server's binary log feeds 1 replica\\(s\\) \\(127\\.0\\.0\\.1:${replica.port}\\).*Nothing was changed`));
    // The dump's GTIDs in this server's gtid_purged only: the replica would lack them (and be refused when it reconnects).
    const gtids = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--update-gtid-set=append', '--members-timeout=3']);
    expect(gtids.status, gtids.out).to.equal(1);
    expect(gtids.out).to.match(new RegExp('updateGtidSet: "append" refused: .*gtid_purged only .*this server feeds 1 replica\\(s\\) ' +
      `\\(127\\.0\\.0\\.1:${replica.port}\\).*topology: "rebuild".*Nothing was changed`));
    expect(await shopOn(source)).to.equal(0);
    expect(await serverFingerprint(source)).to.deep.equal(before);
  });

  it('the plan says only what will be: membersTimeout 0 verifies no replica; the redo log kept ON needs force too, and with it goes off and back on', async function () {
    this.timeout(120000);
    const dry = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--members-timeout=0', '--dry-run']);
    expect(dry.status, dry.out).to.equal(0);
    expect(dry.stdout).to.match(/so every replica gets it; the replicas are not verified \(membersTimeout: 0\)\./);
    expect(dry.stdout).to.not.match(/verified afterwards/);
    expect(dry.stdout).to.match(/Pass redoLog: "off" with force: true to disable it anyway/);
    // What the note says, done: the redo log off for the load only, the replica with every row.
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--redo-log=off', '--force']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/InnoDB redo log: before ON, OFF during the load, after ON/);
    expect(await source.value("SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_redo_log_enabled'")).to.equal('ON');
    expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${replica.port}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes`));
    expect(await set.rowsEqual('shop')).to.equal(true);
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

  it('topology "rebuild" while the replica is connected: refused naming it, nothing changed', async function () {
    this.timeout(60000);
    const before = await serverFingerprint(source);
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--topology=rebuild']);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.match(new RegExp(`topology: "rebuild" loads this server with every standalone lever.*\\(127\\.0\\.0\\.1:${replica.port}\\)`));
    expect(await shopOn(source)).to.equal(0);
    expect(await serverFingerprint(source)).to.deep.equal(before);
  });

  it('a running replica that does not apply the load within membersTimeout: the load fails naming it', async function () {
    this.timeout(120000);
    // Its applier runs but is held (a global read lock there): it falls behind with its threads running.
    await replica.query('FLUSH TABLES WITH READ LOCK');
    let r;
    try {
      r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--members-timeout=3']);
    } finally {
      await replica.query('UNLOCK TABLES');
    }
    expect(r.status, r.out).to.equal(1);
    expect(r.stdout).to.match(new RegExp(`replica 127\\.0\\.0\\.1:${replica.port}: IO Yes, SQL Yes: waited for up to 3 s, then verified`));
    expect(r.out).to.match(new RegExp(`Waiting for members - replica 127\\.0\\.0\\.1:${replica.port}: \\d+ transaction\\(s\\) behind`));
    expect(r.out).to.match(new RegExp(`restore\\.load failed in the members phase: 1 member\\(s\\) do not have the load: replica 127\\.0\\.0\\.1:${replica.port} ` +
      'did not apply the load within 3 s'));
    expect(r.stdout).to.match(/restore\.load report for .* \(FAILED\)/);
    // The load is on the source; once the replica applies again it catches up.
    expect(Number(await source.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(SHOP_ROWS.orders);
    await set.waitApplied();
    expect(await set.rowsEqual('shop')).to.equal(true);
  });

  it('a replica stopped just before the load (the source still lists it): said in the plan, not waited for, the load succeeds', async function () {
    this.timeout(120000);
    await replica.query('STOP REPLICA');
    const t0 = Date.now();
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest']);
    expect(r.status, r.out).to.equal(0);
    expect((Date.now() - t0) / 1000, 'no wait for it (membersTimeout 600 s)').to.be.below(90);
    expect(r.stdout).to.match(new RegExp(`replica 127\\.0\\.0\\.1:${replica.port}: IO No, SQL No: NOT waited for, not verified: its replication is stopped`));
    expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${replica.port}\\s+replica\\s+IO No, SQL No\\s+not verified\\s+not verified`));
    expect(r.out).to.not.match(/Waiting for members/);
  });

  // Last: it takes the replica out of replication, rebuilds it by clone and attaches it again.
  it('topology "rebuild": the lone source loaded with every lever, then the printed SQL steps clone it into the replica', async function () {
    this.timeout(180000);
    await replica.query('STOP REPLICA; RESET REPLICA ALL');
    for (const d of await source.query("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'")) {
      await source.query(`KILL ${Number(d.ID)}`).catch(() => {});
    }
    const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=fastest', '--topology=rebuild']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/topology "rebuild": every standalone lever while no other member is there/);
    expect(r.stdout).to.match(/InnoDB redo log: before ON, OFF during the load, after ON/);
    expect(JSON.parse(/util\.loadDump options: (\{.*\})/.exec(r.stdout)[1]).skipBinlog).to.equal(true);
    expect(r.stdout).to.match(/cluster\.addInstance\("<user>@<member>:3306", \{recoveryMethod: "clone"\}\)/);
    // The SQL steps as printed, on the replica (the donor needs the clone plugin too).
    const donor = /clone_valid_donor_list = '([^']+)'/.exec(r.stdout)[1];
    expect(donor).to.match(new RegExp(`:${source.port}$`));
    const cloneSql = /(CLONE INSTANCE FROM .*?);/.exec(r.stdout)[1].replace('<user>', 'root').replace("'<password>'", "''");
    await source.query("INSTALL PLUGIN clone SONAME 'mysql_clone.so'");
    await replica.query(`SET GLOBAL super_read_only = OFF; INSTALL PLUGIN clone SONAME 'mysql_clone.so';
      SET GLOBAL clone_valid_donor_list = '${donor}'`);
    await replica.query(cloneSql).catch((e) => { if (e.errno !== 3707) throw e; }); // 3707: no supervisor restarts it
    await replica.conn.end().catch(() => {});
    for (let i = 0; i < 240 && (replica.alive() || replica.pidFile()); i++) await new Promise((res) => setTimeout(res, 250));
    await replica.start();
    expect(Number(await replica.value('SELECT COUNT(*) FROM shop.orders'))).to.equal(SHOP_ROWS.orders);
    expect(await set.rowsEqual('shop')).to.equal(true);
    // It replicates again from where the clone left it (the clone carries the source's GTIDs).
    await replica.query(`CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = ${source.port}, SOURCE_USER = 'root',
      SOURCE_PASSWORD = '', SOURCE_AUTO_POSITION = 1, GET_SOURCE_PUBLIC_KEY = 1, SOURCE_CONNECT_RETRY = 1; START REPLICA`);
    await set.waitApplied(30000);
    await set.waitHealthy(30000); // the IO thread connects a moment after START REPLICA
    expect(await set.threadsRunning()).to.equal(true);
    await replica.query('SET GLOBAL super_read_only = OFF; UNINSTALL PLUGIN clone; SET GLOBAL super_read_only = ON');
    await source.query('UNINSTALL PLUGIN clone');
  });
});
