// Rows as util.loadDump loaded them, for the report's row counts: a COUNT(*) opens every table (at
// 10,000 small tables, seconds of a load that util.loadDump's defaults do not pay). util.loadDump's
// progress file records per chunk the rows LOAD DATA read ("rows" of each done TABLE-DATA; a chunk
// loaded in sub-chunks records its total there too). Their sum IS a table's rows only when all of:
//   the table did not hold rows before: this load created it (lib/snapshot/row-ownership.js: not on
//     the server before the load, or dropped by it), and no step after util.loadDump changes it
//     (the same module's whyCounted: since, orphans, masks by UPDATE, a replay, a resumed load);
//   the progress file is local, and holds this run alone (util.loadDump begins each call that
//     resumes the file with a blank line: a batched load's calls (lib/run/load-batches.js) are
//     one attempt of as many parts), every chunk of the table it began is done once, none by BULK LOAD;
//   no loaded row replaced another (LOAD DATA … REPLACE: the server's Innodb_rows_updated and
//     Innodb_rows_deleted, which count that and any other change of a row, did not move while
//     util.loadDump ran; a change by another session only sends every table back to COUNT(*)).
// Otherwise the table is counted (lib/server/row-counts.js).
var rowChangeCounters = require('../server/row-counts.js').rowChangeCounters;
var rowOwnership = require('../snapshot/row-ownership.js');

// util.loadDump's options that put its progress file in a bucket, not on this machine.
var REMOTE = ['osBucketName', 's3BucketName', 'azureContainerName'];

function progressPath(lo) {
  var file = rowOwnership.progressFileOf(lo);
  return file && !REMOTE.some(function (k) { return lo[k]; }) ? file : null;
}

// The progress file's text → Map(JSON [schema, table] → rows) of the tables whose every begun
// chunk is done once, with a count; null when it holds more than the `calls` (1) of this run.
function loadedByTable(text, calls) {
  var lines = text.split('\n');
  while (lines.length && !lines[lines.length - 1].trim()) lines.pop();
  if (lines.filter(function (l) { return !l.trim(); }).length !== (calls || 1) - 1) return null;
  var chunks = new Map(); // chunk key → {table, done, rows}
  var bad = new Map();
  lines.forEach(function (line) {
    if (line.indexOf('"TABLE-DATA') < 0) return;
    var e = JSON.parse(line);
    if (e.op !== 'TABLE-DATA' && e.op !== 'TABLE-DATA-BULK') return;
    var table = JSON.stringify([String(e.schema), String(e.table)]);
    if (e.op !== 'TABLE-DATA') { bad.set(table, true); return; }
    var key = JSON.stringify([e.schema, e.table, e.partition || '', e.chunk]);
    var c = chunks.get(key) || { table: table, done: 0, rows: 0 };
    chunks.set(key, c);
    if (e.done !== true) return;
    c.done += 1;
    if (typeof e.rows !== 'number' || !isFinite(e.rows)) bad.set(table, true);
    else c.rows += e.rows;
  });
  var out = new Map();
  chunks.forEach(function (c) {
    if (c.done !== 1) bad.set(c.table, true);
    if (!bad.has(c.table)) out.set(c.table, (out.get(c.table) || 0) + c.rows);
  });
  bad.forEach(function (v, table) { out.delete(table); });
  return out;
}

// Before util.loadDump: what measure compares against (null: no progress file to read later).
function before(host, plan) {
  return progressPath(plan.loadDumpOptions) ? rowChangeCounters(host) : null;
}

// After util.loadDump returned (`calls` calls of it): a function (schema, table) → rows as loaded,
// or null (count it); null when no table's rows can be taken from the progress file.
function measure(host, plan, was, calls) {
  var file = progressPath(plan.loadDumpOptions);
  if (!file || !was) return null;
  var now = rowChangeCounters(host);
  if (!now || now.updated !== was.updated || now.deleted !== was.deleted) return null;
  if (!host.files.isFile(file)) return null;
  var loaded;
  try {
    loaded = loadedByTable(host.files.loadText(file), calls);
  } catch (e) {
    if (!e || !(e.isFileError || e.name === 'SyntaxError')) throw e;
    return null; // unreadable: every table counted
  }
  if (!loaded) return null;
  var afterLoad = plan.snapshot ? plan.snapshot.ownership.afterLoad : null;
  return function (schema, table) {
    var rows = loaded.get(JSON.stringify([schema, table]));
    return rows === undefined || rowOwnership.whyCounted(afterLoad, schema, table) ? null : rows;
  };
}

module.exports = { before: before, measure: measure, loadedByTable: loadedByTable };
