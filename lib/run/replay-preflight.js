// restore.load's binlogs: what the replay after the load applies (lib/binlog/replay-plan.js), and
// what it is refused with, decided in the preflight. Under schemaMap the events are rewritten to the
// new names (./replay-rename.js). latest / since: refused unless outsideSlice says "skip" (markSliced).
// Refused for now, each said: masks and orphans (they change rows the replay then changes again), a target
// without gtid_mode ON (each transaction keeps a GTID, the source's or one derived from the dump's position
// (positionGtids): that is what makes a rerun skip what is applied).
var UserError = require('../core/user-error.js').UserError;
var replayPlan = require('../binlog/replay-plan.js');
var replayFilter = require('../binlog/replay-filter.js');
var gtids = require('../binlog/gtid-set.js');
var selection = require('../partial/selection.js');
var objectFilter = require('../partial/load-objects.js').objectFilter;
var sourcePosition = require('../dump/dump-metadata.js').sourcePosition;
var sourceIdentity = require('../dump/dump-metadata.js').sourceIdentity;
var renameReplay = require('./replay-rename.js').renameReplay;
var replayTables = require('../binlog/replay-tables.js');
var setField = require('../binlog/plan-transactions.js').setField;
var memory = require('../core/memory.js');
var replaySizes = require('../binlog/replay-sizes.js');
var planApplier = require('../binlog/replay-applier.js').planApplier;
var replayRecord = require('../binlog/replay-record.js');
var rowOwnership = require('../snapshot/row-ownership.js');
var canManageChannels = require('../server/privileges.js').canManageChannels;
var foldsTableNames = require('../server/server-tables.js').foldsTableNames;

var TARGETS = ['until', 'stopBefore', 'stopAfter'];

function refuse(option, why) {
  throw new UserError('OPTION_CONFLICT', 'restore.load: binlogs with ' + option + ' is not done yet: ' + why + '. Nothing was changed.',
    { options: ['binlogs', option] });
}

// The tables latest / since load a slice of: {option, has(schema, table)} (dump names), or null.
function slicedTables(options) {
  var sel = selection.parseSelection({ latest: options.latest, since: options.since });
  if (!selection.isPartial(sel)) return null;
  // A latest rule for one partition slices its table too: rules are matched by schema and table only.
  return { option: sel.since.length ? 'since' : 'latest', has: function (schema, table) {
    return selection.hasSince(sel, schema, table) ||
      sel.latest.some(function (r) { return (r.schema === '*' || r.schema === schema) && (r.table === '*' || r.table === table); });
  } };
}

// outsideSlice "skip": a transaction writing a sliced table applies its row events with rbr_exec_mode
// IDEMPOTENT (an update or delete of a row the target does not hold is skipped, not an error; an insert
// over a row it holds replaces it). Which rows a replay may touch at all is row-ownership's (the preflight
// refuses a table holding rows of its own). Said in the plan with the count.
// nameOf: (schema, table) -> the dump's names (the filter's: a log's `shop`.`orders` for the dump's `Shop`.`Orders`).
function markSliced(plan, sliced, nameOf) {
  if (!sliced) return;
  var n = 0;
  var names = [];
  plan.transactions.forEach(function (t, k) {
    var hit = (t.tables || []).filter(function (name) {
      var dot = name.indexOf('.');
      var c = nameOf(name.slice(0, dot), name.slice(dot + 1));
      return sliced.has(c.schema, c.table);
    });
    if (!hit.length) return;
    setField(plan.transactions, k, 'idempotent', true);
    n++;
    hit.forEach(function (x) { if (names.indexOf(x) < 0) names.push(x); });
  });
  plan.lines.splice(2, 0, '  outside the slice (outsideSlice: skip): ' + n + ' transaction(s) writing ' + (names.length ? names.join(', ') : 'no sliced table') +
    ' applied with rbr_exec_mode IDEMPOTENT: updates and deletes of rows the slice did not load are skipped, inserts land' +
    (sliced.option === 'since' ? ' (since\'s trim then removes those before the point)' : ''));
}

// The tables ({schema, table}: loaded names) the transactions the target does not hold yet write: what
// row-ownership checks (lib/snapshot/row-ownership.js: a table holding rows of its own is refused).
// held: the target's gtid_executed (a set).
function replayWrites(plan, held) {
  var map = plan.rewrite ? plan.rewrite.schemaMap : {};
  var out = [];
  var seen = {};
  plan.transactions.forEach(function (t) {
    if (gtids.hasGtid(held, t.gtid)) return;
    (t.tables || []).forEach(function (name) {
      var dot = name.indexOf('.');
      var schema = name.slice(0, dot);
      var w = { schema: Object.prototype.hasOwnProperty.call(map, schema) ? map[schema] : schema, table: name.slice(dot + 1), gtid: t.gtid };
      var k = JSON.stringify([w.schema, w.table]);
      if (!seen[k]) { seen[k] = true; out.push(w); }
    });
  });
  return out;
}

// A dump of a source with GTIDs off (no gtidExecuted; binlogFile:binlogPosition): the replayed transactions
// get GTIDs of a UUID of their own, name-based (RFC 9562 version 8: SHA-256 of a namespace and a name) from
// the source's identity and the dump's position, so the same command derives the same GTIDs and a rerun
// skips exactly what the target holds, even after a kill; a record file has a window between a commit and
// its write, and a table on the target changes more than the rows loaded. SHA-256 is the server's (SHA2();
// SHA1() is an unknown function on the MySQL 9.7 tested, so no version 5).
// Returns {uuid, source (text for the plan)} or null (the dump has gtidExecuted, or no position).
var NAMESPACE = '6ba7b8119dad11d180b400c04fd430c8'; // RFC 9562's URL namespace
function positionGtids(host, root) {
  var pos = sourcePosition(root);
  if (pos.gtidExecuted || !pos.binlogFile || typeof pos.binlogPosition !== 'number') return null;
  var who = sourceIdentity(root);
  var source = who ? (who.kind === 'server_uuid' ? 'the source (server_uuid ' + who.text + ')' : 'the source ' + who.text) : 'the source';
  var name = 'mysqlsh-restore replay of ' + (who ? who.kind + ' ' + who.text : 'an unnamed source') + ' from ' + pos.binlogFile + ':' + pos.binlogPosition;
  // The name as UTF-8 hex: no quoting of host names, and the same bytes whatever the session's character set.
  var hex = unescape(encodeURIComponent(name)).split('').map(function (c) { return (256 + c.charCodeAt(0)).toString(16).slice(1); }).join('');
  var h = String(host.sql.run("SELECT SHA2(UNHEX('" + NAMESPACE + hex + "'), 256) AS h").rows[0].h).toLowerCase();
  var b6 = ((parseInt(h.slice(12, 14), 16) & 0x0f) | 0x80).toString(16);
  var b8 = ((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16);
  var x = h.slice(0, 12) + b6 + h.slice(14, 16) + b8 + h.slice(18, 32);
  return { uuid: [x.slice(0, 8), x.slice(8, 12), x.slice(12, 16), x.slice(16, 20), x.slice(20, 32)].join('-'), source: source };
}

// A server variable as the dump's @.json records it (source.sysvars), or null.
function dumpSysvar(root, name) {
  var v = root && root.source && root.source.sysvars ? root.source.sysvars[name] : undefined;
  return typeof v === 'string' ? v : null;
}

// A dump made with consistent: false (@.json "consistent": false): its tables were read at different moments,
// none of them at its gtidExecuted / binlogFile:binlogPosition, so no replay from there gives the source's rows.
// "gtidExecutedInconsistent": true (the Shell could not lock writes while it read them, FLUSH TABLES WITH READ
// LOCK refused): the tables are one snapshot, its recorded point may not be: transactions skipped or applied twice.
function refuseInconsistent(root) {
  if (!root || (root.consistent !== false && root.gtidExecutedInconsistent !== true)) return;
  throw new UserError('DUMP_INCONSISTENT', 'restore.load with binlogs: ' + (root.consistent === false ? 'the dump was made with consistent: ' +
    'false (its @.json says so): its tables were read at different moments while the source kept writing, and none of them at the point ' +
    'its gtidExecuted / binlogFile:binlogPosition records, so no replay from there gives the source\'s rows. Use a dump made with ' +
    'consistent: true (the default)' : 'the dump\'s @.json says gtidExecutedInconsistent: true (the Shell could not hold writes with FLUSH ' +
    'TABLES WITH READ LOCK while it read gtidExecuted, e.g. the account lacked RELOAD), so the point it records may not be where its rows ' +
    'stand, and a replay from there could skip transactions or apply them twice. Use a dump whose @.json says gtidExecutedInconsistent: false') +
    ', or load this one without binlogs. Nothing was changed.', { option: 'binlogs' });
}

// p: {own, options (every option given, resolved), lo (util.loadDump's), dump, objects, rename, snapshot, tuned, redoOff
// (the server steps' plan: settings tuned, the redo log disabled)}.
// Returns the replay plan, or null without binlogs.
function planLoadReplay(host, p) {
  var own = p.own;
  if (!own.binlogs) {
    TARGETS.concat(own.outsideSlice === 'skip' ? ['outsideSlice'] : [], own.replayWith === 'applier' ? ['replayWith'] : []).forEach(function (n) {
      if (own[n] !== undefined && own[n] !== null) {
        throw new UserError('OPTION_CONFLICT', 'restore.load option ' + n + ' says ' + (n === 'outsideSlice' ? 'how a replay of binary logs ' +
          'handles rows outside a slice' : n === 'replayWith' ? 'what applies a replay of binary logs' : 'where a replay of binary logs stops') + ': give ' +
          'binlogs too (the folder of the source\'s binary log files).', { options: [n, 'binlogs'] });
      }
    });
    return null;
  }
  var sliced = slicedTables(p.options);
  var replicated = !!(p.topo && (p.topo.feedsOthers || p.topo.group));
  if (own.outsideSlice === 'skip' && !sliced) {
    throw new UserError('OPTION_CONFLICT', 'restore.load option outsideSlice says how a replay handles rows outside a slice of latest or since: ' +
      'give one of those too, or leave it out.', { options: ['outsideSlice'] });
  }
  if (sliced && own.outsideSlice !== 'skip') {
    throw new UserError('OPTION_CONFLICT', 'restore.load: binlogs with ' + sliced.option + ' loads a slice of ' + sliced.option + '\'s tables, and the ' +
      'binary logs also change rows outside it, which the target does not hold. Say how those are handled: outsideSlice: "skip" ' +
      '(their updates and deletes find no row and are skipped; inserts land, and since\'s trim then removes those before the point). ' +
      'Nothing was changed.', { options: ['binlogs', sliced.option, 'outsideSlice'] });
  }
  var snap = p.snapshot;
  if (snap && snap.active && (snap.orphans !== 'keep' || (snap.specs || []).length)) {
    refuse('mask or orphans', 'the replay would change rows after they were masked or removed');
  }
  if (p.lo.dryRun) refuse('dryRun', 'util.loadDump\'s dryRun loads nothing to replay onto (dryRun: true of restore.load plans the replay)');
  var mode = String(host.sql.run('SELECT @@GLOBAL.gtid_mode AS m').rows[0].m);
  if (mode !== 'ON') {
    throw new UserError('BINLOG_UNSUPPORTED', 'restore.load with binlogs: the target\'s gtid_mode is ' + mode + ': the replay gives ' +
      'each transaction a GTID (SET gtid_next: the source\'s, or one derived from the dump\'s position when the source has GTIDs off), which ' +
      'is what lets the same command continue a stopped replay without applying anything twice; that needs gtid_mode ON (and ' +
      'enforce_gtid_consistency ON) on the target. Nothing was changed.');
  }
  refuseInconsistent(p.dump.rootJson);
  // What the load creates (the dump's scope and the filters): lib/binlog/replay-filter.js.
  var sel = selection.parseSelection(p.lo);
  var schemas = p.objects.schemas.map(function (s) { return s.dumpSchema; });
  var inDump = p.dump.schemas.map(function (e) { return e.schema; });
  // A schema the load creates (util.loadDump's include / excludeSchemas; includeTables keeps the other schemas and their
  // routines and events, as lib/partial/load-objects.js reads it), or one the replay creates that they allow.
  var loadsSchema = function (s) {
    return inDump.indexOf(s) >= 0 ? schemas.indexOf(s) >= 0
      : sel.excludeSchemas.indexOf(s) < 0 && (!sel.includeSchemas.length || sel.includeSchemas.indexOf(s) >= 0);
  };
  // fold: the target takes `shop` for the loaded `Shop` (lower_case_table_names 1 or 2), as a source of those logs names it.
  var filter = replayFilter.forLoad({ lo: p.lo, dump: p.dump, fold: foldsTableNames(host), sourceLctn: dumpSysvar(p.dump.rootJson, 'lower_case_table_names'), triggers: (p.objects.triggers || []).map(function (t) {
    return { schema: t.dumpSchema, table: t.table, name: t.name };
  }), chosen: { table: function (s, t) { return selection.isTableChosen(sel, s, t); }, schema: loadsSchema, loadsSchema: loadsSchema,
    routine: objectFilter(p.lo, 'Routines', 2, 2), event: objectFilter(p.lo, 'Events', 2, 2), trigger: objectFilter(p.lo, 'Triggers', 2, 3) } });
  var plan = replayPlan.planReplay(host, { where: own.binlogs, until: own.until, stopBefore: own.stopBefore, stopAfter: own.stopAfter,
    dumpGtids: sourcePosition(p.dump.rootJson).gtidExecuted, dumpFile: sourcePosition(p.dump.rootJson).binlogFile,
    dumpPosition: sourcePosition(p.dump.rootJson).binlogPosition, byPosition: positionGtids(host, p.dump.rootJson), sourceOptions: p.options,
    dumpPurged: dumpSysvar(p.dump.rootJson, 'gtid_purged'), dumpServerUuid: dumpSysvar(p.dump.rootJson, 'server_uuid'),
    dumpServerId: dumpSysvar(p.dump.rootJson, 'server_id'), dumpGroupName: dumpSysvar(p.dump.rootJson, 'group_replication_group_name'),
    sourceZone: { timeZone: dumpSysvar(p.dump.rootJson, 'time_zone'), systemZone: dumpSysvar(p.dump.rootJson, 'system_time_zone') },
    filter: filter });
  var skippedAt = plan.lines.map(function (l) { return /^ {2}skipped: /.test(l); }).indexOf(true) + 1;
  [replayFilter.scopeLine(filter), replayFilter.accountLine(filter)].filter(Boolean).reverse().forEach(function (l) { plan.lines.splice(skippedAt, 0, l); });
  // schemaMap (or util.loadDump's schema option): the events under the new names (lib/run/replay-rename.js).
  renameReplay(plan, p.objects, p.dump, filter.aliases);
  markSliced(plan, sliced, filter.name);
  // What the target holds already is skipped by every check of what the replay sends (read once).
  var held = gtids.executed(host);
  plan.writes = replayWrites(plan, held);
  replaySizes.refuseGroupSize(plan, p.topo, held);
  plan.created = replayTables.createdTables(plan, plan.rewrite ? plan.rewrite.schemaMap : null);
  // The replay's sessions: the load's threads (its preset's or the option's).
  plan.workers = Math.max(1, Number(p.lo.threads) || 4);
  plan.lines.splice(2, 0, '  how: ' + plan.workers + ' session(s) of the plugin\'s own, transactions scheduled by the source\'s logical clock ' +
    '(last_committed / sequence_number; a new file starts after the previous one ended), committed in the source\'s order' +
    (p.tuned || p.redoOff ? '; with the load\'s ' + (p.tuned ? 'tuned settings' + (p.redoOff ? ' and ' : '') : '') + (p.redoOff ? 'redo log off' : '') +
      ', put back after the replay' : ''));
  plan.sessionWorkers = plan.workers;
  plan.replicated = replicated; // what a refusal to continue offers (lib/binlog/replay-record.js)
  if (own.replayWith === 'applier') {
    // The target's own applier instead of the sessions (lib/binlog/replay-applier.js): checked here, the line says how.
    useApplier(plan, planApplier(host, plan, !!p.lo.skipBinlog));
  } else if (own.replayWith === 'auto') {
    var why = applierBlocked(host, p);
    var a = null;
    if (!why) {
      try {
        a = planApplier(host, plan, !!p.lo.skipBinlog, true);
      } catch (e) {
        if (e.code !== 'REPLAY_APPLIER_REFUSED') throw e;
        why = e.data.reason;
      }
    }
    if (a && a.logged && p.skipBinlogGiven) why = 'skipBinlog was given and the applier would write the replay to the target\'s binary log';
    if (a && !why) {
      useApplier(plan, a);
    } else {
      plan.lines[2] += '; replayWith "auto" takes these, not the target\'s applier: ' + why;
    }
  }
  replaySizes.refuseOversized(host, plan, held);
  return plan;
}

// Once util.loadDump's options are composed (the progress file chosen): a target holding part of this replay
// already is continued or rolled forward (util.loadDump not run again, dropExisting drops nothing: the caller empties
// its drops) or refused (lib/binlog/replay-record.js). The record's
// key: the dump (where it ends in its source's history) and the loaded tables under their loaded names.
// p: {objects, lo (util.loadDump's options, composed), own, dump}.
function planReplayForward(host, plan, p) {
  var pos = sourcePosition(p.dump.rootJson);
  plan.recordKey = JSON.stringify({ dump: [pos.gtidExecuted, pos.binlogFile, pos.binlogPosition, sourceIdentity(p.dump.rootJson)],
    tables: p.objects.tables.map(function (t) { return t.schema + '.' + t.table; }).sort() });
  var existing = Object.keys(rowOwnership.existingTables(host, p.objects.tables, []));
  plan.forward = replayRecord.planForward(host, plan, { key: plan.recordKey, dropExisting: !!p.own.dropExisting,
    resumed: rowOwnership.resumesProgress(host, p.lo), tablesThere: existing.length > 0, existing: existing, replicated: !!plan.replicated });
  // The preflight's passes over the plan leave garbage a call keeps (lib/core/memory.js): collected before util.loadDump runs.
  memory.settle(host, plan.transactions.length);
  if (!plan.forward) return;
  var at = plan.lines.map(function (l) { return /^ {2}replay: /.test(l); }).indexOf(true);
  plan.lines.splice(at + 1, 0, plan.forward.line);
}

function useApplier(plan, a) {
  plan.applier = a;
  plan.workers = a.workers;
  plan.lines.splice(2, 1, a.lines[0]);
}

// replayWith "auto": why the target's applier is not tried before planApplier's own checks, or null. Replicated
// targets where the channel's road is verified with real servers (its transactions reach the members through
// log_replica_updates, then the members step verifies them): a source with replicas (test/shell/pitr.test.js), a
// single-primary group's primary (test/shell/pitr-gtidoff.test.js); elsewhere not verified, so the sessions.
// The account: creating a channel needs REPLICATION_SLAVE_ADMIN.
function applierBlocked(host, p) {
  var topo = p.topo;
  var verified = !topo || topo.kind === 'standalone' || topo.kind === 'source' || (topo.kind === 'group-primary' && topo.group.singlePrimary);
  if (!verified) {
    return 'the target is ' + (topo.kind === 'group-primary' ? 'a member of a multi-primary group' : 'replicated (' + topo.kind + ')') +
      ', where the replay by a channel\'s applier is not verified; the sessions\' replay reaches every member through the binary log';
  }
  if (topo && topo.rebuild) return 'topology "rebuild": the replay by a channel\'s applier is not verified on that road';
  if (topo && topo.unchecked && topo.unchecked.length) return 'whether the target is replicated could not be checked (' + topo.unchecked.join('; ') + ')';
  var can = canManageChannels(host);
  if (can === null) return 'SHOW GRANTS failed, so whether this account holds REPLICATION_SLAVE_ADMIN (a replication channel needs it) is unknown';
  if (!can) return 'this account lacks REPLICATION_SLAVE_ADMIN (SHOW GRANTS; roles not counted), which creating a replication channel needs';
  return null;
}

module.exports = { planLoadReplay: planLoadReplay, planReplayForward: planReplayForward, applierBlocked: applierBlocked };
