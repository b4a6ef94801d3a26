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
// {target, at (its position in targets), index, last, whole} or null; matchAt(text, start, end,
// out) does the same for the name text[start, end) without allocating (a dump's 100,000 names are
// read in place from @.done.json), filling out and returning true. The Shell writes chunk numbers without leading
// zeros; the loader probes only those names.
function makeNameMatcher(targets) {
  // An open-addressing table of positions in targets (+1; 0: empty), by the hash of the base
  // name, probed linearly: the targets of one hash in the order given. A Map per target position
  // cost 100,000 tables 4 MB while @.done.json was walked; this table of 32-bit slots, 1 MB.
  var size = 16;
  while (size < 2 * targets.length) size *= 2;
  var slots = new Int32Array(size);
  var mask = size - 1;
  var exts = [];
  targets.forEach(function (t, k) {
    var s = hashRange(t.base, 0, t.base.length) & mask;
    while (slots[s] !== 0) s = (s + 1) & mask;
    slots[s] = k + 1;
    if (exts.indexOf(t.ext) < 0) exts.push(t.ext);
  });
  var suffixes = exts.map(function (e) { return '.' + e; });
  function isBase(t, text, start, end, ext) {
    return t.ext === ext && t.base.length === end - start && text.startsWith(t.base, start);
  }
  // -> the position of the first target of that base name and extension, or -1.
  function findBase(text, start, end, ext) {
    for (var s = hashRange(text, start, end) & mask; slots[s] !== 0; s = (s + 1) & mask) {
      if (isBase(targets[slots[s] - 1], text, start, end, ext)) return slots[s] - 1;
    }
    return -1;
  }
  function set(out, k, index, last, whole) {
    out.target = targets[k];
    out.at = k;
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
      if (t >= 0) return set(out, t, 0, true, true);
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
      if (t < 0) continue;
      var index = 0;
      for (var k = digits; k < stop; k++) index = index * 10 + (text.charCodeAt(k) - ZERO);
      return set(out, t, index, last, false);
    }
    return false;
  }
  return {
    matchAt: matchAt,
    // The position of the first target with the base name and extension of targets[k].
    firstOf: function (k) { return findBase(targets[k].base, 0, targets[k].base.length, targets[k].ext); },
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
