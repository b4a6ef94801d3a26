// The plan of a partial import: for every table (or partition) of a dump model, which data
// files the selection chooses, which of those must still be fetched, which files must be
// stubbed so util.loadDump accepts the directory, and which tables are skipped entirely.
var UserError = require('../core/user-error.js').UserError;
var selection = require('./selection.js');
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var closestName = require('../options/closest-name.js').closestName;
var dumpChecks = require('./dump-checks.js');
var chunkTable = require('../dump/chunk-table.js');
var makeNameMatcher = require('../dump/chunk-names.js').makeNameMatcher;

var HOLDS_DATA = { present: true, corrupt: true };
// A plan entry's stubbed, write and fetch until a first item: most tables have none.
var NONE = Object.freeze([]);

// A plan entry: every table has one, alive as long as the plan (100,000 tables: 100,000 entries), so
// it keeps only what is its own: schema, table, partition and compression are the target's, and the
// lists stubbed (chunk numbers), write (in place: the missing ones, which get a stub file) and
// fetch (file names) one object made at a first item.
function PlanEntry(target, latest, since, from, to) {
  this.target = target;
  this.latest = latest;
  this.since = since;
  this.from = from;
  this.to = to;
  this.lists = null;
}
['schema', 'table', 'partition', 'compression', 'base', 'ext'].forEach(function (k) {
  Object.defineProperty(PlanEntry.prototype, k, { get: function () { return this.target[k]; }, enumerable: true });
});
['stubbed', 'write', 'fetch'].forEach(function (k) {
  Object.defineProperty(PlanEntry.prototype, k, { get: function () { return this.lists ? this.lists[k] : NONE; }, enumerable: true });
});

function add(entry, list, item) {
  if (!entry.lists) entry.lists = { stubbed: NONE, write: NONE, fetch: NONE };
  if (entry.lists[list] === NONE) entry.lists[list] = [];
  entry.lists[list].push(item);
}

function hasUsableKey(t) {
  return !(Array.isArray(t.primaryIndex) && t.primaryIndex.length === 0);
}

// The chunks of t the selection chooses, numbers [from, to): all of them, or the newest n by
// chunk number. A table without a usable key always ends with an empty @@N: it is chosen, but
// does not count as one of the n.
function chosenRange(t, n, since) {
  var ct = t.chunks;
  var end = ct.length;
  if (since) return { from: Math.min(since.boundary, end), to: end };
  if (n === null || !t.chunking) return { from: 0, to: end };
  if (!hasUsableKey(t) && end > 0 && chunkTable.isLast(ct, end - 1) && chunkTable.dataBytesOf(ct, end - 1) === 0) end--;
  return { from: Math.max(0, end - n), to: ct.length };
}

function tableKey(t) { return t.schema + '\u0000' + t.table; }

// Which data files a plan reads: the chosen chunks of chosen tables (every chunk of a table without
// a usable key: its empty last chunk is only known once read). For readDumpModel's
// `surveyedFrom`: the first chunk number read.
function chosenOnly(sel) {
  return function (t) {
    if (!selection.isTableChosen(sel, t.schema, t.table)) return Infinity;
    if (!hasUsableKey(t)) return 0;
    var since = selection.sinceOf(sel, t.schema, t.table, t.partition);
    // since's boundary is found first (since-boundary.js), from a model read without these chunks.
    if (!since && selection.hasSince(sel, t.schema, t.table)) return Infinity;
    var range = chosenRange(t, selection.latestCount(sel, t.schema, t.table, t.partition), since);
    return range.from < range.to ? range.from : Infinity;
  };
}

// model: from lib/dump/dump-model.js readDumpModel; sel: from lib/partial/selection.js parseSelection.
// how.inPlace: the stubs go into the dump directory itself (restore.stub), so every file present
// is loaded too and is checked; otherwise a load view holds only the chosen files.
// Per table: chosen and fetch are file names (few); stubbed lists chunk numbers (a dump may have
// a million chunks: names are made when needed, chunk-table.js), and in place `write` the numbers
// of the missing ones, which get a stub file.
function planPartial(model, sel, how) {
  var inPlace = !!(how && how.inPlace);
  var plan = {
    dir: model.dir, inPlace: inPlace, targets: [], fetch: [], stubFiles: 0, firstStub: null,
    presentUnchosen: 0, firstPresentUnchosen: null, skippedTables: [], warnings: [], blockers: [], bytesChosen: 0,
    bytesTotal: 0, bytesUnknown: false, since: sel.sinceFacts || [], sinceReader: sel.sinceReader || null,
  };
  var skipped = new Set();
  var warnedKeyless = new Set();
  unknownNames(model, sel, plan);
  var checks = dumpChecks.selectionProblems(model, sel);
  plan.blockers = plan.blockers.concat(checks.blockers);
  plan.warnings = plan.warnings.concat(checks.warnings);
  model.targets.forEach(function (t) {
    if (t.ext === null || !t.includesData) return;
    var name = displayTable(t.schema, t.table, t.partition);
    if (!selection.isTableChosen(sel, t.schema, t.table)) {
      if (!skipped.has(tableKey(t))) { skipped.add(tableKey(t)); plan.skippedTables.push({ schema: t.schema, table: t.table }); }
      return;
    }
    var n = selection.latestCount(sel, t.schema, t.table, t.partition);
    if (n !== null && !t.chunking) {
      plan.warnings.push(name + ' was dumped whole (not chunked): latest does not apply, the whole table is chosen.');
    } else if (n !== null && n > 0 && !hasUsableKey(t) && !warnedKeyless.has(tableKey(t))) {
      // latest 0 chooses no rows: no order of rows to warn about.
      warnedKeyless.add(tableKey(t));
      plan.warnings.push(displayTable(t.schema, t.table) + ' has no primary key or unique index: its chunks follow the ' +
        'server\'s scan order, so "latest" means nothing there; the highest chunk numbers are chosen anyway.');
    }
    if (n !== null && t.chunking && !t.lastChunkKnown) {
      plan.blockers.push(name + ': the last chunk is unknown, so the newest ' + n + ' chunks cannot be found. ' +
        'Fetch its .idx files, or pass options.listing (a listing of the complete dump).');
      return;
    }
    var ct = t.chunks;
    var since = selection.sinceOf(sel, t.schema, t.table, t.partition);
    var range = chosenRange(t, n, since);
    // The chosen files' names are made when asked (chosenFiles).
    var entry = new PlanEntry(t, n, since, range.from, range.to);
    plan.bytesTotal += chunkTable.sumDataBytes(ct, 0, ct.length);
    if (chunkTable.someUnknown(ct, 0, ct.length)) plan.bytesUnknown = true;
    for (var i = range.from; i < range.to; i++) {
      var state = chunkTable.stateOf(ct, i);
      // util.loadDump reads every file present, chosen or not: a corrupt one fails the load or,
      // cut short, loads fewer rows without a word.
      refuseBad(plan, t, i, name, '.');
      var bytes = chunkTable.dataBytesOf(ct, i);
      if (bytes !== null) plan.bytesChosen += bytes;
      // A stub standing where a chosen chunk belongs must be replaced by the real file.
      if (state === 'missing' || state === 'stub') {
        var file = chunkTable.fileOf(ct, i);
        add(entry, 'fetch', file);
        plan.fetch.push(file);
      }
    }
    for (i = 0; i < ct.length; i++) {
      if (i === range.from) i = range.to;
      if (i >= ct.length) break;
      // A load view stubs every chunk not chosen, whatever the dump holds there.
      if (!inPlace) { add(entry, 'stubbed', i); continue; }
      // In place, a file present stays and is loaded.
      state = chunkTable.stateOf(ct, i);
      refuseBad(plan, t, i, name, ', or delete it so that a stub takes its place.');
      if (state === 'missing' || state === 'stub') add(entry, 'stubbed', i);
      if (state === 'missing') {
        add(entry, 'write', i);
        plan.stubFiles++;
        if (plan.firstStub === null) plan.firstStub = chunkTable.fileOf(ct, i);
      } else if (HOLDS_DATA[state] || state === 'unchecked') {
        plan.presentUnchosen++;
        if (plan.firstPresentUnchosen === null) plan.firstPresentUnchosen = chunkTable.fileOf(ct, i);
      }
    }
    plan.targets.push(entry);
  });
  if (inPlace && plan.presentUnchosen) {
    plan.warnings.push(plan.presentUnchosen + ' data file(s) outside the selection are present and will be ' +
      'loaded too (the plugin never deletes or overwrites a real data file), e.g. ' + plan.firstPresentUnchosen + '.');
  }
  if (!plan.targets.length) {
    plan.warnings.push('The selection chooses no table of the dump: nothing would be loaded.');
  }
  return plan;
}

// The names of the data files a plan entry chooses, in chunk order.
function chosenFiles(e) {
  var out = [];
  for (var i = e.from; i < e.to; i++) out.push(chunkTable.fileOf(e.target.chunks, i));
  return out;
}

// A chunk util.loadDump would read that cannot load (unreadable, corrupt) is a blocker.
function refuseBad(plan, t, i, name, fix) {
  var ct = t.chunks;
  if (chunkTable.stateOf(ct, i) !== 'corrupt' && !chunkTable.isUnreadable(ct, i) && !chunkTable.isNotRegular(ct, i)) return;
  var file = chunkTable.fileOf(ct, i);
  var problem = chunkTable.problemOf(ct, i);
  if (chunkTable.isNotRegular(ct, i)) {
    // util.loadDump lists regular files only: for it the chunk is missing.
    plan.blockers.push(file + ' (' + name + ') ' + problem + ': util.loadDump ' +
      'does not see it, as if the file were missing. Replace it with the real file' + fix);
  } else if (chunkTable.isUnreadable(ct, i)) {
    plan.blockers.push(file + ' (' + name + ') ' + problem + ': let the user running mysqlsh read it (owner, mode, ACLs).');
  } else if (chunkTable.stateOf(ct, i) === 'corrupt') {
    plan.blockers.push(file + ' (' + name + ') is corrupt' + (problem ? ' (' + problem + ')' : '') + ': fetch it again' + fix);
  }
}

// For a load view, where every chunk not chosen is stubbed: (text, start, end) -> whether the
// name text[start, end) is the data file of a stubbed chunk; a whole string: (name, 0, name.length).
// Matched in place (chunk-names.js), not looked up in a set of 100,000 names.
// With every chunk of every table chosen, nothing is stubbed: no matcher is made (100,000 tables: a
// map of as many entries). The matcher finds the plan entries themselves (their base and ext are
// their target's).
function stubbedNames(plan) {
  if (!plan.targets.some(function (e) { return e.from > 0 || e.to < e.target.chunks.length; })) return function () { return false; };
  var matcher = makeNameMatcher(plan.targets);
  var m = {};
  return function (text, start, end) {
    if (!matcher.matchAt(text, start, end, m) || m.whole) return false;
    var e = m.target;
    var ct = e.target.chunks;
    return (m.index < e.from || m.index >= e.to) && m.index < ct.length && chunkTable.isLast(ct, m.index) === m.last;
  };
}

function stubCount(plan) {
  return plan.targets.reduce(function (n, e) { return n + e.stubbed.length; }, 0);
}

// A name without wildcards that names nothing in the dump is a typo, not a pattern that happened to
// match nothing: a blocker naming the closest name. A wildcard that matches nothing is a warning.
function unknownNames(model, sel, plan) {
  // The dump's table names, made only when a rule or option may name a table it lacks (50,000
  // tables: as many texts and a set that lived through the plan's start).
  var tables = null;
  var seen = null;
  function known(key) {
    if (seen === null) {
      tables = [];
      seen = new Set();
      model.targets.forEach(function (t) {
        var k = t.schema + '.' + t.table;
        if (!seen.has(k)) { seen.add(k); tables.push(k); }
      });
    }
    return seen.has(key);
  }
  function nearest(name, candidates) {
    var c = closestName(name, candidates);
    return c === null ? ' (restore.inspect lists the tables).' : ': did you mean ' + c + '?';
  }
  selection.unmatchedLatest(sel, model.targets).forEach(function (r) {
    if (r.table === '*') {
      plan.warnings.push('latest: ' + selection.describeRule(r) + ' matches no table of the dump.');
      return;
    }
    var table = r.schema + '.' + r.table;
    if (r.partition !== null && known(table)) {
      var parts = model.targets.filter(function (t) { return t.schema === r.schema && t.table === r.table && t.partition !== null; })
        .map(function (t) { return table + '.' + t.partition; });
      plan.blockers.push('latest: ' + selection.describeRule(r) + ' names no partition of ' + displayTable(r.schema, r.table) +
        (parts.length ? nearest(table + '.' + r.partition, parts) : ', which is not partitioned.'));
      return;
    }
    known(table);
    plan.blockers.push('latest: ' + selection.describeRule(r) + ' names no table of the dump' + nearest(table, tables));
  });
  // A schema typo would load nothing (includeSchemas) or the very schema meant to be left out (excludeSchemas).
  var schemas = model.schemas.map(function (s) { return s.schema; });
  ['includeSchemas', 'excludeSchemas'].forEach(function (option) {
    sel[option].forEach(function (s) {
      if (schemas.indexOf(s) >= 0) return;
      var near = closestName(s, schemas);
      plan.blockers.push(option + ': ' + displayIdentifier(s) + ' names no schema of the dump' + (near === null
        ? ' (it holds ' + schemas.slice(0, 10).map(displayIdentifier).join(', ') + (schemas.length > 10 ? ', …' : '') + ').'
        : ': did you mean ' + displayIdentifier(near) + '?'));
    });
  });
  ['includeTables', 'excludeTables'].forEach(function (option) {
    sel[option].forEach(function (t) {
      if (known(t.schema + '.' + t.table)) return;
      plan.blockers.push(option + ': ' + displayTable(t.schema, t.table) + ' names no table of the dump' +
        nearest(t.schema + '.' + t.table, tables));
    });
  });
}

// what: 'The partial import' or 'The load'.
function refuseBlocked(plan, what) {
  if (plan.blockers.length) {
    throw new UserError('PARTIAL_BLOCKED', (what || 'The partial import') + ' cannot be planned:\n  ' + plan.blockers.join('\n  ') +
      '\nNothing was changed.');
  }
}

module.exports = { chosenFiles: chosenFiles, planPartial: planPartial, refuseBlocked: refuseBlocked, chosenOnly: chosenOnly,
  stubbedNames: stubbedNames, stubCount: stubCount };
