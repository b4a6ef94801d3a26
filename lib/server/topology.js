// What the target server is in a replicated setup, read once in the preflight: standalone, a
// source with replicas connected, a replica, a Group Replication member (primary or secondary),
// inside an InnoDB Cluster / ReplicaSet or not. Each probe that cannot run (no privilege, no such
// table) is recorded in `unchecked`, never taken for "not replicated".
var globalVariable = require('./server-variables.js').globalVariable;
var globalVariables = require('./server-variables.js').globalVariables;
var REPLAY_CHANNEL = require('../binlog/replay-applier.js').CHANNEL;

// Whether a replication channel replicates from a source of this server: Group Replication's own
// channels do not (the group check's), nor the replay's (replayWith "applier", lib/binlog/replay-applier.js:
// the plugin's listener; one a killed run left is removed by the next replay).
function isSourceChannel(name) {
  var n = String(name || '');
  return !/^group_replication_/.test(n) && n !== REPLAY_CHANNEL;
}

var PARSE_ERROR = 1064;

// Rows of the first statement the server understands (8.0.22+ names first, then the older ones).
function firstSupported(host, statements) {
  for (var i = 0; i < statements.length; i++) {
    try {
      return host.sql.run(statements[i]).rows;
    } catch (e) {
      if (e.code !== PARSE_ERROR || i === statements.length - 1) throw e;
    }
  }
  return [];
}

function pick(row, names) {
  for (var i = 0; i < names.length; i++) {
    var v = row[names[i]];
    if (v !== undefined && v !== null && String(v) !== '') return String(v);
  }
  return null;
}

// A client host as the processlist shows it ("localhost:43612"): the address to connect back to.
// "localhost" means the socket to a classic client: the replica is reached over TCP on loopback.
function addressOf(hostPort) {
  var h = String(hostPort || '').replace(/:\d+$/, '');
  return h === 'localhost' || h === '' ? '127.0.0.1' : h;
}

function probe(t, name, fn) {
  try {
    return fn();
  } catch (e) {
    t.unchecked.push(name + ': ' + e.message);
    return null;
  }
}

// Replicas connected (SHOW REPLICAS). Without report_host their Host is empty: the address is
// the one their dump thread connects from (when all come from one address; else every address
// the dump threads come from is a candidate, and the member's server_uuid decides).
function readReplicas(host) {
  var rows = firstSupported(host, ['SHOW REPLICAS', 'SHOW SLAVE HOSTS']);
  if (!rows.length) return [];
  var dumpHosts = [];
  try {
    host.sql.run("SELECT HOST AS h FROM information_schema.PROCESSLIST WHERE COMMAND LIKE 'Binlog Dump%'").rows
      .forEach(function (r) { var a = addressOf(r.h); if (dumpHosts.indexOf(a) < 0) dumpHosts.push(a); });
  } catch (e) {
    // No PROCESS privilege: loopback is the only guess left.
  }
  if (!dumpHosts.length) dumpHosts.push('127.0.0.1');
  return rows.map(function (r) {
    var reported = pick(r, ['Host']);
    var candidates = reported ? [reported] : dumpHosts;
    return { role: 'replica', host: candidates[0], candidates: candidates, port: Number(pick(r, ['Port'])),
      uuid: pick(r, ['Replica_UUID', 'Slave_UUID']), serverId: pick(r, ['Server_Id', 'Server_id']) };
  });
}

// The channels this server replicates from (Group Replication's own channels are not a source).
function readSources(host) {
  return firstSupported(host, ['SHOW REPLICA STATUS', 'SHOW SLAVE STATUS']).filter(function (r) {
    // A channel without a source host (left by RESET REPLICA) replicates from nothing.
    return isSourceChannel(pick(r, ['Channel_Name', 'Channel_name'])) && pick(r, ['Source_Host', 'Master_Host']) !== null;
  }).map(function (r) {
    var h = pick(r, ['Source_Host', 'Master_Host']);
    return { host: h, candidates: [addressOf(h)], port: Number(pick(r, ['Source_Port', 'Master_Port'])),
      uuid: pick(r, ['Source_UUID', 'Master_UUID']),
      io: pick(r, ['Replica_IO_Running', 'Slave_IO_Running']), sql: pick(r, ['Replica_SQL_Running', 'Slave_SQL_Running']) };
  });
}

// null when Group Replication is not running here; else {role, members: [{host, port, uuid, role, state}], self}.
function readGroup(host, uuid) {
  var rows;
  try {
    rows = host.sql.run('SELECT MEMBER_ID AS id, MEMBER_HOST AS host, MEMBER_PORT AS port, MEMBER_STATE AS state, ' +
      'MEMBER_ROLE AS role FROM performance_schema.replication_group_members').rows;
  } catch (e) {
    if (e.code === 1146) return null; // no such table: no Group Replication here (MariaDB)
    throw e;
  }
  var self = null;
  var members = rows.map(function (r) {
    var m = { uuid: String(r.id), host: addressOf(r.host), candidates: [addressOf(r.host)], port: Number(r.port),
      state: String(r.state), role: String(r.role || '').toLowerCase() || 'member' };
    if (m.uuid === uuid) self = m;
    return m;
  });
  if (!self) return null;
  if (self.state !== 'ONLINE' && self.state !== 'RECOVERING') {
    // The plugin merely installed (no group name) is a standalone server; a configured member out of its
    // group is not: what is loaded here alone is a set of transactions the group does not have.
    var name = globalVariable(host, 'group_replication_group_name');
    return name ? { outside: true, self: self, name: name } : null;
  }
  var limit = globalVariable(host, 'group_replication_transaction_size_limit');
  return { self: self, members: members.filter(function (m) { return m.uuid !== uuid; }),
    sizeLimit: limit === null ? null : Number(limit), singlePrimary: globalVariable(host, 'group_replication_single_primary_mode') !== 'OFF' };
}

// The AdminAPI's own name for the setup (InnoDB Cluster / ReplicaSet), or null.
function readAdminApi(host) {
  try {
    var rows = host.sql.run('SELECT cluster_name AS name, cluster_type AS type FROM mysql_innodb_cluster_metadata.clusters').rows;
    if (!rows.length) return null;
    return (String(rows[0].type) === 'ar' ? 'InnoDB ReplicaSet ' : 'InnoDB Cluster ') + "'" + rows[0].name + "'";
  } catch (e) {
    return null; // no metadata schema: not managed by the AdminAPI
  }
}

function addr(m) { return m.host + ':' + m.port; }

// {kind: 'standalone'|'source'|'replica'|'group-primary'|'group-secondary', feedsOthers, replicas,
//  sources, group, adminApi, gtids, superReadOnly, members (the servers to verify), unchecked,
//  outsideGroup: {state, name} for a configured group member that is not ONLINE (not loaded: load-preflight.js)}.
function readTopology(host) {
  var t = { kind: 'standalone', replicas: [], sources: [], group: null, adminApi: null, unchecked: [] };
  var uuid = host.sql.serverInfo().uuid;
  t.group = probe(t, 'groupReplication', function () { return readGroup(host, uuid); });
  if (t.group && t.group.outside) {
    t.outsideGroup = { state: t.group.self.state, name: t.group.name };
    t.group = null;
  }
  t.sources = probe(t, 'replica', function () { return readSources(host); }) || [];
  t.replicas = probe(t, 'replicasConnected', function () { return readReplicas(host); }) || [];
  t.adminApi = readAdminApi(host);
  var v = globalVariables(host, ['gtid_mode', 'super_read_only', 'read_only', 'log_bin', 'report_host']);
  t.gtids = v.gtid_mode === 'ON';
  t.superReadOnly = v.super_read_only === 'ON';
  t.readOnly = v.read_only === 'ON';
  t.logBin = v.log_bin === 'ON';
  var info = host.sql.serverInfo();
  t.address = (v.report_host || info.hostname || '127.0.0.1') + ':' + (info.port || 3306);
  if (t.group) t.kind = t.group.self.role === 'secondary' ? 'group-secondary' : 'group-primary';
  else if (t.sources.length) t.kind = 'replica';
  else if (t.replicas.length) t.kind = 'source';
  // Whose copy of the data comes from this server's binary log.
  t.feedsOthers = !!t.group || t.replicas.length > 0;
  // A group's other members, then this server's own async replicas (a group primary may have some);
  // their replicas (chains) are found by lib/server/members.js surveyMembers.
  t.members = (t.group ? t.group.members.map(function (m) { return Object.assign({}, m, { role: 'group ' + m.role }); }) : [])
    .concat(t.replicas.map(function (r) { return Object.assign({}, r); }));
  return t;
}

// Where a server gets its changes from: {why, next: [{host, candidates, port, uuid}]} (a group
// secondary: the primary; a replica: its sources), or null for a server that takes its own writes.
function upstreamOf(t) {
  if (t.group && t.group.self.role === 'secondary') {
    var p = t.group.members.filter(function (m) { return m.role === 'primary'; });
    return { why: 'a Group Replication secondary' + (t.superReadOnly ? ' (super_read_only ON)' : ''), next: p };
  }
  if (t.sources.length) return { why: 'a replica of ' + t.sources.map(addr).join(', ') + ' (SHOW REPLICA STATUS)', next: t.sources };
  return null;
}

// The same for another server (host: an object whose sql.run is that server's session).
function readUpstream(host, uuid) {
  var t = { group: null, sources: [], superReadOnly: false };
  try { t.group = readGroup(host, uuid); } catch (e) { t.group = null; }
  t.sources = readSources(host);
  return upstreamOf(t);
}

function describeTopology(t) {
  var gtid = t.gtids ? 'GTIDs ON' : 'GTIDs OFF';
  var managed = t.adminApi ? ', ' + t.adminApi : '';
  if (t.group) {
    var online = t.group.members.filter(function (m) { return m.state === 'ONLINE'; }).length;
    return 'Group Replication ' + t.group.self.role + managed + ' (' + (t.group.members.length + 1) + ' member(s), ' +
      (online + (t.group.self.state === 'ONLINE' ? 1 : 0)) + ' ONLINE' +
      (t.group.sizeLimit ? ', group_replication_transaction_size_limit ' + t.group.sizeLimit : '') + ', ' + gtid + ')';
  }
  if (t.kind === 'replica') {
    return 'replica of ' + t.sources.map(addr).join(', ') + managed + ' (' + gtid + (t.superReadOnly ? ', super_read_only ON' : '') + ')';
  }
  if (t.kind === 'source') {
    return 'source with ' + t.replicas.length + ' replica(s) connected (' + t.replicas.map(addr).join(', ') + ')' + managed +
      ', ' + gtid;
  }
  return 'standalone (no replica connected, not a replica, no Group Replication' +
    (t.unchecked.length ? '; not checked: ' + t.unchecked.join('; ') : '') + ')';
}

// What follows from the topology for the load: one sentence for the plan. verify: members are
// verified after the load (membersTimeout above 0).
function consequence(t, verify) {
  // Members read before the load (lib/server/members.js) that will not be waited for.
  var but = t.members.some(function (m) { return m.health && !m.health.wait; }) ? ' (but those not waited for, below)' : '';
  var checked = verify === false ? 'not verified (membersTimeout: 0)' : 'verified afterwards' + but;
  if (t.kind === 'group-primary') {
    return 'every statement of the load goes to the binary log, so the group certifies and applies it on every member; ' +
      'the members are ' + checked;
  }
  if (t.kind === 'source') return 'every statement of the load goes to the binary log, so every replica gets it; the replicas are ' + checked;
  if (t.kind === 'replica' || t.kind === 'group-secondary') return 'a load here is refused: load the source/primary';
  return 'every speed lever may be used';
}

// A load pointed at a member that applies another's changes: the server to point at instead, or null.
function pointAt(t) {
  if (t.kind === 'group-secondary') {
    var p = t.group.members.filter(function (m) { return m.role === 'primary'; });
    return { why: 'it is a Group Replication secondary' + (t.superReadOnly ? ' (super_read_only ON)' : ''),
      target: p.length ? addr(p[0]) : 'the group\'s primary' };
  }
  if (t.kind === 'replica') {
    return { why: 'it is a replica of ' + t.sources.map(addr).join(', ') + ' (SHOW REPLICA STATUS)', target: t.sources.map(addr).join(' or ') };
  }
  if (t.superReadOnly) return { why: 'super_read_only is ON (it takes no writes)', target: 'the server that takes the writes' };
  return null;
}

module.exports = { isSourceChannel: isSourceChannel, firstSupported: firstSupported, readTopology: readTopology, describeTopology: describeTopology, consequence: consequence,
  pointAt: pointAt, memberAddress: addr, readReplicas: readReplicas, readUpstream: readUpstream, upstreamOf: upstreamOf };
