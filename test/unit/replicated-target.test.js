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

// One COUNT(*), or a batch of them (SELECT k AS k, COUNT(*) AS n FROM … UNION ALL …): n rows for each.
const COUNT = /^SELECT (?:\d+ AS k, )?COUNT\(\*\) AS n FROM `/;
const counts = (n) => (sql) => ({ rows: sql.split(' UNION ALL ').map((_, k) => ({ k, n })) });
const TUNABLE_NOW = { sync_binlog: '1', innodb_flush_log_at_trx_commit: '1', innodb_adaptive_hash_index: 'ON',
  innodb_io_capacity: '200', innodb_io_capacity_max: '2000', gtid_mode: 'ON', log_bin: 'ON' };

// A member that has applied everything (wait: 0) or not (1), with `rows` rows in every table; its
// channel from `from` (IO/SQL threads, last errors, SOURCE_DELAY, filters), the replicas it feeds
// (SHOW REPLICAS rows) and its variables. status: a function giving the channel row per call (it changes).
// own: GTIDs of its own (not the target's): its rows are then counted, not proven by GTIDs.
function member(uuid, { wait = 0, rows = 5, sqlRunning = 'Yes', ioRunning = 'Yes', from = SELF, delay = 0, sqlErrno = 0,
  filters = [], replicas = [], variables = {}, status = null, channel: hasChannel = true, own = '' } = {}) {
  const channel = { Channel_Name: '', Source_Host: '127.0.0.1', Source_Port: 3306, Source_UUID: from, Replica_IO_Running: ioRunning,
    Replica_SQL_Running: sqlRunning, Last_SQL_Errno: sqlErrno, Last_SQL_Error: sqlErrno ? 'Error executing row event' : '', SQL_Delay: delay };
  return { variables: Object.assign({ log_bin: 'ON', log_replica_updates: 'ON' }, variables), sql: [
    [/server_uuid AS u/, { rows: [{ u: uuid }] }],
    [/WAIT_FOR_EXECUTED_GTID_SET/, { rows: [{ w: wait }] }],
    [/GTID_SUBTRACT\(\?, \?\) AS e/, { rows: [{ e: own }] }],
    [/GTID_SUBTRACT/, { rows: [{ m: wait ? SELF + ':31-40' : '' }] }],
    [/@@GLOBAL\.gtid_executed AS g/, { rows: [{ g: SELF + (wait ? ':1-30' : ':1-40') + (own ? ',' + own : '') }] }],
    [/^SHOW REPLICA STATUS$/, () => ({ rows: hasChannel ? [status ? Object.assign({}, channel, status()) : channel] : [] })],
    [/replication_applier_filters/, { rows: filters }],
    [/^SHOW REPLICAS$/, { rows: replicas }],
    [/COMMAND LIKE 'Binlog Dump%'/, { rows: replicas.length ? [{ h: 'localhost:40002' }] : [] }],
    [COUNT, counts(rows)],
  ] };
}

function source({ replica = member(REPLICA), variables = {}, metadata = [], others = {} } = {}) {
  return fakeHost({
    mount: { '/d': 'sample-dumps/shop' },
    variables: Object.assign({}, TUNABLE_NOW, variables),
    sql: [
      [/FROM mysql_innodb_cluster_metadata\.clusters/, { rows: metadata }],
      [/^SHOW REPLICAS$/, { rows: [{ Server_Id: 2, Host: '', Port: 3307, Source_Id: 1, Replica_UUID: REPLICA }] }],
      [/COMMAND LIKE 'Binlog Dump%'/, { rows: [{ h: 'localhost:40001' }] }],
      [/@@GLOBAL\.gtid_executed/, { rows: [{ g: SELF + ':1-40' }] }],
      [COUNT, counts(5)],
    ],
    others: Object.assign(replica ? { '127.0.0.1:3307': replica } : {}, others),
  });
}

function groupHost(selfRole, { limit = '150000000', variables = {}, others = {} } = {}) {
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
      [COUNT, counts(5)],
    ],
    others: Object.assign({ 'db2:3306': member(M2, { channel: false }), 'db3:3306': member(M3, { channel: false }) }, others),
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
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [[COUNT, counts(5)]] });
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
    // The shop's tables are small: fastest's deferred indexes are not used there (lib/run/load-levers.js).
    expect([lo.deferTableIndexes, lo.threads]).to.deep.equal(['fulltext', 4]);
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
    expect(report.members.members.map((m) => [m.member, m.role, m.applied, m.rows])).to.deep.equal([['127.0.0.1:3307', 'replica', 'yes', 'yes (same GTIDs)']]);
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
    const lagging = source({ replica: member(REPLICA, { wait: 1 }) });
    const e = refusal(() => runLoad(lagging, '/d', { preset: 'fastest', membersTimeout: 1 }));
    expect(e.message).to.match(/members phase: 1 member\(s\) do not have the load: replica 127\.0\.0\.1:3307 did not apply the load within 1 s \(10 transaction\(s\) behind\)/);
    // A replica with transactions of its own: its rows are counted, and differ.
    const differing = source({ replica: member(REPLICA, { rows: 4, own: REPLICA + ':1-2' }) });
    const e2 = refusal(() => runLoad(differing, '/d', { preset: 'safe' }));
    expect(e2.message).to.match(/replica 127\.0\.0\.1:3307 has other row counts: shop\.\S+ 5 here, 4 there/);
    // One with none that applied every GTID of the target has its rows proven by them: no table scanned there.
    const same = source({ replica: member(REPLICA, { rows: 4 }) });
    const report = runLoad(same, '/d', { preset: 'safe' });
    expect(report.members.members.map((m) => m.rows)).to.deep.equal(['yes (same GTIDs)']);
    expect(same.memberLog.some((e) => /COUNT\(\*\)/.test(e[1] || ''))).to.equal(false);
  });

  it('a replica whose replication stops while it is waited for is no longer waited for: the load fails at once naming it', function () {
    let calls = 0;
    const h = source({ replica: member(REPLICA, { wait: 1, status: () => (++calls > 1 ? { Replica_SQL_Running: 'No', Last_SQL_Errno: 1062,
      Last_SQL_Error: 'Duplicate entry' } : {}) }) });
    const t0 = Date.now();
    const e = refusal(() => runLoad(h, '/d', { preset: 'safe' }));
    expect(Date.now() - t0).to.be.below(5000);
    expect(e.message).to.match(/replica 127\.0\.0\.1:3307 stopped applying while waited for \(IO Yes, SQL No \(Duplicate entry\)\)/);
  });

  it('a stopped replica is said in the plan, not waited for, listed as not verified with how to verify it later; the load succeeds', function () {
    const h = source({ replica: member(REPLICA, { sqlRunning: 'No', ioRunning: 'No', wait: 1 }) });
    const report = runLoad(h, '/d', { preset: 'safe' });
    const out = h.printed.join('\n');
    expect(out).to.match(/replica 127\.0\.0\.1:3307: IO No, SQL No: NOT waited for, not verified: its replication is stopped \(IO No, SQL No\); it gets the load when started \(START REPLICA there\)/);
    expect(report.members.ok).to.equal(true);
    expect(report.members.members.map((m) => [m.member, m.verified])).to.deep.equal([['127.0.0.1:3307', false]]);
    expect(h.memberLog.some((e) => /WAIT_FOR_EXECUTED_GTID_SET/.test(e[1] || ''))).to.equal(false);
    expect(out).to.match(/127\.0\.0\.1:3307\s+replica\s+IO No, SQL No\s+not verified\s+not verified/);
    expect(out).to.match(/Not verified: replica 127\.0\.0\.1:3307: its replication is stopped/);
    expect(out).to.match(/To verify it later: once it applies again, SELECT WAIT_FOR_EXECUTED_GTID_SET\('aaaaaaaa-0000-0000-0000-000000000001:1-40', 600\)/);
  });

  it('a replica whose applier stopped on an error, or whose filter keeps a loaded schema, refuses the load first, naming it', function () {
    const broken = source({ replica: member(REPLICA, { sqlRunning: 'No', sqlErrno: 1062 }) });
    const e = refusal(() => runLoad(broken, '/d', { preset: 'safe', dryRun: true }));
    expect(e.code).to.equal('MEMBER_BROKEN');
    expect(e.message).to.match(/replica 127\.0\.0\.1:3307: its applier stopped on error 1062 \(Error executing row event\).*Nothing was changed/);
    expect(changes(broken)).to.deep.equal([]);
    const filtered = source({ replica: member(REPLICA, { filters: [{ name: 'REPLICATE_IGNORE_DB', rule: 'shop' }] }) });
    const e2 = refusal(() => runLoad(filtered, '/d', { preset: 'safe' }));
    expect(e2.code).to.equal('MEMBER_FILTERED');
    expect(e2.message).to.match(/replica 127\.0\.0\.1:3307: its replication filter REPLICATE_IGNORE_DB = \(shop\) \(channel ''\) keeps shop\..+ and 3 more from it: it would never get those rows/);
    expect(e2.message).to.match(/Remove the filter there.*excludeSchemas.*membersTimeout: 0/);
    expect(changes(filtered)).to.deep.equal([]);
    expect(filtered.calls('util.loadDump')).to.have.length(0);
    // A filter on other schemas keeps nothing of the load.
    runLoad(source({ replica: member(REPLICA, { filters: [{ name: 'REPLICATE_IGNORE_DB', rule: 'other' }] }) }), '/d', { preset: 'safe' });
  });

  it('a delayed replica is waited for its delay more; one delayed past membersTimeout is not waited for', function () {
    const h = source({ replica: member(REPLICA, { delay: 5 }) });
    const report = runLoad(h, '/d', { preset: 'safe', dryRun: false });
    expect(h.printed.join('\n')).to.match(/SOURCE_DELAY 5 s: waited for up to 605 s \(membersTimeout 600 \+ SOURCE_DELAY 5\), then verified/);
    expect(report.members.members[0].verified).to.equal(true);
    const far = source({ replica: member(REPLICA, { delay: 3600, wait: 1 }) });
    const r2 = runLoad(far, '/d', { preset: 'safe' });
    expect(far.printed.join('\n')).to.match(/NOT waited for, not verified: it applies what its source commits 3600 s later \(SOURCE_DELAY\), beyond membersTimeout 600 s; it gets the load 3600 s after the load, or give membersTimeout above 3600/);
    expect(r2.members.ok).to.equal(true);
  });

  it('a chain: the replicas of a replica are verified too (a loop is surveyed once); below a stopped one, said why', function () {
    const R2 = 'eeeeeeee-0000-0000-0000-000000000005';
    const chain = (r1opts, r2opts) => source({
      replica: member(REPLICA, Object.assign({ replicas: [{ Server_Id: 3, Host: '', Port: 3308, Replica_UUID: R2 }] }, r1opts)),
      // R2 also lists the target among its replicas (a circle): not surveyed again.
      others: { '127.0.0.1:3308': member(R2, Object.assign({ from: REPLICA, replicas: [{ Host: '127.0.0.1', Port: 3306, Replica_UUID: SELF }] }, r2opts)) } });
    const h = chain({}, {});
    const report = runLoad(h, '/d', { preset: 'safe' });
    expect(report.members.members.map((m) => [m.member, m.via, m.verified, m.applied, m.rows])).to.deep.equal([
      ['127.0.0.1:3307', '127.0.0.1:3306', true, 'yes', 'yes (same GTIDs)'], ['127.0.0.1:3308', '127.0.0.1:3307', true, 'yes', 'yes (same GTIDs)']]);
    expect(h.printed.join('\n')).to.match(/replica 127\.0\.0\.1:3308 \(applies from 127\.0\.0\.1:3307\): IO Yes, SQL Yes: waited for up to 600 s/);
    const stopped = chain({ sqlRunning: 'No', ioRunning: 'No' }, {});
    const r2 = runLoad(stopped, '/d', { preset: 'safe' });
    expect(r2.members.members.map((m) => m.verified)).to.deep.equal([false, false]);
    expect(stopped.printed.join('\n')).to.match(/replica 127\.0\.0\.1:3308 \(applies from 127\.0\.0\.1:3307\): IO Yes, SQL Yes: NOT waited for, not verified: its source 127\.0\.0\.1:3307 is not applying the load now \(its replication is stopped/);
    // A middle replica that does not log what it applies: its replicas never get the load.
    const e = refusal(() => runLoad(chain({ variables: { log_replica_updates: 'OFF' } }, {}), '/d', { preset: 'safe' }));
    expect(e.message).to.match(/replica 127\.0\.0\.1:3308: its source 127\.0\.0\.1:3307 does not write what it applies to its binary log \(log_replica_updates OFF\)/);
  });

  it('a member whose channel or replicas cannot be read (no privilege there) is waited for as before, the plan says what was not read', function () {
    const { sqlError } = require('../support/fake-host.js');
    const denied = () => { throw sqlError(1227, 'Access denied; you need REPLICATION CLIENT'); };
    const spec = member(REPLICA);
    spec.sql.unshift([/^SHOW REPLICA STATUS$/, denied], [/^SHOW REPLICAS$/, denied]);
    const h = source({ replica: spec });
    const report = runLoad(h, '/d', { preset: 'safe' });
    expect(report.members.members.map((m) => [m.state, m.applied, m.rows, m.ok])).to.deep.equal([
      ['replication not read (Access denied; you need REPLICATION CLIENT)', 'yes', 'yes (same GTIDs)', true]]);
    expect(h.printed.join('\n')).to.match(/replica 127\.0\.0\.1:3307: replication not read \(Access denied; you need REPLICATION CLIENT\): waited for up to 600 s, then verified; its own replicas could not be listed \(Access denied/);
  });

  it('a load pointed at a replica of a replica names the topmost source; an unreachable hop is said', function () {
    const R1 = 'ffffffff-0000-0000-0000-000000000006';
    const top = 'abababab-0000-0000-0000-000000000007';
    const at = (others) => fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: Object.assign({}, TUNABLE_NOW, { super_read_only: 'ON' }), sql: [
      [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: '', Source_Host: '10.0.0.6', Source_Port: 3306, Source_UUID: R1, Replica_IO_Running: 'Yes', Replica_SQL_Running: 'Yes' }] }],
    ], others });
    const r1 = { sql: [[/server_uuid AS u/, { rows: [{ u: R1 }] }],
      [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: '', Source_Host: '10.0.0.5', Source_Port: 3306, Source_UUID: top }] }]] };
    const e = refusal(() => runLoad(at({ '10.0.0.6:3306': r1, '10.0.0.5:3306': { sql: [[/server_uuid AS u/, { rows: [{ u: top }] }]] } }), '/d', { preset: 'safe' }));
    expect(e.message).to.match(/it is a replica of 10\.0\.0\.6:3306.*Point restore\.load at 10\.0\.0\.5:3306 instead \(the topmost source: here → 10\.0\.0\.6:3306 → 10\.0\.0\.5:3306\)/);
    expect(e.data.target).to.equal('10.0.0.5:3306');
    const e2 = refusal(() => runLoad(at({ '10.0.0.6:3306': r1 }), '/d', { preset: 'safe' }));
    expect(e2.message).to.match(/Point restore\.load at 10\.0\.0\.5:3306 instead \(not reached to check whether it is itself a replica: 10\.0\.0\.5:3306: Can't connect/);
  });

  it('standalone with the binary log on: the plan says what skipBinlog keeps from a replica not connected now', function () {
    const plan = (variables) => {
      const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: Object.assign({}, TUNABLE_NOW, variables), sql: [[COUNT, counts(5)]] });
      runLoad(h, '/d', { preset: 'fastest', dryRun: true });
      return h.printed.join('\n');
    };
    expect(plan({})).to.match(/binary log: ON here, and skipBinlog \(preset fastest\) keeps the load out of it: a replica not connected now \(stopped, or made from a backup taken before this load\) will not get the load/);
    expect(plan({ log_bin: 'OFF' })).to.not.match(/replica not connected now/);
    // A dry run at a source returns what it read of each member.
    const facts = runLoad(source({ replica: member(REPLICA, { sqlRunning: 'No' }) }), '/d', { preset: 'safe', dryRun: true });
    expect(facts.members).to.deep.equal([{ member: '127.0.0.1:3307', role: 'replica', via: '127.0.0.1:3306', state: 'IO Yes, SQL No',
      waited: false, delay: 0, why: 'its replication is stopped (IO Yes, SQL No)' }]);
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

  it('a group: the replicas of its members are verified too; a secondary whose primary replicates from outside names that source', function () {
    const R = 'eeeeeeee-0000-0000-0000-000000000008';
    const h = groupHost('PRIMARY', { others: {
      'db3:3306': member(M3, { channel: false, replicas: [{ Host: 'rep9', Port: 3309, Replica_UUID: R }] }),
      'rep9:3309': member(R, { from: M3 }) } });
    const report = runLoad(h, '/d', { preset: 'safe' });
    expect(report.members.members.map((m) => [m.member, m.role, m.via, m.verified, m.rows])).to.deep.equal([
      ['db2:3306', 'group secondary', '127.0.0.1:3306', true, 'yes (same GTIDs)'], ['db3:3306', 'group secondary', '127.0.0.1:3306', true, 'yes (same GTIDs)'],
      ['rep9:3309', 'replica', 'db3:3306', true, 'yes (same GTIDs)']]);
    const OUT = 'cdcdcdcd-0000-0000-0000-000000000009';
    const sec = groupHost('SECONDARY', { others: {
      'db2:3306': { sql: [[/server_uuid AS u/, { rows: [{ u: M2 }] }],
        [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: 'dc', Source_Host: 'dc1', Source_Port: 3306, Source_UUID: OUT }] }]] },
      'dc1:3306': { sql: [[/server_uuid AS u/, { rows: [{ u: OUT }] }]] } } });
    const e = refusal(() => runLoad(sec, '/d', { preset: 'safe' }));
    expect(e.message).to.match(/Point restore\.load at dc1:3306 instead \(the topmost source: here → db2:3306 → dc1:3306\)/);
  });

  it('topology "rebuild" on a server without members: every standalone lever, then the steps that add members by clone', function () {
    const h = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [[COUNT, counts(5)]] });
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
        [COUNT, counts(5)],
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
      [COUNT, counts(5)]] });
    runLoad(h, '/d', { preset: 'fastest', force: true });
    expect(loadOptions(h)[0].skipBinlog).to.equal(undefined);
    expect(h.printed.join('\n')).to.match(/skipBinlog from the preset dropped: whether replicas or a group read this server's binary log could not be checked \(replicasConnected: Access denied/);
    const h2 = fakeHost({ mount: { '/d': 'sample-dumps/shop' }, variables: TUNABLE_NOW, sql: [
      [/^SHOW REPLICAS$/, () => { throw sqlError(1227, 'Access denied'); }], [COUNT, counts(5)]] });
    runLoad(h2, '/d', { preset: 'fastest', skipBinlog: true, force: true });
    expect(loadOptions(h2)[0].skipBinlog).to.equal(true);
  });

  it('counts the transactions of a GTID set', function () {
    expect(countGtids('')).to.equal(0);
    expect(countGtids(SELF + ':1-5:7,\n' + M2 + ':3')).to.equal(7);
  });
});
