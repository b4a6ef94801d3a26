// restore.load's preflight: everything it checks and decides before it changes anything. Nothing
// here writes (the restore lock on the server excepted: taken here, released by the caller).
//
// The partial-import step (lib/run/partial-step.js; a test may give another: runLoad(host, dumpDir,
// options, {partial: step})):
//   step.optionNames          names of the options the step owns (never passed to util.loadDump)
//   step.plan(ctx)            preflight, writes nothing; null when the options ask for nothing, else
//                             {loadOptions, lines, facts, loadDir, model}: util.loadDump options to
//                             add or override (progressFile, disableBulkLoad…), plan lines, facts
//                             for the returned report (under `partial`), the directory util.loadDump
//                             loads (a load view) when it is not the dump's, the dump model it read
//                             (lib/dump/dump-model.js: what the load creates is taken from it)
//   step.prepare / step.report: lib/run/steps/prepare.js.
// ctx (frozen, its options too: lib/run/load-options-value.js) = {host, dumpDir (absolute; a remote
//        dump's cache), source (null, or a remote dump's {source, listing}: lib/remote/dump-source.js),
//        serverUuid, options (preset + explicit), own (the plugin's settings), loadOptions
//        (util.loadDump's options as resolved, before any step's additions), shellVersion, dryRun}.
// The options util.loadDump gets are composed once, at the end (lib/run/loader-options.js). The
// filters flow into what is dropped, analyzed and counted (lib/partial/load-objects.js, from the
// dump model the step read).
//
// Returns {ctx, own, objects (what the load creates), plan (what the steps do: printed before them),
// planned (the partial step's plan, or null), existing (the state file found), release (the lock),
// tableBytes () -> (dumpSchema, table) -> bytes @.done.json records, or null}.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('../options/shell-version.js').atLeast;
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var optionsValue = require('./load-options-value.js');
var loaderOptions = require('./loader-options.js').loaderOptions;
var chooseLevers = require('./load-levers.js').chooseLevers;
var loadObjects = require('../partial/load-objects.js').loadObjects;
var triggerFilter = require('../partial/load-objects.js').triggerFilter;
var dropExisting = require('../server/drop-existing.js');
var planRedo = require('../server/redo-plan.js').planRedo;
var tuning = require('../server/tuning.js');
var safety = require('../server/server-safety.js');
var topology = require('../server/topology.js');
var road = require('../server/replicated-road.js');
var members = require('../server/members.js');
var tableDdl = require('../snapshot/table-ddl.js');
var createTableTexts = require('../dump/dump-texts.js').createTableTexts;
var displayTable = require('../format/display-name.js').displayTable;
var restoreState = require('../server/restore-state.js');
var globalVariable = require('../server/server-variables.js').globalVariable;
var runtime = require('../server/runtime-changes.js');
var restoreLock = require('../server/restore-lock.js');
var requireConnection = require('../server/require-connection.js').requireConnection;
var privileges = require('../server/privileges.js');
var checkProgressFile = require('./progress-file-check.js').checkProgressFile;
var progressFilePlace = require('./progress-file-place.js');
var refuseIncomplete = require('../dump/dump-complete.js').refuseIncomplete;
var readDumpMetadata = require('../dump/dump-model.js').readDumpMetadata;
var recordedTableBytes = require('../dump/dump-model.js').recordedTableBytes;
var snapshotStep = require('../snapshot/snapshot-step.js');
var rowOwnership = require('../snapshot/row-ownership.js');
var statementSize = require('../snapshot/statement-size.js');
var planLoadReplay = require('./replay-preflight.js').planLoadReplay;
var planReplayForward = require('./replay-preflight.js').planReplayForward;
var planBatches = require('./load-batches.js').planBatches;
var checkSessionInit = require('./session-init-check.js').checkSessionInit;
var replayApplier = require('../binlog/replay-applier.js');
var tuneWorkers = replayApplier.tuneWorkers;
var optionTable = require('../options/option-table.js');
var secrets = require('../options/secrets.js');

var BY = require('./steps/server-settings.js').BY;

function refuseLeftovers(host, existing, path) {
  var live = restoreState.liveOwner(host, existing);
  if (live) {
    throw new UserError('RESTORE_RUNNING', 'Another restore is running on this server (' + restoreState.describeOwner(live) + ') and has ' +
      'changed settings it will put back when it ends: ' + restoreState.describeState(existing).join('; ') + '. Wait ' +
      'for it to finish (restore.status() shows it); do not run restore.revert() while it runs.');
  }
  if (!existing || (!existing.settings.length && !(existing.redoLog && existing.redoLog.disabledBy === BY))) return;
  throw new UserError('CHANGES_LEFT', 'An earlier restore left changes on this server that were never put back (' + path + '): ' +
    restoreState.describeState(existing).join('; ') + '. Run restore.revert() first (restore.status() shows them); ' +
    'a new load would record the changed values as the originals.', { path: path });
}

// Everything restore.load checks and decides before it changes anything.
function preflight(host, dumpDir, options, partial) {
  requireConnection(host, 'restore.load()', ['load', typeof dumpDir === 'string' && dumpDir !== '' ? dumpDir : './dump']
    .concat(optionTable.cliOptions(options)));
  if (typeof dumpDir !== 'string' || dumpDir === '') throw new UserError('ARGUMENT_MISSING', 'restore.load() needs the dump directory.');
  var resolved = optionsValue.resolveLoadOptions(host, options, partial ? partial.optionNames || [] : []);
  var own = resolved.own;
  var given = resolved.loadDump;
  // What the server is (source, replica, group member) decides what the load may do: read first.
  var topo = topology.readTopology(host);
  if (topo.outsideGroup) {
    throw new UserError('TARGET_NOT_PRIMARY', 'Refusing to load into this server: it is a member of the Group Replication group ' +
      topo.outsideGroup.name + ' in state ' + topo.outsideGroup.state + ', out of its group. Loaded alone it would hold transactions the ' +
      'group does not have, and could not rejoin. Load the group\'s primary instead, then bring this member back (START GROUP_REPLICATION; ' +
      'in state ERROR, STOP GROUP_REPLICATION first and see its error log); or, if it leaves the group for good, UNINSTALL PLUGIN ' +
      'group_replication (and remove its group_replication settings from its configuration) and load it as a standalone server. ' +
      'Nothing was changed.', { state: topo.outsideGroup.state });
  }
  var elsewhere = topology.pointAt(topo);
  if (elsewhere) {
    // A replica, a secondary, a read-only primary that replicates from elsewhere: the top, walked up source by source.
    var top = topology.upstreamOf(topo) ? members.topmost(host, topo) : null;
    var target = top && top.target ? top.target : elsewhere.target;
    throw new UserError('TARGET_NOT_PRIMARY', 'Refusing to load into this server: ' + elsewhere.why + '. What is loaded here would not reach the ' +
      'other members' + (topo.superReadOnly ? ', and it takes no writes' : '') + '. Point restore.load at ' + target +
      ' instead' + (top && top.path.length > 1 ? ' (the topmost source: here → ' + top.path.join(' → ') + ')' : '') +
      (top && top.note ? ' (' + top.note + ')' : '') + ': every member then gets every row. Nothing was changed.', { target: target });
  }
  // The clone road: loaded as a standalone server while no other member is there.
  if (own.topology === 'rebuild') topo = road.rebuildTopology(topo);
  var binlogDropped = road.binlogDecision(topo, given, resolved.explicit.skipBinlog !== undefined);
  var transaction = road.transactionSize(topo, given, resolved.explicit.maxBytesPerTransaction !== undefined);
  if (binlogDropped || transaction.value) {
    var adjusted = Object.assign({}, given);
    if (binlogDropped) delete adjusted.skipBinlog;
    if (transaction.value) adjusted.maxBytesPerTransaction = transaction.value;
    given = optionsValue.frozenCopy(adjusted);
  }
  // A remote dump: its metadata is fetched into the cache here, which is then read as the dump.
  var src = openDumpSource(host, dumpDir, resolved.all);
  var dir = src.dir;
  // util.loadDump waits for (or refuses) an unfinished dump only after dropExistingObjects.
  if (!own.allowIncomplete && !(Number(given.waitDumpTimeout) > 0)) refuseIncomplete(host, dir, 'restore.load');
  if (given.progressFile !== undefined) checkProgressFile(host, dir, given.progressFile);
  // The user's sessionInitSql, tried on a session of its own: a statement that fails is refused here.
  var sessionInit = checkSessionInit(host, given.sessionInitSql, host.shell.version);
  var fresh = null;
  if (own.freshProgress) {
    if (given.progressFile !== undefined) throw new UserError('OPTION_CONFLICT', 'freshProgress and progressFile are both given: choose one.',
      { options: ['freshProgress', 'progressFile'] });
    fresh = progressFilePlace.freshProgressPlace(host, dir);
  }
  // The one value every step reads: util.loadDump's options as resolved (a fresh progress file included).
  var lo = fresh ? optionsValue.composeLoadDumpOptions(given, [{ progressFile: fresh.file }]) : given;
  var shellVersion = host.shell.version;
  var ctx = Object.freeze({ host: host, dumpDir: dir, source: src.source, serverUuid: host.sql.serverInfo().uuid,
    options: resolved.all, own: own, loadOptions: lo, shellVersion: shellVersion, dryRun: own.dryRun });
  var planned = partial && partial.plan ? partial.plan(ctx) : null;
  var stepOptions = planned && planned.loadOptions ? planned.loadOptions : {};
  var dropNative = false;
  if (own.dropExisting) {
    if (lo.loadDdl === false) {
      throw new UserError('OPTION_CONFLICT', 'dropExisting with loadDdl: false would drop tables the load does not create again: ' +
        'remove one of them.', { options: ['dropExisting', 'loadDdl'] });
    }
    if (lo.ignoreExistingObjects) {
      throw new UserError('OPTION_CONFLICT', 'dropExisting and ignoreExistingObjects contradict each other: choose one.',
        { options: ['dropExisting', 'ignoreExistingObjects'] });
    }
    dropNative = atLeast(shellVersion, '9.1.0');
  }
  // From here to the end of the load (revert included), no other restore on this server.
  var release = restoreLock.takeRestoreLock(host, 'this load');
  try {
    var pre = lockedPreflight(host, { dir: dir, src: src, resolved: resolved, own: own, lo: lo, stepOptions: stepOptions,
      ctx: ctx, planned: planned, dropNative: dropNative, fresh: fresh,
      topo: topo, binlogDropped: binlogDropped, transactionLine: transaction.line, sessionInit: sessionInit });
    pre.release = release;
    return pre;
  } catch (e) {
    release();
    throw e;
  }
}

// Display names of the loaded tables whose dump DDL has no primary key (loadDdl: false: none known).
function keylessTables(host, dump, objects) {
  var parsed = tableDdl.dumpTableColumns(host, dump, objects.tables);
  return objects.tables.filter(function (t) {
    var c = parsed[JSON.stringify([t.schema, t.table])];
    return c && !c.primary.length;
  }).map(function (t) { return displayTable(t.schema, t.table); });
}

// "schema.table ENGINE" of the loaded tables whose dump DDL names an engine other than InnoDB.
function otherEngineTables(host, dump, objects) {
  var textOf = createTableTexts(host, dump);
  var out = [];
  objects.tables.forEach(function (t) {
    var text = textOf(t.dumpSchema, t.table);
    var m = text === null ? null : /\)\s*ENGINE\s*=\s*(\w+)/i.exec(text); // the table's options (partitions' come after)
    if (m && m[1].toLowerCase() !== 'innodb') out.push(displayTable(t.schema, t.table) + ' ' + m[1]);
  });
  return out;
}

// The part of the preflight that reads the state file and plans server changes: under the lock.
function lockedPreflight(host, p) {
  var dir = p.dir, src = p.src, own = p.own, lo = p.lo, ctx = p.ctx, planned = p.planned;
  // Objects under the names they are loaded as (schemaMap), from the dump model the step read (or
  // the dump's metadata alone, without a step that reads one). The filters given name the dump's
  // schemas; util.loadDump reads the view's renamed metadata: its filters get the new names.
  var rename = planned && planned.rename ? planned.rename : null;
  var dump = planned && planned.model ? planned.model : readDumpMetadata(host, dir);
  var objects = loadObjects(dump, lo, own.dropExisting || own.analyze === 'histogram', rename);
  var existing = restoreState.readState(host);
  refuseLeftovers(host, existing, restoreState.statePath(host, host.sql.serverInfo().uuid));
  // A killed replay's channel (its password in mysql.slave_master_info), found under the lock (no live replay owns it):
  // removed first of the changes (lib/run/steps/leftover-channel.js), said in the plan.
  var leftoverChannel = replayApplier.leftoverChannel(host);
  var topo = p.topo;
  var redoPlan = planRedo(host, own, existing, objects, p.resolved.explicit.redoLog !== undefined, topo);
  var keep = own.keepSettings || [];
  var tuned = own.tune ? tuning.planTuning(host, { redoOff: redoPlan.action === 'disable', keep: keep,
    kept: road.keptDurability(topo) }) : [];
  var drops = own.dropExisting ? dropExisting.existingObjects(host, objects) : [];
  var dropNative = p.dropNative && drops.length > 0;
  var snapshot = snapshotStep.planSnapshot(host, { ctx: ctx, dump: dump, objects: objects, planned: planned, topology: topo });
  // On a group its row changes go in batches below the transaction size limit (lib/snapshot/statement-size.js).
  snapshot.groupLimit = topo.group && topo.group.sizeLimit ? topo.group.sizeLimit : null;
  statementSize.refuseLargeStaging(planned, snapshot.active ? snapshot.orphans : null, snapshot.groupLimit);
  // binlogs: the replay after the load, planned (and refused) from the files before anything changes.
  var replay = planLoadReplay(host, { own: own, options: p.resolved.all, lo: lo, dump: dump, objects: objects, rename: rename,
    snapshot: snapshot, tuned: tuned.length > 0, redoOff: redoPlan.action === 'disable', topo: topo,
    skipBinlogGiven: p.resolved.explicit.skipBinlog !== undefined && !!lo.skipBinlog });
  if (replay && replay.applier) tuneWorkers(replay, tuned, own.tune, Number(lo.threads) || 4);
  var keys = road.invisiblePrimaryKeys(topo, road.needsPrimaryKeys(topo) && lo.loadDdl !== false ? keylessTables(host, dump, objects) : [], lo,
    p.resolved.explicit.createInvisiblePKs !== undefined);
  road.refuseOtherEngines(topo, road.needsPrimaryKeys(topo) && lo.loadDdl !== false ? otherEngineTables(host, dump, objects) : []);
  // A built-in preset's levers, kept where the dump's figures say they pay (lib/run/load-levers.js).
  // Each table's bytes as @.done.json records them, read once when first asked (the levers, the report's row counts).
  var recorded;
  var tableBytes = function () {
    if (recorded === undefined) recorded = recordedTableBytes(host, dir, dump.done || null);
    return recorded;
  };
  var levers = chooseLevers(host, { tableBytes: tableBytes, tables: objects.tables, preset: p.resolved.preset, explicit: p.resolved.explicit,
    lo: lo, own: own });
  // The index-build buffer is shared by the threads the load runs (a lever may have doubled them).
  var indexBuilds = own.tune && lo.loadIndexes !== false && atLeast(ctx.shellVersion, '8.0.30')
    ? tuning.planIndexBuilds(host, Number(levers.loadOptions.threads || lo.threads) || 4, keep) : null;
  var composed = loaderOptions(host, p, { rename: rename, indexBuilds: indexBuilds, dropExistingObjects: dropNative,
    snapshot: snapshot, invisiblePKs: keys.value, levers: levers.loadOptions });
  var final = composed.options;
  // Every member reachable, read before anything changes (one that would never get the load refuses it).
  if (topo.members.length && own.membersTimeout > 0) members.surveyMembers(host, topo, objects.tables, own.membersTimeout);
  // A target holding part of this replay: rolled forward (no util.loadDump) or refused, before row ownership is asked.
  if (replay) planReplayForward(host, replay, { objects: objects, lo: final, own: own, dump: dump });
  // Continued or rolled forward: the loaded tables stay (util.loadDump is not run, dropExisting drops nothing).
  if (replay && replay.forward) drops = [];
  // Objects of the load already there: refused unless dropped, ignored or resumed (util.loadDump would stop at them).
  if (!own.dropExisting && !(replay && replay.forward)) dropExisting.refuseExisting(host, objects, final, rowOwnership.resumesProgress(host, final));
  // Which rows the load does not own, and what each post-load step may touch (refused here, before any change).
  snapshot.ownership = rowOwnership.planOwnership(host, { snap: snapshot, objects: objects, drops: drops, planned: planned, ctx: ctx,
    dump: dump, loadDumpOptions: final, replay: replay, triggerChosen: triggerFilter(lo) });
  snapshot.lines = snapshot.lines.concat(snapshot.ownership.lines);
  // Many tables: util.loadDump in calls of a slice each (lib/run/load-batches.js).
  var batches = replay && replay.forward ? { calls: null, lines: [] } : planBatches(host, { objects: objects, lo: final, planned: planned,
    replay: replay, topology: topo, dropNative: dropNative, resumed: rowOwnership.resumesProgress(host, final),
    accounts: dump.rootJson ? dump.rootJson.users : null });
  var plan = {
    dir: dir, loadDir: planned && planned.loadDir ? planned.loadDir : dir, preset: p.resolved.preset, loadDumpOptions: final,
    optionEcho: optionTable.optionEcho('load', p.resolved.all, p.resolved.explicit),
    progressDir: composed.progressDir,
    // What the user named: a remote dump by its place, with the local cache it is read from.
    title: src.source ? src.source.source.url + (planned && planned.readsBucket ? '' : ' (cache ' + dir + ')') : dir, tableCount: objects.tables.length, dropRequested: own.dropExisting,
    drops: drops, dropNative: dropNative,
    redo: redoPlan, tune: own.tune, tuning: tuned, sessionTuning: indexBuilds ? [indexBuilds] : [],
    analyze: own.analyze === 'off' ? 'off' : own.analyze + ' (' + (levers.analyzeTables ? levers.analyzeTables.length + ' of ' : '') +
      objects.tables.length + ' table(s))',
    batches: batches.calls, batchLines: batches.lines,
    leverLines: levers.lines, threadsLever: levers.loadOptions.threads !== undefined,
    advice: own.tune ? tuning.restartAdvice(host, final, topo.feedsOthers) : [], partialLines: planned && planned.lines ? planned.lines : [],
    warnings: [], blockers: [], snapshot: snapshot, replay: replay, leftoverChannel: leftoverChannel, sessionInit: p.sessionInit,
    topology: topo, verifyMembers: topo.members.length > 0 && own.membersTimeout > 0 && !own.dryRun,
    topologyLines: road.planLines(topo, { binlogDropped: p.binlogDropped, redoKept: own.redoLog === 'off' && redoPlan.action !== 'disable',
      tune: own.tune, threads: final.threads, deferred: final.deferTableIndexes, indexBuffer: !!indexBuilds,
      transactionLine: p.transactionLine, keyLine: keys.line, verify: own.membersTimeout,
      memberLines: own.membersTimeout > 0 ? members.surveyLines(topo, own.membersTimeout) : [],
      skipBinlog: final.skipBinlog ? (p.resolved.explicit.skipBinlog !== undefined ? 'given' : 'preset ' + p.resolved.preset.name) : null }),
  };
  if (plan.redo.warning) plan.warnings.push(plan.redo.warning);
  if (own.tune) {
    var foreign = runtime.runtimeChanges(host, existing ? existing.settings.map(function (x) { return x.name; }) : []) || [];
    if (foreign.length) {
      plan.warnings.push('Already at the values restore tuning uses, set at runtime and recorded in no state file here: ' +
        foreign.map(runtime.describeChange).join('; ') + '. If another client\'s restore left them, run restore.revert() ' +
        'there first: this load keeps them as they are.');
    }
  }
  var infileOn = plan.tuning.some(function (t) { return t.name === 'local_infile'; }) || globalVariable(host, 'local_infile') === 'ON';
  if (!infileOn && final.loadData !== false && !final.dryRun && !(replay && replay.forward)) {
    plan.blockers.push('local_infile is OFF on the server: util.loadDump refuses to load data. SET GLOBAL local_infile = ON ' +
      'once the client is trusted, or load with tune: true (switched on for the load, off again afterwards).');
  }
  // A secret util.loadDump itself would log: refused before anything changes (a dry run says so).
  plan.blockers = plan.blockers.concat(secrets.loggedByTheShell('util.loadDump', final,
    host.files.join(host.shell.configHome, 'mysqlsh.log')));
  var changes = [];
  if (plan.redo.action === 'disable') changes.push('disable the InnoDB redo log');
  if (plan.tuning.length) changes.push('change ' + plan.tuning.length + ' server setting(s)');
  if (changes.length && !own.dryRun) restoreState.checkStateWritable(host, host.sql.serverInfo().uuid);
  // On a source or a group primary the road above keeps every member equal: only the redo log
  // switched off still needs force there.
  var onReplicatedRoad = !!topo.rebuild || ((topo.kind === 'source' || topo.kind === 'group-primary') && plan.redo.action !== 'disable');
  if (changes.length) safety.checkServerSafety(host, changes.join(' and '), own.force, plan.drops.length > 0, onReplicatedRoad);
  if (plan.redo.action === 'disable') safety.checkRedoLogPrivilege(host, own.force);
  // Every privilege a planned step needs, before anything is dropped or changed.
  var snap = plan.snapshot;
  privileges.checkLoadPrivileges(host, { tune: plan.tuning.length > 0, redo: plan.redo.action === 'disable',
    drops: plan.drops, deletes: snap.active && (snap.orphans === 'delete' || snap.orphans === 'parents') ? objects.tables : [],
    trims: snap.trims || [],
    inserts: snap.active && snap.orphans === 'parents' ? objects.tables : [],
    updates: snap.active ? snap.specs : [], binlogSwitch: snap.active && !!final.skipBinlog && !final.dryRun,
    replay: !!replay, applier: !!(replay && replay.applier) }, own.force);
  return { ctx: ctx, own: own, objects: objects, plan: plan, planned: planned, existing: existing,
    analyzeTables: levers.analyzeTables || objects.tables, tableBytes: tableBytes };
}

module.exports = { preflight: preflight };
