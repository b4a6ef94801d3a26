// The plan of a partial import: for every table (or partition) of a dump model, which data
// files the selection chooses, which of those must still be fetched, which files must be
// stubbed so util.loadDump accepts the directory, and which tables are skipped entirely.
var UserError = require('../core/user-error.js').UserError;
var selection = require('./selection.js');
var displayTable = require('../report/display-name.js').displayTable;
var closestName = require('../options/closest-name.js').closestName;
var dumpChecks = require('./dump-checks.js');

var HOLDS_DATA = { present: true, corrupt: true };

function hasUsableKey(t) {
  return !(Array.isArray(t.primaryIndex) && t.primaryIndex.length === 0);
}

// The chunks of t the selection chooses: all of them, or the newest n by chunk number. A table
// without a usable key always ends with an empty @@N: it does not count as one of the n.
function chosenChunks(t, n) {
  if (n === null || !t.chunking) return t.chunks.slice();
  var end = t.chunks.length;
  var last = t.chunks[end - 1];
  if (!hasUsableKey(t) && last && last.last && last.dataBytes === 0) end--;
  return t.chunks.slice(Math.max(0, end - n));
}

function tableKey(t) { return t.schema + '\u0000' + t.table; }

// Which data files a plan reads: the chosen chunks of chosen tables (every chunk of a table without
// a usable key: its empty last chunk is only known once read). For readDumpModel's `surveyed`.
function chosenOnly(sel) {
  var firstChosen = new Map(); // by base name: objects from another file's context make poor keys (GraalJS)
  return function (t, c) {
    if (!selection.isTableChosen(sel, t.schema, t.table)) return false;
    if (!hasUsableKey(t)) return true;
    var from = firstChosen.get(t.base);
    if (from === undefined) {
      var chosen = chosenChunks(t, selection.latestCount(sel, t.schema, t.table, t.partition));
      from = chosen.length ? chosen[0].index : Infinity;
      firstChosen.set(t.base, from);
    }
    return c.index >= from;
  };
}

// model: from lib/dump-model.js readDumpModel; sel: from lib/selection.js parseSelection.
// how.inPlace: the stubs go into the dump directory itself (restore.stub), so every file present
// is loaded too and is checked; otherwise a load view holds only the chosen files.
function planPartial(model, sel, how) {
  var inPlace = !!(how && how.inPlace);
  var plan = {
    dir: model.dir, files: model.files, inPlace: inPlace, targets: [], fetch: [], stub: [], idxStub: [], presentUnchosen: [],
    skippedTables: [], warnings: [], blockers: [], bytesChosen: 0, bytesTotal: 0, bytesUnknown: false,
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
    } else if (n !== null && !hasUsableKey(t) && !warnedKeyless.has(tableKey(t))) {
      warnedKeyless.add(tableKey(t));
      plan.warnings.push(displayTable(t.schema, t.table) + ' has no primary key or unique index: its chunks follow the ' +
        'server\'s scan order, so "latest" means nothing there; the highest chunk numbers are chosen anyway.');
    }
    if (n !== null && t.chunking && !t.lastChunkKnown) {
      plan.blockers.push(name + ': the last chunk is unknown, so the newest ' + n + ' chunks cannot be found. ' +
        'Fetch its .idx files, or pass options.listing (a listing of the complete dump).');
      return;
    }
    var chosen = chosenChunks(t, n);
    var chosenSet = new Set(chosen.map(function (c) { return c.file; }));
    var entry = { schema: t.schema, table: t.table, partition: t.partition, latest: n, compression: t.compression, chosen: [],
      stubbed: [], fetch: [] };
    t.chunks.forEach(function (c) {
      if (c.dataBytes === null || c.dataBytes === undefined) plan.bytesUnknown = true;
      else plan.bytesTotal += c.dataBytes;
      // util.loadDump reads every file present, chosen or not: a corrupt one fails the load or,
      // cut short, loads fewer rows without a word.
      if (!inPlace && !chosenSet.has(c.file)) {
        // A load view stubs it, whatever the dump holds there.
      } else if (c.unreadable) {
        plan.blockers.push(c.file + ' (' + name + ') ' + c.problem + ': let the user running mysqlsh read it ' +
          '(owner, mode, ACLs).');
      } else if (c.state === 'corrupt') {
        plan.blockers.push(c.file + ' (' + name + ') is corrupt' + (c.problem ? ' (' + c.problem + ')' : '') +
          ': fetch it again' + (chosenSet.has(c.file) ? '.' : ', or delete it so that a stub takes its place.'));
      }
      if (chosenSet.has(c.file)) {
        entry.chosen.push(c.file);
        if (typeof c.dataBytes === 'number') plan.bytesChosen += c.dataBytes;
        // A stub standing where a chosen chunk belongs must be replaced by the real file.
        if (c.state === 'missing' || c.state === 'stub') { entry.fetch.push(c.file); plan.fetch.push(c.file); }
        return;
      }
      // In place, a file present stays and is loaded; in a load view every unchosen chunk is a stub.
      if (!inPlace || c.state === 'missing' || c.state === 'stub') entry.stubbed.push(c.file);
      if (c.state === 'missing') plan.stub.push({ target: t, chunk: c });
      else if (HOLDS_DATA[c.state] || c.state === 'unchecked') plan.presentUnchosen.push(c.file);
    });
    plan.targets.push(entry);
  });
  if (inPlace && plan.presentUnchosen.length) {
    plan.warnings.push(plan.presentUnchosen.length + ' data file(s) outside the selection are present and will be ' +
      'loaded too (the plugin never deletes or overwrites a real data file), e.g. ' + plan.presentUnchosen[0] + '.');
  }
  if (!plan.targets.length) {
    plan.warnings.push('The selection chooses no table of the dump: nothing would be loaded.');
  }
  return plan;
}

// A name without wildcards that names nothing in the dump is a typo, not a pattern that happened to
// match nothing: a blocker naming the closest name. A wildcard that matches nothing is a warning.
function unknownNames(model, sel, plan) {
  var tables = [];
  var seen = new Set();
  model.targets.forEach(function (t) {
    var key = t.schema + '.' + t.table;
    if (!seen.has(key)) { seen.add(key); tables.push(key); }
  });
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
    if (r.partition !== null && seen.has(table)) {
      var parts = model.targets.filter(function (t) { return t.schema === r.schema && t.table === r.table && t.partition !== null; })
        .map(function (t) { return table + '.' + t.partition; });
      plan.blockers.push('latest: ' + selection.describeRule(r) + ' names no partition of ' + displayTable(r.schema, r.table) +
        (parts.length ? nearest(table + '.' + r.partition, parts) : ', which is not partitioned.'));
      return;
    }
    plan.blockers.push('latest: ' + selection.describeRule(r) + ' names no table of the dump' + nearest(table, tables));
  });
  ['includeTables', 'excludeTables'].forEach(function (option) {
    sel[option].forEach(function (t) {
      if (seen.has(t.schema + '.' + t.table)) return;
      plan.blockers.push(option + ': ' + displayTable(t.schema, t.table) + ' names no table of the dump' +
        nearest(t.schema + '.' + t.table, tables));
    });
  });
}

// what: 'The partial import' or 'The load'.
function refuseBlocked(plan, what) {
  if (plan.blockers.length) {
    throw new UserError((what || 'The partial import') + ' cannot be planned:\n  ' + plan.blockers.join('\n  ') +
      '\nNothing was changed.');
  }
}

module.exports = { planPartial: planPartial, refuseBlocked: refuseBlocked, chosenOnly: chosenOnly };
