// The partial-import step of restore.load (the extension point of lib/commands/load.js). With
// `latest`, util.loadDump loads a load view (lib/partial/load-view.js) built on the untouched
// dump: links to the chosen data files and the metadata, empty stubs for every other chunk, the
// view's own @.done.json / @.checksums.json, and its progress file. A remote dump (ctx.source) is
// fetched first: metadata in the preflight, exactly the chosen data files in the prepare phase,
// checked before anything changes. Afterwards: say what was stubbed, remove the view once loaded.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('../options/shell-version.js').atLeast;
var readDumpModel = require('../dump/dump-model.js').readDumpModel;
var settle = require('../core/memory.js').settle;
var selection = require('../partial/selection.js');
var partialCommands = require('../partial/plan-report.js');
var partialPlan = require('../partial/partial-plan.js');
var loadView = require('../partial/load-view.js');
var dumpCache = require('../remote/dump-cache.js');
var bucket = require('../remote/bucket.js');
var displayTable = require('../format/display-name.js').displayTable;
var renamePlan = require('../rename/rename-plan.js');
var loadObjects = require('../partial/load-objects.js').loadObjects;
var parseMask = require('../options/mask-spec.js').parseMask;
var parseRelations = require('../options/relations.js').parseRelations;
var loadMasks = require('../snapshot/load-masks.js');
var sinceBoundary = require('../partial/since-boundary.js');
var optionTable = require('../options/option-table.js');

var MAX_LISTED = 5;

function listed(names) {
  return names.slice(0, MAX_LISTED).join(', ') + (names.length > MAX_LISTED ? ', …' : '');
}

function missingChosen(plan) {
  return 'The selection chooses ' + plan.fetch.length + ' data file(s) that are not in the dump directory (' +
    listed(plan.fetch) + '). Fetch them first: restore.plan(dir, {…same selection…, fetchListFile: "fetch.txt"}) writes ' +
    'the list for rsync -a --files-from=fetch.txt host:/path/to/dump/ ' + plan.dir + '/ ; or load straight from the ' +
    'backup host (restore.load("host:/path/to/dump", {…})); or choose fewer chunks with latest.';
}

// With since, the boundaries are found first (lib/partial/since-boundary.js: the heads are read from
// the dump, or from the backup host); sel then carries them, and a plan read again keeps them.
function planAgainst(ctx, sel, partial, earlier) {
  var src = ctx.source;
  var r = sinceBoundary.withBoundaries({ host: ctx.host, dir: ctx.dumpDir, remote: src || null, rsh: ctx.options.rsh }, sel,
    function (surveyedFrom, before, last) {
      return readDumpModel(ctx.host, ctx.dumpDir, { listing: ctx.options.listing, verify: last && ctx.own.verify,
        listingNames: src ? src.listing.names : null, surveyedFrom: surveyedFrom,
        // A partial import's load view looks its chosen chunks up itself (load-view.js): no chunk names in files.
        chunksInFiles: partial ? false : undefined,
        metadataFrom: before || earlier || null,
        // Table JSONs kept as parsed for what rewrites them (lib/rename/, masks): else each is let go once read.
        tableDocuments: !!(ctx.options.schemaMap || ctx.own.mask),
        // Schema JSONs kept when the model is read again (since's boundaries, a remote dump once fetched).
        schemaDocuments: !!src || !last });
    }, function (s) { return partial ? partialPlan.chosenOnly(s) : null; });
  var p = partialPlan.planPartial(r.model, r.sel, { inPlace: !partial });
  settle(ctx.host, r.model.targets.length);
  partialPlan.refuseBlocked(p, partial ? 'The partial import' : 'The load');
  return { model: r.model, plan: p, sel: r.sel };
}

function refuseNotRemote(ctx, p) {
  var sizes = ctx.source.listing.sizesOf(p.fetch);
  var absent = p.fetch.filter(function (n) { return !sizes.has(n); });
  if (absent.length) {
    throw new UserError('REMOTE_FILES_MISSING', 'The selection chooses ' + absent.length + ' data file(s) that ' + ctx.source.source.url +
      ' does not hold either (' + listed(absent) + '): the dump there is damaged, or still being written. ' +
      'Nothing was changed.');
  }
}

// restore.load's masks applied while loading (lib/snapshot/load-masks.js): the table JSONs the view
// writes for them (over those schemaMap rewrites), where the key comes from; null without masks
// (restore.view). The key itself reaches the server in the load step (lib/snapshot/mask-key.js).
function planMasks(ctx, model, rw) {
  var specs = ctx.serverUuid === null ? [] : parseMask(ctx.own.mask);
  if (!specs.length) return null;
  var tables = loadObjects(model, ctx.loadOptions, false, rw.rename).tables;
  var lm = loadMasks.planLoadMasks(ctx.host, ctx, specs, parseRelations(ctx.own.relations), tables, model);
  lm.files = rw.files.slice();
  lm.identity = lm.masks.map(function (m) { return [m.schema, m.table, m.column, m.expression]; });
  lm.keySource = ctx.own.maskKey === undefined || ctx.own.maskKey === null ? 'random, this load only' : 'maskKey';
  if (!lm.masks.length) return lm;
  lm.thread = loadMasks.keyThread(ctx.host);
  if (lm.thread === null) {
    // Nothing masked while loading: the key would have to be written where the Shell logs it.
    lm.masks.forEach(function (m) {
      lm.after.push({ name: m.name, why: 'the key cannot reach the loader\'s sessions unlogged (performance_schema.' +
        'user_variables_by_thread is not readable)' });
    });
    lm.masks = [];
    lm.tables = {};
    return lm;
  }
  // Each masked table's JSON: the dump's, or the one schemaMap rewrites, with the masks added.
  Object.keys(lm.tables).forEach(function (k) {
    var entry = lm.tables[k];
    var at = -1;
    lm.files.forEach(function (f, i) { if (f.name === entry.file) at = i; });
    var f = { name: entry.file, data: loadMasks.maskedTableJson(at >= 0 ? lm.files[at].data : JSON.stringify(entry.json), entry) };
    if (at >= 0) lm.files[at] = f;
    else lm.files.push(f);
  });
  return lm;
}

function plan(ctx) {
  var sel = selection.parseSelection(ctx.options);
  var partial = selection.isPartial(sel);
  var r = planAgainst(ctx, sel, partial);
  sel = r.sel;
  var p = r.plan;
  if (p.fetch.length && !ctx.source) throw new UserError('DUMP_FILE_MISSING', missingChosen(p));
  if (ctx.source) refuseNotRemote(ctx, p);
  // schemaMap and definers (lib/rename/): a load view with rewritten metadata, also for a full load.
  var rw = renamePlan.planRename(ctx, r.model, sel);
  // Masks: a load view whose table JSONs mask while loading, also for a full load.
  var lm = planMasks(ctx, r.model, rw);
  var masked = !!lm && lm.masks.length > 0;
  var viewed = partial || rw.needsView || masked;
  if (ctx.options.viewDir !== undefined && !viewed) {
    throw new UserError('OPTION_CONFLICT', 'viewDir is for a partial import (latest), masks, or a load with schemaMap or definers: a full ' +
      'load reads the dump directory as it is.');
  }
  var lines = [];
  var lo = {};
  var facts = partialCommands.planFacts(p);
  var renameLines = rw.lines.concat(rw.warnings.concat(rw.definerWarnings).map(function (w) { return 'WARNING: ' + w; }));
  var base = { plan: p, model: r.model, sel: sel, partial: partial, viewed: viewed, rename: rw.rename, rewrite: rw,
    loadMasks: lm, viewFiles: masked ? lm.files : rw.needsView ? rw.files : null };
  if (!viewed) {
    // A local full load: only what the dump checks found outside the selection, if anything (the
    // plan still carries the model: what the load creates).
    if (!ctx.source) {
      return Object.assign(base, { loadOptions: lo, lines: p.warnings.map(function (w) { return 'WARNING: ' + w; })
        .concat(renameLines), facts: renameLines.length ? { rename: rw.facts } : null, local: true, loadDir: ctx.dumpDir });
    }
    if (bucket.isBucket(ctx.source.source) && ctx.source.source.prefix !== '') {
      // A full load from a bucket: util.loadDump reads the bucket itself (no local copy), with the
      // s3* options given; its progress file goes to the state directory (lib/run/loader-options.js).
      // (A dump at the bucket's top has no prefix to name: it is fetched and loaded from the cache.)
      lines.push('Dump in a bucket ' + ctx.source.source.url + ': util.loadDump reads it there (' + p.fetch.length +
        ' data file(s)); only its metadata was fetched, into ' + ctx.dumpDir + '.');
      facts.rename = rw.facts;
      facts.readsBucket = true;
      return Object.assign(base, { loadOptions: Object.assign(lo, ctx.source.source.s3), lines: lines.concat(renameLines),
        facts: facts, local: true, readsBucket: true, loadDir: ctx.source.source.prefix });
    }
    lines.push('Remote dump ' + ctx.source.source.url + ': ' + p.fetch.length + ' data file(s) to fetch into ' + ctx.dumpDir + '.');
    facts.rename = rw.facts;
    return Object.assign(base, { loadOptions: lo, lines: lines.concat(renameLines), facts: facts, loadDir: ctx.dumpDir });
  }
  var server = ctx.serverUuid !== undefined ? ctx.serverUuid : ctx.host.sql.serverInfo().uuid;
  var src = ctx.source ? ctx.source.source : null;
  var rewriteId = masked ? [rw.identity || null, lm.identity] : rw.identity;
  var place = loadView.viewPlace(ctx.host, r.model, loadView.viewIdentity(r.model, selection.selectionIdentity(sel), src && src.url, server, rewriteId),
    ctx.options.viewDir, src && src.name);
  var state = loadView.placeState(ctx.host, place);
  if (state === 'reuse' && masked && lm.keySource !== 'maskKey' && !ctx.own.dropExisting) {
    throw new UserError('PATH_REFUSED', 'The load view ' + place.dir + ' is left by an earlier load of the same dump, selection and masks ' +
      'that did not finish. The rows it loaded were masked with a random key that is gone, so the load cannot resume: ' +
      'load again with dropExisting: true (starts afresh), or give maskKey to every load that should resume. Nothing was ' +
      'changed.');
  }
  if (ctx.loadOptions.progressFile === undefined) {
    lo.progressFile = ctx.host.files.join(place.dir, loadView.PROGRESS_FILE);
    // A view reused after a stopped load resumes, unless its tables are dropped first.
    if (ctx.own.dropExisting && ctx.loadOptions.resetProgress === undefined) lo.resetProgress = true;
  }
  // BULK LOAD takes no column list or SET expressions: the view's masks need LOAD DATA.
  if ((partial || masked) && atLeast(ctx.shellVersion, '8.4.0') && ctx.loadOptions.disableBulkLoad === undefined) {
    lo.disableBulkLoad = true;
  }
  if (partial) {
    partialCommands.printPlan(ctx.host, p, null, { print: function (l) { lines.push(l); },
      warn: function (l) { lines.push('WARNING: ' + l); } });
  } else if (ctx.source) {
    lines.push('Remote dump ' + ctx.source.source.url + ': ' + p.fetch.length + ' data file(s) to fetch into ' + ctx.dumpDir + '.');
  }
  lines = lines.concat(renameLines);
  var progressFile = lo.progressFile || ctx.loadOptions.progressFile;
  if (state === 'reuse') {
    var resumes = ctx.host.files.isFile(progressFile || '');
    lines.push('Load view: ' + place.dir + ' (made by an earlier load of the same dump and selection that did not ' +
      'finish: ' + (!resumes ? 'util.loadDump did not start from it, no progress file to resume from'
        : 'util.loadDump resumes from its progress file' + (lo.resetProgress ? '; dropExisting starts it afresh' : '')) + ')');
  } else {
    var n = loadView.viewCounts(ctx.host, r.model, p);
    lines.push('Load view: ' + place.dir + ' (to be made: links to the dump\'s ' + n.links + ' metadata and chosen ' +
      'data files, ' + n.stubs + ' empty stub(s)' + (base.viewFiles ? ', ' + base.viewFiles.length + ' rewritten file(s)' : '') +
      '; nothing is written into the dump)');
  }
  if (ctx.options.progressFile !== undefined && partial) {
    lines.push('WARNING: progressFile ' + ctx.loadOptions.progressFile + ' will record the stubbed chunks as loaded: do not ' +
      'reuse it for a later full load.');
  }
  facts.view = { dir: place.dir, state: state };
  facts.progressFile = progressFile;
  facts.rename = rw.facts;
  return Object.assign(base, { loadOptions: lo, lines: lines, facts: facts, place: place, state: state, loadDir: place.dir });
}

// Fetches what a remote plan chooses, then reads the model again with the files in place: they are
// checked like local ones before any server change. Every chosen file goes to rsync, also those an
// earlier run fetched: it skips what is up to date and fetches again what changed on the host.
// Returns {facts, model, plan}: the model and plan read again (the plan's own when the cache did
// not change).
function fetchChosen(ctx, planned) {
  var src = ctx.source;
  var p = planned.plan;
  var chosen = [];
  p.targets.forEach(function (t) { partialPlan.chosenFiles(t).forEach(function (n) { chosen.push(n); }); });
  // From rsync the sizes come with the fetch's dry run; a bucket's listing has them.
  var sizes = bucket.isBucket(src.source) ? src.listing.sizesOf(chosen) : null;
  var got = dumpCache.fetchFiles(ctx.host, src.source, ctx.dumpDir, chosen, sizes, ctx.options.rsh);
  // Nothing transferred and nothing missing: the cache is as the plan read it.
  var r = got.fetched === 0 && !p.fetch.length ? planned : planAgainst(ctx, planned.sel, planned.partial, planned.model);
  if (r.plan.fetch.length) {
    var what = ' did not bring ' + r.plan.fetch.length + ' chosen data file(s) (' + listed(r.plan.fetch) + ') into ' + ctx.dumpDir +
      '. No server setting was changed.';
    if (bucket.isBucket(src.source)) throw new UserError('BUCKET_FETCH_FAILED', 'The bucket' + what);
    throw new UserError('RSYNC_FAILED', 'rsync' + what);
  }
  ctx.host.out.print('Fetched ' + got.files + ' data file(s) from ' + src.source.url + ' (' + got.fetched + ' transferred, ' +
    (got.files - got.fetched) + ' already in the cache).');
  return { facts: { files: got.files, transferred: got.fetched, bytes: got.bytes }, model: r.model, plan: r.plan };
}

// Returns null or {facts, planned}: planned is the plan the later phases use (for a remote dump,
// with the model and plan read again once the chosen files are fetched); the plan given is not changed.
function prepare(ctx, given) {
  if (given.local) return null;
  var facts = {};
  var planned = given;
  if (ctx.source) {
    var fetched = fetchChosen(ctx, given);
    facts.fetched = fetched.facts;
    planned = Object.assign({}, given, { model: fetched.model, plan: fetched.plan });
  }
  if (!planned.viewed) return { facts: facts, planned: planned };
  var src = ctx.source ? ctx.source.source : null;
  var made = loadView.buildView(ctx.host, planned.model, planned.plan, planned.place,
    loadView.makeMark(planned.model, planned.place, src && src.url, selection.selectionIdentity(planned.sel)),
    planned.viewFiles ? { files: planned.viewFiles, rename: planned.rewrite.rename } : null);
  loadView.viewLines(planned.place, made, made === null).forEach(ctx.host.out.print);
  facts.view = { dir: planned.place.dir, reused: made === null, links: made ? made.links : null, stubs: made ? made.stubs : null,
    written: made ? made.written : [], checksums: made && made.checksums ? made.checksums : null,
    rewritten: made && made.rewritten ? made.rewritten : 0 };
  return { facts: facts, planned: planned };
}

// The rows the snapshot step deleted, as its facts count them ("since's trim 12, orphans 3"), or ''.
function deletedAfter(snap) {
  if (!snap) return '';
  var trim = (snap.since || []).reduce(function (n, t) { return n + (t.deleted || 0); }, 0);
  var orphans = snap.orphans && snap.orphans.mode !== 'report' ? (snap.orphans.tables || []).reduce(function (n, t) {
    return n + (t.deleted || 0);
  }, 0) : 0;
  var parts = [];
  if (trim) parts.push('since\'s trim ' + trim + ' row(s)');
  if (orphans) parts.push('orphans ' + orphans + ' row(s)');
  return parts.join(', ');
}

// Replaces mysqlsh's bare "No data loaded." with the reason, says what was stubbed, and removes
// the view once the load finished (kept after a failure up to the snapshot step: the same command resumes from it).
function report(ctx, planned, outcome) {
  var lines = [];
  // What could not be renamed with certainty, again at the end: the plan may have scrolled away.
  var rw = planned.rewrite;
  if (rw && rw.warnings.length) {
    lines.push('Not rewritten with certainty (check these objects: they may still name the dump\'s schemas):');
    rw.warnings.forEach(function (w) { lines.push('  WARNING: ' + w); });
  }
  if (rw) rw.definerWarnings.forEach(function (w) { lines.push('WARNING: ' + w); });
  if (planned.local) return { lines: lines };
  var p = planned.plan;
  var stubbedTables = p.targets.filter(function (t) { return t.stubbed.length; });
  if (stubbedTables.length) {
    lines.push('Stubbed (not loaded): ' + stubbedTables.slice(0, 20).map(function (t) {
      return displayTable(t.schema, t.table, t.partition) + ' ' + t.stubbed.length + ' chunk(s)';
    }).join(', ') + (stubbedTables.length > 20 ? ', …' : '') + '.');
  }
  var sel = planned.sel;
  if (sel && sel.sinceFacts && sel.sinceFacts.length && !sel.sinceExact) lines = lines.concat(sinceBoundary.approximateLines(sel.sinceFacts));
  var rows = (outcome.tables || []).reduce(function (n, t) { return n + (t.rows || 0); }, 0);
  var removed = deletedAfter(outcome.snapshot);
  if (!outcome.error && rows === 0 && planned.partial && removed) {
    // Rows are counted after the steps that delete: what they removed had been loaded.
    lines.push('No rows left: the steps after util.loadDump deleted every row it loaded (' + removed + ').');
  } else if (!outcome.error && rows === 0 && planned.partial) {
    var why = !p.targets.length ? 'the selection chooses no table of the dump'
      : p.bytesChosen === 0 ? 'the chunks chosen hold no data (latest: 0, or only empty chunks were chosen)'
        : 'the chosen chunks are empty on disk';
    lines.push('No data loaded, because ' + why + '. restore.plan(dir, {…}) shows what a selection chooses.');
  }
  var view = planned.place;
  if (planned.viewed && view && ctx.host.files.isDir(view.dir)) {
    // Kept, as a full load keeps its progress file (lib/run/steps/progress-file.js), also when a step between util.loadDump
    // and that file's removal failed: the file and the record of the rows the tables held before (lib/snapshot/row-ownership.js)
    // let the same command resume and finish the steps after util.loadDump.
    var unfinished = !!outcome.error && (outcome.failedPhase === 'replay' || outcome.failedPhase === 'snapshot');
    if (outcome.loaded && !unfinished) {
      try {
        ctx.host.files.viewRemove(view.dir);
        lines.push('Load view removed: ' + view.dir + '.');
      } catch (e) {
        lines.push('WARNING: the load view ' + view.dir + ' could not be removed (' + e.message + '): remove it yourself.');
      }
    } else {
      // Measured: a step that failed before util.loadDump (the server steps) leaves no progress file to resume from.
      var progress = planned.facts ? planned.facts.progressFile : null;
      var there = !!progress && ctx.host.files.isFile(progress);
      lines.push('Load view kept: ' + view.dir + (!there ? ' (util.loadDump did not start from it: no progress file): run the same ' +
        'restore.load again' : ' (util.loadDump\'s progress file ' + (ctx.host.files.dirname(progress) === view.dir ? 'is there'
        : progress) + '): run the same restore.load again to resume') + '; it is removed once a load from it finishes.');
    }
  }
  return { lines: lines };
}

module.exports = {
  // Declared with owner 'partial' in lib/options/option-table.js. The s3* options among them name where
  // the dump is: util.loadDump gets them only when it reads the bucket (plan above).
  optionNames: optionTable.namesOwnedBy('partial'),
  plan: plan,
  prepare: prepare,
  report: report,
};
