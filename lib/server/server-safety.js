// Before the plugin changes server-wide settings (redo log, durability settings): does this server
// look like it serves others? A replica, a source with replicas connected, a read-only server or
// a Group Replication member must not lose crash safety behind its users' backs. Plus the
// privilege check for ALTER INSTANCE … REDO_LOG, done up front with the GRANT to run.
var UserError = require('../core/user-error.js').UserError;
var globalVariables = require('./server-variables.js').globalVariables;
var isSystemSchema = require('./server-tables.js').isSystemSchema;
var tableNameKey = require('./server-tables.js').tableNameKey;
var displayTable = require('../format/display-name.js').displayTable;
var firstSupported = require('./topology.js').firstSupported;
var isSourceChannel = require('./topology.js').isSourceChannel;

var NO_SUCH_TABLE = 1146;

function pick(row, names) {
  for (var i = 0; i < names.length; i++) if (row[names[i]] !== undefined && row[names[i]] !== null) return row[names[i]];
  return '?';
}

function replicasConnected(host) {
  var rows = firstSupported(host, ['SHOW REPLICAS', 'SHOW SLAVE HOSTS']);
  if (!rows.length) return null;
  return rows.length + ' replica(s) are connected to it (SHOW REPLICAS: ' + rows.map(function (r) {
    return pick(r, ['Host']) + ':' + pick(r, ['Port']);
  }).join(', ') + ')';
}

var CHECKS = [
  function replica(host) {
    // Group Replication's own channels (group_replication_applier…) are the group check's; the replay's is the plugin's.
    var rows = firstSupported(host, ['SHOW REPLICA STATUS', 'SHOW SLAVE STATUS']).filter(function (r) {
      return isSourceChannel(r.Channel_Name || r.Channel_name);
    });
    if (!rows.length) return null;
    var r = rows[0];
    return 'it is a replica of ' + pick(r, ['Source_Host', 'Master_Host']) + ':' + pick(r, ['Source_Port', 'Master_Port']) +
      ' (SHOW REPLICA STATUS)';
  },
  replicasConnected,
  function readOnly(host) {
    var vars = globalVariables(host, ['read_only', 'super_read_only']);
    var on = ['read_only', 'super_read_only'].filter(function (v) { return vars[v] === 'ON'; });
    return on.length ? on.join(' and ') + ' ' + (on.length > 1 ? 'are' : 'is') + ' ON' : null;
  },
  function groupReplication(host) {
    var rows;
    try {
      rows = host.sql.run('SELECT MEMBER_STATE FROM performance_schema.replication_group_members ' +
        "WHERE MEMBER_STATE IN ('ONLINE', 'RECOVERING')").rows;
    } catch (e) {
      // No such table: no Group Replication here (MariaDB). Anything else (no SELECT on it) means
      // the check could not run: that is not "not a member".
      if (e.code === NO_SUCH_TABLE) return null;
      throw e;
    }
    return rows.length ? 'Group Replication is running (member state ' + rows[0].MEMBER_STATE + ')' : null;
  },
];

// [sentence] of reasons to think the server serves others; checks that cannot run are warned about.
function servesOthers(host, replicatedRoad) {
  var reasons = [];
  reasons.unchecked = []; // checks that could not run (e.g. no REPLICATION CLIENT privilege)
  CHECKS.forEach(function (check) {
    // On the replicated road (lib/server/replicated-road.js) replicas and a group are expected.
    if (replicatedRoad && (check === replicasConnected || check.name === 'groupReplication')) return;
    var r;
    try {
      r = check(host);
    } catch (e) {
      host.out.warn('Could not check whether the server serves others (' + check.name + '): ' + e.message);
      reasons.unchecked.push(check.name + ': ' + e.message);
      return;
    }
    if (r) reasons.push(r);
  });
  return reasons;
}

// Refuses (unless force) server-wide changes on a server that serves others. changes: words for
// the error, e.g. "disable the InnoDB redo log and change 4 settings". strict (a drop follows):
// a check that could not run refuses too, rather than being skipped.
function checkServerSafety(host, changes, force, strict, replicatedRoad) {
  var reasons = servesOthers(host, replicatedRoad);
  if (strict && reasons.unchecked.length && !force) {
    throw new UserError('SERVER_SERVES_OTHERS', 'Refusing to ' + changes + ' before dropping existing objects: whether this server serves ' +
      'others could not be checked (' + reasons.unchecked.join('; ') + '). Nothing was dropped or changed. Grant ' +
      'the account the privileges named (REPLICATION CLIENT for SHOW REPLICA STATUS, REPLICATION SLAVE for SHOW ' +
      'REPLICAS, SELECT on performance_schema.replication_group_members for Group Replication), load without server changes, or pass force: true.');
  }
  if (!reasons.length) return [];
  if (!force) {
    throw new UserError('SERVER_SERVES_OTHERS', 'Refusing to ' + changes + ': this server looks like it serves others: ' + reasons.join('; ') +
      '. Those changes make it unsafe for them (a crash while the redo log is off loses the instance). Load ' +
      'without server changes (preset: "safe", or redoLog: "keep" and tune: false), or pass force: true if you ' +
      'are sure nobody depends on this server during the load.');
  }
  reasons.forEach(function (r) { host.out.warn('force: going ahead although ' + r + '.'); });
  return reasons;
}

// 'user'@'host' of the current account, for GRANT statements.
function currentAccount(host) {
  var u = String(host.sql.run('SELECT CURRENT_USER() AS u').rows[0].u);
  var at = u.lastIndexOf('@');
  var quote = function (s) { return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "''") + "'"; };
  return at < 0 ? quote(u) : quote(u.slice(0, at)) + '@' + quote(u.slice(at + 1));
}

function holdsGlobally(grantLines, privilege) {
  return grantLines.some(function (line) {
    var m = /^GRANT\s+(.+?)\s+ON\s+\*\.\*\s+TO\s/i.exec(line);
    if (!m) return false;
    return m[1].split(',').some(function (p) {
      var name = p.trim().toUpperCase();
      return name === privilege || name === 'ALL' || name === 'ALL PRIVILEGES';
    });
  });
}

// Throws (unless force) when the account lacks INNODB_REDO_LOG_ENABLE, with the GRANT to run.
function checkRedoLogPrivilege(host, force) {
  var lines = host.sql.run('SHOW GRANTS').rows.map(function (r) { return String(r[Object.keys(r)[0]]); });
  if (holdsGlobally(lines, 'INNODB_REDO_LOG_ENABLE')) return true;
  var grant = 'GRANT INNODB_REDO_LOG_ENABLE ON *.* TO ' + currentAccount(host) + ';';
  if (force) {
    host.out.warn('SHOW GRANTS does not list INNODB_REDO_LOG_ENABLE for this account (force: trying anyway). ' +
      'If disabling the redo log fails, an administrator can run: ' + grant);
    return false;
  }
  throw new UserError('PRIVILEGE_MISSING', 'This account cannot disable the InnoDB redo log: it lacks the INNODB_REDO_LOG_ENABLE ' +
    'privilege (SHOW GRANTS). Ask an administrator to run: ' + grant + ' Or load with redoLog: "keep".');
}

// Why a server crash while the redo log is off would cost more than the load (MySQL will not start
// the instance again): user schemas outside loadSchemas, or replicas connected. null when it would
// not; a replica check that cannot run is left to checkServerSafety, which reports it.
// The load's schemas' tables and views on the server that are not among the load's tables, as schema.table.
function tablesOutside(host, loadSchemas, loadTables) {
  if (!loadSchemas.length) return [];
  var key = tableNameKey(host);
  var loaded = {};
  loadTables.forEach(function (t) { loaded[key(t.schema) + '.' + key(t.table)] = true; });
  return host.sql.run('SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA IN (' +
    loadSchemas.map(function () { return '?'; }).join(', ') + ') ORDER BY 1, 2', loadSchemas).rows
    .filter(function (r) { return !loaded[key(r.s) + '.' + key(r.t)]; })
    .map(function (r) { return displayTable(String(r.s), String(r.t)); });
}

function redoOffRisk(host, loadSchemas, topo, loadTables) {
  var others = host.sql.run('SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA').rows.map(function (r) { return String(r.s); })
    .filter(function (name) { return !isSystemSchema(name) && loadSchemas.indexOf(name) < 0; });
  if (others.length) {
    return 'the server holds ' + others.length + ' schema(s) outside this load (' + others.slice(0, 5).join(', ') +
      (others.length > 5 ? ', …' : '') + ')';
  }
  // A table or view of the load's schemas that the load does not create would be lost as well (re-initialized, loaded again).
  var strays = loadTables ? tablesOutside(host, loadSchemas, loadTables) : [];
  if (strays.length) {
    return 'the schema(s) of this load hold ' + strays.length + ' table(s) or view(s) it does not load (' + strays.slice(0, 5).join(', ') +
      (strays.length > 5 ? ', …' : '') + ')';
  }
  if (topo && topo.group) return 'it is a Group Replication member';
  if (topo && topo.replicas.length) {
    return topo.replicas.length + ' replica(s) are connected to it (' + topo.replicas.map(function (r) { return r.host + ':' + r.port; }).join(', ') + ')';
  }
  try {
    return replicasConnected(host);
  } catch (e) {
    return null;
  }
}

module.exports = { redoOffRisk: redoOffRisk, servesOthers: servesOthers, checkServerSafety: checkServerSafety,
  checkRedoLogPrivilege: checkRedoLogPrivilege, currentAccount: currentAccount };
