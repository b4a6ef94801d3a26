// The fast road on a server whose binary log feeds others (a source with replicas, a Group
// Replication primary): every lever that keeps every member equal, and per lever what is kept
// and why. The binary log stays on (what is not in it reaches no replica and cannot be certified
// by a group); the redo log stays on (planRedo: a crash with it off loses the instance); the
// source-only durability settings are relaxed only in a group, where a crash of this member
// cannot lose what the others confirmed (the group has every certified transaction and the
// member recovers them when it rejoins); on a source with async replicas they stay: after an OS
// crash the source's binary log could lack transactions the replicas already applied.
var UserError = require('../core/user-error.js').UserError;
var topology = require('./topology.js');

var DURABILITY = ['sync_binlog', 'innodb_flush_log_at_trx_commit'];
var KIB = 1024;

function bytesOf(v) {
  var m = /^\s*(\d+)\s*([kKmMgG]?)\s*$/.exec(String(v));
  if (!m) return null;
  return Number(m[1]) * ({ '': 1, k: KIB, m: KIB * KIB, g: KIB * KIB * KIB })[m[2].toLowerCase()];
}

function others(topo) {
  return topo.members.map(topology.memberAddress).join(', ');
}

// skipBinlog on a server that feeds others: refused when the user gave it, dropped (with the
// reason) when a preset did. Returns null or the plan line of the drop. A sessionInitSql that
// touches sql_log_bin there is refused too (skipBinlog in other words), and so is updateGtidSet
// (a gtid_purged no member gets).
function binlogDecision(topo, loadOptions, explicit) {
  if (topo.feedsOthers) {
    refuseBinlogSwitch(topo, loadOptions.sessionInitSql);
    refuseGtidUpdate(topo, loadOptions.updateGtidSet);
  }
  if (!loadOptions.skipBinlog) return null;
  if (!topo.feedsOthers) {
    // Whether anyone reads the binary log could not be checked: a preset does not bet on "nobody".
    if (explicit || !topo.logBin || !topo.unchecked.length) return null;
    return 'skipBinlog from the preset dropped: whether replicas or a group read this server\'s binary log could not be ' +
      'checked (' + topo.unchecked.join('; ') + '); give skipBinlog: true if nothing does';
  }
  var who = feeds(topo);
  if (explicit) {
    throw new UserError('BINLOG_REQUIRED', 'skipBinlog: true refused: this server\'s binary log feeds ' + who + '. A load kept out of it ' +
      'would reach this server only' + (topo.group ? ' (the group cannot certify what is not in it)' : ' and the replicas would ' +
      'never get it') + '. Leave skipBinlog out (preset "fastest" keeps every other lever here), or load each server on ' +
      'its own. Nothing was changed.');
  }
  return 'skipBinlog from the preset dropped: this server\'s binary log feeds ' + who + '; the load must go through it ' +
    'so every member gets every row';
}

function feeds(topo) {
  return topo.group ? 'the Group Replication group (' + (others(topo) || 'no other member yet') + ')'
    : topo.replicas.length + ' replica(s) (' + others(topo) + ')';
}

// Any statement naming sql_log_bin (its value may be an expression): the loader's sessions would
// write outside the binary log, so the members would never get those rows.
function refuseBinlogSwitch(topo, init) {
  var hits = (Array.isArray(init) ? init : []).filter(function (sql) { return /sql_log_bin/i.test(String(sql)); });
  if (!hits.length) return;
  throw new UserError('BINLOG_REQUIRED', 'sessionInitSql refused: ' + hits.map(function (x) { return '"' + x + '"'; }).join(', ') +
    ' sets sql_log_bin in util.loadDump\'s sessions, and this server\'s binary log feeds ' + feeds(topo) + ': what is kept out of it ' +
    'would reach this server only' + (topo.group ? ' (the group cannot certify it)' : ', never the replicas') +
    '. Leave sql_log_bin out of sessionInitSql, or load each server on its own. Nothing was changed.');
}

// util.loadDump's updateGtidSet sets this server's gtid_purged, which no member gets: each would
// stay behind those GTIDs, and a replica reconnecting is refused (its source purged what it lacks).
function refuseGtidUpdate(topo, mode) {
  if (!mode || mode === 'off') return;
  if (topo.group) {
    throw new UserError('BINLOG_REQUIRED', 'updateGtidSet: "' + mode + '" refused: gtid_purged cannot change while Group ' +
      'Replication runs (util.loadDump would stop on it after this server\'s settings were changed), and the other members ' +
      '(' + (others(topo) || 'none yet') + ') would not get it. Leave updateGtidSet out here. Nothing was changed.');
  }
  throw new UserError('BINLOG_REQUIRED', 'updateGtidSet: "' + mode + '" refused: it writes the dump\'s GTIDs into this server\'s ' +
    'gtid_purged only (SET GLOBAL gtid_purged is not replicated), and this server feeds ' + feeds(topo) + ': the replicas would ' +
    'lack those GTIDs, and one reconnecting would be refused by this server (it purged GTIDs they lack). Leave updateGtidSet ' +
    'out here, or load with topology: "rebuild" and add the replicas by clone (a clone carries gtid_purged). Nothing was changed.');
}

// Other ONLINE members of a group primary's group (they hold what it certified).
function onlineOthers(topo) {
  return topo.group.members.filter(function (m) { return m.state === 'ONLINE'; }).length;
}

// Why the durability settings stay as they are on this topology, or null where they may be relaxed.
function durabilityKeptWhy(topo) {
  if (topo.kind === 'source') return 'a source with async replicas must not lose after an OS crash what its replicas already applied';
  if (topo.kind === 'group-primary' && !onlineOthers(topo)) return 'no other ONLINE member holds the transactions';
  return null;
}

// Durability settings to leave alone, by name → why; {} where they may be relaxed.
function keptDurability(topo) {
  var why = durabilityKeptWhy(topo);
  var out = {};
  if (why) DURABILITY.forEach(function (n) { out[n] = 'kept: ' + why; });
  return out;
}

function durabilityNote(topo) {
  var why = durabilityKeptWhy(topo);
  if (why) return 'sync_binlog, innodb_flush_log_at_trx_commit: kept (' + why + ')';
  if (topo.kind === 'group-primary') {
    return 'sync_binlog, innodb_flush_log_at_trx_commit: relaxed with tune (the group has every certified ' +
      'transaction: a crash of this member loses nothing the ' + onlineOthers(topo) + ' other ONLINE member(s) confirmed; it recovers them when it rejoins)';
  }
  return null;
}

// maxBytesPerTransaction for a group: a quarter of group_replication_transaction_size_limit (the
// row events of a LOAD DATA transaction are larger than its data), unless given below the limit.
// Returns {value or null, line}; throws for a given value above the limit.
function transactionSize(topo, loadOptions, explicit) {
  var limit = topo.group ? topo.group.sizeLimit : null;
  if (!limit) return { value: null, line: null };
  var given = loadOptions.maxBytesPerTransaction;
  if (given !== undefined && explicit) {
    if (bytesOf(given) > limit) {
      throw new UserError('TRANSACTION_TOO_LARGE', 'maxBytesPerTransaction ' + given + ' is above group_replication_transaction_size_limit (' + limit +
        ' bytes): the group would roll back such transactions. Give a smaller one, or leave it out (a quarter of the limit ' +
        'is then used). Nothing was changed.');
    }
    return { value: null, line: 'maxBytesPerTransaction: ' + given + ' (given; below group_replication_transaction_size_limit ' + limit + ')' };
  }
  var v = Math.max(4096, Math.floor(limit / 4 / KIB) * KIB);
  return { value: String(v), line: 'maxBytesPerTransaction: ' + v + ' (a quarter of group_replication_transaction_size_limit ' +
    limit + ': no transaction of the load is rolled back by the group)' };
}

// A group now, or one rebuilt from this server: every table needs a primary key.
function needsPrimaryKeys(topo) {
  return !!(topo.group || (topo.rebuild && topo.rebuild.group));
}

// Group Replication takes no row of a table without a primary key (error 3098): in a group, such
// tables of the dump get an invisible one (util.loadDump's createInvisiblePKs, as MySQL's own
// sql_generate_invisible_primary_key does). keyless: display names of the dump's tables without
// one. Returns {value: true or null, line}; throws when createInvisiblePKs: false was given.
function invisiblePrimaryKeys(topo, keyless, loadOptions, explicit) {
  if (!needsPrimaryKeys(topo) || !keyless.length) return { value: null, line: null };
  var list = keyless.slice(0, 5).join(', ') + (keyless.length > 5 ? ' and ' + (keyless.length - 5) + ' more' : '');
  if (explicit && loadOptions.createInvisiblePKs === false) {
    throw new UserError('PRIMARY_KEY_REQUIRED', keyless.length + ' table(s) of the dump have no primary key (' + list + '): Group Replication ' +
      'refuses their rows (error 3098), and createInvisiblePKs: false was given. Leave it out (an invisible primary key ' +
      'is then added to them) or exclude those tables. Nothing was changed.');
  }
  return { value: loadOptions.createInvisiblePKs ? null : true, line: 'createInvisiblePKs: true for ' + keyless.length +
    ' table(s) without a primary key (' + list + '): Group Replication refuses rows of a table without one; the ' +
    'invisible column my_row_id is added' };
}

// Group Replication takes rows only of InnoDB tables (error 3098, as for a table without a primary key):
// util.loadDump would stop in the middle of the load. others: "schema.table ENGINE" of the dump's tables.
function refuseOtherEngines(topo, others) {
  if (!needsPrimaryKeys(topo) || !others.length) return;
  var list = others.slice(0, 5).join(', ') + (others.length > 5 ? ' and ' + (others.length - 5) + ' more' : '');
  throw new UserError('INNODB_REQUIRED', others.length + ' table(s) of the dump use an engine other than InnoDB (' + list + '): Group ' +
    'Replication refuses their rows (error 3098), so util.loadDump would stop in the middle of the load. Exclude them (excludeTables), ' +
    'dump them again with compatibility: ["force_innodb"], or load into a server outside the group. Nothing was changed.',
  { tables: others });
}

// topology: "rebuild": the target is loaded as a standalone server (every lever: no binary log,
// redo log off) while it has no other member, and the members are added afterwards by clone (a
// physical copy: what is not in the binary log reaches them too). Refused while any member is there.
function rebuildTopology(topo) {
  if (topo.members.length) {
    throw new UserError('REBUILD_REFUSED', 'topology: "rebuild" loads this server with every standalone lever (no binary log, redo log ' +
      'off), which its ' + topo.members.length + ' member(s) (' + others(topo) + ') cannot follow. Remove them first ' +
      '(they are added back by clone afterwards), or load the live topology without topology: "rebuild". Nothing was changed.');
  }
  return Object.assign({}, topo, { kind: 'standalone', feedsOthers: false, members: [], replicas: [], group: null,
    rebuild: { from: topology.describeTopology(topo), group: !!topo.group } });
}

// The steps that add members by clone after a rebuild load: AdminAPI first, SQL where the
// AdminAPI refuses the server version.
function rebuildSteps(topo) {
  var a = topo.address;
  var h = a.replace(/:\d+$/, ''), port = a.replace(/^.*:/, '');
  return ['Add the members by clone (every member then has this server\'s data, the load included):',
    '  MySQL Shell AdminAPI, connected to ' + a + ':',
    '    dba.configureInstance("<user>@' + a + '")            # here, and on each new member',
    '    var cluster = ' + (topo.rebuild.group ? 'dba.getCluster()' : 'dba.createCluster("<name>")') + '     # or dba.createReplicaSet("<name>")',
    '    cluster.addInstance("<user>@<member>:3306", {recoveryMethod: "clone"})   # each member (replica set: addInstance too)',
    '  Or with SQL, where the AdminAPI refuses this server version:',
    '    here: INSTALL PLUGIN clone SONAME \'mysql_clone.so\';   # the donor needs it too (if not loaded yet)',
    topo.rebuild.group ? '    here: nothing more (the group runs with this one member)'
      : '    here (for a group): SET GLOBAL group_replication_bootstrap_group = ON; START GROUP_REPLICATION; SET GLOBAL group_replication_bootstrap_group = OFF;',
    '    on each member (super_read_only OFF): INSTALL PLUGIN clone SONAME \'mysql_clone.so\'; SET GLOBAL clone_valid_donor_list = \'' + a + '\';',
    '      CLONE INSTANCE FROM \'<user>\'@\'' + h + '\':' + port + ' IDENTIFIED BY \'<password>\';   # the member restarts on the clone',
    '      then START GROUP_REPLICATION; (or, a replica: CHANGE REPLICATION SOURCE TO SOURCE_HOST = \'' + h + '\', SOURCE_PORT = ' +
      port + ', SOURCE_AUTO_POSITION = 1, …; START REPLICA;)',
    '  Members must join by clone: the load is not in the binary log, so incremental recovery or a replica applying ' +
      'it would miss it.'];
}

// The plan's lines for the topology and the levers on it.
function planLines(topo, d) {
  if (!topo.feedsOthers && d.binlogDropped && !topo.rebuild) {
    return ['Topology: ' + topology.describeTopology(topo) + '.', '  ' + d.binlogDropped];
  }
  if (topo.rebuild) {
    return ['Topology: ' + topo.rebuild.from + '; topology "rebuild": every standalone lever while no other member is ' +
      'there, then the members join by clone (steps at the end).'].concat(d.keyLine ? ['  ' + d.keyLine] : []);
  }
  var lines = ['Topology: ' + topology.describeTopology(topo) + ': ' + topology.consequence(topo, d.verify > 0) + '.'];
  if (!topo.feedsOthers) return lines.concat(d.skipBinlog && topo.logBin ? ['  ' + unloggedNote(d.skipBinlog)] : []);
  var levers = [];
  levers.push(d.binlogDropped ? d.binlogDropped : 'binary log: ON for every statement of the load');
  if (d.redoKept) levers.push('InnoDB redo log: kept ON (a crash with it off loses this instance)');
  var dn = d.tune ? durabilityNote(topo) : null;
  if (dn) levers.push(dn);
  if (d.threads) levers.push('threads: ' + d.threads + ' (loader sessions on this server; members apply the load with their own appliers)');
  if (d.deferred) levers.push('deferTableIndexes: ' + d.deferred + ' (the ALTER TABLE … ADD INDEX is replicated; each member builds its own indexes)');
  if (d.indexBuffer) levers.push('innodb_ddl_buffer_size: session setting of the loader sessions (index builds here; not replicated)');
  if (d.transactionLine) levers.push(d.transactionLine);
  if (d.keyLine) levers.push(d.keyLine);
  levers.push(d.verify > 0 ? 'members verified after the load: each one waited for (below) must apply the load within ' + d.verify +
    ' s (membersTimeout) plus its delay and have the same rows in every loaded table' : 'members not verified (membersTimeout: 0)');
  lines = lines.concat(['Levers on this topology:'].concat(levers.map(function (l) { return '  ' + l; })));
  var ms = d.memberLines || [];
  return ms.length ? lines.concat(['Members (' + ms.length + ', read now):'].concat(ms.map(function (l) { return '  ' + l; }))) : lines;
}

// A standalone server whose binary log is on, loaded with skipBinlog: what a replica not
// connected now would miss (whether one exists is not known here: none is connected).
function unloggedNote(from) {
  return 'binary log: ON here, and skipBinlog (' + from + ') keeps the load out of it: a replica not connected now ' +
    '(stopped, or made from a backup taken before this load) will not get the load from the binary log; give such a ' +
    'replica a backup or clone taken after the load, or leave skipBinlog out';
}

module.exports = { binlogDecision: binlogDecision, keptDurability: keptDurability, transactionSize: transactionSize,
  invisiblePrimaryKeys: invisiblePrimaryKeys, needsPrimaryKeys: needsPrimaryKeys, refuseOtherEngines: refuseOtherEngines, rebuildTopology: rebuildTopology, rebuildSteps: rebuildSteps,
  planLines: planLines, DURABILITY: DURABILITY };
