// Where each table's (or partition's) ordered list of data files comes from, in this order:
//   1. `chunkFileBytes` in @.done.json: the dumper records there every data file it wrote (1.0.1+);
//   2. the data files and `.idx` files present in the dump directory;
//   3. an optional listing of the complete dump (names from `ls`, `ls -l`, `rsync --list-only`).
// Sources 2 and 3 are combined; they only count when source 1 says nothing about the table.
// Names from any source are only compared with names built from metadata, never used as paths.
var UserError = require('../core/user-error.js').UserError;
var names = require('./chunk-names.js');
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('../format/display-name.js').displayTable;
var chunkTable = require('./chunk-table.js');
var eachChunkEntry = require('./done-file.js').eachChunkEntry;

// A larger chunk number comes from a damaged name or listing, not from a real dump; enumerating
// up to it would only exhaust memory.
var MAX_CHUNKS = 10000000;
var PLAIN = 1;
var LAST = 2;

// What the names of one source say about one table or partition. Chunk numbers are dense
// (0..N), so one plain array indexed by chunk number holds the flags and the recorded bytes (from
// chunkFileBytes only): `cells`, flags of chunk i at 2i, its bytes at 2i+1; a name found is always
// the one chunk-names.js makes from its number. The chunks marked last: `last` (-1: none yet),
// any more in `moreLasts`. All of a dump's collections exist at once (50,000 tables: two arrays
// less each than with separate flags, bytes and lasts arrays; cells made for 2 chunks, not grown
// from nothing to an engine's first capacity).
function newCollection() {
  // far: made for the first absurd entry (50,000 tables: one array less each).
  return { whole: false, wholeBytes: null, cells: new Array(4), count: 0, entries: 0,
    last: -1, moreLasts: null, max: -1, files: false, listing: false, target: null, far: null };
}

function flagsOf(c, i) { return c.cells[2 * i] || 0; }
function bytesOf(c, i) { return c.cells[2 * i + 1]; }

// The chunk numbers marked last, in the order found.
function lastsOf(c) {
  if (c.last < 0) return [];
  return c.moreLasts ? [c.last].concat(c.moreLasts) : [c.last];
}

function setLasts(c, list) {
  c.last = list.length ? list[0] : -1;
  c.moreLasts = list.length > 1 ? list.slice(1) : null;
}

function addName(collection, m, bytes) {
  var known = typeof bytes === 'number';
  if (m.whole) {
    collection.whole = true;
    if (known) collection.wholeBytes = bytes;
    return;
  }
  if (m.index >= MAX_CHUNKS) {
    throw new UserError('DUMP_DAMAGED', 'The data file name ' + names.chunkFileName(m.target.base, m.target.ext, m.index, m.last) +
      ' gives ' + displayTable(m.target.schema, m.target.table, m.target.partition) + ' more than ' + MAX_CHUNKS +
      ' chunks: the dump metadata or the listing is damaged.');
  }
  collection.entries++;
  collection.target = m.target;
  var bits = flagsOf(collection, m.index);
  if (!bits) collection.count++;
  if (m.last && !(bits & LAST)) {
    if (collection.last < 0) collection.last = m.index;
    else (collection.moreLasts = collection.moreLasts || []).push(m.index);
  }
  collection.cells[2 * m.index] = bits | (m.last ? LAST : PLAIN);
  if (known) collection.cells[2 * m.index + 1] = bytes;
  if (m.index > collection.max) collection.max = m.index;
}

// An .idx file (present or listed) stands for its data file: "f.tsv.zst.idx" names f.tsv.zst.
function dataNameOf(name) {
  return /\.idx$/.test(name) ? name.slice(0, -4) : name;
}

// One name per line; for `ls -l` / `rsync --list-only` lines the name is the last field (dump
// file names hold no ASCII space or tab: the Shell percent-encodes them), without any directory part.
function parseListing(text) {
  var out = [];
  String(text).split(/\r?\n/).forEach(function (line) {
    // ASCII blanks only: non-ASCII bytes (a no-break space too) are kept as they are in names.
    var fields = line.replace(/^[ \t]+|[ \t]+$/g, '').split(/[ \t]+/);
    // `ls -l` shows a symbolic link as "name -> target".
    var at = fields.length > 2 && fields[fields.length - 2] === '->' ? fields.length - 3 : fields.length - 1;
    var name = fields[at];
    if (name) out.push(name.slice(name.lastIndexOf('/') + 1));
  });
  return out;
}

// targets: from dump-catalog; sources: {chunkList: @.done.json from done-file.js when it has
// chunkFileBytes, else null; fileNames: [name] or () -> [name], listingNames: [name], () -> [name] or null
// (both asked only when chunkFileBytes does not name a table's data files)}. Sets on
// each target: chunks (a chunk table, chunk-table.js), lastChunkKnown,
// chunkSource ('chunkFileBytes' | 'files' | 'listing' | 'files+listing' | 'metadata' | null).
// Returns the problems found.
function buildChunkLists(targets, sources) {
  var loadable = targets.filter(function (t) { return t.ext !== null && t.includesData; });
  var matcher = names.makeNameMatcher(loadable);
  // Keyed by file base name, never by target object: GraalJS wraps objects from another file's
  // context anew on each access, so object keys miss.
  var fromFiles = new Map();
  var m = {}; // one match at a time (chunk-names.js matchAt): no object per name
  // The name is text[start, end) (a listed name whole).
  function collect(into, text, start, end, flag, bytes) {
    if (!matcher.matchAt(text, start, end, m)) return;
    var c = into.get(m.target.base);
    if (!c) { c = newCollection(); into.set(m.target.base, c); }
    addName(c, m, bytes);
    if (flag) c[flag] = true;
  }
  var problems = [];
  // The chunks' facts of all tables in one store (chunk-table.js): room for one chunk each to start.
  var store = chunkTable.newStore(loadable.length);
  var fromDone = sources.chunkList ? doneCollections(sources.chunkList, matcher, loadable.length, problems) : null;
  // Files and listing only matter for tables chunkFileBytes says nothing about (usually none).
  if (loadable.some(function (t, k) { return !fromDone || !fromDone.has(matcher.firstOf(k)); })) {
    var fileNames = typeof sources.fileNames === 'function' ? sources.fileNames() : sources.fileNames;
    fileNames.forEach(function (n) { var d = dataNameOf(n); collect(fromFiles, d, 0, d.length, 'files'); });
    var listingNames = typeof sources.listingNames === 'function' ? sources.listingNames() : sources.listingNames;
    (listingNames || []).forEach(function (n) { var d = dataNameOf(n); collect(fromFiles, d, 0, d.length, 'listing'); });
  }

  var k = -1; // t's position in loadable
  targets.forEach(function (t) {
    t.lastChunkKnown = t.ext !== null;
    t.chunkSource = null;
    // (A table with data gets its chunk table from placeChunks: none made here to be dropped.)
    if (t.ext === null || !t.includesData) { t.chunks = chunkTable.emptyChunkTable(); return; }
    k++;
    var c = fromDone ? fromDone.take(matcher.firstOf(k)) : null;
    var source = 'chunkFileBytes';
    if (!c) {
      c = fromFiles.get(t.base) || newCollection();
      source = c.files && c.listing ? 'files+listing' : c.files ? 'files' : c.listing ? 'listing' : null;
    }
    if (source !== 'chunkFileBytes') dropFar(t, c, problems);
    var conflicting = placeChunks(t, c, source, problems, store);
    fromFiles.delete(t.base);
    if (!t.lastChunkKnown && !conflicting) problems.push(unknownLastChunk(t, sources));
  });
  return problems;
}

// What chunkFileBytes says of each base name (by the position k of its first target among the
// matcher's `count` targets: matcher.firstOf), as {has(k), take(k) -> its collection, once}.
// The entries are kept as columns while @.done.json is walked (a base's number, chunk number,
// marks, bytes: some 20 bytes each), and a base's collection is made when its chunks are placed:
// 50,000 collections alive at once while the walk ran were garbage in V8's old generation after it.
// Entries numbered absurdly far are reported here (dropAbsurd), in the order of the bases' first
// entries, as when every collection was made during the walk.
var WHOLE = 4;
var KNOWN = 8;
function doneCollections(done, matcher, count, problems) {
  var m = {};
  // Target position -> its base's number, in the order first named (-1: none); not a map by name
  // (100,000 tables: 4 MB while the chunk lists are made).
  var bases = new Int32Array(count).fill(-1);
  var list = [];
  var cols = { n: 0, base: new Int32Array(1024), index: new Float64Array(1024), marks: new Uint8Array(1024), bytes: new Float64Array(1024) };
  var far = null; // entry number -> name, for the entries numbered past MAX_CHUNKS
  function grow() {
    var size = cols.base.length * 2;
    ['base', 'index', 'marks', 'bytes'].forEach(function (k) {
      var a = new cols[k].constructor(size);
      a.set(cols[k]);
      cols[k] = a;
    });
  }
  function record(text, start, end, bytes) {
    if (!matcher.matchAt(text, start, end, m)) return;
    var b = bases[m.at];
    if (b < 0) { b = list.length; bases[m.at] = b; list.push(m.target); }
    if (cols.n === cols.base.length) grow();
    var k = cols.n++;
    cols.base[k] = b;
    cols.index[k] = m.index;
    cols.marks[k] = (m.last ? LAST : 0) | (m.whole ? WHOLE : 0) | (typeof bytes === 'number' ? KNOWN : 0);
    cols.bytes[k] = typeof bytes === 'number' ? bytes : 0;
    if (!m.whole && m.index >= MAX_CHUNKS) (far = far || new Map()).set(k, text.slice(start, end));
  }
  eachChunkEntry(done, function (text, start, end, decoded, bytes) {
    if (decoded === null) record(text, start, end, bytes);
    else record(decoded, 0, decoded.length, bytes);
  });
  // Each base's entries, in the order found: entry numbers grouped by base (a counting sort).
  var first = new Int32Array(list.length + 1);
  for (var k = 0; k < cols.n; k++) first[cols.base[k] + 1]++;
  for (var b = 0; b < list.length; b++) first[b + 1] += first[b];
  var order = new Int32Array(cols.n);
  var next = first.slice(0, list.length);
  for (k = 0; k < cols.n; k++) order[next[cols.base[k]]++] = k;
  var one = { target: null, index: 0, last: false, whole: false };
  function collectionOf(b) {
    var c = newCollection();
    for (var j = first[b]; j < first[b + 1]; j++) {
      var e = order[j];
      one.target = list[b];
      one.index = cols.index[e];
      one.last = (cols.marks[e] & LAST) !== 0;
      one.whole = (cols.marks[e] & WHOLE) !== 0;
      // A recorded name numbered past any real dump: an absurd entry (dropAbsurd), not a reason to stop.
      if (!one.whole && one.index >= MAX_CHUNKS) {
        c.entries++;
        c.target = one.target;
        (c.far = c.far || []).push([one.index, far.get(e)]);
        continue;
      }
      addName(c, one, cols.marks[e] & KNOWN ? cols.bytes[e] : null);
    }
    return c;
  }
  var usable = new Uint8Array(list.length);
  var kept = new Map(); // base number -> its collection, where dropAbsurd changed it (rare)
  for (b = 0; b < list.length; b++) {
    var c = collectionOf(b);
    var odd = c.far !== null || c.max >= c.entries;
    dropAbsurd(c, problems);
    // util.loadDump finds chunks in the directory listing, never in chunkFileBytes (9.1.0
    // modules/util/load/dump_reader.cc rescan_data): entries that name no last chunk leave the
    // table to its files, as for the loader.
    usable[b] = c.last < 0 && !c.whole ? 0 : 1;
    if (odd && usable[b]) kept.set(b, c);
  }
  return {
    has: function (k) { var n = bases[k]; return n >= 0 && usable[n] === 1; },
    take: function (k) {
      var n = bases[k];
      if (n < 0 || usable[n] !== 1) return null;
      usable[n] = 2; // taken: a second target of the same base name gets none
      return kept.has(n) ? kept.get(n) : collectionOf(n);
    },
  };
}

// Leaves chunk number i out of a collection (its caller fixes max and lasts).
function forgetChunk(c, i) {
  delete c.cells[2 * i];
  delete c.cells[2 * i + 1];
  c.count--;
}

// chunkFileBytes lists every data file the dumper wrote, and a table's chunks are numbered 0..N:
// an entry numbered at or past the count of the table's entries is damage, and enumerating up to
// it would be unbounded work (one bogus "@9999999" meant minutes and gigabytes). Such entries are
// reported (at most 20 problems) and left out of the collection.
function dropAbsurd(c, problems) {
  var n = c.entries;
  function report(i, name) {
    if (name === undefined || problems.length >= 20) return;
    var t = c.target;
    problems.push(makeProblem('metadata-damaged', '@.done.json lists the data file ' + JSON.stringify(name) + ' of ' +
      displayTable(t.schema, t.table, t.partition) + ' in chunkFileBytes as chunk ' + i + ', but lists only ' + n +
      ' data file(s) of that table (chunks are numbered from 0 without gaps): the entry was left out.', '@.done.json', t));
  }
  (c.far || []).forEach(function (e) { report(e[0], e[1]); });
  if (c.max < n) return;
  var t = c.target;
  for (var i = n; i <= c.max; i++) {
    if (!flagsOf(c, i)) continue;
    if (flagsOf(c, i) & PLAIN) report(i, names.chunkFileName(t.base, t.ext, i, false));
    if (flagsOf(c, i) & LAST) report(i, names.chunkFileName(t.base, t.ext, i, true));
    forgetChunk(c, i);
  }
  setLasts(c, lastsOf(c).filter(function (x) { return x < n; }));
  c.max = -1;
  for (var j = n - 1; j >= 0 && c.max < 0; j--) if (flagsOf(c, j)) c.max = j;
}

// Names from the directory or a listing may have gaps (a partial download holds only some
// chunks), so they cannot be bounded by their count as chunkFileBytes entries are. But a plain
// chunk numbered more than MAX_GAP past the next lower one, and past the last chunk (@@N) when
// that is known, is a damaged or stray name: enumerating up to it would be unbounded work. Such
// names are reported and left out.
var MAX_GAP = 1000000;

function dropFar(t, c, problems) {
  if (c.max < c.count + MAX_GAP) return; // fewer holes than MAX_GAP in all
  var lastAt = highest(lastsOf(c));
  var present = Object.keys(c.cells).map(Number).filter(function (k) { return k % 2 === 0 && c.cells[k]; })
    .map(function (k) { return k / 2; }).sort(function (a, b) { return a - b; });
  while (present.length > 1) {
    var top = present[present.length - 1];
    if (flagsOf(c, top) !== PLAIN || top <= lastAt || top - present[present.length - 2] <= MAX_GAP) break;
    var stray = names.chunkFileName(t.base, t.ext, top, false);
    problems.push(makeProblem('chunks-conflict', displayTable(t.schema, t.table, t.partition) + ': the data file ' +
      stray + ' is numbered ' + (top - present[present.length - 2]) + ' past the next one found' +
      (lastAt >= 0 ? ' and past the last chunk @@' + lastAt : '') + ': a stray or damaged name, left out. Remove it ' +
      'from the dump directory (or the listing).', stray, t));
    forgetChunk(c, top);
    present.pop();
  }
  c.max = present.length ? present[present.length - 1] : -1;
}

function unknownLastChunk(t, sources) {
  var name = displayTable(t.schema, t.table, t.partition);
  var found = t.chunks.length
    ? 'the highest chunk found is ' + chunkTable.fileOf(t.chunks, t.chunks.length - 1) + ' and no last chunk (@@N)'
    : 'no data file or .idx file of it was found';
  var why = sources.chunkList ? '@.done.json lists none of its data files'
    : 'the dump does not record its data files';
  return makeProblem('last-chunk-unknown', name + ': ' + found + (sources.listingNames ? ', not even in the listing' : '') +
    ', and ' + why + ', so the number of chunks cannot be known.', t.info.metadataFile, t);
}

function highest(list) {
  return list.reduce(function (m, x) { return x > m ? x : m; }, -1);
}

function wrongChunkFiles(t, c) {
  var wrong = [];
  var lasts = lastsOf(c);
  lasts.forEach(function (index) {
    if (flagsOf(c, index) & PLAIN) {
      wrong.push('both ' + names.chunkFileName(t.base, t.ext, index, false) + ' and ' +
        names.chunkFileName(t.base, t.ext, index, true) + ' exist');
    }
  });
  if (lasts.length > 1) {
    wrong.push(lasts.length + ' chunks are marked last (@@' + lasts.slice(0, 3).join(', @@') + ')');
  }
  if (lasts.length && c.max > highest(lasts)) {
    wrong.push('chunk ' + c.max + ' exists beyond the last chunk @@' + highest(lasts));
  }
  return wrong.length > 3 ? wrong.slice(0, 3).concat(['…']) : wrong;
}

// Makes t.chunks (a chunk table) from a collection; returns true when it reported conflicting
// chunk files.
function placeChunks(t, c, source, problems, store) {
  var whole = names.wholeFileName(t.base, t.ext);
  t.chunkSource = source;
  // Whole-table file: the loader takes it as chunk 0 and last, and looks no further.
  if (c.whole || !t.chunking) {
    t.chunks = chunkTable.newChunkTable(t.base, t.ext, 1, 0, true, store);
    chunkTable.setDataBytes(t.chunks, 0, c.wholeBytes);
    if (!c.whole) t.chunkSource = 'metadata';
    if (c.whole && c.count && t.chunking) {
      problems.push(makeProblem('whole-and-chunked', displayTable(t.schema, t.table, t.partition) + ': both the ' +
        'whole-table file ' + whole + ' and chunk files exist.', whole, t));
    }
    return false;
  }
  var conflicts = wrongChunkFiles(t, c);
  var lastAt = highest(lastsOf(c));
  t.lastChunkKnown = lastAt >= 0 && !conflicts.length;
  var ct = chunkTable.newChunkTable(t.base, t.ext, Math.max(lastAt, c.max) + 1, lastAt, false, store);
  for (var i = 0; i < ct.length; i++) {
    var bytes = bytesOf(c, i);
    if (typeof bytes === 'number') chunkTable.setDataBytes(ct, i, bytes);
    // With conflicting files, show the file that exists (an extra @@N keeps its last mark).
    if (i !== lastAt && flagsOf(c, i) === LAST) chunkTable.markLast(ct, i);
  }
  t.chunks = ct;
  if (conflicts.length) {
    problems.push(makeProblem('chunks-conflict', displayTable(t.schema, t.table, t.partition) + ': ' +
      conflicts.join('; ') + '.', chunkTable.fileOf(ct, ct.length - 1), t));
  }
  return conflicts.length > 0;
}

module.exports = { buildChunkLists: buildChunkLists, parseListing: parseListing, MAX_CHUNKS: MAX_CHUNKS };
