// Where each table's (or partition's) ordered list of data files comes from, in this order:
//   1. `chunkFileBytes` in @.done.json: the dumper records there every data file it wrote (1.0.1+);
//   2. the data files and `.idx` files present in the dump directory;
//   3. an optional listing of the complete dump (names from `ls`, `ls -l`, `rsync --list-only`).
// Sources 2 and 3 are combined; they only count when source 1 says nothing about the table.
// Names from any source are only compared with names built from metadata, never used as paths.
var UserError = require('./user-error.js').UserError;
var names = require('./chunk-names.js');
var makeProblem = require('./dump-problems.js').makeProblem;
var displayTable = require('./display-name.js').displayTable;

// A larger chunk number comes from a damaged name or listing, not from a real dump; enumerating
// up to it would only exhaust memory.
var MAX_CHUNKS = 10000000;
var PLAIN = 1;
var LAST = 2;

function newCollection() { return { whole: false, flags: new Map(), max: -1, files: false, listing: false }; }

function addName(collection, m) {
  if (m.whole) { collection.whole = true; return; }
  if (m.index >= MAX_CHUNKS) {
    throw new UserError('The data file name ' + names.chunkFileName(m.target.base, m.target.ext, m.index, m.last) +
      ' gives ' + displayTable(m.target.schema, m.target.table, m.target.partition) + ' more than ' + MAX_CHUNKS +
      ' chunks: the dump metadata or the listing is damaged.');
  }
  collection.flags.set(m.index, (collection.flags.get(m.index) || 0) | (m.last ? LAST : PLAIN));
  if (m.index > collection.max) collection.max = m.index;
}

// "file.tsv.zst.idx" and "-rw-r--r-- 1 u g 123 Jan 1 12:00 dir/file.tsv.zst" both name file.tsv.zst.
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
  var fromDone = new Map();
  var fromFiles = new Map();
  function collect(into, name, flag) {
    var m = match(name);
    if (!m) return;
    var c = into.get(m.target);
    if (!c) { c = newCollection(); into.set(m.target, c); }
    addName(c, m);
    if (flag) c[flag] = true;
  }
  if (sources.chunkFileBytes) Object.keys(sources.chunkFileBytes).forEach(function (n) { collect(fromDone, n); });
  sources.fileNames.forEach(function (n) { collect(fromFiles, dataNameOf(n), 'files'); });
  (sources.listingNames || []).forEach(function (n) { collect(fromFiles, dataNameOf(n), 'listing'); });

  var problems = [];
  targets.forEach(function (t) {
    t.chunks = [];
    t.lastChunkKnown = t.ext !== null;
    t.chunkSource = null;
    if (t.ext === null || !t.includesData) return;
    var c = fromDone.get(t);
    var source = 'chunkFileBytes';
    if (!c) {
      c = fromFiles.get(t) || newCollection();
      source = c.files && c.listing ? 'files+listing' : c.files ? 'files' : c.listing ? 'listing' : null;
    }
    var conflicting = placeChunks(t, c, source, problems);
    if (!t.lastChunkKnown && !conflicting) problems.push(unknownLastChunk(t, sources));
  });
  return problems;
}

function unknownLastChunk(t, sources) {
  var name = displayTable(t.schema, t.table, t.partition);
  var found = t.chunks.length
    ? 'the highest chunk found is ' + t.chunks[t.chunks.length - 1].file + ' and no last chunk (@@N) was found, so ' +
      'the number of chunks cannot be known'
    : 'no data file of it was found (no file, no .idx file' + (sources.listingNames ? ', no line of the listing' : '') +
      '), so neither its chunks nor its last chunk can be known';
  var why = sources.chunkFileBytes
    ? ' (@.done.json lists no data file of it)'
    : ' (@.done.json does not list the data files: chunkFileBytes exists only in complete dumps of format 1.0.1 ' +
      'and later)';
  var advice = sources.listingNames
    ? ' The listing given does not name the last chunk either: check that it lists the complete dump.'
    : ' Pass options.listing: a listing of the complete dump (the output of ls, ls -l or rsync --list-only ' +
      'on the backup host).';
  return makeProblem('last-chunk-unknown', name + ': ' + found + why + '. util.loadDump needs every chunk up to ' +
    'the last one.' + advice, t.info.metadataFile);
}

// Fills t.chunks from a collection; returns true when it reported conflicting chunk files.
function placeChunks(t, c, source, problems) {
  var name = displayTable(t.schema, t.table, t.partition);
  var whole = names.wholeFileName(t.base, t.ext);
  t.chunkSource = source;
  // Whole-table file: the loader takes it as chunk 0 and last, and looks no further.
  if (c.whole || !t.chunking) {
    t.chunks = [{ index: 0, last: true, file: whole }];
    if (!c.whole) t.chunkSource = 'metadata';
    if (c.whole && c.flags.size && t.chunking) {
      problems.push(makeProblem('whole-and-chunked', name + ': both the whole-table file ' + whole + ' and chunk ' +
        'files exist; util.loadDump loads only ' + whole + ' and ignores the chunk files.', whole));
    }
    return false;
  }
  var lastAt = -1;
  var conflicts = [];
  c.flags.forEach(function (bits, index) {
    if (!(bits & LAST)) return;
    if (bits & PLAIN) conflicts.push('both ' + names.chunkFileName(t.base, t.ext, index, false) + ' and ' +
      names.chunkFileName(t.base, t.ext, index, true) + ' exist');
    if (lastAt >= 0) conflicts.push('two last chunks exist (@@' + Math.min(lastAt, index) + ' and @@' +
      Math.max(lastAt, index) + ')');
    lastAt = Math.max(lastAt, index);
  });
  if (lastAt >= 0 && c.max > lastAt) {
    conflicts.push('chunk ' + c.max + ' exists beyond the last chunk @@' + lastAt);
  }
  t.lastChunkKnown = lastAt >= 0 && !conflicts.length;
  var end = lastAt >= 0 ? Math.max(lastAt, c.max) : c.max;
  for (var i = 0; i <= end; i++) {
    t.chunks.push({ index: i, last: i === lastAt, file: names.chunkFileName(t.base, t.ext, i, i === lastAt) });
  }
  if (conflicts.length) {
    problems.push(makeProblem('chunks-conflict', name + ': ' + conflicts.join('; ') + '. util.loadDump would stop ' +
      'short of the last chunk and fail with "some of the data files are missing". Remove the wrong files.',
      t.chunks[t.chunks.length - 1].file));
  }
  return conflicts.length > 0;
}

module.exports = { buildChunkLists: buildChunkLists, parseListing: parseListing, MAX_CHUNKS: MAX_CHUNKS };
