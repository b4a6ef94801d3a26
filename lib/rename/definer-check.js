// Before anything changes: can the loading account create the dump's views, triggers, routines and
// events with the DEFINER accounts they will have? MySQL lets an account name only itself unless
// it holds SET_ANY_DEFINER (8.2+; SET_USER_ID before, SUPER in all); an account missing on the
// server (an orphan object) also needs ALLOW_NONEXISTENT_DEFINER from 8.2 (measured on 9.7: "you
// need (at least one of) the SUPER or ALLOW_NONEXISTENT_DEFINER privilege(s)"). Without them
// util.loadDump would fail halfway, with tables loaded and objects missing.
var UserError = require('../core/user-error.js').UserError;
var privileges = require('../server/privileges.js');
var atLeast = require('../options/shell-version.js').atLeast;
var accountSql = require('../options/definers.js').accountSql;

var MAX_OBJECTS = 3;

function key(user, host) { return user + '\u0000' + host.toLowerCase(); }

// The account running the load: {user, host}.
function loadingAccount(host) {
  var u = String(host.sql.run('SELECT CURRENT_USER() AS u').rows[0].u);
  var at = u.lastIndexOf('@');
  return at < 0 ? { user: u, host: '%' } : { user: u.slice(0, at), host: u.slice(at + 1) };
}

// Accounts on the server (key -> true), or null when mysql.user cannot be read.
function serverAccounts(host) {
  try {
    var out = {};
    host.sql.run('SELECT User AS u, Host AS h FROM mysql.user').rows.forEach(function (r) { out[key(String(r.u), String(r.h))] = true; });
    return out;
  } catch (e) {
    return null;
  }
}

// found: [{user, host, current, object}] the DEFINER clauses of what the load creates, as they will
// be loaded; option: the definers setting ({mode, user, host}). Returns {lines, warnings, accounts:
// [{account, objects, missing}]}; throws a UserError naming the definers option when the load would
// fail (or, under force, warns).
function checkDefiners(host, found, option, force) {
  var out = { lines: [], warnings: [], accounts: [] };
  var me = loadingAccount(host);
  var byAccount = new Map();
  found.forEach(function (d) {
    if (d.current) return;
    var k = key(d.user, d.host);
    if (k === key(me.user, me.host)) return;
    if (!byAccount.has(k)) byAccount.set(k, { user: d.user, host: d.host, objects: [] });
    if (d.object && byAccount.get(k).objects.indexOf(d.object) < 0) byAccount.get(k).objects.push(d.object);
  });
  if (option.mode === 'account' && key(option.user, option.host) !== key(me.user, me.host) && !byAccount.size) {
    byAccount.set(key(option.user, option.host), { user: option.user, host: option.host, objects: [] });
  }
  if (!byAccount.size) return out;
  var existing = serverAccounts(host);
  var accounts = Array.from(byAccount.values());
  accounts.forEach(function (a) { a.missing = existing ? !existing[key(a.user, a.host)] : null; });
  out.accounts = accounts.map(function (a) {
    return { account: accountSql(a.user, a.host), objects: a.objects.length, missing: a.missing };
  });
  var missing = accounts.filter(function (a) { return a.missing === true; });
  if (option.mode === 'account' && missing.length) {
    throw new UserError('DEFINER_MISSING', 'definers: ' + accountSql(option.user, option.host) + ' does not exist on this server. Create it ' +
      'first, or name an existing account (definers: "current" gives the objects the loading account). Nothing was changed.');
  }
  var list;
  try {
    list = privileges.grants(host);
  } catch (e) {
    list = null;
  }
  var modern = atLeast(host.sql.serverInfo().version, '8.2.0');
  var anyDefiner = modern ? ['SET_ANY_DEFINER', 'SET_USER_ID', 'SUPER'] : ['SET_USER_ID', 'SUPER'];
  var orphans = modern ? ['ALLOW_NONEXISTENT_DEFINER', 'SET_USER_ID', 'SUPER'] : anyDefiner;
  var lacks = [];
  if (list && !privileges.holds(list, anyDefiner, '*')) lacks.push(anyDefiner[0]);
  if (list && missing.length && !privileges.holds(list, orphans, '*')) lacks.push(orphans[0]);
  function described(a) {
    return accountSql(a.user, a.host) + (a.objects.length ? ' (' + a.objects.slice(0, MAX_OBJECTS).join(', ') +
      (a.objects.length > MAX_OBJECTS ? ', … ' + a.objects.length + ' objects' : '') + ')' : '');
  }
  if (lacks.length) {
    var roles = list.some(function (g) { return g.isRole; });
    var text = 'The objects this load creates have DEFINER accounts other than the loading account ' +
      accountSql(me.user, me.host) + ': ' + accounts.map(function (a) {
        return described(a) + (a.missing === true ? ', missing on this server' : '');
      }).join('; ') + '. Creating them needs ' + lacks.join(' and ') + ', which this account lacks (SHOW GRANTS' +
      (roles ? '; privileges held only through roles are not counted' : '') + '): util.loadDump would fail halfway. ' +
      'Load with definers: "strip" (the objects get the loading account, as the Shell\'s strip_definers does) or "current", ' +
      'or definers: "user@host" naming an existing account; or create the missing accounts first, or GRANT ' +
      lacks.join(', ') + ' ON *.* TO ' + accountSql(me.user, me.host) + '. Nothing was changed.';
    if (!force) throw new UserError('PRIVILEGE_MISSING', text);
    out.warnings.push('force: going ahead although ' + text);
    return out;
  }
  if (missing.length) {
    out.warnings.push('DEFINER account(s) missing on this server: ' + missing.map(described).join('; ') + '. The objects ' +
      'are created (this account may) but fail when used until the accounts exist; definers: "strip", "current" or ' +
      '"user@host" gives them another owner.');
  } else if (existing === null && option.mode === 'keep') {
    out.lines.push('DEFINER accounts of the dump (whether they exist here could not be read from mysql.user): ' +
      accounts.map(described).join('; '));
  }
  return out;
}

module.exports = { checkDefiners: checkDefiners, loadingAccount: loadingAccount };
