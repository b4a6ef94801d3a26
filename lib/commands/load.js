// restore.load(dumpDir, options): preflight (nothing changes; the topology is read first:
// lib/server/topology.js, replicated-road.js), server steps, util.loadDump, analyze, members (on a
// source with replicas or a group primary: every member applied the load and has its rows,
// lib/server/members.js), revert (ALWAYS, whatever failed before it), report.
//
// Options: a preset (restore.presets(); default "safe") overridden by explicit options; the
// plugin's own (lib/options/load-own-options.js); everything else goes to util.loadDump unchanged,
// after a check against the options the running Shell knows.
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
//   step.prepare(ctx, planned) after the plan is confirmed, before any server change, never in a
//                             dry run (e.g. write the stubs); null or {facts: merged into `partial`,
//                             planned: the plan the later phases use instead (a remote dump's,
//                             read again once its files are fetched)}
//   step.report(ctx, planned, outcome) after the load (also after a failure): lines to add to the
//                             report; outcome = {error, tables: [{schema, table, rows, exact}],
//                             loaded: util.loadDump finished}
// ctx (frozen, its options too: lib/run/load-options-value.js) = {host, dumpDir (absolute; a remote
//        dump's cache), source (null, or a remote dump's {source, sizes}: lib/remote/dump-source.js),
//        serverUuid, options (preset + explicit), own (the plugin's settings), loadOptions
//        (util.loadDump's options as resolved, before any step's additions), shellVersion, dryRun}.
// Steps return what they add; the options util.loadDump gets are composed once, at the end of the
// preflight (loadDumpOptions below). The filters flow into what is dropped, analyzed and counted
// (lib/partial/load-objects.js, from the dump model the step read).
var UserError = require('../core/user-error.js').UserError;
var SqlError = require('../core/sql-error.js').SqlError;
var atLeast = require('../options/shell-version.js').atLeast;
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var optionsValue = require('../run/load-options-value.js');
var loadObjects = require('../partial/load-objects.js').loadObjects;
var partialStep = require('../run/partial-step.js');
var dropExisting = require('../server/drop-existing.js');
var redoLog = require('../server/redo-log.js');
var tuning = require('../server/tuning.js');
var safety = require('../server/server-safety.js');
var topology = require('../server/topology.js');
var road = require('../server/replicated-road.js');
var members = require('../server/members.js');
var tableDdl = require('../snapshot/table-ddl.js');
var displayTable = require('../format/display-name.js').displayTable;
var restoreState = require('../server/restore-state.js');
var revert = require('../server/revert.js');
var analyze = require('../server/analyze.js');
var tableRowCounts = require('../server/row-counts.js').tableRowCounts;
var globalVariable = require('../server/server-variables.js').globalVariable;
var runtime = require('../server/runtime-changes.js');
var restoreLock = require('../server/restore-lock.js');
var requireConnection = require('../server/require-connection.js').requireConnection;
var privileges = require('../server/privileges.js');
var checkProgressFile = require('../run/progress-file-check.js').checkProgressFile;
var progressFilePlace = require('../run/progress-file-place.js');
var refuseIncomplete = require('../dump/dump-complete.js').refuseIncomplete;
var readDumpMetadata = require('../dump/dump-model.js').readDumpMetadata;
var loadReport = require('../run/load-report.js');
var snapshotStep = require('../snapshot/snapshot-step.js');
var translateFilters = require('../options/schema-map.js').translateFilters;
var optionTable = require('../options/option-table.js');

var BY = 'restore.load';

function phaseClock() {
  var phases = [];
  return {
    phases: phases,
    run: function (name, fn) {
      var p = { phase: name, seconds: 0, status: 'running' };
      var t0 = Date.now();
      phases.push(p);
      try {
        var r = fn();
        p.status = 'ok';
        return r;
      } catch (e) {
        p.status = 'failed';
        throw e;
      } finally {
        p.seconds = (Date.now() - t0) / 1000;
      }
    },
  };
}

// What the redo log will do: {state, reason, action: 'disable'|null, note, warning}. A server crash
// while it is off leaves an instance MySQL will not start again: it is switched off only where
// that cannot cost more than this load (no other user schema, no replica), unless the user said
// redoLog: "off" (explicit) — then with a warning.
function planRedo(host, own, existingState, objects, explicit, topo) {
  var s = redoLog.redoLogSupport(host);
  var plan = { state: s.state, reason: s.reason, action: null, note: null, warning: null };
  if (own.redoLog !== 'off') return plan;
  if (s.state === 'ON') {
    var risk = safety.redoOffRisk(host, objects.schemas.map(function (x) { return x.schema; }), topo);
    if (risk && !explicit) {
      plan.note = 'kept ON although the preset turns it off: ' + risk + '; a server crash while it is off leaves an ' +
        'instance MySQL will not start again, to be re-initialized and loaded again. Pass redoLog: "off" to disable it anyway';
      return plan;
    }
    if (risk) {
      plan.warning = 'redoLog: "off" although ' + risk + ': a server crash during the load leaves an instance MySQL will ' +
        'not start again (re-initialize it and load everything again).';
    }
    plan.action = 'disable';
  }
  else if (s.state === 'OFF') {
    plan.note = existingState && existingState.redoLog
      ? 'disabled by ' + existingState.redoLog.disabledBy + ' at ' + existingState.redoLog.at + '; it stays OFF until restore.enableRedoLog()'
      : 'it was already OFF, not disabled by this load, so it stays OFF: run restore.enableRedoLog() when done';
  }
  return plan;
}

function refuseLeftovers(host, existing, path) {
  var live = restoreState.liveOwner(host, existing);
  if (live) {
    throw new UserError('Another restore is running on this server (' + restoreState.describeOwner(live) + ') and has ' +
      'changed settings it will put back when it ends: ' + restoreState.describeState(existing).join('; ') + '. Wait ' +
      'for it to finish (restore.status() shows it); do not run restore.revert() while it runs.');
  }
  if (!existing || (!existing.settings.length && !(existing.redoLog && existing.redoLog.disabledBy === BY))) return;
  throw new UserError('An earlier restore left changes on this server that were never put back (' + path + '): ' +
    restoreState.describeState(existing).join('; ') + '. Run restore.revert() first (restore.status() shows them); ' +
    'a new load would record the changed values as the originals.');
}

// Everything restore.load checks and decides before it changes anything.
function preflight(host, dumpDir, options, partial) {
  requireConnection(host, 'restore.load()', 'load ./dump');
  if (typeof dumpDir !== 'string' || dumpDir === '') throw new UserError('restore.load() needs the dump directory.');
  var resolved = optionsValue.resolveLoadOptions(host, options, partial ? partial.optionNames || [] : []);
  var own = resolved.own;
  var given = resolved.loadDump;
  // What the server is (source, replica, group member) decides what the load may do: read first.
  var topo = topology.readTopology(host);
  var elsewhere = topology.pointAt(topo);
  if (elsewhere) {
    throw new UserError('Refusing to load into this server: ' + elsewhere.why + '. What is loaded here would not reach the ' +
      'other members' + (topo.superReadOnly ? ', and it takes no writes' : '') + '. Point restore.load at ' + elsewhere.target +
      ' instead: every member then gets every row. Nothing was changed.');
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
  var fresh = null;
  if (own.freshProgress) {
    if (given.progressFile !== undefined) throw new UserError('freshProgress and progressFile are both given: choose one.');
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
      throw new UserError('dropExisting with loadDdl: false would drop tables the load does not create again: ' +
        'remove one of them.');
    }
    if (lo.ignoreExistingObjects) {
      throw new UserError('dropExisting and ignoreExistingObjects contradict each other: choose one.');
    }
    dropNative = atLeast(shellVersion, '9.1.0');
  }
  // From here to the end of the load (revert included), no other restore on this server.
  var release = restoreLock.takeRestoreLock(host, 'this load');
  try {
    var pre = lockedPreflight(host, { dir: dir, src: src, resolved: resolved, own: own, lo: lo, stepOptions: stepOptions,
      ctx: ctx, planned: planned, dropNative: dropNative, fresh: fresh,
      topo: topo, binlogDropped: binlogDropped, transactionLine: transaction.line });
    pre.release = release;
    return pre;
  } catch (e) {
    release();
    throw e;
  }
}

// The options util.loadDump gets, composed once: the resolved ones (lo), then in order what the
// partial step adds, what dropExisting needs, the plugin's progress file place, the filters under
// schemaMap's names, the loader sessions' statements (the masks' key, the index builds' settings),
// what the snapshot step adds, createInvisiblePKs for a group. What a dry run prints is what
// util.loadDump gets. Returns {options (frozen), progressDir: the directory to make for the
// progress file, or null}.
function loadDumpOptions(host, p, extra) {
  var lo = p.lo;
  var step = p.stepOptions;
  var progressFile = step.progressFile !== undefined ? step.progressFile : lo.progressFile;
  var resetProgress = step.resetProgress !== undefined ? step.resetProgress : lo.resetProgress;
  var additions = [step];
  // Only where there is something to drop: Shell 9.1's loadDump fails with "Unknown database" when
  // dropExistingObjects is set and the dump's schema does not exist yet.
  if (extra.dropExistingObjects) additions.push({ dropExistingObjects: true });
  // A progress file from an earlier load would make util.loadDump skip the DDL of what was dropped.
  if (p.own.dropExisting && progressFile === undefined && resetProgress === undefined) additions.push({ resetProgress: true });
  // Not util.loadDump's default place: nothing is written into the dump.
  var place = progressFile === undefined ? progressFilePlace.progressPlace(host, p.dir) : p.fresh;
  if (progressFile === undefined) additions.push({ progressFile: place.file });
  if (extra.rename) additions.push(translateFilters(lo, extra.rename));
  // util.loadDump runs sessionInitSql in each of its sessions (8.0.30+): first the masks' key
  // (lib/snapshot/snapshot-step.js sessionInit), then the index builds' settings, then the user's.
  var init = (extra.snapshot.sessionInit || []).concat(extra.indexBuilds ? [extra.indexBuilds.statement] : []);
  if (init.length) additions.push({ sessionInitSql: init.concat(lo.sessionInitSql || []) });
  // orphans "delete" may defer every secondary index until the orphans are gone (lib/snapshot/).
  if (extra.snapshot.loadOptions) additions.push(extra.snapshot.loadOptions);
  // A group takes no row of a table without a primary key (lib/server/replicated-road.js).
  if (extra.invisiblePKs) additions.push({ createInvisiblePKs: true });
  return { options: optionsValue.composeLoadDumpOptions(lo, additions), progressDir: place ? place.dir : null };
}

// Display names of the loaded tables whose dump DDL has no primary key (loadDdl: false: none known).
function keylessTables(host, dump, objects) {
  var parsed = tableDdl.dumpTableColumns(host, dump, objects.tables);
  return objects.tables.filter(function (t) {
    var c = parsed[JSON.stringify([t.schema, t.table])];
    return c && !c.primary.length;
  }).map(function (t) { return displayTable(t.schema, t.table); });
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
  var topo = p.topo;
  var redoPlan = planRedo(host, own, existing, objects, p.resolved.explicit.redoLog !== undefined, topo);
  var keep = own.keepSettings || [];
  var tuned = own.tune ? tuning.planTuning(host, { redoOff: redoPlan.action === 'disable', keep: keep,
    kept: road.keptDurability(topo) }) : [];
  var indexBuilds = own.tune && lo.loadIndexes !== false && atLeast(ctx.shellVersion, '8.0.30')
    ? tuning.planIndexBuilds(host, Number(lo.threads) || 4, keep) : null;
  var drops = own.dropExisting ? dropExisting.existingObjects(host, objects) : [];
  var dropNative = p.dropNative && drops.length > 0;
  var snapshot = snapshotStep.planSnapshot(host, { ctx: ctx, dump: dump, objects: objects, planned: planned });
  var keys = road.invisiblePrimaryKeys(topo, road.needsPrimaryKeys(topo) && lo.loadDdl !== false ? keylessTables(host, dump, objects) : [], lo,
    p.resolved.explicit.createInvisiblePKs !== undefined);
  var composed = loadDumpOptions(host, p, { rename: rename, indexBuilds: indexBuilds, dropExistingObjects: dropNative,
    snapshot: snapshot, invisiblePKs: keys.value });
  var final = composed.options;
  var plan = {
    dir: dir, loadDir: planned && planned.loadDir ? planned.loadDir : dir, preset: p.resolved.preset, loadDumpOptions: final,
    optionEcho: optionTable.optionEcho('load', p.resolved.all, p.resolved.explicit),
    progressDir: composed.progressDir,
    // What the user named: a remote dump by its place, with the local cache it is read from.
    title: src.source ? src.source.source.url + (planned && planned.readsBucket ? '' : ' (cache ' + dir + ')') : dir, tableCount: objects.tables.length, dropRequested: own.dropExisting,
    drops: drops, dropNative: dropNative,
    redo: redoPlan, tune: own.tune, tuning: tuned, sessionTuning: indexBuilds ? [indexBuilds] : [],
    analyze: own.analyze === 'off' ? 'off' : own.analyze + ' (' + objects.tables.length + ' table(s))',
    advice: own.tune ? tuning.restartAdvice(host, final, topo.feedsOthers) : [], partialLines: planned && planned.lines ? planned.lines : [],
    warnings: [], blockers: [], snapshot: snapshot,
    topology: topo, verifyMembers: topo.members.length > 0 && own.membersTimeout > 0 && !own.dryRun,
    topologyLines: road.planLines(topo, { binlogDropped: p.binlogDropped, redoKept: own.redoLog === 'off' && redoPlan.action !== 'disable',
      tune: own.tune, threads: final.threads, deferred: final.deferTableIndexes, indexBuffer: !!indexBuilds,
      transactionLine: p.transactionLine, keyLine: keys.line, verify: own.membersTimeout }),
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
  if (!infileOn && final.loadData !== false && !final.dryRun) {
    plan.blockers.push('local_infile is OFF on the server: util.loadDump refuses to load data. SET GLOBAL local_infile = ON ' +
      'once the client is trusted, or load with tune: true (switched on for the load, off again afterwards).');
  }
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
    updates: snap.active ? snap.specs : [], binlogSwitch: snap.active && !!final.skipBinlog && !final.dryRun }, own.force);
  // Every member answers before anything changes: an unreachable one would fail the load at the end.
  if (plan.verifyMembers) members.checkReachable(host, topo);
  return { ctx: ctx, own: own, objects: objects, plan: plan, planned: planned, existing: existing };
}

function isKnownFailure(e) {
  // Marks, not instanceof: an error thrown in another file's GraalJS context fails instanceof.
  return !!(e && (e.isUserError || e.isSqlError || e.isShellApiError));
}

function failureMessage(phase, e, revertResult, changed) {
  // No phase: before the first one (the progress file's directory).
  var text = phase === 'util.loadDump' ? 'util.loadDump failed: ' + e.message
    : 'restore.load failed' + (phase ? ' in the ' + phase + ' phase' : '') + ': ' + e.message;
  if (!/[.!?]$/.test(text)) text += '.';
  // After util.loadDump finished, every row is in: only the later step failed.
  if (phase === 'analyze') {
    text += ' The data is complete: util.loadDump loaded every row; only the statistics step failed. Fix the cause ' +
      'and run restore.analyze on the same dump (the data need not be loaded again).';
  } else if (phase === 'snapshot') {
    text += ' util.loadDump loaded every row; the step after it (orphan rows, masks) did not finish.';
  }
  var left = revertResult ? revert.leftoverLines(revertResult) : [];
  if (left.length) return text + ' ' + left.join(' ');
  return text + (changed ? ' The redo log and the server settings were put back as they were.' : ' No server setting was changed.');
}

// After a failure: what the plugin dropped, which of the planned drops the server no longer has,
// and how to get them back. "Nothing was dropped" only when the server still has every object
// and nothing could have dropped and created one again (util.loadDump with dropExistingObjects).
function droppedNote(host, pre, plan, report, phase) {
  if (!plan.drops.length) return '';
  var gone = dropExisting.goneObjects(host, pre.objects, plan.drops);
  var loaderRan = phase === 'util.loadDump' || phase === 'snapshot' || phase === 'analyze';
  var loaderDone = phase === 'snapshot' || phase === 'analyze';
  var parts = [];
  if (report.dropped.length) {
    parts.push(report.dropped.length + ' existing object(s) were dropped before the failure: ' +
      dropExisting.describeDrops(report.dropped).join(', ') + '.');
  }
  if (gone === null) parts.push('Which of the ' + plan.drops.length + ' planned object(s) the server still has could not be checked.');
  else if (gone.length) parts.push('The server no longer has ' + gone.length + ' of them: ' + dropExisting.describeDrops(gone).join(', ') + '.');
  if (loaderDone && (report.dropped.length || plan.dropNative)) {
    parts.push('util.loadDump ' + (plan.dropNative ? 'dropped them (dropExistingObjects) and ' : '') +
      'created and loaded them again in full.');
    return ' ' + parts.join(' ');
  }
  if (loaderRan && (report.dropped.length || plan.dropNative)) {
    parts.push('util.loadDump ' + (plan.dropNative ? 'was asked to drop them (dropExistingObjects) and ' : '') +
      'may have created some again, partly loaded.');
  }
  if (!parts.length) return ' Nothing was dropped: the server still has all ' + plan.drops.length + ' object(s).';
  return ' ' + parts.join(' ') + ' Fix the cause and run the same restore.load again (with resetProgress: true) to ' +
    'create and load them.';
}

function runLoad(host, dumpDir, options, extensions) {
  var partial = extensions && extensions.partial !== undefined ? extensions.partial : partialStep;
  var clock = phaseClock();
  var pre = clock.run('preflight', function () { return preflight(host, dumpDir, options, partial); });
  try {
    return lockedRun(host, pre, clock, partial);
  } finally {
    pre.release();
  }
}

function topologyText(topo) {
  return topo.rebuild ? topo.rebuild.from + ' (topology: "rebuild")' : topology.describeTopology(topo);
}

function lockedRun(host, pre, clock, partial) {
  var ctx = pre.ctx;
  var plan = pre.plan;
  loadReport.planLines(plan).forEach(host.out.print);
  if (pre.own.dryRun) {
    host.out.print('Dry run: nothing was dropped, changed or loaded.');
    return { dryRun: true, dumpDir: plan.dir, preset: plan.preset.name, loadDumpOptions: plan.loadDumpOptions,
      toDrop: plan.drops, settings: plan.tuning, redoLog: { now: plan.redo.state, action: plan.redo.action },
      analyze: pre.own.analyze, advice: tuning.adviceLines(plan.advice), warnings: plan.warnings.concat(plan.blockers),
      topology: topologyText(plan.topology),
      partial: pre.planned ? pre.planned.facts || null : null };
  }
  if (plan.blockers.length) throw new UserError(plan.blockers.join(' '));
  dropExisting.confirmDrops(host, plan.drops, pre.own.force);

  var state = pre.existing || restoreState.newState(host);
  var report = { dryRun: false, ok: false, error: null, dumpDir: plan.dir, title: plan.title, preset: plan.preset.name,
    loadDumpOptions: plan.loadDumpOptions, phases: clock.phases, tables: [], dropped: [], settings: [],
    redoLog: { before: plan.redo.state, disabled: false, after: null }, analyze: null, advice: tuning.adviceLines(plan.advice),
    stateFile: null, partial: pre.planned ? pre.planned.facts || null : null, partialLines: [], snapshot: null,
    topology: topologyText(plan.topology), members: null, rebuildSteps: plan.topology.rebuild ? road.rebuildSteps(plan.topology) : null };
  var failure = null;
  var failedPhase = null;
  var current = null;
  function step(name, fn) { current = name; return clock.run(name, fn); }
  try {
    if (plan.progressDir) host.files.makeDirs(plan.progressDir);
    if (pre.planned && partial.prepare) {
      step('prepare', function () {
        var prepared = partial.prepare(ctx, pre.planned);
        if (prepared && prepared.facts) report.partial = Object.assign(report.partial || {}, prepared.facts);
        // A remote dump's plan, read again with its files fetched: the later phases use it.
        if (prepared && prepared.planned) pre.planned = prepared.planned;
      });
    }
    if (plan.tuning.length || plan.redo.action) {
      step('server steps', function () {
        report.settings = plan.tuning;
        if (plan.tuning.length) tuning.applyTuning(host, state, plan.tuning, BY);
        if (plan.redo.action === 'disable') {
          redoLog.disableWithState(host, state, BY);
          report.redoLog.disabled = true;
        }
      });
    }
    // The drop comes last before util.loadDump: every fallible preparation (stubs, settings) is done.
    if (plan.drops.length && !plan.dropNative) {
      step('drop existing', function () { dropExisting.dropObjects(host, plan.drops, report.dropped); });
    }
    step('util.loadDump', function () {
      snapshotStep.holdMaskKey(host, plan.snapshot, true);
      host.util.loadDump(plan.loadDir, plan.loadDumpOptions);
    });
    // Orphans and masks (lib/snapshot/): after the data is in, before its statistics are taken.
    // (The progress file is still there: indexes deferred until the orphans are gone are built from it.)
    if (plan.snapshot.active) {
      step('snapshot', function () {
        report.snapshot = snapshotStep.runSnapshot(host, plan.snapshot, plan.loadDumpOptions, plan.loadDir, pre.planned);
      });
    }
    // A finished load's progress file (the plugin's own, in its state directory) would make the
    // same command "resume" a finished load later, after the tables were dropped: it goes.
    if (plan.progressDir) host.files.remove([plan.loadDumpOptions.progressFile]);
    if (pre.own.analyze !== 'off') {
      step('analyze', function () {
        var a = analyze.analyzeTables(host, pre.objects.tables, pre.own.analyze, !!plan.loadDumpOptions.skipBinlog);
        report.analyze = { mode: pre.own.analyze, tables: a.tables, histograms: a.histograms, problems: a.problems };
        analyze.problemLines(a).forEach(host.out.warn);
      });
    }
    // Last: every member has applied all of the above (parents, masks, analyze included).
    if (plan.verifyMembers) {
      step('members', function () {
        report.members = members.verifyMembers(host, plan.topology, pre.objects.tables, pre.own.membersTimeout);
        if (!report.members.ok) throw members.failure(report.members);
      });
    }
  } catch (e) {
    failure = e;
    failedPhase = current;
  }
  try {
    snapshotStep.holdMaskKey(host, plan.snapshot, false);
  } catch (e) {
    if (!failure) { failure = e; failedPhase = 'snapshot'; }
  }

  var reverted = null;
  var changed = report.settings.some(function (s) { return s.applied; }) || report.redoLog.disabled;
  try {
    reverted = clock.run('revert', function () { return revert.revertServer(host, state, BY); });
  } catch (e) {
    host.out.warn('Putting the server back failed: ' + e.message + '. Run restore.status() and restore.revert().');
  }
  finishReport(host, report, pre, reverted, failure, partial);
  loadReport.reportLines(report).forEach(host.out.print);
  var left = reverted ? revert.leftoverLines(reverted) : [];
  if (failure) {
    report.error = failure.message;
    if (isKnownFailure(failure)) {
      throw new UserError(failureMessage(failedPhase, failure, reverted, changed) + droppedNote(host, pre, plan, report, failedPhase));
    }
    left.forEach(host.out.warn);
    throw failure;
  }
  if (left.length || !reverted) {
    throw new UserError('The load finished, but the server could not be put back as it was. ' + (left.length ? left.join(' ')
      : 'Run restore.status() and restore.revert().'));
  }
  return report;
}

// Rows, redo log after, settings put back, the step's lines: never lets a report problem hide
// the load's own outcome.
function finishReport(host, report, pre, reverted, failure, partial) {
  // Only what was applied, with the values the server read back (a setting never applied is not listed).
  var now = {};
  if (reverted) reverted.restored.forEach(function (r) { now[r.name] = r.now; });
  report.settings = report.settings.filter(function (s) { return s.applied; }).map(function (s) {
    var back = Object.prototype.hasOwnProperty.call(now, s.name);
    return { name: s.name, original: s.original, value: s.during === undefined ? s.value : s.during,
      now: back ? now[s.name] : null, restored: back };
  });
  report.stateFile = reverted ? reverted.stateFile : restoreState.statePath(host, host.sql.serverInfo().uuid);
  report.ok = !failure && !!reverted && !reverted.failed.length && reverted.redoLog !== 'failed';
  try {
    report.redoLog.after = redoLog.redoLogSupport(host).state;
    report.tables = tableRowCounts(host, pre.objects.tables);
  } catch (e) {
    host.out.warn('Could not read the rows loaded: ' + e.message);
  }
  if (partial && pre.planned && partial.report) {
    var loaded = report.phases.some(function (p) { return p.phase === 'util.loadDump' && p.status === 'ok'; });
    var extra = partial.report(pre.ctx, pre.planned, { error: failure, tables: report.tables, loaded: loaded });
    report.partialLines = (extra && extra.lines) || [];
  }
}

module.exports = { runLoad: runLoad, partialOptionNames: partialStep.optionNames };
