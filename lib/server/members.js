// The other members of a replicated target (lib/server/topology.js): surveyed in the preflight
// (every one reachable: group members, replicas, their replicas at any depth; each one's
// replication read, lib/server/member-health.js, so one that cannot apply the load is said at once
// and one that would never get it stops the load before anything changes), and verified after the
// load: each member that can catch up has applied the load's GTIDs within the timeout (its delay
// counted in; progress lines while waiting), its replication is running, and every loaded table
// has as many rows there as on the target. Members are reached with the target session's account
// (host.sql.openOther); so are the sources a load pointed at a replica walks up to (topmost).
var UserError = require('../core/user-error.js').UserError;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var textTable = require('../format/text-table.js');
var topology = require('./topology.js');
var health = require('./member-health.js');
var globalVariable = require('./server-variables.js').globalVariable;
var rowCounts = require('./row-counts.js');

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

// A member's session as a host for lib/server/topology.js's readers.
function asHost(s) { return { sql: { run: s.run } }; }

// A replica's health; where its channel cannot be read (no REPLICATION CLIENT there) it is waited
// for as before this survey, and the plan says what was not read.
function readHealth(h, m, tables, timeout) {
  try {
    return health.replicaHealth(health.readChannel(h, m.sourceUuid), tables, timeout, m.parentHealth, m.via);
  } catch (e) {
    return { wait: true, delay: 0, refuse: null, why: null, state: 'replication not read (' + e.message + ')' };
  }
}

// The replicas a member feeds; where they cannot be listed there, the member's line says so.
function listReplicas(h, m) {
  try {
    return topology.readReplicas(h);
  } catch (e) {
    m.replicasUnread = e.message;
    return [];
  }
}

// Before anything changes: every member reachable from the target, each with its health
// (member-health.js): the target's members, then the replicas each of them feeds (chains, any
// depth; a server met twice is surveyed once). Sets topo.members; throws, naming each, for a member
// that cannot be reached, one that would never get the load, one whose replication stopped on an error.
function surveyMembers(host, topo, tables, timeout) {
  var self = host.sql.serverInfo().uuid;
  var seen = {};
  seen[self] = true;
  var queue = topo.members.map(function (m) { return Object.assign(m, { via: topo.address, sourceUuid: self, parentHealth: null }); });
  queue.forEach(function (m) { if (m.uuid) seen[m.uuid] = true; });
  var out = [];
  while (queue.length) {
    var m = queue.shift();
    out.push(m);
    if (m.upstreamRefuse) { m.health = m.upstreamRefuse; continue; }
    var o = openMember(host, m);
    if (!o.session) { m.unreachable = o.error; continue; }
    try {
      var h = asHost(o.session);
      var uuid = String(o.session.run('SELECT @@GLOBAL.server_uuid AS u').rows[0].u);
      seen[uuid] = true;
      m.uuid = m.uuid || uuid;
      m.health = m.role.indexOf('group') === 0 ? health.groupHealth(m.state) : readHealth(h, m, tables, timeout);
      var kids = listReplicas(h, m).filter(function (k) { return !(k.uuid && seen[k.uuid]); });
      if (!kids.length) continue;
      var relay = health.relayHealth(globalVariable(h, 'log_bin'), globalVariable(h, 'log_replica_updates') ||
        globalVariable(h, 'log_slave_updates'), topology.memberAddress(m));
      kids.forEach(function (k) {
        if (k.uuid) seen[k.uuid] = true;
        queue.push(Object.assign(k, { via: topology.memberAddress(m), sourceUuid: uuid, parentHealth: m.health, upstreamRefuse: relay }));
      });
    } finally {
      o.session.close();
    }
  }
  topo.members = out;
  var unreachable = out.filter(function (x) { return x.unreachable; });
  if (unreachable.length) {
    throw new UserError('MEMBER_UNREACHABLE', 'Cannot reach ' + unreachable.length + ' member(s) of this ' + (topo.group ? 'group' : 'replication setup') +
      ' to verify them after the load: ' + unreachable.map(function (x) { return name(x) + ' (' + x.unreachable + ')'; }).join('; ') +
      '. They are reached with this session\'s account at the address ' +
      'the target reports; store the password for them with shell.storeCredential("user@host:port"), set report_host ' +
      'on the replicas, or load with membersTimeout: 0 to skip the verification. Nothing was changed.');
  }
  var refused = out.filter(function (x) { return x.health && x.health.refuse; });
  if (!refused.length) return out;
  var which = 'Refusing to load: ' + refused.length + ' member(s) would not get it: ' +
    refused.map(function (x) { return name(x) + ': ' + x.health.refuse; }).join('; ') + '. ';
  var data = { members: refused.map(topology.memberAddress) };
  var filtered = refused.some(function (x) { return x.health.filtered; });
  // A failed member is refused rather than loaded unverified: its replication failed, so it already
  // differs from its source, and how it is repaired (a skipped transaction, a rebuild) decides whether the load reaches it.
  var broken = refused.some(function (x) { return !x.health.filtered; });
  var ways = (filtered ? 'Remove the filter there (CHANGE REPLICATION FILTER … FOR CHANNEL), or leave those tables out of the load ' +
    '(excludeSchemas / excludeTables), or, if that member is meant not to have them, load with membersTimeout: 0 (no member is ' +
    'verified then). ' : '') +
    (broken ? 'Fix ' + (filtered ? 'the failed one' : 'it') + ' there (SHOW REPLICA STATUS names the error; START REPLICA once fixed) and ' +
      'load again: a member whose replication failed already differs from its source, and how it is repaired decides ' +
      'whether the load reaches it' + (filtered ? '. ' : '. Or load with membersTimeout: 0 (no member is verified then). ') : '');
  if (filtered) throw new UserError('MEMBER_FILTERED', which + ways + 'Nothing was changed.', data);
  throw new UserError('MEMBER_BROKEN', which + ways + 'Nothing was changed.', data);
}

// The plan's lines for the surveyed members: each one, where it applies from, and what the load does with it.
function surveyLines(topo, timeout) {
  return topo.members.map(function (m) {
    var h = m.health || {};
    var what = h.wait ? 'waited for up to ' + (timeout + h.delay) + ' s' + (h.delay ? ' (membersTimeout ' + timeout + ' + SOURCE_DELAY ' + h.delay + ')' : '') +
      ', then verified' : 'NOT waited for, not verified: ' + h.why + '; it gets the load ' + h.after;
    return name(m) + (m.via && m.via !== topo.address ? ' (applies from ' + m.via + ')' : '') + ': ' + (h.state || '?') + ': ' + what +
      (m.replicasUnread ? '; its own replicas could not be listed (' + m.replicasUnread + '): they are not verified' : '');
  });
}

// The survey as facts (a dry run returns them), or null where no member was read.
function surveyFacts(topo) {
  var read = topo.members.filter(function (m) { return m.health; });
  return read.length ? read.map(function (m) {
    return { member: topology.memberAddress(m), role: m.role, via: m.via || null, state: m.health.state, waited: m.health.wait,
      delay: m.health.delay || 0, why: m.health.wait ? null : m.health.why };
  }) : null;
}

// A load pointed at a replica or a group secondary: the server at the top, walked up source by
// source (each reached as the members are). {target, path: [addresses walked], note}.
function topmost(host, topo) {
  var seen = {};
  seen[host.sql.serverInfo().uuid] = true;
  var up = topology.upstreamOf(topo);
  var path = [];
  while (up) {
    if (up.next.length !== 1) {
      return { target: up.next.length ? up.next.map(topology.memberAddress).join(' or ') : 'the group\'s primary', path: path,
        note: up.next.length > 1 ? 'several sources: load the one the dump\'s data belongs to' : null };
    }
    var n = up.next[0];
    if (n.uuid && seen[n.uuid]) {
      return { target: path.length ? path[path.length - 1] : topology.memberAddress(n), path: path,
        note: 'a replication loop: ' + topology.memberAddress(n) + ' replicates from it in turn; no server in the loop is its top' };
    }
    var o = openMember(host, { candidates: n.candidates || [n.host], port: n.port, uuid: n.uuid });
    if (!o.session) {
      return { target: topology.memberAddress(n), path: path, note: 'not reached to check whether it is itself a replica: ' + o.error };
    }
    var uuid;
    try {
      uuid = String(o.session.run('SELECT @@GLOBAL.server_uuid AS u').rows[0].u);
      seen[uuid] = true;
      path.push(topology.memberAddress(n));
      up = topology.readUpstream(asHost(o.session), uuid);
      if (!up) return { target: topology.memberAddress(n), path: path, note: null };
    } finally {
      o.session.close();
    }
  }
  return { target: null, path: path, note: null };
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

// {text, ok: running, applying: it can still apply what comes (a reconnect under way included)}.
function replicationState(host, m, s) {
  if (m.role.indexOf('group') === 0) {
    var r = host.sql.run('SELECT MEMBER_STATE AS s FROM performance_schema.replication_group_members WHERE MEMBER_ID = ?', [m.uuid]).rows;
    var st = r.length ? String(r[0].s) : 'not in the group';
    return { text: st, ok: st === 'ONLINE', applying: st === 'ONLINE' || st === 'RECOVERING' };
  }
  var ch;
  try {
    ch = health.readChannel(asHost(s), m.sourceUuid);
  } catch (e) {
    return { text: 'replication not read (' + e.message + ')', ok: true, applying: true }; // the GTIDs and rows still decide
  }
  if (!ch) return { text: 'no replication configured', ok: false, applying: false };
  var err = ch.sqlError || ch.ioError;
  return { text: 'IO ' + ch.io + ', SQL ' + ch.sql + (err ? ' (' + err + ')' : ''), ok: ch.io === 'Yes' && ch.sql === 'Yes',
    applying: ch.sql === 'Yes' && (ch.io === 'Yes' || (ch.io === 'Connecting' && !ch.ioErrno)) };
}

// After the load. tables: [{schema, table}] loaded. Returns {members: [{member, role, via, state,
// applied, rows, verified, ok, problem, why}], ok, seconds, gtids}; throws nothing for a member that
// fails (the caller decides). Only members the survey found able to catch up are waited for, each up
// to the timeout plus its delay, and no longer once its replication stops or fails; the others are
// listed as not verified, with why and how to verify them later.
function verifyMembers(host, topo, tables, timeoutSeconds) {
  var t0 = Date.now();
  var gtids = topo.gtids ? String(host.sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g) : null;
  var list = topo.members.map(function (m) {
    var o = openMember(host, m);
    var h = m.health || { wait: true, delay: 0 };
    return { m: m, s: o.session, error: o.error, caughtUp: false, behind: null, wait: h.wait, h: h, stopped: null,
      deadline: t0 + (timeoutSeconds + (h.delay || 0)) * 1000 };
  });
  try {
    var lastShown = t0;
    var pending = function () { return list.filter(function (x) { return x.s && x.wait && !x.caughtUp && !x.stopped && Date.now() < x.deadline; }); };
    while (pending().length) {
      pending().forEach(function (x) {
        if (gtids === null) {
          x.caughtUp = countsEqual(host, x.s, tables).equal;
          if (!x.caughtUp) x.s.run('DO SLEEP(1)');
        } else {
          // Waits up to a second: the loop's own pace, and returns at once when the member has them all.
          x.caughtUp = Number(x.s.run('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 1) AS w', [gtids]).rows[0].w) === 0;
          if (!x.caughtUp) x.behind = countGtids(x.s.run('SELECT GTID_SUBTRACT(?, @@GLOBAL.gtid_executed) AS m', [gtids]).rows[0].m);
        }
        // Stopped or failed while waited for: it will not catch up, so no longer waited for.
        if (!x.caughtUp) { var st = replicationState(host, x.m, x.s); if (!st.applying) x.stopped = st.text; }
      });
      var now = Date.now();
      if (now - lastShown >= PROGRESS_EVERY_MS && pending().length) {
        lastShown = now;
        pending().forEach(function (x) {
          host.out.progress('Waiting for members - ' + name(x.m) + ': ' + (x.behind === null ? 'rows not equal yet'
            : x.behind + ' transaction(s) behind') + ', ' + Math.round((now - t0) / 1000) + ' s');
        });
      }
    }
    var out = list.map(function (x) {
      var row = { member: topology.memberAddress(x.m), role: x.m.role, via: x.m.via || null, uuid: x.m.uuid, state: null, applied: null,
        rows: null, verified: x.wait, ok: false, problem: null, why: null };
      if (!x.s) {
        row.state = 'unreachable';
        row.problem = 'cannot be reached (' + x.error + ')';
        return row;
      }
      var st = replicationState(host, x.m, x.s);
      row.state = st.text;
      if (!x.wait) {
        // Not waited for (the survey said why before the load): listed, not compared.
        row.ok = true;
        row.why = x.h.why + '; it gets the load ' + x.h.after;
        return row;
      }
      row.applied = x.caughtUp ? 'yes' : 'no' + (x.behind !== null ? ' (' + x.behind + ' behind)' : '');
      // A member that applied every transaction of the target and holds none of its own got the same changes of
      // every loaded table (filters were refused before the load): no table is scanned. Otherwise, counted.
      var c = x.caughtUp && gtids !== null && noOwnGtids(host, x.s) ? { equal: true, byGtids: true, differ: [] }
        : settledCounts(host, x, tables, gtids !== null);
      row.rows = c.byGtids ? 'yes (same GTIDs)' : c.equal ? 'yes' : 'no (' + c.differ.length + ' of ' + tables.length + ' table(s) differ)';
      var problems = [];
      var waited = timeoutSeconds + (x.h.delay || 0);
      if (!x.caughtUp) {
        problems.push(x.stopped ? 'stopped applying while waited for (' + x.stopped + ')'
          : 'did not apply the load within ' + waited + ' s' + (x.behind !== null ? ' (' + x.behind + ' transaction(s) behind)' : ''));
      }
      if (!c.equal) problems.push('has other row counts: ' + c.differ.slice(0, 5).join(', ') + (c.differ.length > 5 ? ' and ' + (c.differ.length - 5) + ' more table(s)' : ''));
      if (!st.ok && !x.stopped) problems.push('replication is not running (' + st.text + ')');
      row.ok = !problems.length;
      row.problem = problems.length ? problems.join('; ') : null;
      return row;
    });
    return { members: out, ok: out.every(function (r) { return r.ok; }), seconds: (Date.now() - t0) / 1000, gtids: gtids };
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

// Whether the member holds no transaction the target lacks (its gtid_executed within the target's, read after it).
function noOwnGtids(host, s) {
  var mine = String(s.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g);
  var target = String(host.sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g);
  return String(s.run('SELECT GTID_SUBTRACT(?, ?) AS e', [mine, target]).rows[0].e).replace(/\s/g, '') === '';
}

// COUNT(*)s a batch of tables per statement (lib/server/row-counts.js): 50,000 tables are not 50,000 round trips per server.
function countsEqual(host, s, tables) {
  var differ = [];
  var run = function (sql) { return host.sql.run(sql); };
  var other = function (sql) { return s.run(sql); };
  for (var i = 0; i < tables.length; i += rowCounts.BATCH) {
    var batch = tables.slice(i, i + rowCounts.BATCH);
    var here = batchCounts(run, batch), there = batchCounts(other, batch);
    batch.forEach(function (t, k) {
      if (here[k] !== there[k]) differ.push(displayTable(t.schema, t.table) + ' ' + here[k] + ' here, ' + (there[k] === null ? 'missing' : there[k]) + ' there');
    });
  }
  return { equal: !differ.length, differ: differ };
}

// The row counts of tables in one statement; one by one when a table is missing (null for it).
function batchCounts(run, tables) {
  try {
    return rowCounts.countTables(run, tables);
  } catch (e) {
    return tables.map(function (t) { return exactCount(run, t); });
  }
}

function memberLines(result) {
  var lines = ['Members (' + result.members.length + ', verified in ' + result.seconds.toFixed(1) + ' s):'].concat(
    textTable.formatTable(['member', 'role', 'state', 'GTIDs applied', 'rows equal', 'applies from'], result.members.map(function (r) {
      return [r.member, r.role, r.state, r.verified ? (r.applied === null ? '-' : r.applied) : 'not verified',
        r.verified ? (r.rows === null ? '-' : r.rows) : 'not verified', r.via || '-'];
    })).map(function (l) { return '  ' + l; }));
  var later = result.members.filter(function (r) { return !r.verified; });
  if (!later.length) return lines;
  return lines.concat(later.map(function (r) { return '  Not verified: ' + r.role + ' ' + r.member + ': ' + r.why + '.'; }),
    ['  To verify ' + (later.length > 1 ? 'them' : 'it') + ' later: once ' + (later.length > 1 ? 'each' : 'it') + ' applies again, ' +
      (result.gtids ? 'SELECT WAIT_FOR_EXECUTED_GTID_SET(\'' + result.gtids.replace(/\s/g, '') + '\', 600) there returns 0 when it has ' +
        'the load; then ' : '') + 'compare SELECT COUNT(*) of each loaded table there with the target\'s.']);
}

// The error for members that failed, naming each.
function failure(result) {
  var bad = result.members.filter(function (r) { return !r.ok; });
  return new UserError('MEMBERS_DIFFER', bad.length + ' member(s) do not have the load: ' + bad.map(function (r) {
    return r.role + ' ' + r.member + ' ' + r.problem;
  }).join('; ') + '. The load is on the target; fix the member(s) (SHOW REPLICA STATUS / replication_group_members there) ' +
    'and compare again, or reload them from the target');
}

module.exports = { surveyMembers: surveyMembers, surveyLines: surveyLines, surveyFacts: surveyFacts, topmost: topmost, verifyMembers: verifyMembers, memberLines: memberLines,
  failure: failure, countGtids: countGtids };
