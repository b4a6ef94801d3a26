'use strict';
// What the target is in a replicated setup (lib/server/topology.js) on the fake server: its kind,
// the members a load verifies and the addresses they are reached at, the plan's sentence, and the
// server a load is pointed at instead of a replica or a secondary.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const topology = require('../../lib/server/topology.js');

const SELF = 'aaaaaaaa-0000-0000-0000-000000000001'; // the fake server's uuid
const deny = (code, message) => () => { throw sqlError(code, message); };
const GROUP_ROWS = [
  { id: SELF, host: 'db1', port: 3306, state: 'ONLINE', role: 'PRIMARY' },
  { id: 'b', host: 'db2', port: 3306, state: 'ONLINE', role: 'SECONDARY' },
  { id: 'c', host: 'db3', port: 3306, state: 'UNREACHABLE', role: 'SECONDARY' },
];

function group(rows, variables, sql) {
  return fakeHost({ variables: Object.assign({ gtid_mode: 'ON', group_replication_transaction_size_limit: '150000000' }, variables),
    sql: (sql || []).concat([[/FROM performance_schema\.replication_group_members$/, { rows }],
      [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: 'group_replication_applier', Replica_SQL_Running: 'Yes' }] }]]) });
}
function read(h) {
  const t = topology.readTopology(h);
  return { t, kind: t.kind, feeds: t.feedsOthers, members: t.members.map((m) => [m.role, m.host + ':' + m.port]), text: topology.describeTopology(t) };
}

describe('topology: what the target server is (lib/server/topology.js)', function () {
  it('standalone: no replica, no source, no group; every lever may be used', function () {
    const r = read(fakeHost({ variables: { gtid_mode: 'OFF' } }));
    expect([r.kind, r.feeds, r.members]).to.deep.equal(['standalone', false, []]);
    expect(r.text).to.equal('standalone (no replica connected, not a replica, no Group Replication)');
    expect(topology.consequence(r.t)).to.equal('every speed lever may be used');
    expect(topology.pointAt(r.t)).to.equal(null);
  });

  it('a source: replicas reached at their report_host, else at the address their dump thread comes from', function () {
    const h = fakeHost({ variables: { gtid_mode: 'ON' }, sql: [
      [/^SHOW REPLICAS$/, { rows: [{ Server_Id: 2, Host: 'replica1.example', Port: 3306, Replica_UUID: 'r1' },
        { Server_Id: 3, Host: '', Port: 3307, Replica_UUID: 'r2' }] }],
      [/COMMAND LIKE 'Binlog Dump%'/, { rows: [{ h: '10.0.0.7:40001' }, { h: '10.0.0.7:40002' }] }]] });
    const r = read(h);
    expect([r.kind, r.feeds, r.members]).to.deep.equal(['source', true, [['replica', 'replica1.example:3306'], ['replica', '10.0.0.7:3307']]]);
    expect(r.text).to.equal('source with 2 replica(s) connected (replica1.example:3306, 10.0.0.7:3307), GTIDs ON');
    expect(topology.consequence(r.t)).to.match(/every replica gets it; the replicas are verified afterwards$/);
    expect(topology.consequence(r.t, false)).to.match(/every replica gets it; the replicas are not verified \(membersTimeout: 0\)$/);
    // A dump thread over the socket, or none visible (no PROCESS privilege): loopback.
    const local = read(fakeHost({ sql: [[/^SHOW REPLICAS$/, { rows: [{ Host: '', Port: 3307 }] }],
      [/Binlog Dump/, { rows: [{ h: 'localhost:40001' }] }]] }));
    expect(local.members).to.deep.equal([['replica', '127.0.0.1:3307']]);
    const hidden = read(fakeHost({ sql: [[/^SHOW REPLICAS$/, { rows: [{ Host: '', Port: 3308 }] }],
      [/Binlog Dump/, deny(1227, 'Access denied; you need the PROCESS privilege')]] }));
    expect(hidden.members).to.deep.equal([['replica', '127.0.0.1:3308']]);
  });

  it('a replica is refused in favour of its source; Group Replication\'s own channels make no replica', function () {
    const h = fakeHost({ variables: { super_read_only: 'ON' }, sql: [[/^SHOW REPLICA STATUS$/, { rows: [
      { Channel_Name: 'group_replication_recovery', Source_Host: 'x', Source_Port: 1 },
      { Channel_Name: '', Source_Host: '10.0.0.5', Source_Port: 3306, Replica_IO_Running: 'Yes', Replica_SQL_Running: 'Yes' }] }]] });
    const r = read(h);
    expect([r.kind, r.feeds, r.members]).to.deep.equal(['replica', false, []]);
    expect(r.text).to.equal('replica of 10.0.0.5:3306 (GTIDs OFF, super_read_only ON)');
    expect(topology.pointAt(r.t)).to.deep.equal({ why: 'it is a replica of 10.0.0.5:3306 (SHOW REPLICA STATUS)', target: '10.0.0.5:3306' });
    const onlyGroupChannel = read(fakeHost({ sql: [[/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: 'group_replication_applier' }] }]] }));
    expect(onlyGroupChannel.kind).to.equal('standalone');
  });

  it('a group primary: every other member to verify, the size limit read, in an InnoDB Cluster', function () {
    const r = read(group(GROUP_ROWS, {}, [[/FROM mysql_innodb_cluster_metadata\.clusters$/, { rows: [{ name: 'prod', type: 'gr' }] }]]));
    expect([r.kind, r.feeds, r.members]).to.deep.equal(['group-primary', true, [['group secondary', 'db2:3306'], ['group secondary', 'db3:3306']]]);
    expect(r.t.group.sizeLimit).to.equal(150000000);
    expect(r.text).to.equal("Group Replication primary, InnoDB Cluster 'prod' (3 member(s), 2 ONLINE, " +
      'group_replication_transaction_size_limit 150000000, GTIDs ON)');
    expect(topology.pointAt(r.t)).to.equal(null);
  });

  it('a group secondary is refused in favour of the primary; a member not ONLINE or RECOVERING is no member', function () {
    const rows = GROUP_ROWS.map((m) => Object.assign({}, m, { role: m.id === 'c' ? 'PRIMARY' : 'SECONDARY', state: 'ONLINE' }));
    const r = read(group(rows, { super_read_only: 'ON' }));
    expect(r.kind).to.equal('group-secondary');
    expect(topology.pointAt(r.t)).to.deep.equal({ why: 'it is a Group Replication secondary (super_read_only ON)', target: 'db3:3306' });
    const left = read(group(rows.map((m) => (m.id === SELF ? Object.assign({}, m, { state: 'OFFLINE' }) : m))));
    expect([left.kind, left.feeds]).to.deep.equal(['standalone', false]);
  });

  it('a read-only standalone server is pointed elsewhere; probes that cannot run are named, never taken for "standalone"', function () {
    const ro = read(fakeHost({ variables: { super_read_only: 'ON' } }));
    expect(topology.pointAt(ro.t)).to.deep.equal({ why: 'super_read_only is ON (it takes no writes)', target: 'the server that takes the writes' });
    const r = read(fakeHost({ sql: [[/^SHOW REPLICA STATUS$/, deny(1227, 'Access denied; REPLICATION CLIENT')],
      [/^SHOW REPLICAS$/, deny(1227, 'Access denied; REPLICATION SLAVE')]] }));
    expect(r.t.unchecked).to.deep.equal(['replica: Access denied; REPLICATION CLIENT', 'replicasConnected: Access denied; REPLICATION SLAVE']);
    expect(r.text).to.equal('standalone (no replica connected, not a replica, no Group Replication; not checked: ' +
      'replica: Access denied; REPLICATION CLIENT; replicasConnected: Access denied; REPLICATION SLAVE)');
    // An older server answers the older statements.
    const old = read(fakeHost({ sql: [[/^SHOW REPLICAS$/, deny(1064, 'syntax')], [/^SHOW SLAVE HOSTS$/, { rows: [{ Host: 'r', Port: 1, Slave_UUID: 'u' }] }]] }));
    expect([old.kind, old.t.unchecked, old.t.replicas[0].uuid]).to.deep.equal(['source', [], 'u']);
  });
});
