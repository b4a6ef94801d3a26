// Reading host.files.list's answer (columns: names, sizes, dirs, errors): a directory of a big
// dump holds hundreds of thousands of files, so no object is made per file.
var toNumbers = require('./bytes.js').toNumbers;

// Calls fn(name, size, isDir, error, special) for every entry: error, the host's words, or null;
// special, what a non-regular entry is ("a named pipe"), or null.
function eachEntry(listing, fn) {
  var dirs = new Set(listing.dirs);
  var errors = new Map(listing.errors.map(function (e) { return [e[0], e]; }));
  for (var i = 0; i < listing.names.length; i++) {
    var e = errors.has(i) ? errors.get(i) : null;
    fn(listing.names[i], listing.sizes[i], dirs.has(i), e ? e[1] : null, e && e[2] ? e[2] : null);
  }
}


// The files of a listing as a name -> size map (size null where not asked), kept compact: a big
// dump's directory has hundreds of thousands of names, which as a Map of strings cost 15 MB at
// 200,000. The names stay one text joined by "/" (no file name holds one), found through a table of
// their numbers by hash; sizes are one float64 each (NaN: null). Names set later (a few looked up
// one by one) go to a Map. It answers what its users ask of a Map: has, get, set, forEach(fn(size,
// name)) in the order set, keys() (an Array) and size.
// listing: host.files.list's answer (namesText and sizeBytes, or names and sizes); keep(i, isDir,
// error): whether entry i is in the map.
function fileSet(listing, keep) {
  var text = typeof listing.namesText === 'string' ? listing.namesText : listing.names.join('/');
  var count = typeof listing.namesText === 'string' ? (text === '' ? 0 : countOf(text)) : listing.names.length;
  var starts = new Int32Array(count + 1);
  for (var i = 0, at = 0; i < count; i++) {
    starts[i] = at;
    var slash = text.indexOf('/', at);
    at = slash < 0 ? text.length + 1 : slash + 1;
  }
  starts[count] = text.length + 1;
  var sizes = typeof listing.namesText === 'string' ? toNumbers(listing.sizeBytes, Float64Array, count, 'file sizes') : new Float64Array(count);
  if (typeof listing.namesText !== 'string') {
    for (var j = 0; j < count; j++) sizes[j] = listing.sizes[j] === null ? NaN : listing.sizes[j];
  }
  var dirs = new Set(listing.dirs);
  var errors = new Map(listing.errors.map(function (e) { return [e[0], e[1]]; }));
  var out = new Uint8Array(count); // 1: not in the map
  var mask = 1;
  while (mask < count * 2) mask *= 2;
  var table = new Int32Array(mask); // entry number + 1, 0: empty
  mask -= 1;
  var inMap = 0;
  for (var k = 0; k < count; k++) {
    if (!keep(k, dirs.has(k), errors.has(k) ? errors.get(k) : null, sizes[k] === sizes[k] ? sizes[k] : null)) { out[k] = 1; continue; }
    inMap++;
    var h = hashOf(text, starts[k], starts[k + 1] - 1) & mask;
    while (table[h]) h = (h + 1) & mask;
    table[h] = k + 1;
  }
  var later = new Map();
  function find(name) {
    var h = hashOf(name, 0, name.length) & mask;
    for (var e = table[h]; e; e = table[h = (h + 1) & mask]) {
      var s = starts[e - 1];
      if (starts[e] - 1 - s === name.length && sameAt(text, s, name)) return e - 1;
    }
    return -1;
  }
  function sizeAt(k) { return sizes[k] === sizes[k] ? sizes[k] : null; }
  var set = {
    size: inMap,
    has: function (name) { return later.has(name) || find(name) >= 0; },
    get: function (name) {
      if (later.has(name)) return later.get(name);
      var k = find(name);
      return k < 0 ? undefined : sizeAt(k);
    },
    set: function (name, size) {
      var k = later.has(name) ? -1 : find(name);
      if (k >= 0) sizes[k] = size === null ? NaN : size;
      else later.set(name, size);
      set.size = inMap + later.size;
      return set;
    },
    forEach: function (fn) {
      for (var n = 0; n < count; n++) if (!out[n]) fn(sizeAt(n), text.slice(starts[n], starts[n + 1] - 1));
      later.forEach(function (size, name) { fn(size, name); });
    },
    keys: function () {
      var names = [];
      set.forEach(function (size, name) { names.push(name); });
      return names;
    },
    // Entry i of the listing: its name and size (whether in the map or not).
    nameAt: function (n) { return text.slice(starts[n], starts[n + 1] - 1); },
    sizeAt: sizeAt,
  };
  return set;
}

function countOf(text) {
  var n = 1;
  for (var at = text.indexOf('/'); at >= 0; at = text.indexOf('/', at + 1)) n++;
  return n;
}

// FNV-1a of text[start, end).
function hashOf(text, start, end) {
  var h = -2128831035;
  for (var i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

function sameAt(text, at, name) {
  for (var i = 0; i < name.length; i++) if (text.charCodeAt(at + i) !== name.charCodeAt(i)) return false;
  return true;
}

module.exports = { eachEntry: eachEntry, fileSet: fileSet };
