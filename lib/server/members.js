// The other members of a replicated target (lib/server/topology.js): reached in the preflight
// (so an unreachable one stops the load before anything changes), and verified after the load:
// each has applied the load's GTIDs within the timeout (progress lines while waiting), its
// replication is running, and every loaded table has as many rows there as on the target.
// Members are reached with the target session's account (host.sql.openOther).
var UserError = require('../core/user-error.js').UserError;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var textTable = require('../format/text-table.js');
var topology = require('./topology.js');

var PROGRESS_EVERY_MS = 2000;

function name(m) { return m.role + ' ' + topology.memberAddress(m); }

// {session, error}: the member's session, checked to be the server the topology named (uuid).
function openMember(host, m) {
  var errors = [];
  for (var i = 0; i < m.candidates.length; i++) {
    var s;
    try {
      s = host.sql.openOther(m.candidates[i], m.port);
    } catch (e) {
      errors.push(m.candidates[i] + ':' + m.port + ': ' + e.message);
      continue;
    }
    var uuid = String(s.run('SELECT @@GLOBAL.server_uuid AS u').rows[0].u);
    if (!m.uuid || uuid === m.uuid) {
      m.host = m.candidates[i];
      return { session: s, error: null };
    }
    s.close();
    errors.push(m.candidates[i] + ':' + m.port + ' is another server (server_uuid ' + uuid + ')');
  }
  return { session: null, error: errors.join('; ') };
}

// Before anything changes: every member answers. Throws naming those that do not.
function checkReachable(host, topo) {
  var bad = [];
  topo.members.forEach(function (m) {
    var o = openMember(host, m);
    if (o.session) o.session.close();
    else bad.push(name(m) + ' (' + o.error + ')');
  });
  if (!bad.length) return;
  throw new UserError('MEMBER_UNREACHABLE', 'Cannot reach ' + bad.length + ' member(s) of this ' + (topo.group ? 'group' : 'replication setup') +
    ' to verify them after the load: ' + bad.join('; ') + '. They are reached with this session\'s account at the address ' +
    'the target reports; store the password for them with shell.storeCredential("user@host:port"), set report_host ' +
    'on the replicas, or load with membersTimeout: 0 to skip the verification. Nothing was changed.');
}

// Transactions in a GTID set text ("uuid:1-5:7,uuid2:1-3").
function countGtids(set) {
  var n = 0;
  String(set || '').replace(/\s/g, '').split(',').forEach(function (part) {
    part.split(':').slice(1).forEach(function (iv) {
      var m = /^(\d+)(?:-(\d+))?$/.exec(iv);
      if (m) n += m[2] ? Number(m[2]) - Number(m[1]) + 1 : 1;
    });
  });
  return n;
}

function exactCount(run, t) {
  try {
    return Number(run('SELECT COUNT(*) AS n FROM ' + quoteTable(t.schema, t.table)).rows[0].n);
  } catch (e) {
    return null; // no such table there
  }
}

function replicationState(host, m, s) {
  if (m.role.indexOf('group') === 0) {
    var r = host.sql.run('SELECT MEMBER_STATE AS s FROM performance_schema.replication_group_members WHERE MEMBER_ID = ?', [m.uuid]).rows;
    var st = r.length ? String(r[0].s) : 'not in the group';
    return { text: st, ok: st === 'ONLINE' };
  }
  var rows = s.run('SHOW REPLICA STATUS').rows.filter(function (x) { return !/^group_replication_/.test(String(x.Channel_Name || '')); });
  if (!rows.length) return { text: 'no replication configured', ok: false };
  var io = String(rows[0].Replica_IO_Running), sql = String(rows[0].Replica_SQL_Running);
  var err = String(rows[0].Last_SQL_Error || rows[0].Last_IO_Error || '');
  return { text: 'IO ' + io + ', SQL ' + sql + (err ? ' (' + err + ')' : ''), ok: io === 'Yes' && sql === 'Yes' };
}

// After the load. tables: [{schema, table}] loaded. Returns {members: [{member, role, state, applied,
// rows, ok, problem}], ok, seconds}; throws nothing for a member that fails (the caller decides).
function verifyMembers(host, topo, tables, timeoutSeconds) {
  var t0 = Date.now();
  var deadline = t0 + timeoutSeconds * 1000;
  var gtids = topo.gtids ? String(host.sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g) : null;
  var list = topo.members.map(function (m) {
    var o = openMember(host, m);
    return { m: m, s: o.session, error: o.error, caughtUp: false, behind: null };
  });
  try {
    var lastShown = t0;
    var pending = function () { return list.filter(function (x) { return x.s && !x.caughtUp; }); };
    while (pending().length) {
      pending().forEach(function (x) {
        if (gtids === null) {
          x.caughtUp = countsEqual(host, x.s, tables).equal;
          if (!x.caughtUp) x.s.run('DO SLEEP(1)');
          return;
        }
        // Waits up to a second: the loop's own pace, and returns at once when the member has them all.
        x.caughtUp = Number(x.s.run('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1) AS w', [gtids]).rows[0].w) === 0;
        if (!x.caughtUp) x.behind = countGtids(x.s.run('SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed) AS m', [gtids]).rows[0].m);
      });
      var now = Date.now();
      if (now - lastShown >= PROGRESS_EVERY_MS && pending().length) {
        lastShown = now;
        pending().forEach(function (x) {
          host.out.progress('Waiting for members - ' + name(x.m) + ': ' + (x.behind === null ? 'rows not equal yet'
            : x.behind + ' transaction(s) behind') + ', ' + Math.round((now - t0) / 1000) + ' s');
        });
      }
      if (now >= deadline) break;
    }
    var out = list.map(function (x) {
      var row = { member: topology.memberAddress(x.m), role: x.m.role, uuid: x.m.uuid, state: null, applied: null,
        rows: null, ok: false, problem: null };
      if (!x.s) {
        row.state = 'unreachable';
        row.problem = 'cannot be reached (' + x.error + ')';
        return row;
      }
      var st = replicationState(host, x.m, x.s);
      row.state = st.text;
      row.applied = x.caughtUp ? 'yes' : 'no' + (x.behind !== null ? ' (' + x.behind + ' behind)' : '');
      var c = settledCounts(host, x, tables, gtids !== null);
      row.rows = c.equal ? 'yes' : 'no (' + c.differ.length + ' of ' + tables.length + ' table(s) differ)';
      var problems = [];
      if (!x.caughtUp) problems.push('did not apply the load within ' + timeoutSeconds + ' s' + (x.behind !== null ? ' (' + x.behind + ' transaction(s) behind)' : ''));
      if (!c.equal) problems.push('has other row counts: ' + c.differ.slice(0, 5).join(', ') + (c.differ.length > 5 ? ' and ' + (c.differ.length - 5) + ' more table(s)' : ''));
      if (!st.ok) problems.push('replication is not running (' + st.text + ')');
      row.ok = !problems.length;
      row.problem = problems.length ? problems.join('; ') : null;
      return row;
    });
    return { members: out, ok: out.every(function (r) { return r.ok; }), seconds: (Date.now() - t0) / 1000 };
  } finally {
    list.forEach(function (x) { if (x.s) { try { x.s.close(); } catch (e) { /* closing only */ } } });
  }
}

// Row counts of a member that caught up, compared again (up to RECOUNTS times) after it applied what
// the target committed since: writes of other clients to a loaded table during the verification
// are not a difference.
var RECOUNTS = 2;
function settledCounts(host, x, tables, gtidMode) {
  var c = countsEqual(host, x.s, tables);
  for (var i = 0; i < RECOUNTS && !c.equal && x.caughtUp && gtidMode; i++) {
    var now = String(host.sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g);
    x.s.run('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 5) AS w', [now]);
    c = countsEqual(host, x.s, tables);
  }
  return c;
}

function countsEqual(host, s, tables) {
  var differ = [];
  var run = function (sql) { return host.sql.run(sql); };
  var other = function (sql) { return s.run(sql); };
  tables.forEach(function (t) {
    var here = exactCount(run, t), there = exactCount(other, t);
    if (here !== there) differ.push(displayTable(t.schema, t.table) + ' ' + here + ' here, ' + (there === null ? 'missing' : there) + ' there');
  });
  return { equal: !differ.length, differ: differ };
}

function memberLines(result) {
  return ['Members (' + result.members.length + ', verified in ' + result.seconds.toFixed(1) + ' s):'].concat(
    textTable.formatTable(['member', 'role', 'state', 'GTIDs applied', 'rows equal'], result.members.map(function (r) {
      return [r.member, r.role, r.state, r.applied === null ? '-' : r.applied, r.rows === null ? '-' : r.rows];
    })).map(function (l) { return '  ' + l; }));
}

// The error for members that failed, naming each.
function failure(result) {
  var bad = result.members.filter(function (r) { return !r.ok; });
  return new UserError('MEMBERS_DIFFER', bad.length + ' member(s) do not have the load: ' + bad.map(function (r) {
    return r.role + ' ' + r.member + ' ' + r.problem;
  }).join('; ') + '. The load is on the target; fix the member(s) (SHOW REPLICA STATUS / replication_group_members there) ' +
    'and compare again, or reload them from the target');
}

module.exports = { checkReachable: checkReachable, verifyMembers: verifyMembers, memberLines: memberLines,
  failure: failure, countGtids: countGtids };
