'use strict';
// restore.load's decisions on a replicated target (issue 33) under plain Node, on the fake host:
// the topology read in the preflight, the binary log never off where it feeds others, the fast
// road's levers, members reached and verified, loads at a replica or secondary refused.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const { runLoad } = require('../../lib/commands/load.js');
const { countGtids } = require('../../lib/server/members.js');

const SELF = 'aaaaaaaa-0000-0000-0000-000000000001';
const REPLICA = 'bbbbbbbb-0000-0000-0000-000000000002';
const M2 = 'cccccccc-0000-0000-0000-000000000003';
const M3 = 'dddddddd-0000-0000-0000-000000000004';

const COUNT = /^SELECT COUNT\(\*\) AS n FROM `/;
const TUNABLE_NOW = { sync_binlog: '1', innodb_flush_log_at_trx_commit: '1', innodb_adaptive_hash_index: 'ON',
  innodb_io_capacity: '200', innodb_io_capacity_max: '2000', gtid_mode: 'ON', log_bin: 'ON' };

// A member that has applied everything (wait: 0) or not (1), with `rows` rows in every table.
function member(uuid, { wait = 0, rows = 5, sqlRunning = 'Yes' } = {}) {
  return { sql: [
    [/server_uuid AS u/, { rows: [{ u: uuid }] }],
    [/WAIT_FOR_EXECUTED_GTID_SET/, { rows: [{ w: wait }] }],
    [/GTID_SUBTRACT/, { rows: [{ m: wait ? SELF + ':31-40' : '' }] }],
    [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: '', Replica_IO_Running: 'Yes', Replica_SQL_Running: sqlRunning }] }],
    [COUNT, { rows: [{ n: rows }] }],
  ] };
}

function source({ replica = member(REPLICA), variables = {}, metadata = [] } = {}) {
  return fakeHost({
    mount: { '/d': 'sample-dumps/shop' },
    variables: Object.assign({}, TUNABLE_NOW, variables),
    sql: [
      [/FROM mysql_innodb_cluster_metadata\.clusters/, { rows: metadata }],
      [/^SHOW REPLICAS$/, { rows: [{ Server_Id: 2, Host: '', Port: 3307, Source_Id: 1, Replica_UUID: REPLICA }] }],
      [/COMMAND LIKE 'Binlog Dump%'/, { rows: [{ h: 'localhost:40001' }] }],
      [/@@GLOBAL\.gtid_executed/, { rows: [{ g: SELF + ':1-40' }] }],
      [COUNT, { rows: [{ n: 5 }] }],
    ],
    others: replica ? { '127.0.0.1:3307': replica } : {},
  });
}

function groupHost(selfRole, { limit = '150000000', variables = {} } = {}) {
  const rows = [
    { id: SELF, host: 'db1', port: 3306, state: 'ONLINE', role: selfRole },
    { id: M2, host: 'db2', port: 3306, state: 'ONLINE', role: selfRole === 'PRIMARY' ? 'SECONDARY' : 'PRIMARY' },
    { id: M3, host: 'db3', port: 3306, state: 'ONLINE', role: 'SECONDARY' },
  ];
  return fakeHost({
    mount: { '/d': 'sample-dumps/shop' },
    variables: Object.assign({}, TUNABLE_NOW, { group_replication_transaction_size_limit: limit,
      super_read_only: selfRole === 'PRIMARY' ? 'OFF' : 'ON' }, variables),
    sql: [
      [/FROM performance_schema\.replication_group_members WHERE MEMBER_ID = \?/, (sql, args) => ({ rows: [{ s: 'ONLINE' }] })],
      [/FROM performance_schema\.replication_group_members$/, { rows }],
      [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: 'group_replication_applier', Replica_IO_Running: 'No', Replica_SQL_Running: 'Yes' }] }],
      [/@@GLOBAL\.gtid_executed/, { rows: [{ g: SELF + ':1-40' }] }],
      [COUNT, { rows: [{ n: 5 }] }],
    ],
    others: { 'db2:3306': member(M2), 'db3:3306': member(M3) },
  });
}

function loadOptions(h) { return h.calls('util.loadDump').map((e) => e[2]); }
function refusal(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a refusal');
}
function changes(h) { return h.statements().filter((s) => /^(SET GLOBAL|ALTER INSTANCE|SET SESSION sql_log_bin)/.test(s)); }

describe('restore.load into a replicated target (fake host)', function () {
  it('standalone: fastest keeps every lever (skipBinlog, redo log off, durability relaxed)', function () {
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [[COUNT, { rows: [{ n: 5 }] }]] });
    runLoad(h, '/d', { preset: 'fastest' });
    expect(loadOptions(h)[0].skipBinlog).to.equal(true);
    expect(h.statements()).to.include('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    expect(h.statements()).to.include('SET GLOBAL sync_binlog = 0');
    expect(h.printed.join('\n')).to.match(/Topology: standalone/);
    expect(h.calls('sql.openOther')).to.have.length(0);
  });

  it('source with a replica: fastest loads through the binary log, keeps the redo log and durability, verifies the replica', function () {
    const h = source();
    const report = runLoad(h, '/d', { preset: 'fastest' });
    const lo = loadOptions(h)[0];
    expect(lo.skipBinlog).to.equal(undefined);
    expect([lo.deferTableIndexes, lo.threads]).to.deep.equal(['all', 4]);
    const st = h.statements();
    expect(st).to.not.include('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    expect(st.filter((s) => /sync_binlog|innodb_flush_log_at_trx_commit/.test(s) && /^SET GLOBAL/.test(s))).to.deep.equal([]);
    expect(st).to.include('SET GLOBAL innodb_adaptive_hash_index = OFF');
    expect(st.filter((s) => /sql_log_bin/.test(s))).to.deep.equal([]);
    const plan = h.printed.join('\n');
    expect(plan).to.match(/Topology: source with 1 replica\(s\) connected \(127\.0\.0\.1:3307\), GTIDs ON/);
    expect(plan).to.match(/skipBinlog from the preset dropped/);
    expect(plan).to.match(/InnoDB redo log: kept ON/);
    expect(plan).to.match(/sync_binlog, innodb_flush_log_at_trx_commit: kept/);
    expect(plan).to.not.match(/skip-log-bin/);
    // The replica was reached (address from its dump thread) and is in the members table.
    expect(h.calls('sql.openOther').map((c) => c[1])).to.deep.equal(['127.0.0.1:3307', '127.0.0.1:3307']);
    expect(report.members.ok).to.equal(true);
    expect(report.members.members.map((m) => [m.member, m.role, m.applied, m.rows])).to.deep.equal([['127.0.0.1:3307', 'replica', 'yes', 'yes']]);
    expect(plan).to.match(/127\.0\.0\.1:3307\s+replica\s+IO Yes, SQL Yes\s+yes\s+yes/);
  });

  it('an InnoDB ReplicaSet is named as the AdminAPI names it', function () {
    const h = source({ metadata: [{ name: 'shoprs', type: 'ar' }] });
    runLoad(h, '/d', { preset: 'safe', dryRun: true });
    expect(h.printed.join('\n')).to.match(/Topology: source with 1 replica\(s\) connected \(127\.0\.0\.1:3307\), InnoDB ReplicaSet 'shoprs', GTIDs ON/);
  });

  it('source with a replica: skipBinlog given explicitly is refused before anything changes, force or not', function () {
    const h = source();
    const e = refusal(() => runLoad(h, '/d', { preset: 'fastest', skipBinlog: true, force: true }));
    expect(e.message).to.match(/skipBinlog: true refused: this server's binary log feeds 1 replica\(s\) \(127\.0\.0\.1:3307\)/);
    expect(changes(h)).to.deep.equal([]);
    expect(h.calls('util.loadDump')).to.have.length(0);
  });

  it('an unreachable replica stops the load in the preflight; membersTimeout: 0 loads without verifying', function () {
    const h = source({ replica: null });
    const e = refusal(() => runLoad(h, '/d', { preset: 'fastest' }));
    expect(e.message).to.match(/Cannot reach 1 member\(s\).*replica 127\.0\.0\.1:3307.*membersTimeout: 0.*Nothing was changed/);
    expect(changes(h)).to.deep.equal([]);
    expect(h.calls('util.loadDump')).to.have.length(0);
    const h2 = source({ replica: null });
    const report = runLoad(h2, '/d', { preset: 'fastest', membersTimeout: 0 });
    expect(report.members).to.equal(null);
    expect(h2.printed.join('\n')).to.match(/members not verified \(membersTimeout: 0\)/);
  });

  it('a replica that does not apply the load, or has other rows, fails the load naming it', function () {
    const lagging = source({ replica: member(REPLICA, { wait: 1, sqlRunning: 'No' }) });
    const e = refusal(() => runLoad(lagging, '/d', { preset: 'fastest', membersTimeout: 1 }));
    expect(e.message).to.match(/members phase: 1 member\(s\) do not have the load: replica 127\.0\.0\.1:3307 did not apply the load within 1 s \(10 transaction\(s\) behind\)/);
    expect(e.message).to.match(/replication is not running \(IO Yes, SQL No\)/);
    const differing = source({ replica: member(REPLICA, { rows: 4 }) });
    const e2 = refusal(() => runLoad(differing, '/d', { preset: 'safe' }));
    expect(e2.message).to.match(/replica 127\.0\.0\.1:3307 has other row counts: shop\.\S+ 5 here, 4 there/);
  });

  it('a load pointed at a replica is refused naming its source, before anything changes', function () {
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: Object.assign({}, TUNABLE_NOW, { super_read_only: 'ON' }), sql: [
      [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: '', Source_Host: '10.0.0.5', Source_Port: 3306, Replica_IO_Running: 'Yes', Replica_SQL_Running: 'Yes' }] }],
    ] });
    const e = refusal(() => runLoad(h, '/d', { preset: 'dev', force: true }));
    expect(e.message).to.match(/it is a replica of 10\.0\.0\.5:3306.*Point restore\.load at 10\.0\.0\.5:3306/);
    expect(changes(h)).to.deep.equal([]);
    expect(h.statements().filter((s) => /^(DROP|CREATE)/.test(s))).to.deep.equal([]);
  });

  it('a group secondary is refused naming the primary', function () {
    const h = groupHost('SECONDARY');
    const e = refusal(() => runLoad(h, '/d', { preset: 'fastest' }));
    expect(e.message).to.match(/Group Replication secondary \(super_read_only ON\).*Point restore\.load at db2:3306/);
    expect(changes(h)).to.deep.equal([]);
  });

  it('group primary: binary log on, durability relaxed (the group holds what it certified), transactions below the size limit', function () {
    const h = groupHost('PRIMARY');
    const report = runLoad(h, '/d', { preset: 'fastest' });
    const lo = loadOptions(h)[0];
    expect(lo.skipBinlog).to.equal(undefined);
    expect(lo.maxBytesPerTransaction).to.equal(String(Math.floor(150000000 / 4 / 1024) * 1024));
    expect(h.statements()).to.include('SET GLOBAL sync_binlog = 0');
    expect(h.statements()).to.not.include('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    const plan = h.printed.join('\n');
    expect(plan).to.match(/Topology: Group Replication primary \(3 member\(s\), 3 ONLINE, group_replication_transaction_size_limit 150000000/);
    expect(plan).to.match(/relaxed with tune \(the group has every certified transaction/);
    expect(report.members.members.map((m) => [m.member, m.role, m.state])).to.deep.equal([
      ['db2:3306', 'group secondary', 'ONLINE'], ['db3:3306', 'group secondary', 'ONLINE']]);
    const e = refusal(() => runLoad(groupHost('PRIMARY'), '/d', { preset: 'fastest', maxBytesPerTransaction: '512M' }));
    expect(e.message).to.match(/maxBytesPerTransaction 512M is above group_replication_transaction_size_limit/);
    // The sample's shop.audit_log has no primary key: a group refuses its rows without an invisible one.
    expect(lo.createInvisiblePKs).to.equal(true);
    expect(plan).to.match(/createInvisiblePKs: true for 1 table\(s\) without a primary key \(shop\.audit_log\)/);
    const e2 = refusal(() => runLoad(groupHost('PRIMARY'), '/d', { preset: 'fastest', createInvisiblePKs: false }));
    expect(e2.message).to.match(/1 table\(s\) of the dump have no primary key \(shop\.audit_log\).*createInvisiblePKs: false was given/);
  });

  it('topology "rebuild" on a server without members: every standalone lever, then the steps that add members by clone', function () {
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [[COUNT, { rows: [{ n: 5 }] }]] });
    const report = runLoad(h, '/d', { preset: 'fastest', topology: 'rebuild' });
    expect(loadOptions(h)[0].skipBinlog).to.equal(true);
    expect(h.statements()).to.include('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    const out = h.printed.join('\n');
    expect(out).to.match(/topology "rebuild": every standalone lever/);
    expect(out).to.match(/dba\.createCluster\("<name>"\)/);
    expect(out).to.match(/cluster\.addInstance\("<user>@<member>:3306", \{recoveryMethod: "clone"\}\)/);
    expect(out).to.match(/CLONE INSTANCE FROM/);
    expect(report.rebuildSteps.length).to.be.above(3);
  });

  it('topology "rebuild" with a replica connected is refused naming it; on a group of one member the levers apply', function () {
    const h = source();
    const e = refusal(() => runLoad(h, '/d', { preset: 'fastest', topology: 'rebuild' }));
    expect(e.message).to.match(/topology: "rebuild" loads this server with every standalone lever.*1 member\(s\) \(127\.0\.0\.1:3307\)/);
    expect(changes(h)).to.deep.equal([]);
    const lone = fakeHost({
      mount: { '/d': 'sample-dumps/shop' },
      variables: Object.assign({}, TUNABLE_NOW, { group_replication_transaction_size_limit: '150000000' }),
      sql: [
        [/FROM performance_schema\.replication_group_members$/, { rows: [{ id: SELF, host: 'db1', port: 3306, state: 'ONLINE', role: 'PRIMARY' }] }],
        [COUNT, { rows: [{ n: 5 }] }],
      ],
    });
    runLoad(lone, '/d', { preset: 'fastest', topology: 'rebuild' });
    const lo = loadOptions(lone)[0];
    expect([lo.skipBinlog, lo.createInvisiblePKs]).to.deep.equal([true, true]);
    expect(lone.statements()).to.include('ALTER INSTANCE DISABLE INNODB REDO_LOG');
    expect(lone.printed.join('\n')).to.match(/var cluster = dba\.getCluster\(\)/);
  });

  it('an account that cannot see the replicas: fastest keeps the binary log (skipBinlog dropped, the reason printed)', function () {
    const { sqlError } = require('../support/fake-host.js');
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [
      [/^SHOW REPLICAS$/, () => { throw sqlError(1227, 'Access denied; you need (at least one of) the REPLICATION SLAVE privilege(s)'); }],
      [COUNT, { rows: [{ n: 5 }] }]] });
    runLoad(h, '/d', { preset: 'fastest', force: true });
    expect(loadOptions(h)[0].skipBinlog).to.equal(undefined);
    expect(h.printed.join('\n')).to.match(/skipBinlog from the preset dropped: whether replicas or a group read this server's binary log could not be checked \(replicasConnected: Access denied/);
    const h2 = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [
      [/^SHOW REPLICAS$/, () => { throw sqlError(1227, 'Access denied'); }], [COUNT, { rows: [{ n: 5 }] }]] });
    runLoad(h2, '/d', { preset: 'fastest', skipBinlog: true, force: true });
    expect(loadOptions(h2)[0].skipBinlog).to.equal(true);
  });

  it('counts the transactions of a GTID set', function () {
    expect(countGtids('')).to.equal(0);
    expect(countGtids(SELF + ':1-5:7,\n' + M2 + ':3')).to.equal(7);
  });
});
