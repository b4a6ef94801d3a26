// The metadata a load view writes for itself instead of linking the dump's: util.loadDump must be
// told the truth about what the view holds.
//   @.done.json       stubbed chunks recorded as 0 bytes (chunkFileBytes), the tables' totals and
//                     the dump total reduced to the chosen chunks, tableRows scaled alike: the
//                     Shell's progress and ETA then count only what is loaded.
//   @.checksums.json  only the entries of the chunks loaded, so that checksum: true verifies a
//                     partial import instead of failing on every stubbed chunk.

// stubbed: Set of the data file names the view stubs; model: lib/dump/dump-model.js.
// Returns {text, bytesBefore, bytesAfter} for the view's @.done.json.
function viewDone(model, stubbed) {
  var done = model.doneJson;
  var removed = {}; // schema -> table -> [bytes removed, bytes recorded in chunks]
  model.targets.forEach(function (t) {
    t.chunks.forEach(function (c) {
      if (!stubbed.has(c.file) || typeof c.dataBytes !== 'number') return;
      var s = removed[t.schema] || (removed[t.schema] = {});
      s[t.table] = (s[t.table] || 0) + c.dataBytes;
    });
  });
  var cfb = done.chunkFileBytes && typeof done.chunkFileBytes === 'object' ? done.chunkFileBytes : null;
  var before = typeof done.dataBytes === 'number' ? done.dataBytes : null;
  var after = before === null ? null : Math.max(0, before - sumAll(removed));
  // Written piece by piece, not through a modified copy: chunkFileBytes may hold 100,000 entries,
  // and objects made in another file's context have no identity a replacer could test (GraalJS).
  var parts = Object.keys(done).map(function (key) {
    var value = done[key];
    var text;
    if (key === 'chunkFileBytes' && cfb) {
      text = '{' + Object.keys(cfb).map(function (name) {
        return JSON.stringify(name) + ':' + (stubbed.has(name) ? '0' : JSON.stringify(cfb[name]));
      }).join(',') + '}';
    } else if (key === 'dataBytes' && after !== null) {
      text = String(after);
    } else if (key === 'tableDataBytes' || key === 'tableRows') {
      text = JSON.stringify(scaled(value, removed, done.tableDataBytes, key));
    } else {
      text = JSON.stringify(value);
    }
    return JSON.stringify(key) + ':' + text;
  });
  return { text: '{' + parts.join(',') + '}', bytesBefore: before, bytesAfter: after };
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
    if (!tables || typeof tables !== 'object') { out[s] = tables; return; }
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
// number, -1 for a table dumped in one piece. targets: the model's; stubbed: Set of file names.
// Returns {text, kept, dropped}.
function viewChecksums(text, targets, stubbed) {
  var doc = JSON.parse(text);
  var kept = 0;
  var dropped = 0;
  var gone = new Map(); // "schema\0table\0partition" -> Set of chunk ids (strings)
  targets.forEach(function (t) {
    t.chunks.forEach(function (c) {
      if (!stubbed.has(c.file)) return;
      var key = t.schema + '\u0000' + t.table + '\u0000' + (t.partition === null ? '' : t.partition);
      if (!gone.has(key)) gone.set(key, new Set());
      gone.get(key).add(t.chunking ? String(c.index) : '-1');
    });
  });
  var data = doc && doc.data && typeof doc.data === 'object' ? doc.data : {};
  Object.keys(data).forEach(function (s) {
    Object.keys(data[s] || {}).forEach(function (t) {
      var parts = data[s][t] && data[s][t].partitions;
      if (!parts || typeof parts !== 'object') return;
      Object.keys(parts).forEach(function (p) {
        var ids = gone.get(s + '\u0000' + t + '\u0000' + p);
        var entries = parts[p] || {};
        Object.keys(entries).forEach(function (id) {
          // A table without a usable key has one entry (-1) for all its chunks: it cannot match a part.
          if (ids && (ids.has(id) || id === '-1')) { delete entries[id]; dropped++; } else kept++;
        });
      });
    });
  });
  return { text: JSON.stringify(doc), kept: kept, dropped: dropped };
}

module.exports = { viewDone: viewDone, viewChecksums: viewChecksums };
