// A partial plan read from a dump, and its lines and facts: what restore.plan, restore.stub
// (lib/commands/) and the partial-import step of restore.load show.
var readDumpModel = require('../dump/dump-model.js').readDumpModel;
var settle = require('../core/memory.js').settle;
var selection = require('./selection.js');
var partialPlan = require('./partial-plan.js');
var text = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var describeRanges = require('../dump/chunk-table.js').describeRanges;
var sinceBoundary = require('./since-boundary.js');
var lazyList = require('../format/output.js').lazyList;

var MAX_ROWS = 40;

// how.inPlace: restore.stub, which writes into the directory itself (every file there is then
// loaded, and read here); otherwise a load view holds the chosen files only, and only they are read.
// how.source: a remote dump's {source, listing} (lib/remote/dump-source.js).
function modelAndPlan(host, dumpDir, options, how) {
  var o = options || {};
  var inPlace = !!(how && how.inPlace);
  var remote = how && how.source ? how.source.listing : null;
  var r = sinceBoundary.withBoundaries({ host: host, dir: dumpDir, remote: how && how.source ? how.source : null, rsh: o.rsh },
    selection.parseSelection(o), function (surveyedFrom, earlier) {
      return readDumpModel(host, dumpDir, { listing: o.listing, listingNames: remote ? remote.names : null,
        surveyedFrom: surveyedFrom, idxFiles: inPlace, metadataFrom: earlier,
        chunksInFiles: false }); // neither needs chunk names in files (stub-writer.js looks the .idx files up when it writes)
    }, function (sel) { return inPlace || !selection.isPartial(sel) ? null : partialPlan.chosenOnly(sel); });
  var sel = r.sel;
  var model = r.model;
  // restore.plan and restore.stub write no load view, which alone needs @.done.json as read (its
  // text, tableDataBytes, tableRows): let go before the plan (50,000 tables: 11 MB).
  model.done = null;
  var plan = partialPlan.planPartial(model, sel, { inPlace: inPlace });
  settle(host, model.targets.length);
  return { sel: sel, model: model, plan: plan };
}

function stubCount(plan) {
  return plan.inPlace ? plan.stubFiles : partialPlan.stubCount(plan);
}

// The first `most` rows of the plan's table, and how many rows it has (50,000 tables: 40 rows made).
function tableRows(plan, most) {
  var rows = [];
  var count = 0;
  plan.targets.forEach(function (t) {
    if (!(t.latest !== null || t.since || t.fetch.length || t.stubbed.length)) return;
    count++;
    if (rows.length >= most) return;
    rows.push([displayTable(t.schema, t.table, t.partition), t.since ? 'since' : t.latest === null ? 'all' : t.latest,
      t.to - t.from, t.fetch.length, t.stubbed.length]);
  });
  return { rows: rows, count: count };
}

// The tables the plan chooses: an entry is a table, or a partition of one (a name made per
// partition only: 100,000 tables made as many names and a set of them).
function tablesChosen(plan) {
  var whole = 0;
  var parted = new Set();
  plan.targets.forEach(function (t) {
    if (t.partition === null) whole++;
    else parted.add(t.schema + '.' + t.table);
  });
  return whole + parted.size;
}

// emit: where the lines go (host.out by default; restore.load collects them for its plan).
function printPlan(host, plan, extra, emit) {
  var out = emit || host.out;
  out.print('Partial import of ' + plan.dir);
  text.formatPairs([
    ['Tables chosen', String(tablesChosen(plan))],
    ['Tables skipped', plan.skippedTables.length ? plan.skippedTables.length + ' (' + plan.skippedTables.slice(0, 5)
      .map(function (t) { return displayTable(t.schema, t.table); }).join(', ') + (plan.skippedTables.length > 5 ? ', …' : '') + ')' : '0'],
    ['Data chosen', text.formatBytes(plan.bytesChosen) + ' of ' + text.formatBytes(plan.bytesTotal) +
      (plan.bytesUnknown ? ' (some chunk sizes are not recorded)' : '')],
    ['Files to fetch', String(plan.fetch.length) + (extra && extra.fetchListFile ? ' (listed in ' + extra.fetchListFile + ')' : '')],
    [plan.inPlace ? 'Files to stub' : 'Chunks stubbed', String(stubCount(plan))],
  ]).forEach(out.print);
  var rows = tableRows(plan, MAX_ROWS);
  if (rows.count) {
    out.print('');
    text.formatTable(['table', 'latest', 'chosen', 'fetch', 'stubs'], rows.rows, { right: [2, 3, 4] })
      .forEach(out.print);
    if (rows.count > MAX_ROWS) out.print('… and ' + (rows.count - MAX_ROWS) + ' more tables (all in outputFormat "json" or "none")');
  }
  if (plan.since.length) {
    out.print('');
    sinceBoundary.sinceLines(plan.since).forEach(out.print);
    var rd = plan.sinceReader;
    if (rd && rd.files) {
      out.print(rd.kind === 'ssh' ? 'Chunk heads read on the backup host over ssh (head -c): ' + rd.files + ' file(s), only their first bytes'
        : rd.kind === 'daemon' ? 'Chunk heads from the rsync daemon: ' + rd.files + ' probed chunk file(s), fetched whole into the ' +
          'cache (' + rd.transferred + ' transferred)'
        : rd.kind === 's3' ? 'Chunk heads read from the bucket (ranged GETs): ' + rd.files + ' object(s), only their first bytes'
        : 'Chunk heads read: ' + rd.files + ' file(s), only their first bytes');
    }
  }
  plan.warnings.forEach(out.warn);
}

function facts(plan) {
  return {
    dumpDir: plan.dir,
    fetch: plan.fetch.slice(),
    stubs: stubCount(plan),
    skippedTables: plan.skippedTables.map(function (t) { return t.schema + '.' + t.table; }),
    // Made one at a time as they are printed (50,000 tables), an array for outputFormat "none".
    tables: lazyList(plan.targets.length, function (i) {
      var t = plan.targets[i];
      // Stubbed chunks by number ("0-97"): a dump may have a million of them.
      var o = { schema: t.schema, table: t.table, latest: t.latest, chosen: partialPlan.chosenFiles(t), fetch: t.fetch.slice(),
        stubbed: t.stubbed.length, stubbedChunks: describeRanges(t.stubbed) };
      if (t.partition !== null) o.partition = t.partition;
      return o;
    }),
    bytesChosen: plan.bytesChosen,
    bytesTotal: plan.bytesTotal,
    since: plan.since.map(sinceFact),
    sinceReader: plan.sinceReader,
    warnings: plan.warnings.slice(),
  };
}

// A since fact for outputFormat json/none.
function sinceFact(f) {
  return { table: f.table, column: f.column, type: f.type, since: f.since, how: f.how, chunks: f.chunks, boundary: f.boundary,
    load: f.load, method: f.method, headsRead: f.headsRead, headsAllowed: f.headsAllowed, ordered: f.ordered, heads: f.heads,
    disorder: f.disorder, exact: f.exact, approximate: !!f.approximate, chunkKey: f.chunkKey === undefined ? null : f.chunkKey,
    cost: f.cost || null };
}

module.exports = { modelAndPlan: modelAndPlan, printPlan: printPlan,
  planFacts: facts };
