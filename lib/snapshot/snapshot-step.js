// The developer-snapshot phase of restore.load: after util.loadDump, complete (parents), remove
// or count orphan rows and mask personal data. planSnapshot runs in the preflight and checks the
// masks and relations against the dump's CREATE TABLE text before anything changes; runSnapshot
// runs after the load.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('../options/shell-version.js').atLeast;
var withSessionSwitchOff = require('../server/session-switch.js').withSessionSwitchOff;
var parseMask = require('../options/mask-spec.js').parseMask;
var relations = require('../options/relations.js');
var tableDdl = require('./table-ddl.js');
var masking = require('./masking.js');
var loadMasks = require('./load-masks.js');
var maskKey = require('./mask-key.js');
var deferredIndexes = require('./deferred-indexes.js');
var orphans = require('./orphans.js');
var parents = require('./parents.js');
var chunkSources = require('./chunk-sources.js').chunkSources;
var loadedForeignKeys = require('./foreign-keys.js').loadedForeignKeys;
var displayTable = require('../format/display-name.js').displayTable;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var trimLimit = require('./row-ownership.js').trimLimit;
var statementSize = require('./statement-size.js');

var ORPHAN_LINES = {
  parents: 'Orphans after the load: the rows the loaded rows reference are added from the chunks latest left out ' +
    '(repeated for their own references); what no chunk holds is deleted like orphans: "delete"',
  delete: 'Orphans after the load: delete the rows whose referenced row is missing, until none is left',
  report: 'Orphans after the load: counted per foreign key, nothing deleted',
};

function serverHas(host) {
  return function (schema, table) {
    return Number(host.sql.run('SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND ' +
      'TABLE_NAME = ?', [schema, table]).rows[0].n) > 0;
  };
}

// p: {ctx: lib/run/load-preflight.js's context (read only), dump: the dump model (the
// CREATE TABLE texts), objects: what the load creates (load-objects.js), planned: the partial
// step's plan (null without one): its masks applied while loading, topology: lib/server/topology.js's
// (a mask by UPDATE is refused where the target feeds others)}. Returns what the phase will do,
// {active, orphans, specs, relations, key (mask-key.js: {maskKey, held, rowEvents}), tables, lines, lateRelations, sessionInit: statements
// first in util.loadDump's sessionInitSql, loadOptions: what it adds to util.loadDump's options}; throws a
// UserError for a wrong mask or relation.
function planSnapshot(host, p) {
  var ctx = p.ctx;
  var objects = p.objects;
  var masksPlan = p.planned && p.planned.loadMasks ? p.planned.loadMasks : null; // load-masks.js planLoadMasks
  var own = ctx.own;
  var specs = parseMask(own.mask);
  var rels = relations.parseRelations(own.relations);
  var lm = masksPlan && masksPlan.masks.length ? masksPlan : null;
  var trims = sinceTrims(p.planned, objects.tables);
  // The sessions that use the masks' key write row events (the key would go with statement events).
  var rowEvents = specs.length ? maskKey.rowEvents(host, !!ctx.loadOptions.skipBinlog) : null;
  var keyInit = lm ? (rowEvents.statement ? [rowEvents.statement] : []).concat([loadMasks.keyStatement(lm.thread)]) : [];
  var snap = { active: own.orphans !== 'keep' || specs.length > 0 || trims.length > 0, orphans: own.orphans, specs: specs,
    relations: rels, key: { maskKey: own.maskKey === undefined ? null : own.maskKey, held: !!lm, rowEvents: rowEvents },
    keySource: lm ? lm.keySource : null, loadMasks: lm, tables: objects.tables, lines: [], ctx: ctx, trims: trims, keyInit: keyInit,
    // With masks applied while loading, each loader session first reads the key from this session
    // (load-masks.js keyThread): lib/commands/load.js puts this first in util.loadDump's sessionInitSql.
    sessionInit: keyInit };
  trims.forEach(function (t) {
    snap.lines.push('since: after the load, the rows of ' + displayTable(t.schema, t.table) + ' whose ' + t.column + ' is before ' +
      t.value + ' (or NULL) are deleted: ' + (t.every ? 'those of every chunk loaded (sinceScan)' : 'the boundary chunk\'s older rows') + (t.utc ? ' (TIMESTAMP compared in UTC, the dump\'s tzUtc)' : ''));
  });
  if (ORPHAN_LINES[own.orphans]) snap.lines.push(ORPHAN_LINES[own.orphans]);
  if (own.orphans === 'parents' && ctx.loadOptions.skipBinlog && !atLeast(ctx.shellVersion, '8.0.30')) {
    throw new UserError('SHELL_TOO_OLD', 'orphans: "parents" with skipBinlog needs MySQL Shell 8.0.30 or later (util.importTable\'s ' +
      'sessionInitSql keeps the added rows out of the binary log). Use orphans: "delete", or load without skipBinlog.');
  }
  var fromServer = ctx.loadOptions.loadDdl === false;
  var ddl = fromServer || (!specs.length && !rels.length && own.orphans !== 'delete') ? null
    : masksPlan && masksPlan.ddl ? masksPlan.ddl : tableDdl.dumpTableColumns(host, p.dump, objects.tables);
  // Kept for lib/snapshot/row-ownership.js (the keys a later step follows): the texts are read once.
  snap.ddl = ddl;
  if (own.orphans === 'delete') planDeferred(ctx, snap, objects.tables, ddl, rels);
  if (!specs.length && !rels.length) return snap;
  function columnsOf(schema, table, loaded) {
    if (!loaded || fromServer) return tableDdl.serverTableColumns(host, schema, table);
    return ddl[JSON.stringify([schema, table])];
  }
  var lateRelations = relations.checkRelations(rels, objects.tables, columnsOf, serverHas(host));
  if (rels.length) {
    snap.lines.push('Relations (virtual foreign keys, used like declared ones): ' + rels.map(function (r) {
      return r.name;
    }).join(', '));
  }
  if (lateRelations.length) snap.lines.push(checkedLater(lateRelations));
  snap.lateRelations = lateRelations;
  if (!specs.length) return snap;
  var unchecked = masking.checkMasks(specs, objects.tables, function (t) { return columnsOf(t.schema, t.table, true); });
  var during = lm ? lm.masks.map(function (m) { return m.name; }) : [];
  var after = specs.filter(function (s) { return during.indexOf(s.name) < 0; });
  var kindOf = function (s) { return s.name + ' ' + (s.kind === 'fixed' ? 'fixed' : s.kind); };
  var key = own.maskKey ? 'key: maskKey' : 'a random key for this load';
  if (lm) {
    snap.lines.push('Masks while loading (LOAD DATA writes the masked value, ' + key + '): ' +
      specs.filter(function (s) { return during.indexOf(s.name) >= 0; }).map(kindOf).join(', '));
  }
  if (after.length) {
    var why = masksPlan ? masksPlan.after : [];
    snap.lines.push('Masks after the load (UPDATE, ' + key + '): ' + after.map(function (s) {
      var w = why.filter(function (x) { return x.name === s.name; })[0];
      return kindOf(s) + (w ? ' (' + w.why + ')' : '');
    }).join(', ') + '; columns linked to them by foreign keys get the same mask');
  }
  if (unchecked.length) snap.lines.push(checkedLater(unchecked));
  snap.lines.push(maskKey.keyLine(own.maskKey, rowEvents, !!lm));
  refuseReplicatedUpdates(p.topology, after, masksPlan);
  return snap;
}

// On a replica's source or a group member, an UPDATE after the load comes too late: util.loadDump's
// rows have reached every member (and the binary logs) with the original values. Refused before
// anything changes, naming each such mask and why it is not applied while loading.
function refuseReplicatedUpdates(topo, after, masksPlan) {
  if (!topo || !topo.feedsOthers || !after.length) return;
  var why = masksPlan ? masksPlan.after : [];
  throw new UserError('MASK_REPLICATED', 'mask: this server is ' + (topo.group ? 'a group member' : 'a source with replicas connected') +
    ', and ' + after.map(function (s) {
      var w = why.filter(function (x) { return x.name === s.name; })[0];
      return s.name + ' (' + (w ? w.why : 'not masked while loading') + ')';
    }).join(', ') + ' would be masked by an UPDATE after the load, when the original values have already reached every ' +
    'member and their binary logs. Only masks applied while loading are allowed here: choose a kind that keeps a unique ' +
    'column distinct (hash, or email / name where the column is long enough), mask a column no foreign key or relation ' +
    'links, or load a standalone server (or topology: "rebuild") and mask there. Nothing was changed.');
}

// since (lib/partial/since-boundary.js) with sinceExact: per loaded table, the column and the point
// below which the rows the boundary chunk brought are deleted: [{schema, table (as loaded), column,
// value (SQL text: a time, or a checked integer), int, utc, boundaries, every: true when the rows
// before the point may be in every loaded chunk (sinceScan: the column does not lead the key)}].
function sinceTrims(planned, tables) {
  var sel = planned && planned.sel;
  if (!sel || !sel.sinceFacts || !sel.sinceExact) return [];
  var out = [];
  var seen = {};
  sel.sinceFacts.forEach(function (f) {
    var loaded = tables.filter(function (t) { return t.dumpSchema === f.schema && t.table === f.table_; })[0];
    var key = JSON.stringify([f.schema, f.table_]);
    if (!loaded || seen[key]) return;
    seen[key] = true;
    out.push({ schema: loaded.schema, table: loaded.table, column: f.column, value: f.sql, int: f.type !== 'datetime' &&
      f.type !== 'timestamp' && f.type !== 'date', utc: !!f.utc, boundaries: [], every: false });
  });
  sel.sinceFacts.forEach(function (f) {
    var loaded = tables.filter(function (t) { return t.dumpSchema === f.schema && t.table === f.table_; })[0];
    out.forEach(function (t) {
      // By the loaded table (schema too): two since tables may share a name in different schemas.
      if (!loaded || t.schema !== loaded.schema || t.table !== loaded.table) return;
      t.boundaries.push(f.boundary);
      if (f.method === 'every chunk') t.every = true;
    });
  });
  return out;
}

// Deletes the rows before each since point (on a group: in batches below its transaction size
// limit); returns [{schema, table, column, value, deleted}].
function trimSince(host, trims, groupLimit) {
  return trims.map(function (t) {
    var col = quoteIdentifier(t.column);
    // An integer is written into the statement (checked digits): a string would compare as a double.
    var value = t.int ? (/^-?\d+$/.test(t.value) ? t.value : 'NULL') : '?';
    // A table holding rows of its own: only the loaded chunks' key range (lib/snapshot/row-ownership.js).
    var limit = trimLimit(t);
    var sql = 'DELETE FROM ' + quoteTable(t.schema, t.table) + ' WHERE ' + (limit ? limit.sql + ' AND (' : '') + col + ' < ' + value +
      ' OR ' + col + ' IS NULL' + (limit ? ')' : '');
    var args = (limit ? limit.args : []).concat(t.int ? [] : [t.value]);
    var n = statementSize.batchRows(host, t.schema, t.table, groupLimit);
    var run = function () {
      try {
        return statementSize.inBatches(host, sql, args, n);
      } catch (e) {
        throw statementSize.namedRollback(host, e, 'since\'s DELETE of ' + displayTable(t.schema, t.table), groupLimit, true);
      }
    };
    var deleted = t.utc ? withSessionValue(host, 'time_zone', '+00:00', run) : run();
    return { schema: t.schema, table: t.table, column: t.column, value: t.value, deleted: deleted, boundaries: t.boundaries, every: t.every,
      range: t.range ? { columns: t.range.columns, values: t.range.values, chunk: t.range.chunk } : null };
  });
}

function withSessionValue(host, name, value, fn) {
  var before = host.sql.run('SELECT @@SESSION.' + name + ' AS v').rows[0].v;
  host.sql.run('SET SESSION ' + name + ' = ?', [value]);
  try {
    return fn();
  } finally {
    host.sql.run('SET SESSION ' + name + ' = ?', [String(before)]);
  }
}

// orphans "delete": the load leaves the secondary indexes to a second util.loadDump call after
// the deletes (lib/snapshot/deferred-indexes.js), when the deletes need none of them.
function planDeferred(ctx, snap, tables, ddl, rels) {
  var why = ddl ? deferredIndexes.whyNotDeferred(ctx, tables, ddl, rels) : 'loadDdl is false';
  if (why) {
    snap.lines.push('  Secondary indexes built by the load as usual (' + why + ')');
    return;
  }
  // What the step adds to util.loadDump's options (lib/run/loader-options.js composes them).
  snap.loadOptions = { deferTableIndexes: 'all', loadIndexes: false };
  snap.deferredIndexes = true;
  snap.ddlKeys = deferredIndexes.ddlForeignKeys(tables, ddl);
  snap.lines.push('  Secondary indexes and foreign keys built after the orphans are deleted (deferTableIndexes: "all", ' +
    'loadIndexes: false, then util.loadDump with loadIndexes: true): no index entry is written for a row deleted later');
}

function checkedLater(list) {
  return '  ' + list.map(function (s) { return s.name; }).join(', ') + ': the dump holds no CREATE TABLE for these ' +
    'tables, so they are checked right after the load, before anything is changed';
}

// Runs fn with sql_log_bin = 0 when the load kept itself out of the binary log.
function outsideBinlog(host, skip, fn) {
  return skip ? withSessionSwitchOff(host, 'sql_log_bin', fn) : fn();
}

// Runs fn with binlog_row_image = MINIMAL in the session where the binary log is written and the
// account may set it: a masking UPDATE or an orphan DELETE then logs the primary key and the changed
// columns instead of every column before and after (bench:snapshot, masking 1,000,000 orders: 11.5 s
// with FULL, 5.2 s with MINIMAL, 3.0 s outside the binary log). Replicas apply row events by the
// primary key (a table without one still logs every column). Without the privilege: as it is.
function withMinimalRowImage(host, fn) {
  var before = null;
  try {
    var r = host.sql.run('SELECT @@SESSION.binlog_row_image AS v, @@GLOBAL.log_bin AS b, @@SESSION.sql_log_bin AS s').rows[0];
    if (Number(r.b) && Number(r.s) && String(r.v) !== 'MINIMAL') {
      host.sql.run("SET SESSION binlog_row_image = 'MINIMAL'");
      before = String(r.v);
    }
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
  }
  try {
    return fn();
  } finally {
    if (before) host.sql.run('SET SESSION binlog_row_image = ?', [before]);
  }
}


// Around util.loadDump and the snapshot phase: this session holds the key of the masks applied
// while loading (set: true), and lets it go afterwards, also after a failure (set: false).
function holdMaskKey(host, snap, set) {
  if (!snap || !snap.loadMasks) return;
  if (set) maskKey.hold(host, snap.key.maskKey, snap.key.rowEvents);
  else maskKey.release(host, snap.key.rowEvents);
}

// After util.loadDump. Returns the facts the load report shows (lib/run/snapshot-report.js).
// loadDir: what util.loadDump loaded (the indexes it deferred are built from there); planned: the
// partial step's plan as the load used it (null without one): where the chunks left out are.
function runSnapshot(host, snap, loadDumpOptions, loadDir, planned) {
  var build = { pending: !!snap.deferredIndexes, seconds: null };
  build.run = function () {
    if (!build.pending) return;
    build.pending = false;
    build.seconds = deferredIndexes.buildDeferredIndexes(host, loadDir, loadDumpOptions);
  };
  try {
    return outsideBinlog(host, !!loadDumpOptions.skipBinlog, function () {
      return withMinimalRowImage(host, function () { return changeRows(host, snap, loadDumpOptions, build, planned || null); });
    });
  } catch (e) {
    // A statement not batched (a mask's UPDATE) rolled back by the group: named.
    throw statementSize.namedRollback(host, e, 'a statement of the step after the load (masks)', snap.groupLimit);
  } finally {
    // Whatever failed: the tables must not stay without their indexes.
    build.run();
  }
}

function changeRows(host, snap, loadDumpOptions, build, planned) {
  var has = serverHas(host);
  // Relations whose tables had no CREATE TABLE in the dump: checked now, before any row changes.
  if (snap.lateRelations && snap.lateRelations.length) {
    relations.checkRelations(snap.lateRelations, snap.tables, function (schema, table) {
      return tableDdl.serverTableColumns(host, schema, table) || { columns: {} };
    }, has);
  }
  // Deferred foreign keys are not on the server yet: the dump's DDL gives them.
  var fks = loadedForeignKeys(host, snap.tables, (build.pending ? snap.ddlKeys : [])
    .concat(relations.relationKeys(snap.relations || [], snap.tables, has)));
  // Masks first resolved (conflicts are refused before any row changes), applied after the orphans are gone.
  var resolved = snap.specs.length ? masking.resolveMasks(host, snap.specs, snap.tables, fks) : null;
  var out = { orphans: null, mask: null, notes: resolved ? resolved.notes : [], since: null };
  // since first: the rows it removes may leave orphans, or be parents orphans "parents" adds back.
  if (snap.trims && snap.trims.length) {
    out.since = orphans.withoutForeignKeyChecks(host, function () { return trimSince(host, snap.trims, snap.groupLimit); });
  }
  if (snap.orphans === 'parents') {
    out.orphans = parents.completeParents(host, fks, chunkSources(host, snap.ctx, planned, snap.tables, snap.loadMasks ?
      { tables: snap.loadMasks.tables, initSql: snap.keyInit } : null),
      { skipBinlog: !!loadDumpOptions.skipBinlog, groupLimit: snap.groupLimit,
        maxBytesPerTransaction: snap.groupLimit ? loadDumpOptions.maxBytesPerTransaction : null });
  } else if (snap.orphans !== 'keep') out.orphans = orphans.fixOrphans(host, fks, snap.orphans, { groupLimit: snap.groupLimit });
  // Deferred indexes: built once the orphans are gone, before any mask (a unique key's masks fail as before).
  if (build.pending) {
    build.run();
    if (out.orphans) out.orphans.indexSeconds = build.seconds;
  }
  if (resolved) {
    // Masks applied while loading (not linked by any key: resolveMasks gives them alone) need no UPDATE.
    var inLoad = {};
    (snap.loadMasks ? snap.loadMasks.masks : []).forEach(function (m) { inLoad[JSON.stringify([m.schema, m.table, m.column])] = m; });
    var later = resolved.masks.filter(function (m) { return !inLoad[JSON.stringify([m.schema, m.table, m.column])] || m.follows; });
    out.mask = orphans.withoutForeignKeyChecks(host, function () {
      return masking.applyMasks(host, later, snap.key, snap.keySource);
    });
    out.mask.inLoad = snap.loadMasks ? inLoadFacts(snap.loadMasks.masks) : [];
    out.mask.tables.forEach(function (t) {
      if (t.updateTriggers) {
        out.notes.push(displayTable(t.schema, t.table) + ' has ' + t.updateTriggers + ' UPDATE trigger(s): they ran for ' +
          'every masked row');
      }
    });
  }
  return out;
}

// [{schema, table, columns: [{column, kind}]}] of the masks LOAD DATA applied.
function inLoadFacts(masks) {
  var out = [];
  masks.forEach(function (m) {
    var t = out.filter(function (x) { return x.schema === m.schema && x.table === m.table; })[0];
    if (!t) out.push(t = { schema: m.schema, table: m.table, columns: [] });
    t.columns.push({ column: m.column, kind: m.kind });
  });
  return out;
}

module.exports = { planSnapshot: planSnapshot, runSnapshot: runSnapshot, holdMaskKey: holdMaskKey };
