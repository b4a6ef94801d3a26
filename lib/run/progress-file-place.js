// Where util.loadDump's progress file goes. Its default is inside the dump directory, so a
// read-only dump (a backup mounted read-only, a directory of another user) fails at its first
// write, after the server settings were changed. When the user running mysqlsh cannot write the
// dump directory, the progress file goes to the plugin's state directory instead, under a name
// made of the server and the dump path, so that a rerun of the same load resumes from it.
function stateProgressDir(host) {
  var f = host.files;
  return f.join(f.join(host.shell.configHome, 'restore'), 'progress');
}

function serverPart(host) {
  return String(host.sql.serverInfo().uuid).replace(/[^A-Za-z0-9._-]/g, '_');
}

// Short, stable text for a path (FNV-1a, 32 bits): file names stay short whatever the path.
function pathKey(path) {
  var h = 0x811c9dc5;
  for (var i = 0; i < path.length; i++) {
    h ^= path.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ('0000000' + h.toString(16)).slice(-8);
}

// null when util.loadDump's own default (in the dump directory) works; else {dir, file} in the
// state directory for a read-only dump directory.
function progressPlace(host, dumpDir) {
  if (host.files.canWrite(dumpDir)) return null;
  var dir = stateProgressDir(host);
  var name = host.files.basename(dumpDir).replace(/[^A-Za-z0-9._-]/g, '_');
  return { dir: dir, file: host.files.join(dir, 'load-progress.' + serverPart(host) + '.' + name + '-' + pathKey(dumpDir) + '.json') };
}

// A progress file no earlier load used, beside the dump, or in the state directory when the dump
// directory cannot be written. Returns {dir, file}; dir is set when it lies in the state directory.
function freshProgressPlace(host, dumpDir) {
  var stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
  var place = progressPlace(host, dumpDir);
  var name = 'load-progress.' + serverPart(host) + '.' + stamp + '.json';
  if (!place) return { dir: null, file: host.files.join(dumpDir, name) };
  return { dir: place.dir, file: host.files.join(place.dir, name) };
}

// Puts a place into the load's options; one in the state directory is also noted for the plan,
// and its directory made before util.loadDump runs (ctx.progressDir).
function useProgressPlace(ctx, place) {
  if (!place) return;
  ctx.loadOptions.progressFile = place.file;
  if (!place.dir) return;
  ctx.progressDir = place.dir;
  ctx.progressNote = 'The dump directory cannot be written by the user running mysqlsh: util.loadDump\'s progress ' +
    'file goes to ' + place.file + '.';
}

module.exports = { progressPlace: progressPlace, freshProgressPlace: freshProgressPlace, useProgressPlace: useProgressPlace };
