// Where each table's (or partition's) ordered list of data files comes from, in this order:
//   1. `chunkFileBytes` in @.done.json: the dumper records there every data file it wrote (1.0.1+);
//   2. the data files and `.idx` files present in the dump directory;
//   3. an optional listing of the complete dump (names from `ls`, `ls -l`, `rsync --list-only`).
// Sources 2 and 3 are combined; they only count when source 1 says nothing about the table.
// Names from any source are only compared with names built from metadata, never used as paths.
var UserError = require('../core/user-error.js').UserError;
var names = require('./chunk-names.js');
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('../report/display-name.js').displayTable;

// A larger chunk number comes from a damaged name or listing, not from a real dump; enumerating
// up to it would only exhaust memory.
var MAX_CHUNKS = 10000000;
var PLAIN = 1;
var LAST = 2;

// What the names of one source say about one table or partition. Chunk numbers are dense
// (0..N), so plain arrays indexed by chunk number hold the flags, the recorded bytes (from
// chunkFileBytes only) and the names as found (reusing them spares rebuilding and rehashing
// hundreds of thousands of strings).
function newCollection() {
  return { whole: false, wholeBytes: null, flags: [], bytes: [], plainNames: [], lastNames: [], count: 0, lasts: [],
    max: -1, files: false, listing: false };
}

function addName(collection, m, bytes, name) {
  var known = typeof bytes === 'number';
  if (m.whole) {
    collection.whole = true;
    if (known) collection.wholeBytes = bytes;
    return;
  }
  if (m.index >= MAX_CHUNKS) {
    throw new UserError('The data file name ' + names.chunkFileName(m.target.base, m.target.ext, m.index, m.last) +
      ' gives ' + displayTable(m.target.schema, m.target.table, m.target.partition) + ' more than ' + MAX_CHUNKS +
      ' chunks: the dump metadata or the listing is damaged.');
  }
  var bits = collection.flags[m.index] || 0;
  if (!bits) collection.count++;
  if (m.last && !(bits & LAST)) collection.lasts.push(m.index);
  collection.flags[m.index] = bits | (m.last ? LAST : PLAIN);
  (m.last ? collection.lastNames : collection.plainNames)[m.index] = name;
  if (known) collection.bytes[m.index] = bytes;
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

// targets: from dump-catalog; sources: {chunkFileBytes: object|null, fileNames: [name],
// listingNames: [name]|null}. Sets on each target: chunks [{index, last, file}], lastChunkKnown,
// chunkSource ('chunkFileBytes' | 'files' | 'listing' | 'files+listing' | 'metadata' | null).
// Returns the problems found.
function buildChunkLists(targets, sources) {
  var loadable = targets.filter(function (t) { return t.ext !== null && t.includesData; });
  var match = names.makeNameMatcher(loadable);
  // Keyed by file base name, never by target object: GraalJS wraps objects from another file's
  // context anew on each access, so object keys miss.
  var fromDone = new Map();
  var fromFiles = new Map();
  function collect(into, name, flag, bytes) {
    var m = match(name);
    if (!m) return;
    var c = into.get(m.target.base);
    if (!c) { c = newCollection(); into.set(m.target.base, c); }
    addName(c, m, bytes, name);
    if (flag) c[flag] = true;
  }
  var recorded = sources.chunkFileBytes;
  var keys = recorded ? Object.keys(recorded) : [];
  var problems = absurdEntries(keys, match);
  for (var i = 0; i < keys.length; i++) {
    if (!problems.skip.has(keys[i])) collect(fromDone, keys[i], null, recorded[keys[i]]);
  }
  problems = problems.list;
  // Files and listing only matter for tables chunkFileBytes says nothing about (usually none).
  if (loadable.some(function (t) { return !fromDone.has(t.base); })) {
    sources.fileNames.forEach(function (n) { collect(fromFiles, dataNameOf(n), 'files'); });
    (sources.listingNames || []).forEach(function (n) { collect(fromFiles, dataNameOf(n), 'listing'); });
  }

  targets.forEach(function (t) {
    t.chunks = [];
    t.lastChunkKnown = t.ext !== null;
    t.chunkSource = null;
    if (t.ext === null || !t.includesData) return;
    var c = fromDone.get(t.base);
    var source = 'chunkFileBytes';
    if (!c) {
      c = fromFiles.get(t.base) || newCollection();
      source = c.files && c.listing ? 'files+listing' : c.files ? 'files' : c.listing ? 'listing' : null;
    }
    var conflicting = placeChunks(t, c, source, problems);
    if (!t.lastChunkKnown && !conflicting) problems.push(unknownLastChunk(t, sources));
  });
  return problems;
}

// chunkFileBytes lists every data file the dumper wrote, and a table's chunks are numbered 0..N:
// an entry numbered at or past the count of the table's entries is damage, and enumerating up to
// it would be unbounded work (one bogus "@9999999" meant minutes and gigabytes). Such entries are
// reported and left out. Returns {skip: Set of names, list: [problem]}.
function absurdEntries(keys, match) {
  var counts = new Map();
  var found = [];
  for (var i = 0; i < keys.length; i++) {
    var m = match(keys[i]);
    if (!m || m.whole) continue;
    counts.set(m.target.base, (counts.get(m.target.base) || 0) + 1);
    found.push([keys[i], m]);
  }
  var skip = new Set();
  var list = [];
  found.forEach(function (e) {
    var n = counts.get(e[1].target.base);
    if (e[1].index < n) return;
    skip.add(e[0]);
    if (list.length < 20) {
      list.push(makeProblem('metadata-damaged', '@.done.json lists the data file ' + JSON.stringify(e[0]) + ' of ' +
        displayTable(e[1].target.schema, e[1].target.table, e[1].target.partition) + ' in chunkFileBytes as chunk ' +
        e[1].index + ', but lists only ' + n + ' data file(s) of that table (chunks are numbered from 0 without gaps): ' +
        'the entry was left out.', '@.done.json'));
    }
  });
  return { skip: skip, list: list };
}

function unknownLastChunk(t, sources) {
  var name = displayTable(t.schema, t.table, t.partition);
  var found = t.chunks.length
    ? 'the highest chunk found is ' + t.chunks[t.chunks.length - 1].file + ' and no last chunk (@@N)'
    : 'no data file or .idx file of it was found';
  var why = sources.chunkFileBytes ? '@.done.json lists none of its data files'
    : 'the dump does not record its data files';
  return makeProblem('last-chunk-unknown', name + ': ' + found + (sources.listingNames ? ', not even in the listing' : '') +
    ', and ' + why + ', so the number of chunks cannot be known.', t.info.metadataFile);
}

function highest(list) {
  return list.reduce(function (m, x) { return x > m ? x : m; }, -1);
}

function wrongChunkFiles(t, c) {
  var wrong = [];
  c.lasts.forEach(function (index) {
    if (c.flags[index] & PLAIN) {
      wrong.push('both ' + names.chunkFileName(t.base, t.ext, index, false) + ' and ' +
        names.chunkFileName(t.base, t.ext, index, true) + ' exist');
    }
  });
  if (c.lasts.length > 1) {
    wrong.push(c.lasts.length + ' chunks are marked last (@@' + c.lasts.slice(0, 3).join(', @@') + ')');
  }
  if (c.lasts.length && c.max > highest(c.lasts)) {
    wrong.push('chunk ' + c.max + ' exists beyond the last chunk @@' + highest(c.lasts));
  }
  return wrong.length > 3 ? wrong.slice(0, 3).concat(['…']) : wrong;
}

// Fills t.chunks [{index, last, file, dataBytes}] from a collection; returns true when it
// reported conflicting chunk files.
function placeChunks(t, c, source, problems) {
  var whole = names.wholeFileName(t.base, t.ext);
  t.chunkSource = source;
  // Whole-table file: the loader takes it as chunk 0 and last, and looks no further.
  if (c.whole || !t.chunking) {
    t.chunks = [{ index: 0, last: true, file: whole, dataBytes: c.wholeBytes }];
    if (!c.whole) t.chunkSource = 'metadata';
    if (c.whole && c.count && t.chunking) {
      problems.push(makeProblem('whole-and-chunked', displayTable(t.schema, t.table, t.partition) + ': both the ' +
        'whole-table file ' + whole + ' and chunk files exist.', whole));
    }
    return false;
  }
  var conflicts = wrongChunkFiles(t, c);
  var lastAt = highest(c.lasts);
  t.lastChunkKnown = lastAt >= 0 && !conflicts.length;
  var end = Math.max(lastAt, c.max);
  for (var i = 0; i <= end; i++) {
    var bytes = c.bytes[i];
    // With conflicting files, show the file that exists (an extra @@N keeps its last mark).
    var last = i === lastAt || (!c.plainNames[i] && !!c.lastNames[i]);
    var file = (last ? c.lastNames : c.plainNames)[i] || names.chunkFileName(t.base, t.ext, i, last);
    t.chunks.push({ index: i, last: last, file: file, dataBytes: bytes === undefined ? null : bytes });
  }
  if (conflicts.length) {
    problems.push(makeProblem('chunks-conflict', displayTable(t.schema, t.table, t.partition) + ': ' +
      conflicts.join('; ') + '.', t.chunks[t.chunks.length - 1].file));
  }
  return conflicts.length > 0;
}

module.exports = { buildChunkLists: buildChunkLists, parseListing: parseListing, MAX_CHUNKS: MAX_CHUNKS };
