// The plan of a partial import: for every table (or partition) of a dump model, which data
// files the selection chooses, which of those must still be fetched, which files must be
// stubbed so util.loadDump accepts the directory, and which tables are skipped entirely.
var UserError = require('../core/user-error.js').UserError;
var selection = require('./selection.js');
var displayTable = require('../report/display-name.js').displayTable;

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

// model: from lib/dump-model.js readDumpModel; sel: from lib/selection.js parseSelection.
function planPartial(model, sel) {
  var plan = {
    dir: model.dir, files: model.files, targets: [], fetch: [], stub: [], idxStub: [], presentUnchosen: [],
    skippedTables: [], warnings: [], blockers: [], bytesChosen: 0, bytesTotal: 0, bytesUnknown: false,
  };
  var skipped = new Set();
  var warnedKeyless = new Set();
  selection.unmatchedLatest(sel, model.targets).forEach(function (r) {
    plan.warnings.push('latest: ' + selection.describeRule(r) + ' matches no table of the dump.');
  });
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
    var entry = { schema: t.schema, table: t.table, partition: t.partition, latest: n, chosen: [], stubbed: [], fetch: [] };
    t.chunks.forEach(function (c) {
      if (c.dataBytes === null || c.dataBytes === undefined) plan.bytesUnknown = true;
      else plan.bytesTotal += c.dataBytes;
      // util.loadDump reads every file present, chosen or not: a corrupt one fails the load or,
      // cut short, loads fewer rows without a word.
      if (c.unreadable) {
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
      if (c.state === 'missing') {
        entry.stubbed.push(c.file);
        plan.stub.push({ target: t, chunk: c });
      } else if (c.state === 'stub') {
        entry.stubbed.push(c.file);
      } else if (HOLDS_DATA[c.state]) {
        plan.presentUnchosen.push(c.file);
      }
    });
    plan.targets.push(entry);
  });
  if (plan.presentUnchosen.length) {
    plan.warnings.push(plan.presentUnchosen.length + ' data file(s) outside the selection are present and will be ' +
      'loaded too (the plugin never deletes or overwrites a real data file), e.g. ' + plan.presentUnchosen[0] + '.');
  }
  if (!plan.targets.length) {
    plan.warnings.push('The selection chooses no table of the dump: nothing would be loaded.');
  }
  return plan;
}

// what: 'The partial import' or 'The load'.
function refuseBlocked(plan, what) {
  if (plan.blockers.length) {
    throw new UserError((what || 'The partial import') + ' cannot be planned:\n  ' + plan.blockers.join('\n  ') +
      '\nNothing was changed.');
  }
}

module.exports = { planPartial: planPartial, refuseBlocked: refuseBlocked };
