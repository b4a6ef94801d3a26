// A dump named the way rsync names a remote place: "[user@]host:/path" (over ssh) or
// "rsync://host[:port]/module/path" (an rsync daemon). Anything else is a local directory. As in
// rsync, a colon before the first slash makes a name remote.
var UserError = require('../core/user-error.js').UserError;

// null for a local path; else {kind: 'ssh'|'daemon', url (no trailing slash), name (last part)}.
function parseSource(text) {
  if (typeof text !== 'string') return null;
  var t = text.trim();
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

module.exports = { parseSource: parseSource, childSource: childSource };
