// A dump named the way rsync names a remote place: "[user@]host:/path" (over ssh) or
// "rsync://host[:port]/module/path" (an rsync daemon). Anything else is a local directory. As in
// rsync, a colon before the first slash makes a name remote.
var UserError = require('../core/user-error.js').UserError;
var secrets = require('../options/secrets.js');

// An address holding a secret never reaches rsync's or ssh's command line (any local user reads
// those in /proc), a cache directory's name or a message: refused here, shown without it.
function checkAddress(t) {
  if (typeof t !== 'string') return;
  t = t.trim();
  var shown = JSON.stringify(secrets.address(t));
  if (/^https?:\/\//i.test(t)) {
    throw new UserError('REMOTE_ADDRESS_INVALID', shown + ' is a URL: the plugin reads from a directory, a backup host ' +
      '([user@]host:/path, rsync://host/module/path) or a bucket (s3BucketName and the prefix)' +
      (secrets.hasSecret(t) ? '; the token of a pre-authenticated request is a credential, not shown.' : '.'));
  }
  if (!secrets.hasSecret(t)) return;
  throw new UserError('REMOTE_ADDRESS_INVALID', shown + ' holds a password (not shown): ' + (/^rsync:\/\//i.test(t)
    ? 'rsync reads an rsync daemon\'s password from RSYNC_PASSWORD in mysqlsh\'s environment, never from the address; set it there and ' +
      'give rsync://user@host/module/path.'
    : 'ssh takes none in the address; log in with a key (ssh-agent, ~/.ssh/config, or rsh: "ssh -i <key>") and give user@host:/path.'));
}

// null for a local path; else {kind: 'ssh'|'daemon', url (no trailing slash), name (last part)}.
function parseSource(text) {
  if (typeof text !== 'string') return null;
  var t = text.trim();
  checkAddress(t);
  var m = /^rsync:\/\/([^/]+)(\/.*)?$/.exec(t);
  if (m) {
    var path = (m[2] || '').replace(/\/+$/, '');
    if (path.split('/').filter(Boolean).length < 1) {
      throw new UserError('REMOTE_ADDRESS_INVALID', JSON.stringify(text) + ' names no module of the rsync daemon: write rsync://host/module/path.');
    }
    return { kind: 'daemon', url: 'rsync://' + m[1] + path, name: lastPart(path) };
  }
  var colon = t.indexOf(':');
  var slash = t.indexOf('/');
  if (colon <= 0 || (slash >= 0 && slash < colon)) return null;
  var host = t.slice(0, colon);
  var rest = t.slice(colon + 1).replace(/\/+$/, '');
  if (/\s/.test(host) || host.indexOf('@') === host.length - 1) {
    throw new UserError('REMOTE_ADDRESS_INVALID', JSON.stringify(text) + ' is not a remote dump: write [user@]host:/path/to/dump.');
  }
  if (rest === '') {
    throw new UserError('REMOTE_ADDRESS_INVALID', JSON.stringify(text) + ' names no directory on ' + host + ': write ' + host + ':/path/to/dump.');
  }
  return { kind: 'ssh', url: host + ':' + rest, name: lastPart(rest) };
}

function lastPart(path) {
  var parts = path.split('/').filter(Boolean);
  return parts.length ? parts[parts.length - 1] : path;
}

// The source one level down (a dump inside a folder of dumps).
function childSource(source, name) {
  return { kind: source.kind, url: source.url + '/' + name, name: name };
}

module.exports = { checkAddress: checkAddress, parseSource: parseSource, childSource: childSource };
