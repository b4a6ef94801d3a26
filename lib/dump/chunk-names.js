// Data file names of a MySQL Shell dump (contract §2): `<base>.<ext>` for a table dumped whole,
// `<base>@<N>.<ext>` for chunk N and `<base>@@<N>.<ext>` for the last chunk. The base comes
// from the metadata's `basenames` maps; `@` inside a name is always percent-encoded, so the last
// `@` (or `@@`) of a chunk name separates the base from the chunk number.

function chunkFileName(base, ext, index, last) {
  return base + (last ? '@@' : '@') + index + '.' + ext;
}

function wholeFileName(base, ext) {
  return base + '.' + ext;
}

var AT = 64;
var ZERO = 48;
var NINE = 57;

// Reads `<base>@<N>` or `<base>@@<N>` from name[0, end) → {baseEnd, index, last}, or null.
// Character by character: it runs once per file of the dump, so no regex and no substrings.
// The Shell writes chunk numbers without leading zeros; the loader probes only those names.
function readChunkSuffix(name, end) {
  var start = end;
  while (start > 0 && name.charCodeAt(start - 1) >= ZERO && name.charCodeAt(start - 1) <= NINE) start--;
  if (start === end || start === 0 || name.charCodeAt(start - 1) !== AT) return null;
  if (end - start > 1 && name.charCodeAt(start) === ZERO) return null;
  var last = start >= 2 && name.charCodeAt(start - 2) === AT;
  var baseEnd = start - (last ? 2 : 1);
  if (baseEnd <= 0) return null;
  return { baseEnd: baseEnd, index: Number(name.slice(start, end)), last: last };
}

// Recognises data file names of known tables. targets: [{base, ext, ...}]. match(name) returns
// {target, index, last, whole} or null. Built once, then O(1) per name (a dump may hold
// hundreds of thousands of files).
function makeNameMatcher(targets) {
  var whole = new Map();
  var byBase = new Map();
  var exts = [];
  targets.forEach(function (t) {
    whole.set(wholeFileName(t.base, t.ext), t);
    byBase.set(t.base, t);
    if (exts.indexOf(t.ext) < 0) exts.push(t.ext);
  });
  var previous = null; // names come grouped by table: reuse the last base found
  function targetFor(name, baseEnd) {
    if (previous && previous.base.length === baseEnd && name.startsWith(previous.base)) return previous;
    var t = byBase.get(name.slice(0, baseEnd));
    if (t) previous = t;
    return t;
  }
  return function match(name) {
    var t = whole.get(name);
    if (t) return { target: t, index: 0, last: true, whole: true };
    for (var i = 0; i < exts.length; i++) {
      var suffix = '.' + exts[i];
      if (name.length <= suffix.length || !name.endsWith(suffix)) continue;
      var parts = readChunkSuffix(name, name.length - suffix.length);
      if (!parts) continue;
      t = targetFor(name, parts.baseEnd);
      if (t && t.ext === exts[i]) return { target: t, index: parts.index, last: parts.last, whole: false };
    }
    return null;
  };
}

// What a chunk's data or .idx file name looks like whatever the table: a base holding an `@`
// (schema@table), then `@N.` or `@@N.`. As regular expression source text, the same in JS and
// Python: a listing can leave such names out when only a few of them are needed (a load view).
// A few other names may look alike (a partition named 2024 dumped whole): callers check those.
var CHUNK_LIKE = '@.*@[0-9]+\\.[^@]+$';

module.exports = { CHUNK_LIKE: CHUNK_LIKE, chunkFileName: chunkFileName, wholeFileName: wholeFileName, makeNameMatcher: makeNameMatcher };
