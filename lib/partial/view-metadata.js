// The metadata a load view writes for itself instead of linking the dump's: util.loadDump must be
// told the truth about what the view holds.
//   @.done.json       stubbed chunks recorded as 0 bytes (chunkFileBytes), the tables' totals and
//                     the dump total reduced to the chosen chunks, tableRows scaled alike: the
//                     Shell's progress and ETA then count only what is loaded.
//   @.checksums.json  only the entries of the chunks loaded, so that checksum: true verifies a
//                     partial import instead of failing on every stubbed chunk.
var chunkTable = require('../dump/chunk-table.js');
var rewriteDone = require('../dump/done-file.js').rewriteDone;
var tableFigures = require('../dump/done-file.js').tableFigures;

// plan: the partial plan (every chunk not chosen is stubbed); stubbed: name -> whether the view
// stubs that data file (partialPlan.stubbedNames). The view's @.done.json goes to sink piece by
// piece (done-file.js rewriteDone); returns {bytesBefore, bytesAfter}. rename: schema -> its new
// name or null (schemaMap; lib/rename/), for the schema keys of tableDataBytes and tableRows.
function viewDone(model, plan, stubbed, sink, rename) {
  var done = model.done.json;
  var removed = {}; // schema -> table -> bytes removed
  plan.targets.forEach(function (e) {
    var ct = e.target.chunks;
    var gone = chunkTable.sumDataBytes(ct, 0, e.from) + chunkTable.sumDataBytes(ct, e.to, ct.length);
    if (!gone) return;
    var s = removed[e.schema] || (removed[e.schema] = {});
    s[e.table] = (s[e.table] || 0) + gone;
  });
  var before = typeof done.dataBytes === 'number' ? done.dataBytes : null;
  var after = before === null ? null : Math.max(0, before - sumAll(removed));
  var replaced = {};
  // Nothing stubbed and no schema renamed: the figures stay as the dump has them, not parsed.
  var figures = Object.keys(removed).length || rename ? tableFigures(model.done) : null;
  if (figures) replaced = {
    tableDataBytes: renamedKeys(scaled(figures.tableDataBytes, removed, figures.tableDataBytes, 'tableDataBytes'), rename),
    tableRows: renamedKeys(scaled(figures.tableRows, removed, figures.tableDataBytes, 'tableRows'), rename),
  };
  figures = null;
  if (after !== null) replaced.dataBytes = after;
  // The dump's own text with the stubbed entries' sizes made 0: chunkFileBytes may hold a million
  // entries, never parsed into an object.
  rewriteDone(model.done, function (text, start, end, decoded) {
    return decoded === null ? stubbed(text, start, end) : stubbed(decoded, 0, decoded.length);
  }, replaced, sink);
  return { bytesBefore: before, bytesAfter: after };
}

// {schema: x} with the schemas renamed (rename: name -> new name or null).
function renamedKeys(map, rename) {
  if (!rename || !map || typeof map !== 'object') return map;
  var out = {};
  Object.keys(map).forEach(function (s) {
    var to = rename(s);
    out[to === null || to === undefined ? s : to] = map[s];
  });
  return out;
}

function sumAll(removed) {
  var n = 0;
  Object.keys(removed).forEach(function (s) { Object.keys(removed[s]).forEach(function (t) { n += removed[s][t]; }); });
  return n;
}

function own(map, key) {
  return map && typeof map === 'object' && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

// {schema: {table: n}} with the removed bytes taken off (tableDataBytes), or the rows scaled by the
// share of bytes kept (tableRows: rows per chunk are not recorded, bytes are).
function scaled(map, removed, tableBytes, key) {
  if (!map || typeof map !== 'object') return map;
  var out = {};
  Object.keys(map).forEach(function (s) {
    var tables = map[s];
    // A schema with nothing removed is written as the dump has it: no copy (50,000 tables: 3 MB each).
    if (!tables || typeof tables !== 'object' || !own(removed, s)) { out[s] = tables; return; }
    out[s] = {};
    Object.keys(tables).forEach(function (t) {
      var v = tables[t];
      var gone = own(own(removed, s), t);
      if (typeof v !== 'number' || !gone) { out[s][t] = v; return; }
      var bytes = own(own(tableBytes, s), t);
      if (key === 'tableDataBytes') out[s][t] = Math.max(0, v - gone);
      else out[s][t] = typeof bytes === 'number' && bytes > 0 ? Math.round(v * Math.max(0, bytes - gone) / bytes) : v;
    });
  });
  return out;
}

// The dump's @.checksums.json text with the entries of stubbed chunks left out. Entries live under
// data.<schema>.<table>.partitions.<partition or "">.<chunk id>; a chunk id is the data file's chunk
// number, -1 for a table dumped in one piece. plan: the partial plan of the view (chunks outside
// each table's chosen range are stubbed); rename: as for viewDone. Returns {text, kept, dropped}.
function viewChecksums(text, plan, rename) {
  var doc = JSON.parse(text);
  var kept = 0;
  var dropped = 0;
  var entryOf = new Map(); // "schema\0table\0partition" -> plan entry
  plan.targets.forEach(function (e) {
    entryOf.set(e.schema + '\u0000' + e.table + '\u0000' + (e.partition === null ? '' : e.partition), e);
  });
  var data = doc && doc.data && typeof doc.data === 'object' ? doc.data : {};
  Object.keys(data).forEach(function (s) {
    Object.keys(data[s] || {}).forEach(function (t) {
      var parts = data[s][t] && data[s][t].partitions;
      if (!parts || typeof parts !== 'object') return;
      Object.keys(parts).forEach(function (p) {
        var e = entryOf.get(s + '\u0000' + t + '\u0000' + p);
        var some = e && e.stubbed.length > 0;
        var entries = parts[p] || {};
        Object.keys(entries).forEach(function (id) {
          var i = Number(id);
          // A table without a usable key has one entry (-1) for all its chunks: it cannot match a part.
          if (some && (id === '-1' || i < e.from || i >= e.to)) { delete entries[id]; dropped++; } else kept++;
        });
      });
    });
  });
  if (rename && doc && doc.data && typeof doc.data === 'object') doc.data = renamedKeys(doc.data, rename);
  return { text: JSON.stringify(doc), kept: kept, dropped: dropped };
}

module.exports = { viewDone: viewDone, viewChecksums: viewChecksums };
