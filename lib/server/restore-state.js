// The state file: what the plugin changed on a server and how to put it back, written BEFORE
// each change, so restore.revert() can repair the server after a crash, a kill or a lost
// connection. One file per server: <config home>/restore/state/<server uuid>.json.
// JS in mysqlsh cannot write files: host.files goes through the Python companion.
//
// { "format": 1, "serverUuid", "server": "host:port", "createdAt", "updatedAt",
//   "redoLog": null | {"disabledBy": "restore.load"|"restore.disableRedoLog", "at"},
//   "settings": [{"name", "original", "value", "by"}],
//   "owner": {"connectionId", "clientHost", "serverStartedAt"} }   who is making the changes
// The owner tells a live load (its connection is still on the server) from one that died: a
// second load or a revert must never put back the settings of a load that is still running.
var UserError = require('../core/user-error.js').UserError;

var FORMAT = 1;

function statePath(host, serverUuid) {
  var f = host.files;
  var safe = String(serverUuid).replace(/[^A-Za-z0-9._-]/g, '_');
  return f.join(f.join(f.join(host.shell.configHome, 'restore'), 'state'), safe + '.json');
}

function now() { return new Date().toISOString(); }

function newState(host) {
  var info = host.sql.serverInfo();
  return { format: FORMAT, serverUuid: info.uuid, server: info.hostname + ':' + info.port, createdAt: now(),
    updatedAt: null, redoLog: null, settings: [], owner: currentOwner(host) };
}

// This session as the server sees it. The server's start time tells a reused connection id
// after a restart from the original one.
function currentOwner(host) {
  var r = host.sql.run('SELECT CONNECTION_ID() AS id, ' +
    "(SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Uptime') AS uptime, " +
    'UNIX_TIMESTAMP() AS now').rows[0];
  var client = host.sql.run('SELECT HOST AS host FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()').rows[0];
  return { connectionId: Number(r.id), clientHost: client ? String(client.host) : null,
    serverStartedAt: Number(r.now) - Number(r.uptime) };
}

// The state's owner when it is another session that is still connected (a load running now),
// else null. Connection ids of other users are visible with the PROCESS privilege only; without
// it a live owner of another account cannot be seen, and the state counts as left behind.
function liveOwner(host, state) {
  var o = state && state.owner;
  if (!o || typeof o.connectionId !== 'number') return null;
  var me = currentOwner(host);
  if (Math.abs(me.serverStartedAt - o.serverStartedAt) > 2) return null; // the server restarted since
  if (me.connectionId === o.connectionId) return null;
  var rows = host.sql.run('SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?', [o.connectionId]).rows;
  return rows.length ? o : null;
}

function describeOwner(o) {
  return 'connection ' + o.connectionId + (o.clientHost ? ' from ' + o.clientHost : '');
}

// The state left for the connected server, or null. A damaged file is an error: never guess
// what was changed.
function readState(host) {
  var path = statePath(host, host.sql.serverInfo().uuid);
  if (!stateFileThere(host, path)) return null;
  var state;
  try {
    state = JSON.parse(host.files.loadText(path));
  } catch (e) {
    throw new UserError('STATE_FILE_DAMAGED', 'The restore state file ' + path + ' is damaged (' + ((e && e.message) || e) + '). It records ' +
      'server settings a restore changed; compare it with the server by hand, put the settings back, then delete it.');
  }
  if (!state || state.format !== FORMAT || !Array.isArray(state.settings)) {
    throw new UserError('STATE_FILE_DAMAGED', 'The restore state file ' + path + ' is not in a format this plugin knows; compare it with ' +
      'the server by hand, put the settings back, then delete it.');
  }
  return state;
}

// Whether the state file is there; anything but a regular file the user can read at its path (a
// directory, a dangling link, an unreadable file) is an error naming it: never "no state".
function stateFileThere(host, path) {
  var st = host.files.stat([path]);
  var why = st.dirs.length ? 'it is a directory' : st.errors.length ? String(st.errors[0][1]) : null;
  if (why === null) return st.sizes[0] !== null;
  if (why === 'Not a directory') {
    throw new UserError('STATE_FILE_UNWRITABLE', 'The restore state folder ' + host.files.dirname(path) + ' cannot be written: a file stands ' +
      'where it or a folder above it should be. The plugin records there what it changes on the server before ' +
      'changing it. Move that file aside, then run again. Nothing was changed.');
  }
  throw new UserError('STATE_FILE_UNREADABLE', 'The restore state file ' + path + ' cannot be read: ' + why + '. It is where the plugin ' +
    'records what it changes on this server (to put it back). Move whatever is there aside (if it is a restore state ' +
    'file, compare it with the server and put the settings back by hand), then run again. Nothing was changed.');
}

// Before a change is made: the state file can be written where it goes (its folder, or the
// nearest folder that exists on the way to it). Throws naming the folder.
function checkStateWritable(host, serverUuid) {
  var f = host.files;
  var path = statePath(host, serverUuid);
  stateFileThere(host, path);
  var dir = f.dirname(path);
  while (!f.isDir(dir) && f.dirname(dir) !== dir) {
    if (f.isFile(dir) || f.stat([dir]).errors.length) break;
    dir = f.dirname(dir);
  }
  if (f.isDir(dir) && f.canWrite(dir)) return;
  throw new UserError('STATE_FILE_UNWRITABLE', 'The restore state folder ' + f.dirname(path) + ' cannot be written (' + (f.isDir(dir) ? dir +
    ' is not writable by the user running mysqlsh' : dir + ' is in the way: not a folder') + '). The plugin records ' +
    'there what it changes on the server before changing it. Fix that, or load without server changes ' +
    '(preset: "safe"). Nothing was changed.');
}

function isEmpty(state) {
  return !state.redoLog && state.settings.length === 0;
}

// Writes the state (or removes the file when nothing is left to put back). Throws if it cannot:
// callers write it before they change anything, so a failure here changes nothing.
function saveState(host, state) {
  var path = statePath(host, state.serverUuid);
  if (isEmpty(state)) {
    host.files.remove([path]);
    return null;
  }
  state.updatedAt = now();
  var text = JSON.stringify(state, null, 2) + '\n';
  host.files.makeDirs(host.files.dirname(path));
  try {
    // Replaced whole (a new file renamed over the old one), then read back: the state is the only
    // record of what to put back, so a save that did not land stops the caller before its change.
    host.files.writeFiles([{ path: path, data: text }], { overwrite: true });
    if (host.files.loadText(path) !== text) throw new Error('what was read back differs from what was written');
  } catch (e) {
    throw new UserError('STATE_FILE_UNWRITABLE', 'Cannot save the restore state file ' + path + ' (' + ((e && e.message) || e) + '): nothing ' +
      'more is changed on the server. Free space there (or fix its permissions), then run restore.revert() to put back ' +
      'what was changed.');
  }
  return path;
}

// One line per thing left to put back.
function describeState(state) {
  var lines = [];
  if (state.redoLog) lines.push('InnoDB redo log disabled by ' + state.redoLog.disabledBy + ' at ' + state.redoLog.at);
  state.settings.forEach(function (s) {
    lines.push(s.name + ' set to ' + s.value + ' by ' + s.by + ' (original value ' + s.original + ')');
  });
  return lines;
}

module.exports = { statePath: statePath, checkStateWritable: checkStateWritable, newState: newState, readState: readState, saveState: saveState,
  isEmpty: isEmpty, describeState: describeState, liveOwner: liveOwner, describeOwner: describeOwner };
