// Data file names of a MySQL Shell dump (contract §2): `<base>.<ext>` for a table dumped whole,
// `<base>@<N>.<ext>` for chunk N and `<base>@@<N>.<ext>` for the last chunk. The base comes
// from the metadata's `basenames` maps; `@` inside a name is always percent-encoded, so the last
// `@` of a chunk name separates the base from the chunk number.

function chunkFileName(base, ext, index, last) {
  return base + (last ? '@@' : '@') + index + '.' + ext;
}

function wholeFileName(base, ext) {
  return base + '.' + ext;
}

// The Shell writes chunk numbers without leading zeros; the loader probes only those names.
var CHUNK_NUMBER = /^(0|[1-9][0-9]*)$/;

// Splits `<stem>` (a chunk name without `.<ext>`) into {base, index, last}, or null.
function splitChunkStem(stem) {
  var at = stem.lastIndexOf('@');
  if (at <= 0) return null;
  var digits = stem.slice(at + 1);
  if (!CHUNK_NUMBER.test(digits)) return null;
  var last = stem.charAt(at - 1) === '@';
  var base = stem.slice(0, last ? at - 1 : at);
  if (base === '') return null;
  return { base: base, index: Number(digits), last: last };
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
  return function match(name) {
    var t = whole.get(name);
    if (t) return { target: t, index: 0, last: true, whole: true };
    for (var i = 0; i < exts.length; i++) {
      var suffix = '.' + exts[i];
      if (name.length <= suffix.length || !name.endsWith(suffix)) continue;
      var parts = splitChunkStem(name.slice(0, -suffix.length));
      if (!parts) continue;
      t = byBase.get(parts.base);
      if (t && t.ext === exts[i]) return { target: t, index: parts.index, last: parts.last, whole: false };
    }
    return null;
  };
}

module.exports = { chunkFileName: chunkFileName, wholeFileName: wholeFileName, makeNameMatcher: makeNameMatcher,
  splitChunkStem: splitChunkStem };
