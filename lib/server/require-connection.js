// Members that work on a server say so plainly when there is no session to one.
var UserError = require('../core/user-error.js').UserError;

// member: e.g. "restore.load()"; cliName: e.g. "load ./dump".
function requireConnection(host, member, cliName) {
  if (host.sql.connected()) return;
  throw new UserError('NOT_CONNECTED', member + ' needs a connection to the target server: connect first (\\connect root@host), ' +
    'or run mysqlsh root@host -- restore ' + cliName);
}

module.exports = { requireConnection: requireConnection };
