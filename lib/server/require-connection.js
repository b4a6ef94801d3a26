// Members that work on a server say so plainly when there is no session to one.
var UserError = require('../core/user-error.js').UserError;
var secrets = require('../options/secrets.js');

// An argument of the suggested command line as a POSIX shell reads it: quoted unless plain; an
// address's password or token hidden (the message is printed and logged).
function cliArg(text) {
  var t = secrets.address(String(text));
  return /^[A-Za-z0-9_.,\/:@=+-]+$/.test(t) ? t : "'" + t.replace(/'/g, "'\\''") + "'";
}

// member: e.g. "restore.load()"; cliArgs: the member's command line as the user gave it, e.g.
// ["load", "./dump"] (what the suggested `mysqlsh root@host -- restore …` repeats).
function requireConnection(host, member, cliArgs) {
  if (host.sql.connected()) return;
  throw new UserError('NOT_CONNECTED', member + ' needs a connection to the server: connect first (\\connect root@host), ' +
    'or run mysqlsh root@host -- restore ' + cliArgs.map(cliArg).join(' '));
}

module.exports = { requireConnection: requireConnection };
