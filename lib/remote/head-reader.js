// Where since's chunk heads (lib/dump/chunk-heads.js) are read from: {read(names, n) → [bytes |
// null], kind, files (files touched), transferred (whole files fetched)}.
//   local   the dump directory (or a remote dump's cache): the first n bytes of each file
//   ssh     a backup host over ssh: `head -c n` run there through the same remote shell rsync uses
//           (the rsh option, else $RSYNC_RSH, else ssh): only the head crosses the network
//   daemon  an rsync daemon serves whole files only: each probed chunk is fetched whole into the
//           cache (the next run keeps it), then read there
//   s3      a bucket: a ranged GET of each object's first n bytes (host.files.bucketHeads); only the
//           head crosses the network, nothing is written to the cache
var UserError = require('../core/user-error.js').UserError;
var dumpCache = require('./dump-cache.js');
var bucket = require('./bucket.js');

function localReader(host, dir) {
  var r = { kind: 'local', files: 0, transferred: 0 };
  r.read = function (names, n) {
    r.files += names.length;
    return host.files.readHeads(names.map(function (name) { return host.files.join(dir, name); }), n);
  };
  return r;
}

// "ssh -p 2222 -i key" → argv (words split at blanks, as rsync splits -e, with simple quotes).
function rshArgv(text) {
  var out = [];
  var re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  var m;
  while ((m = re.exec(text)) !== null) out.push(m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : m[3]);
  return out;
}

// cache: the local cache directory; remote: {source: {kind, url}, listing: what the host holds
// (lib/remote/dump-cache.js remoteListing)}; rsh: the option or undefined.
function headReader(host, cache, remote, rsh) {
  if (!remote) return localReader(host, cache);
  var source = remote.source;
  var r = { kind: source.kind, files: 0, transferred: 0 };
  if (source.kind === 'ssh') {
    var colon = source.url.indexOf(':');
    var target = source.url.slice(0, colon);
    var dir = source.url.slice(colon + 1);
    var argv = rshArgv(rsh || host.shell.getenv('RSYNC_RSH') || 'ssh');
    // A file the host does not hold reads as null there (`head` runs only on a file): no listing asked.
    r.read = function (names, n) {
      r.files += names.length;
      return host.files.remoteHeads(argv, target, names.map(function (name) { return dir + '/' + name; }), n);
    };
    return r;
  }
  if (source.kind === 's3') {
    var keyPrefix = bucket.keyPrefix(source);
    r.read = function (names, n) {
      r.files += names.length;
      var sizes = remote.listing.sizesOf(names);
      return host.files.bucketHeads(source.s3, names.map(function (name) {
        return sizes.has(name) ? keyPrefix + name : null;
      }), n);
    };
    return r;
  }
  if (source.kind !== 'daemon') {
    throw new UserError('REMOTE_UNSUPPORTED', 'since cannot read chunk heads from a ' + source.kind + ' source yet: load the table whole, or ' +
      'use latest for it.');
  }
  var local = localReader(host, cache);
  r.read = function (names, n) {
    r.files += names.length;
    var sizes = remote.listing.sizesOf(names);
    var wanted = names.filter(function (name) { return sizes.has(name); });
    if (wanted.length) r.transferred += dumpCache.fetchFiles(host, source, cache, wanted, sizes, rsh).fetched;
    return local.read(names, n);
  };
  return r;
}

module.exports = { headReader: headReader, rshArgv: rshArgv };
