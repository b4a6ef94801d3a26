// Data file names of a MySQL Shell dump (contract §2): `<base>.<ext>` for a table dumped whole,
// `<base>@<N>.<ext>` for chunk N and `<base>@@<N>.<ext>` for the last chunk. The base comes
// from the metadata's `basenames` maps; `@` inside a name is always percent-encoded, so the last
// `@` (or `@@`) of a chunk name separates the base from the chunk number.

function chunkFileName(base, ext, index, last) {
  return base + (last ? '@@' : '@') + index + '.' + ext;
}

// A chunk's name as [prefix, suffix] around its number: names of consecutive chunks are made from
// one pair (a load view's stubs: chunk-table.js nameRuns).
function chunkNameParts(base, ext, last) {
  return [base + (last ? '@@' : '@'), '.' + ext];
}

function wholeFileName(base, ext) {
  return base + '.' + ext;
}

var AT = 64;
var ZERO = 48;
var NINE = 57;

// Hash of text[start, end) (FNV-1a over the code units): a base name is looked up without
// making a substring. It runs once per file of the dump (a million, in a big one).
function hashRange(text, start, end) {
  var h = 0x811c9dc5;
  for (var i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

// Recognises data file names of known tables. targets: [{base, ext, ...}]. match(name) returns
// {target, index, last, whole} or null; matchAt(text, start, end, out) does the same for the
// name text[start, end) without allocating (a dump's 100,000 names are read in place from
// @.done.json), filling out and returning true. The Shell writes chunk numbers without leading
// zeros; the loader probes only those names.
function makeNameMatcher(targets) {
  // hash of a base name -> the first target of that hash; -> [the others] when hashes collide
  // (an array per target cost 50,000 tables some 5 MB while @.done.json was walked).
  var byHash = new Map();
  var moreByHash = new Map();
  var exts = [];
  targets.forEach(function (t) {
    var h = hashRange(t.base, 0, t.base.length);
    if (!byHash.has(h)) byHash.set(h, t);
    else if (!moreByHash.has(h)) moreByHash.set(h, [t]);
    else moreByHash.get(h).push(t);
    if (exts.indexOf(t.ext) < 0) exts.push(t.ext);
  });
  var suffixes = exts.map(function (e) { return '.' + e; });
  function isBase(t, text, start, end, ext) {
    return t.ext === ext && t.base.length === end - start && text.startsWith(t.base, start);
  }
  function findBase(text, start, end, ext) {
    var h = hashRange(text, start, end);
    var first = byHash.get(h);
    if (first === undefined) return null;
    if (isBase(first, text, start, end, ext)) return first;
    var more = moreByHash.get(h);
    if (!more) return null;
    for (var i = 0; i < more.length; i++) if (isBase(more[i], text, start, end, ext)) return more[i];
    return null;
  }
  function set(out, t, index, last, whole) {
    out.target = t;
    out.index = index;
    out.last = last;
    out.whole = whole;
    return true;
  }
  function matchAt(text, start, end, out) {
    var i;
    var stop;
    var t;
    for (i = 0; i < suffixes.length; i++) { // <base>.<ext>: the whole-table file
      stop = end - suffixes[i].length;
      if (stop <= start || !text.startsWith(suffixes[i], stop)) continue;
      t = findBase(text, start, stop, exts[i]);
      if (t) return set(out, t, 0, true, true);
    }
    for (i = 0; i < suffixes.length; i++) { // <base>@<N>.<ext> or <base>@@<N>.<ext>
      stop = end - suffixes[i].length;
      if (stop <= start || !text.startsWith(suffixes[i], stop)) continue;
      var digits = stop;
      while (digits > start && text.charCodeAt(digits - 1) >= ZERO && text.charCodeAt(digits - 1) <= NINE) digits--;
      if (digits === stop || digits === start || text.charCodeAt(digits - 1) !== AT) continue;
      if (stop - digits > 1 && text.charCodeAt(digits) === ZERO) continue;
      var last = digits - start >= 2 && text.charCodeAt(digits - 2) === AT;
      var baseEnd = digits - (last ? 2 : 1);
      if (baseEnd <= start) continue;
      t = findBase(text, start, baseEnd, exts[i]);
      if (!t) continue;
      var index = 0;
      for (var k = digits; k < stop; k++) index = index * 10 + (text.charCodeAt(k) - ZERO);
      return set(out, t, index, last, false);
    }
    return false;
  }
  return {
    matchAt: matchAt,
    match: function (name) {
      var out = {};
      return matchAt(name, 0, name.length, out) ? out : null;
    },
  };
}

// What a chunk's data or .idx file name looks like whatever the table: a base holding an `@`
// (schema@table), then `@N.` or `@@N.`. As regular expression source text, the same in JS and
// Python: a listing can leave such names out when only a few of them are needed (a load view).
// A few other names may look alike (a partition named 2024 dumped whole): callers check those.
var CHUNK_LIKE = '@.*@[0-9]+\\.[^@]+$';
// The .idx file of such a name.
var CHUNK_IDX_LIKE = '@.*@[0-9]+\\.[^@]+\\.idx$';

module.exports = { CHUNK_LIKE: CHUNK_LIKE, CHUNK_IDX_LIKE: CHUNK_IDX_LIKE, chunkFileName: chunkFileName, chunkNameParts: chunkNameParts, wholeFileName: wholeFileName, makeNameMatcher: makeNameMatcher };
