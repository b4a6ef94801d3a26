// One restore at a time per server, whatever client or config home it runs from: a named user
// lock (GET_LOCK) taken on the load's session in preflight and held until the server is put back.
// The state file's owner check only sees restores of the same config home; the lock is on the
// server. The server releases it by itself when the session ends (a killed mysqlsh).
var UserError = require('../core/user-error.js').UserError;

function lockName(host) {
  return 'mysqlsh-restore.' + host.sql.serverInfo().uuid; // at most 64 characters: 16 + a 36-character uuid
}

// Another connection holding the lock, {connectionId, clientHost}, or null when none does. The
// client host is visible with the PROCESS privilege only (null otherwise).
function lockHolder(host) {
  var r = host.sql.run('SELECT IS_USED_LOCK(?) AS id, CONNECTION_ID() AS me', [lockName(host)]).rows[0];
  var id = r.id;
  if (id === null || id === undefined || Number(id) === Number(r.me)) return null;
  var rows = host.sql.run('SELECT HOST AS host FROM information_schema.PROCESSLIST WHERE ID = ?', [id]).rows;
  return { connectionId: Number(id), clientHost: rows.length ? String(rows[0].host) : null };
}

function describeHolder(h) {
  return 'connection ' + h.connectionId + (h.clientHost ? ' from ' + h.clientHost : '');
}

// Takes the lock at once or refuses, naming the connection that holds it. Returns a release function.
function takeRestoreLock(host, what) {
  var name = lockName(host);
  var got = host.sql.run('SELECT GET_LOCK(?, 0) AS got', [name]).rows[0].got;
  if (Number(got) !== 1) {
    var h = lockHolder(host);
    throw new UserError('RESTORE_RUNNING', 'Another restore is running on this server (' + (h ? describeHolder(h) : 'it holds the lock ' +
      name) + '): ' + what + ' did not start. Run it again once that one has finished (restore.status() on its client shows it); ' +
      'nothing was changed.');
  }
  var released = false;
  return function release() {
    if (released) return;
    released = true;
    try {
      host.sql.run('SELECT RELEASE_LOCK(?) AS r', [name]);
    } catch (e) {
      // The session is gone: so is its lock.
    }
  };
}

module.exports = { takeRestoreLock: takeRestoreLock, lockHolder: lockHolder, describeHolder: describeHolder };
