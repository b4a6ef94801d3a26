// A folder of binary log files (as copied from the server, or written by mysqlbinlog --raw): which
// files, in which order (its index file's, else the numbers of their names), and what they hold
// (read by the Python companion, host.files.binlogRead). Read only.
var UserError = require('../core/user-error.js').UserError;
var eachEntry = require('../core/listing.js').eachEntry;

var NUMBERED = /^(.+)\.(\d{6,})$/;

function numberOf(name) {
  var m = NUMBERED.exec(name);
  return m ? Number(m[2]) : null;
}

// {dir, files: [name], order: 'index file <name>' | 'file names', skipped: [{file, reason}], missing: [name]}
function folderFiles(host, where) {
  var dir = host.files.normpath(host.files.isAbs(where) ? where : host.files.join(host.files.cwd(), where));
  if (!host.files.isDir(dir)) {
    // restore.binlogs' argument or restore.load's binlogs option: both are "binlogs".
    throw new UserError('ARGUMENT_MISSING', 'binlogs: ' + dir + (host.files.isFile(dir) ? ' is a file, not a folder' : ' does not exist') +
      (host.files.isAbs(where) ? '' : ' (' + JSON.stringify(where) + ' is taken relative to the current directory ' + host.files.cwd() + ')') +
      '. Give the folder holding the binary log files (as copied from the server\'s data directory, or written by mysqlbinlog --raw).',
    { path: dir });
  }
  var names = [];
  var sizes = {};
  var skipped = [];
  eachEntry(host.files.list(dir, {}), function (name, size, isDir, error, special) {
    if (isDir) return;
    if (error) skipped.push({ file: name, reason: special ? 'not a regular file (' + special + ')' : error });
    else { names.push(name); sizes[name] = size; }
  });
  var indexes = names.filter(function (n) { return /\.index$/.test(n); });
  var got = orderNames(names, sizes, indexes.length === 1 ? readIndex(host, host.files.join(dir, indexes[0])) : null);
  got.dir = dir;
  got.skipped = skipped.concat(got.skipped);
  return got;
}

// A binary log index file's text (one file a line).
function readIndex(host, path) { return host.files.loadText(path); }

// The binary logs among names (sizes: name -> bytes) in replay order: the index file's (its text, when
// the names hold exactly one), else the numbers of their names. Also what else is there and what the
// index lists between two files that are missing.
function orderNames(names, sizes, indexText) {
  var indexes = names.filter(function (n) { return /\.index$/.test(n); });
  var skipped = [];
  var chosen;
  var order;
  var missing = [];
  if (indexes.length === 1 && indexText !== null) {
    order = 'index file ' + indexes[0];
    var listed = [];
    indexText.split('\n').forEach(function (line) {
      var base = line.trim().replace(/^.*\//, '');
      if (base) listed.push(base);
    });
    chosen = listed.filter(function (n) { return sizes[n] !== undefined; });
    // A gap is a listed file missing between two that are here; before the first or after the last is
    // just not copied.
    var from = listed.indexOf(chosen[0]);
    var to = listed.indexOf(chosen[chosen.length - 1]);
    missing = listed.filter(function (n, i) { return i > from && i < to && sizes[n] === undefined; });
  } else {
    order = 'file names';
    chosen = names.filter(function (n) { return numberOf(n) !== null; }).sort(function (a, b) {
      return numberOf(a) - numberOf(b) || (a < b ? -1 : a > b ? 1 : 0);
    });
  }
  names.forEach(function (n) {
    if (chosen.indexOf(n) < 0 && indexes.indexOf(n) < 0) {
      skipped.push({ file: n, reason: order === 'file names' ? 'not named as a binary log (name.NNNNNN)' : 'not listed in ' + indexes[0] });
    }
  });
  if (indexes.length > 1) {
    skipped.push({ file: indexes.join(', '), reason: 'more than one index file: ordered by the file names instead' });
  }
  return { files: chosen, order: order, skipped: skipped, missing: missing, sizes: sizes };
}

// Numbers missing between two binary logs of one name (up to 20 named).
function numberGaps(names) {
  var missing = [];
  for (var k = 1; k < names.length; k++) {
    var stem = NUMBERED.exec(names[k])[1];
    if (NUMBERED.exec(names[k - 1])[1] !== stem) continue;
    for (var n = numberOf(names[k - 1]) + 1; n < numberOf(names[k]) && missing.length < 20; n++) {
      missing.push(stem + '.' + String(1000000 + n).slice(-6));
    }
  }
  return missing;
}

// The files read: the companion's answer, files that are not binary logs moved to skipped.
function readFolder(host, folder, spec) {
  var paths = folder.files.map(function (n) { return host.files.join(folder.dir, n); });
  var got = paths.length ? host.files.binlogRead(paths, spec)
    : { files: [], tables: {}, transactions: [], counted: 0, first: null, last: null };
  got.files = got.files.filter(function (f) {
    if (!f.error || f.error.code !== 'not-a-binlog') return true;
    folder.skipped.push({ file: host.files.basename(f.path), reason: f.error.reason });
    return false;
  });
  if (folder.order === 'file names') folder.missing = numberGaps(got.files.map(function (f) { return host.files.basename(f.path); }));
  return got;
}

module.exports = { numberGaps: numberGaps, folderFiles: folderFiles, orderNames: orderNames, readIndex: readIndex, numberOf: numberOf, readFolder: readFolder };
