// Where util.loadDump's progress file goes for a load straight from a dump (a partial import keeps
// it in its load view). The Shell's default is inside the dump directory: the plugin writes nothing
// into a dump (a backup, perhaps read-only), so it goes to the plugin's state directory instead,
// under a name made of the server and the dump path, so that a rerun of the same load resumes.
var shortHash = require('../core/short-hash.js').shortHash;

function stateProgressDir(host) {
  var f = host.files;
  return f.join(f.join(host.shell.configHome, 'restore'), 'progress');
}

function serverPart(host) {
  return String(host.sql.serverInfo().uuid).replace(/[^A-Za-z0-9._-]/g, '_');
}

// {dir, file}: the same file for the same server and dump, in the state directory.
function progressPlace(host, dumpDir) {
  var dir = stateProgressDir(host);
  var name = host.files.basename(dumpDir).replace(/[^A-Za-z0-9._-]/g, '_');
  return { dir: dir, file: host.files.join(dir, 'load-progress.' + serverPart(host) + '.' + name + '-' + shortHash(dumpDir) + '.json') };
}

// A progress file no earlier load used, in the state directory. Returns {dir, file}.
function freshProgressPlace(host, dumpDir) {
  var stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  var place = progressPlace(host, dumpDir);
  return { dir: place.dir, file: place.file.replace(/\.json$/, '.' + stamp + '.json') };
}

module.exports = { progressPlace: progressPlace, freshProgressPlace: freshProgressPlace };
