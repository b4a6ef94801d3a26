// The definers option: who the loaded views, triggers, routines and events belong to.
//   keep     the dump's DEFINER clauses as they are (the default)
//   strip    DEFINER clauses removed: the objects get the loading account (as the Shell's
//            strip_definers compatibility option does when dumping)
//   current  DEFINER=CURRENT_USER: the loading account, written out
//   user@host that account ('user'@'host' and `user`@`host` too; host % when left out)
// SQL SECURITY clauses are never changed.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;

var MODES = ['keep', 'strip', 'current'];
var PART = '(?:\'((?:[^\']|\'\')*)\'|`((?:[^`]|``)*)`|"((?:[^"]|"")*)"|([^@\'`"\\s]+))';
var ACCOUNT = new RegExp('^' + PART + '(?:@' + PART + ')?$');

function part(m, at) {
  if (m[at] !== undefined) return m[at].replace(/''/g, '\'');
  if (m[at + 1] !== undefined) return m[at + 1].replace(/``/g, '`');
  if (m[at + 2] !== undefined) return m[at + 2].replace(/""/g, '"');
  return m[at + 3];
}

function accountSql(user, host) { return quoteIdentifier(user) + '@' + quoteIdentifier(host); }

// The option as given → {mode: keep|strip|current|account, user, host, sql}.
function parseDefiners(value) {
  if (value === undefined || value === null) return { mode: 'keep' };
  if (typeof value !== 'string' || value.trim() === '') {
    throw new UserError('OPTION_INVALID', 'definers must be "keep", "strip", "current" or an account "user@host", not ' + JSON.stringify(value) + '.');
  }
  var v = value.trim();
  if (MODES.indexOf(v.toLowerCase()) >= 0) return { mode: v.toLowerCase() };
  var m = ACCOUNT.exec(v);
  if (!m || part(m, 1) === '') {
    throw new UserError('OPTION_INVALID', 'definers: ' + JSON.stringify(value) + ' is neither "keep", "strip" nor "current", nor an account ' +
      'user@host (e.g. "app@%", "\'app\'@\'10.0.0.%\'").');
  }
  var user = part(m, 1);
  var host = m[5] !== undefined || m[6] !== undefined || m[7] !== undefined || m[8] !== undefined ? part(m, 5) : '%';
  return { mode: 'account', user: user, host: host, sql: accountSql(user, host) };
}

module.exports = { parseDefiners: parseDefiners, accountSql: accountSql };
