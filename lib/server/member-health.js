// What a member's replication means for a load, read before the load (lib/server/members.js
// surveys every member): whether it applies the load while the load waits for it, and if not why.
//   wait: true     running: waited for (up to membersTimeout + its delay) and verified
//   wait: false    stopped, not connected to its source, delayed past membersTimeout, or below such a
//                  member: loaded anyway (it gets the load from its source's binary log once it
//                  applies again), said not verified, and how to verify it later
//   refuse: text   it would never get the rows (a replication filter, a source that does not log
//                  what it applies) or its applier stopped on an error: the load is refused first
var firstSupported = require('./topology.js').firstSupported;
var isSourceChannel = require('./topology.js').isSourceChannel;
var displayTable = require('../format/display-name.js').displayTable;

var FILTERS = { Replicate_Do_DB: 'REPLICATE_DO_DB', Replicate_Ignore_DB: 'REPLICATE_IGNORE_DB',
  Replicate_Do_Table: 'REPLICATE_DO_TABLE', Replicate_Ignore_Table: 'REPLICATE_IGNORE_TABLE',
  Replicate_Wild_Do_Table: 'REPLICATE_WILD_DO_TABLE', Replicate_Wild_Ignore_Table: 'REPLICATE_WILD_IGNORE_TABLE',
  Replicate_Rewrite_DB: 'REPLICATE_REWRITE_DB' };

function text(v) { return v === null || v === undefined ? '' : String(v); }
function field(row, names) {
  for (var i = 0; i < names.length; i++) if (row[names[i]] !== undefined && row[names[i]] !== null) return text(row[names[i]]);
  return '';
}

// The filters of a channel: performance_schema's per-channel table (8.0+), else SHOW REPLICA STATUS's columns.
function readFilters(host, channel, row) {
  var rows = null;
  try {
    rows = host.sql.run('SELECT FILTER_NAME AS name, FILTER_RULE AS rule FROM performance_schema.replication_applier_filters ' +
      'WHERE CHANNEL_NAME = ?', [channel]).rows.map(function (r) { return { name: text(r.name), rule: text(r.rule) }; });
  } catch (e) {
    rows = null; // no such table (5.7, MariaDB)
  }
  if (rows === null) {
    rows = Object.keys(FILTERS).map(function (c) { return { name: FILTERS[c], rule: text(row[c]) }; });
  }
  return rows.filter(function (f) { return f.rule !== ''; });
}

// The channel of a member (host: its session) that applies from the server with sourceUuid (else
// its only channel outside Group Replication), or null.
function readChannel(host, sourceUuid) {
  var rows = firstSupported(host, ['SHOW REPLICA STATUS', 'SHOW SLAVE STATUS']).filter(function (r) {
    return isSourceChannel(field(r, ['Channel_Name', 'Channel_name']));
  });
  var row = rows.filter(function (r) { return sourceUuid && field(r, ['Source_UUID', 'Master_UUID']) === sourceUuid; })[0] ||
    (rows.length === 1 ? rows[0] : null);
  if (!row) return null;
  var channel = field(row, ['Channel_Name', 'Channel_name']);
  var ch = { channel: channel, io: field(row, ['Replica_IO_Running', 'Slave_IO_Running']), sql: field(row, ['Replica_SQL_Running', 'Slave_SQL_Running']),
    ioErrno: Number(field(row, ['Last_IO_Errno'])) || 0, ioError: field(row, ['Last_IO_Error']),
    sqlErrno: Number(field(row, ['Last_SQL_Errno'])) || 0, sqlError: field(row, ['Last_SQL_Error']),
    delay: Number(field(row, ['SQL_Delay'])) || 0, filters: readFilters(host, channel, row) };
  if (ch.sqlErrno) Object.assign(ch, workerError(host, channel) || {});
  return ch;
}

// A multi-threaded applier's own error (Last_SQL_Error then only says a worker failed): the worker's.
function workerError(host, channel) {
  try {
    var r = host.sql.run('SELECT LAST_ERROR_NUMBER AS n, LAST_ERROR_MESSAGE AS m FROM performance_schema.replication_applier_status_by_worker ' +
      'WHERE CHANNEL_NAME = ? AND LAST_ERROR_NUMBER <> 0 ORDER BY LAST_ERROR_TIMESTAMP DESC LIMIT 1', [channel]).rows;
    return r.length ? { sqlErrno: Number(r[0].n), sqlError: text(r[0].m) } : null;
  } catch (e) {
    return null; // no such table (5.7, MariaDB): Last_SQL_Error as it is
  }
}

function list(rule) { return rule.split(',').map(function (x) { return x.trim(); }).filter(function (x) { return x !== ''; }); }

// A REPLICATE_WILD_* pattern (LIKE: % and _, \ escapes) against "schema.table".
function wildMatches(pattern, name) {
  var re = '';
  for (var i = 0; i < pattern.length; i++) {
    var c = pattern.charAt(i);
    if (c === '\\' && i + 1 < pattern.length) re += pattern.charAt(++i).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp('^' + re + '$').test(name);
}

// The filters that keep loaded tables from this member (as the server applies them: the database
// rewritten first, then the database filters, then the table filters): [{filter, tables}].
function filterDrops(filters, tables) {
  var by = {};
  filters.forEach(function (f) { (by[f.name] = by[f.name] || []).push(f.rule); });
  var all = function (name) { return [].concat.apply([], (by[name] || []).map(list)); };
  var rewrites = [];
  (by.REPLICATE_REWRITE_DB || []).forEach(function (rule) {
    var re = /\(\s*([^,()]+?)\s*,\s*([^,()]+?)\s*\)/g, m;
    while ((m = re.exec(rule))) rewrites.push({ from: m[1], to: m[2] });
  });
  var doDb = all('REPLICATE_DO_DB'), ignoreDb = all('REPLICATE_IGNORE_DB');
  var doTable = all('REPLICATE_DO_TABLE'), ignoreTable = all('REPLICATE_IGNORE_TABLE');
  var wildDo = all('REPLICATE_WILD_DO_TABLE'), wildIgnore = all('REPLICATE_WILD_IGNORE_TABLE');
  var drops = {};
  var order = [];
  function drop(filter, t) {
    if (!drops[filter]) { drops[filter] = []; order.push(filter); }
    drops[filter].push(displayTable(t.schema, t.table));
  }
  tables.forEach(function (t) {
    var rw = rewrites.filter(function (r) { return r.from === t.schema; })[0];
    if (rw) return drop('REPLICATE_REWRITE_DB = (' + rw.from + ', ' + rw.to + ') (its rows go to ' + rw.to + ' there)', t);
    var name = t.schema + '.' + t.table;
    if (doDb.length && doDb.indexOf(t.schema) < 0) return drop('REPLICATE_DO_DB = (' + doDb.join(', ') + ')', t);
    if (ignoreDb.indexOf(t.schema) >= 0) return drop('REPLICATE_IGNORE_DB = (' + t.schema + ')', t);
    if (doTable.indexOf(name) >= 0) return null;
    if (ignoreTable.indexOf(name) >= 0) return drop('REPLICATE_IGNORE_TABLE = (' + name + ')', t);
    if (wildDo.some(function (p) { return wildMatches(p, name); })) return null;
    var wi = wildIgnore.filter(function (p) { return wildMatches(p, name); })[0];
    if (wi) return drop("REPLICATE_WILD_IGNORE_TABLE = ('" + wi + "')", t);
    if (doTable.length || wildDo.length) {
      return drop([doTable.length ? 'REPLICATE_DO_TABLE = (' + doTable.join(', ') + ')' : null,
        wildDo.length ? "REPLICATE_WILD_DO_TABLE = ('" + wildDo.join("', '") + "')" : null].filter(Boolean).join(' and ') +
        ' (not named there)', t);
    }
    return null;
  });
  return order.map(function (f) { return { filter: f, tables: drops[f] }; });
}

function some(names) { return names.slice(0, 3).join(', ') + (names.length > 3 ? ' and ' + (names.length - 3) + ' more' : ''); }

// A replica's health from its channel (null: none from its source). parent: the health of the member
// it applies from (null: the target). timeout: membersTimeout.
function replicaHealth(ch, tables, timeout, parent, sourceAddress) {
  var h = { wait: false, delay: parent ? parent.delay : 0, refuse: null, why: null, state: null };
  if (!ch) {
    h.state = 'no channel from ' + sourceAddress;
    h.why = 'it lists no replication channel from ' + sourceAddress + ' (SHOW REPLICA STATUS), though ' + sourceAddress +
      ' shows it connected';
    return h;
  }
  var ioUp = ch.io === 'Yes' || (ch.io === 'Connecting' && !ch.ioErrno);
  h.state = 'IO ' + ch.io + ', SQL ' + ch.sql + (ch.delay ? ', SOURCE_DELAY ' + ch.delay + ' s' : '') +
    (ch.filters.length ? ', filters ' + ch.filters.map(function (f) { return f.name + ' = ' + f.rule; }).join('; ') : '');
  var drops = filterDrops(ch.filters, tables);
  if (drops.length) {
    h.refuse = 'its replication filter' + (drops.length > 1 ? 's ' : ' ') + drops.map(function (d) {
      return d.filter + ' (channel \'' + ch.channel + '\') keeps ' + some(d.tables) + ' from it';
    }).join('; ') + ': it would never get those rows';
    h.filtered = true;
    return h;
  }
  if (ch.sql === 'No' && ch.sqlErrno) {
    h.refuse = 'its applier stopped on error ' + ch.sqlErrno + ' (' + ch.sqlError + ')';
    return h;
  }
  if (ch.io === 'No' && ch.ioErrno) {
    h.refuse = 'its connection to ' + sourceAddress + ' stopped on error ' + ch.ioErrno + ' (' + ch.ioError + ')';
    return h;
  }
  if (!ioUp || ch.sql !== 'Yes') {
    h.why = ch.io === 'Connecting' ? 'it cannot reach ' + sourceAddress + ' now (IO Connecting, error ' + ch.ioErrno + ': ' + ch.ioError + ')'
      : 'its replication is stopped (IO ' + ch.io + ', SQL ' + ch.sql + ')';
    h.after = ch.io === 'Connecting' ? 'once it reaches ' + sourceAddress + ' again' : 'when started (START REPLICA there)';
    return h;
  }
  if (parent && !parent.wait) {
    h.why = 'its source ' + sourceAddress + ' is not applying the load now (' + (parent.why || parent.refuse) + ')';
    h.after = 'once ' + sourceAddress + ' has it';
    return h;
  }
  h.delay += ch.delay;
  if (h.delay > timeout) {
    h.why = 'it applies what its source commits ' + h.delay + ' s later (SOURCE_DELAY' + (parent && parent.delay ? ', its sources\' included' : '') +
      '), beyond membersTimeout ' + timeout + ' s';
    h.after = h.delay + ' s after the load, or give membersTimeout above ' + h.delay + ' to wait for it';
    return h;
  }
  h.wait = true;
  return h;
}

// A group member as the target's replication_group_members shows it.
function groupHealth(state) {
  if (state === 'ONLINE' || state === 'RECOVERING') return { wait: true, delay: 0, refuse: null, why: null, state: state };
  return { wait: false, delay: 0, refuse: null, state: state, why: 'it is ' + state + ' in the group',
    after: 'when it is ONLINE again (distributed recovery brings it the load)' };
}

// The replicas of a member that does not write what it applies to its own binary log never get the load.
function relayHealth(logBin, logReplicaUpdates, address) {
  var off = logBin === 'OFF' ? 'log_bin OFF' : logReplicaUpdates === 'OFF' ? 'log_replica_updates OFF' : null;
  if (!off) return null;
  return { wait: false, delay: 0, state: 'source ' + address + ' has ' + off,
    refuse: 'its source ' + address + ' does not write what it applies to its binary log (' + off + '): it would never get the load' };
}

module.exports = { readChannel: readChannel, filterDrops: filterDrops, replicaHealth: replicaHealth, groupHealth: groupHealth,
  relayHealth: relayHealth, wildMatches: wildMatches };
