// Privileges a load needs for each planned server step, checked from SHOW GRANTS BEFORE anything
// is dropped or changed: a step that would fail after a drop loses the user's tables. A check
// that cannot be made (SHOW GRANTS fails, privileges held only through roles) is not skipped: it
// refuses, unless force, since the drop that follows cannot be taken back.
var UserError = require('../core/user-error.js').UserError;
var currentAccount = require('./server-safety.js').currentAccount;

// SHOW GRANTS lines → [{privs: ['DROP', ...], schema: '*'|name, table: '*'|name}] (roles: isRole).
function parseGrants(lines) {
  return lines.map(function (line) {
    var m = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(`(?:[^`]|``)*`|\*)\.(`(?:[^`]|``)*`|\*)\s+TO\s/i.exec(line);
    if (!m) return /^GRANT\s+`/.test(line) && !/\sON\s/i.test(line) ? { isRole: true, privs: [] } : null;
    function name(s) { return s === '*' ? '*' : s.slice(1, -1).replace(/``/g, '`'); }
    return { privs: m[1].split(',').map(function (p) { return p.trim().toUpperCase(); }), schema: name(m[2]), table: name(m[3]) };
  }).filter(Boolean);
}

function grants(host) {
  var lines = host.sql.run('SHOW GRANTS').rows.map(function (r) { return String(r[Object.keys(r)[0]]); });
  return parseGrants(lines);
}

function has(grant, privs) {
  return grant.privs.some(function (p) { return p === 'ALL' || p === 'ALL PRIVILEGES' || privs.indexOf(p) >= 0; });
}

// Does some grant give one of privs on schema.table (global, schema-wide or on the table)?
function holds(list, privs, schema, table) {
  return list.some(function (g) {
    if (g.isRole || !has(g, privs)) return false;
    if (g.schema === '*') return true;
    // Wildcard schema grants (shop%) are not interpreted: counted as not holding (refuse, not guess).
    if (g.schema.replace(/\\([_%])/g, '$1') !== schema) return false;
    return g.table === '*' || (table !== undefined && g.table === table);
  });
}

// needs: {tune: bool, redo: bool, drops: [{kind, schema, name}], deletes / updates / inserts / trims: [{schema, table}]
// (rows the orphan and mask steps change; inserts: orphans "parents", which also makes a staging table
// in each of their schemas), binlogSwitch: bool (they set sql_log_bin), replay: bool (binlogs: BINLOG, gtid_next)}. Throws one UserError listing every
// missing privilege and the GRANT to run (or warns and goes on under force).
function checkLoadPrivileges(host, needs, force) {
  var list;
  try {
    list = grants(host);
  } catch (e) {
    return cannotCheck(host, 'SHOW GRANTS failed (' + e.message + ')', needs, force);
  }
  var missing = [];
  if (needs.tune && !holds(list, ['SYSTEM_VARIABLES_ADMIN', 'SUPER'], '*')) {
    missing.push({ priv: 'SYSTEM_VARIABLES_ADMIN', on: '*.*', why: 'tune: true changes server settings with SET GLOBAL' });
  }
  if (needs.redo && !holds(list, ['INNODB_REDO_LOG_ENABLE'], '*')) {
    missing.push({ priv: 'INNODB_REDO_LOG_ENABLE', on: '*.*', why: 'redoLog: "off" runs ALTER INSTANCE DISABLE INNODB REDO_LOG' });
  }
  var seen = {};
  (needs.drops || []).forEach(function (o) {
    var key = o.schema + '\u0000' + (o.kind === 'TABLE' || o.kind === 'VIEW' ? o.name : '');
    if (seen[key]) return;
    seen[key] = true;
    var privs = o.kind === 'TRIGGER' ? ['TRIGGER'] : o.kind === 'EVENT' ? ['EVENT']
      : o.kind === 'FUNCTION' || o.kind === 'PROCEDURE' ? ['ALTER ROUTINE'] : ['DROP'];
    if (!holds(list, privs, o.schema, o.name)) {
      missing.push({ priv: privs[0], on: '`' + o.schema.replace(/`/g, '``') + '`.*',
        why: 'dropExisting drops ' + o.kind.toLowerCase() + ' `' + o.schema + '`.`' + o.name + '`' });
    }
  });
  rowChanges(list, needs.deletes, 'DELETE', 'orphans: "delete" deletes rows of ', missing);
  rowChanges(list, needs.trims, 'DELETE', 'since deletes the boundary chunk\'s rows before the point from ', missing);
  rowChanges(list, needs.updates, 'UPDATE', 'mask changes rows of ', missing);
  rowChanges(list, needs.inserts, 'INSERT', 'orphans: "parents" adds rows to ', missing);
  ['CREATE', 'ALTER', 'DROP'].forEach(function (priv) {
    rowChanges(list, (needs.inserts || []).map(function (t) { return { schema: t.schema, table: null }; }), priv,
      'orphans: "parents" makes, fills and drops a staging table in ', missing);
  });
  if (needs.binlogSwitch && !holds(list, ['SYSTEM_VARIABLES_ADMIN', 'SESSION_VARIABLES_ADMIN', 'SUPER'], '*')) {
    missing.push({ priv: 'SESSION_VARIABLES_ADMIN', on: '*.*', why: 'with skipBinlog, the orphan and mask steps keep ' +
      'their changes out of the binary log with SET SESSION sql_log_bin = 0, as util.loadDump does' });
  }
  if (needs.replay && !holds(list, ['BINLOG_ADMIN', 'REPLICATION_APPLIER', 'SUPER'], '*')) {
    missing.push({ priv: 'REPLICATION_APPLIER', on: '*.*', why: 'binlogs: the replay sends row events as BINLOG statements' });
  }
  if (needs.replay && !holds(list, ['REPLICATION_APPLIER', 'SYSTEM_VARIABLES_ADMIN', 'SESSION_VARIABLES_ADMIN', 'SUPER'], '*')) {
    missing.push({ priv: 'SESSION_VARIABLES_ADMIN', on: '*.*', why: 'binlogs: the replay keeps the source\'s GTIDs with SET gtid_next' });
  }
  if (needs.applier && !holds(list, ['REPLICATION_SLAVE_ADMIN', 'SUPER'], '*')) {
    missing.push({ priv: 'REPLICATION_SLAVE_ADMIN', on: '*.*', why: 'replayWith "applier": the replay creates, starts and removes a replication channel' });
  }
  if (!missing.length) return [];
  var roles = list.some(function (g) { return g.isRole; });
  var account = currentAccount(host);
  var text = 'This account lacks privileges for the planned steps (SHOW GRANTS' + (roles ? '; privileges held only ' +
    'through roles are not counted' : '') + '): ' + missing.map(function (m) { return m.priv + ' (' + m.why + ')'; })
    .join('; ') + '. Nothing was dropped or changed. Ask an administrator to run: ' + unique(missing.map(function (m) {
    return 'GRANT ' + m.priv + ' ON ' + m.on + ' TO ' + account + ';';
  })).join(' ') + ' Or leave out the step (tune: false, redoLog: "keep", dropExisting: false, orphans: "keep", no mask)' +
    (roles ? ', or pass force: true if a role grants them.' : '.');
  if (!force) throw new UserError('PRIVILEGE_MISSING', text);
  host.out.warn('force: going ahead although ' + text);
  return missing;
}

// Whether this account may create a replication channel (replayWith "applier"): true, false, or null when
// SHOW GRANTS fails. Privileges held only through roles are not counted (as checkLoadPrivileges).
function canManageChannels(host) {
  try {
    return holds(grants(host), ['REPLICATION_SLAVE_ADMIN', 'SUPER'], '*');
  } catch (e) {
    return null;
  }
}

// One missing entry per table the step changes rows of (tables: [{schema, table}]).
function rowChanges(list, tables, priv, why, missing) {
  var seen = {};
  (tables || []).forEach(function (t) {
    var key = t.schema + '\u0000' + t.table;
    // table null: the schema itself (a table the step makes), held by a grant on the schema or all.
    if (seen[key] || holds(list, [priv], t.schema, t.table === null ? undefined : t.table)) return;
    seen[key] = true;
    missing.push({ priv: priv, on: '`' + t.schema.replace(/`/g, '``') + '`.*', why: why + '`' + t.schema + '`' +
      (t.table === null ? '' : '.`' + t.table + '`') });
  });
}

function unique(list) { return list.filter(function (x, i) { return list.indexOf(x) === i; }); }

function cannotCheck(host, why, needs, force) {
  var text = 'Cannot check this account\'s privileges before ' + (needs.drops && needs.drops.length ? 'dropping ' +
    needs.drops.length + ' object(s)' : 'changing server settings') + ': ' + why + '. Nothing was dropped or changed.';
  if (!force) throw new UserError('PRIVILEGE_UNCHECKED', text + ' Pass force: true to go ahead unchecked.');
  host.out.warn('force: ' + text.replace(' Nothing was dropped or changed.', '') + ' Going ahead unchecked.');
  return [];
}

module.exports = { checkLoadPrivileges: checkLoadPrivileges, parseGrants: parseGrants, grants: grants, holds: holds,
  canManageChannels: canManageChannels };
