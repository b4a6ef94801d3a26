// Reading host.files.list's answer (columns: names, sizes, dirs, errors): a directory of a big
// dump holds hundreds of thousands of files, so no object is made per file.

// Calls fn(name, size, isDir, error) for every entry.
function eachEntry(listing, fn) {
  var dirs = new Set(listing.dirs);
  var errors = new Map(listing.errors.map(function (e) { return [e[0], e[1]]; }));
  for (var i = 0; i < listing.names.length; i++) {
    fn(listing.names[i], listing.sizes[i], dirs.has(i), errors.has(i) ? errors.get(i) : null);
  }
}

module.exports = { eachEntry: eachEntry };
