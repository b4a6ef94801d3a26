// Reading host.files.list's answer (columns: names, sizes, dirs, errors): a directory of a big
// dump holds hundreds of thousands of files, so no object is made per file.

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

module.exports = { eachEntry: eachEntry };
