// Where the binary logs of restore.load's binlogs and of restore.binlogs come from: a local folder (read
// in place), or a copy in the plugin's own cache of only the files needed, from a backup host
// ("[user@]host:/path" over ssh, "rsync://host/module/path"), a bucket ("s3://bucket/prefix", or for
// restore.binlogs a prefix with s3BucketName) or a live server over the replication protocol
// ("user[:password]@host:port", "mysql://…": mysqlbinlog --read-from-remote-server --raw). Nothing is
// written at the source. Needed: from the file holding the dump's end (its binlogFile) up to the first
// file whose first transaction is at or past the target (until), or whose previous GTIDs hold the
// stop GTID; every file after the start without a target.
var UserError = require('../core/user-error.js').UserError;
var parseSource = require('../remote/remote-source.js').parseSource;
var rsync = require('../remote/rsync.js');
var bucket = require('../remote/bucket.js');
var dumpCache = require('../remote/dump-cache.js');
var startProgress = require('../format/progress.js').startProgress;
var formatBytes = require('../format/text-table.js').formatBytes;
var folderOf = require('./binlog-folder.js');
var headReader = require('../remote/head-reader.js').headReader;
var gtids = require('./gtid-set.js');
var secrets = require('../options/secrets.js');

// "user[:password]@host:port" or "mysql://user[:password]@host[:port]": a live server. A colon followed
// only by digits names a port, never a folder on a backup host (write host:./3306 for that).
// The password runs to the last @ (it may hold @ and /).
var SERVER = /^(mysql:\/\/)?(?:([^:@/]*)(?::(.*))?@)?(\[[^\]]+\]|[^:@/\s]+)(?::(\d+))?\/?$/;

function decoded(text) {
  try {
    return decodeURIComponent(text);
  } catch (e) {
    return text;
  }
}

// → {kind: 'local'} | {kind: 'ssh'|'daemon', url, name} | {kind: 's3', url, name, bucket, prefix, s3} |
// {kind: 'server', url (no password), name, user, password (null: none given), host, port}.
function parseWhere(where, o, preview) {
  var t = String(where).trim();
  var m = SERVER.exec(t);
  if (m && (m[1] || m[5] !== undefined)) {
    var port = m[5] !== undefined ? Number(m[5]) : 3306;
    var hostName = m[4].replace(/^\[|\]$/g, '');
    var user = m[2] ? decoded(m[2]) : 'root';
    return { kind: 'server', user: user, password: m[3] !== undefined ? decoded(m[3]) : null, host: hostName, port: port,
      url: user + '@' + m[4] + ':' + port, name: m[4] + '-' + port };
  }
  if (/^s3:\/\//i.test(t)) {
    var parts = t.replace(/^s3:\/\//i, '').split('/');
    if (!parts[0]) throw new UserError('REMOTE_ADDRESS_INVALID', JSON.stringify(where) + ' names no bucket: write s3://bucket/prefix.');
    var s3 = bucket.bucketOptions(Object.assign({}, o, { s3BucketName: parts[0] }));
    return bucket.bucketSource(parts.slice(1).join('/'), s3);
  }
  if (preview && o.s3BucketName !== undefined && o.s3BucketName !== null) return bucket.bucketSource(t, bucket.bucketOptions(o));
  if (secrets.hasSecret(t) && !/^https?:\/\//i.test(t)) {
    throw new UserError('REMOTE_ADDRESS_INVALID', 'binlogs: ' + JSON.stringify(secrets.address(t)) + ' holds a password (not shown) and is ' +
      'no live server\'s address: write user:password@host:port (with the port) or mysql://user:password@host. A backup host ' +
      '(ssh, rsync) takes no password in the address.');
  }
  return parseSource(t) || { kind: 'local' };
}

// The source's files: {names, sizes: {name: bytes}, indexText (its one .index file, fetched), last}.
function listSource(host, source, dir, o) {
  var names = [];
  var sizes = {};
  var indexText = null;
  if (source.kind === 's3') {
    var l = host.files.bucketList(source.s3, bucket.keyPrefix(source), '/');
    l.names.forEach(function (n, i) { if (n !== '') { names.push(n); sizes[n] = l.sizes[i]; } });
  } else {
    rsync.listRemote(host, source, o.rsh).forEach(function (e) {
      if (!e.isDir) { names.push(e.name); sizes[e.name] = e.size; }
    });
  }
  var indexes = names.filter(function (n) { return /\.index$/.test(n); });
  if (indexes.length === 1) {
    fetchNames(host, source, dir, indexes, sizes, o, 'Fetching the index file');
    indexText = folderOf.readIndex(host, host.files.join(dir, indexes[0]));
  }
  return { names: names, sizes: sizes, indexText: indexText };
}

function serverError(source, e, what) {
  var code = e && e.code;
  var text = String(e && e.message || e);
  if (code === 1045 || code === 1044 || code === 1227 || /Access denied/i.test(text)) {
    return new UserError('BINLOG_SOURCE_AUTH', 'binlogs: ' + source.url + ' refused ' + what + ' (' + text + '). Give the account\'s ' +
      'password (in the URI, user:password@host:port, or typed when mysqlsh asks interactively); the account needs REPLICATION SLAVE ' +
      'and REPLICATION CLIENT on the source.', { source: source.url });
  }
  if (code === 2003 || code === 2005 || code === 2002 || /Can't connect|Unknown MySQL server host|Lost connection/i.test(text)) {
    return new UserError('BINLOG_SOURCE_UNREACHABLE', 'binlogs: cannot reach ' + source.url + ' (' + text + '). Check the host and ' +
      'port, and that the server runs and accepts connections from here.', { source: source.url });
  }
  if (code === 1381 || /not using binary logging/i.test(text)) {
    return new UserError('BINLOG_SOURCE_EMPTY', 'binlogs: ' + source.url + ' has no binary log (log_bin is OFF): there is nothing to ' +
      'replay from it. Give the folder where its binary logs were kept instead.', { source: source.url });
  }
  return new UserError('BINLOG_SOURCE_UNREACHABLE', 'binlogs: ' + what + ' on ' + source.url + ' failed: ' + text + '.', { source: source.url });
}

function serverPassword(host, source) {
  if (source.password !== null) return source.password;
  if (host.shell.interactive && host.shell.promptPassword) {
    return host.shell.promptPassword('Password for ' + source.url + ' (to read its binary logs): ');
  }
  throw new UserError('BINLOG_SOURCE_AUTH', 'binlogs: no password for ' + source.url + ': mysqlbinlog needs it and the Shell\'s ' +
    'credential store is not readable by a plugin. Run mysqlsh interactively (it asks), or give it in the URI (user:password@host:port).',
  { source: source.url });
}

// SHOW BINARY LOGS on the source, through a session of its own (also proves the account before mysqlbinlog runs).
function listServer(host, source) {
  var session;
  try {
    session = host.sql.openUri('mysql://' + encodeURIComponent(source.user) + '@' + (source.host.indexOf(':') >= 0 ? '[' + source.host + ']'
      : source.host) + ':' + source.port, source.secret);
  } catch (e) {
    throw serverError(source, e, 'the connection');
  }
  try {
    var rows;
    var uuid;
    try {
      uuid = String(session.run('SELECT @@server_uuid AS u').rows[0].u);
      rows = session.run('SHOW BINARY LOGS').rows;
    } catch (e) {
      throw serverError(source, e, 'SHOW BINARY LOGS');
    }
    var names = [];
    var sizes = {};
    rows.forEach(function (r) {
      var n = String(r.Log_name);
      names.push(n);
      sizes[n] = Number(r.File_size);
    });
    // One file a line, in the server's order: the server's own index.
    return { names: names.concat(['server.index']), sizes: sizes, indexText: names.join('\n'), last: names[names.length - 1], uuid: uuid };
  } finally {
    session.close();
  }
}

function fetchNames(host, source, dir, names, sizes, o, label) {
  var map = new Map();
  names.forEach(function (n) { map.set(n, sizes[n]); });
  return dumpCache.fetchFiles(host, source, dir, names, map, o.rsh, { label: label }).fetched;
}

// One file read whole from the live server into the cache; a closed file (not the last) already there
// at its size is kept. Returns 1 when it was read.
function fetchFromServer(host, source, dir, name, listing) {
  var f = host.files;
  var path = f.join(dir, name);
  if (name !== listing.last && f.stat([path]).sizes[0] === listing.sizes[name]) return 0;
  var got = f.binlogServerFetch({ host: source.host, port: source.port, user: source.user, names: [name], dir: dir }, source.secret);
  var r = got.files[0];
  if (r.status !== 0) {
    if (/Could not find first log file name/i.test(r.stderr)) {
      throw new UserError('BINLOG_GAP', 'binlogs: ' + source.url + ' no longer has ' + name + ' (purged while it was read). Use a newer ' +
        'dump, or the folder where that file was kept.', { source: source.url });
    }
    throw serverError(source, { message: 'mysqlbinlog: ' + r.stderr.replace(/^ERROR: /, '') }, 'reading ' + name);
  }
  return 1;
}

function programCheck(host, source) {
  try {
    return host.files.binlogServerFetch({ host: source.host, port: source.port, user: source.user, names: [], dir: '' }, '').program;
  } catch (e) {
    if (e && e.code === 'program-missing') throw new UserError('BINLOG_PROGRAM_MISSING', 'binlogs: ' + e.message, { source: source.url });
    throw e;
  }
}

// A replay's folder: the files before the one the dump ends in hold only what the dump holds, and are not
// read (weeks of binary logs before a dump cost nothing). With GTIDs, from the dump's binlogFile back to a
// file whose previous GTIDs are all in the dump (the files before it hold only those); without, from the
// dump's binlogFile itself when it is there. One read of a file's first transaction per file looked at.
function localStart(host, local, need) {
  if (!need.startFile || !local.files.length) return;
  var start = startAt(local.files, need.startFile);
  if (need.dumpGtids) {
    var dumpSet = gtids.parseSet(need.dumpGtids, 'The dump\'s gtidExecuted (@.json)');
    for (; start > 0; start--) {
      var prev = host.files.binlogHead(host.files.join(local.dir, local.files[start])).previousGtids;
      if (prev !== null && !gtids.setText(gtids.minus(gtids.parseSet(prev), dumpSet))) break;
    }
  } else if (local.files[start] !== need.startFile) start = 0;
  if (start <= 0) return;
  var first = folderOf.numberOf(local.files[start]);
  local.line = 'the ' + start + ' file(s) before ' + local.files[start] + ' (' + local.files[0] + (start > 1 ? ' … ' +
    local.files[start - 1] : '') + ') hold only transactions the dump holds' + (need.dumpGtids ? ' (' + local.files[start] +
    '\'s previous GTIDs are all in its gtidExecuted)' : ' (before its binlogFile)') + ': not read';
  local.files = local.files.slice(start);
  local.missing = local.missing.filter(function (n) { var k = folderOf.numberOf(n); return k === null || first === null || k > first; });
}

// The position of the first file to fetch: the dump's binlogFile, else the first numbered after it
// (it was purged: the gap is found from the next one's previous GTIDs), else the first.
function startAt(files, startFile) {
  if (!startFile) return 0;
  var k = files.indexOf(startFile);
  if (k >= 0) return k;
  var n = folderOf.numberOf(startFile);
  for (var i = 0; i < files.length; i++) if (n !== null && folderOf.numberOf(files[i]) > n) return i;
  return 0;
}

// Whether a fetched file (its head) is past the target: its first transaction at or after until, or
// its previous GTIDs hold the stop GTID. It is the last one needed.
function pastTarget(h, need) {
  if (need.until !== null && need.until !== undefined && h.firstCommit !== null && h.firstCommit >= need.until) return true;
  return !!(need.stopGtid && h.previousGtids && gtids.hasGtid(gtids.parseSet(h.previousGtids), need.stopGtid));
}

// since (the preview): the files before the last one whose first transaction committed before since hold
// nothing at or after it (a file's commits precede its next file's first), so they are not fetched (nor
// read, in a local folder). That file is found by halving over the files' first transactions: read in
// place in a folder; over ssh and from a bucket from a file's first bytes only (head -c, a ranged GET;
// more while the first transaction is not in them) put in one scratch file of the cache. An rsync daemon
// and a live server give whole files only: read from the last file back to it, so every file read is
// one the preview needs (or past until). Returns {from, heads (reads), headBytes (remote bytes read)}.
var HEAD_BYTES = 65536;

function sinceStart(host, source, dir, files, start, since, o, wholeHead, listing) {
  var before = function (h) { return h.firstCommit !== null && h.firstCommit !== undefined && h.firstCommit < since; };
  var out = { from: start, heads: 0, headBytes: 0 };
  if (source.kind === 'daemon' || source.kind === 'server') {
    for (var k = files.length - 1; k > start; k--) {
      if (before(wholeHead(files[k]))) { out.from = k; break; }
    }
    return out;
  }
  var head = source.kind === 'local' ? function (name) {
    out.heads++;
    return host.files.binlogHead(host.files.join(dir, name));
  } : remoteHead(host, source, dir, listing, o, out);
  var lo = start + 1;
  var hi = files.length - 1;
  while (lo <= hi) {
    var mid = (lo + hi) >> 1;
    if (before(head(files[mid]))) { out.from = mid; lo = mid + 1; } else hi = mid - 1;
  }
  if (out.headBytes) host.files.remove([host.files.join(dir, '.head')]);
  return out;
}

// A file's head over ssh or from a bucket (lib/remote/head-reader.js), read from its first bytes written
// to a scratch file of the cache; counted in out.
function remoteHead(host, source, dir, listing, o, out) {
  var sizesOf = function (names) {
    var m = new Map();
    names.forEach(function (n) { if (listing.sizes[n] !== undefined) m.set(n, listing.sizes[n]); });
    return m;
  };
  var reader = headReader(host, dir, { source: source, listing: { sizesOf: sizesOf } }, o.rsh);
  var scratch = host.files.join(dir, '.head');
  var firstBytes = function (name, n) {
    var got = reader.read([name], n)[0];
    if (got === null) {
      throw new UserError('BINLOG_SOURCE_EMPTY', 'binlogs: ' + name + ' was listed at ' + source.url + ' and is gone (purged while read?). ' +
        'Run the preview again.', { source: source.url });
    }
    return got;
  };
  return function (name) {
    for (var n = HEAD_BYTES; ; n *= 16) {
      var bytes = firstBytes(name, n);
      out.heads++;
      out.headBytes += bytes.byteLength;
      host.files.writeFiles([{ path: scratch, data: bytes }], { overwrite: true });
      var h = host.files.binlogHead(scratch);
      // Its first transaction's commit read, or the whole file read: told.
      if (h.firstCommit !== null || bytes.byteLength < n) return h;
    }
  };
}

function kindText(source) {
  return source.kind === 'ssh' ? 'over ssh' : source.kind === 'daemon' ? 'from the rsync daemon'
    : source.kind === 's3' ? 'from the bucket' : 'from the live server (mysqlbinlog --read-from-remote-server --raw)';
}

// need: {startFile (the dump's binlogFile, or null), dumpGtids (its gtidExecuted, or null), until (microseconds UTC, or
// null), stopGtid (or null), since (microseconds UTC, or null: the preview's)}.
// Returns what binlog-folder.js folderFiles returns (the cache for a remote source), with source
// {kind, url} and, when fetched, fetched {files, bytes, transferred, seconds, first, last} and line.
function openBinlogs(host, where, options, need, preview) {
  var o = options || {};
  need = need || {};
  var source = parseWhere(where, o, preview);
  if (source.kind === 'local') {
    var local = folderOf.folderFiles(host, where);
    local.source = { kind: 'local', url: local.dir };
    localStart(host, local, need);
    if (need.since !== null && need.since !== undefined && local.files.length) {
      var from = sinceStart(host, source, local.dir, local.files, 0, need.since, o, null);
      local.sinceSkip = { files: from.from, first: local.files[from.from], heads: from.heads };
      local.files = local.files.slice(from.from);
    }
    return local;
  }
  var started = Date.now();
  var program = null;
  if (source.kind === 'server') {
    program = programCheck(host, source);
    source.secret = serverPassword(host, source);
  }
  // A live server's cache is its own by server_uuid too: a server made again at the same address writes
  // files of the same names.
  var listing = source.kind === 'server' ? listServer(host, source) : null;
  var dir = dumpCache.openCache(host, { name: 'binlogs-' + source.name, url: 'binlogs ' + source.url + (listing ? ' ' + listing.uuid : '') });
  listing = listing || listSource(host, source, dir, o);
  var ordered = folderOf.orderNames(listing.names, listing.sizes, listing.indexText);
  if (source.kind === 'server') ordered.order = 'SHOW BINARY LOGS';
  if (!ordered.files.length) {
    throw new UserError('BINLOG_SOURCE_EMPTY', 'binlogs: ' + source.url + ' holds no binary log file (name.NNNNNN, or listed in its ' +
      'index file). Check the path' + (source.kind === 's3' ? ' (the prefix) and the bucket' : '') + '.', { source: source.url });
  }
  var start = startAt(ordered.files, need.startFile);
  var targeted = (need.until !== null && need.until !== undefined) || !!need.stopGtid;
  var got = [];
  var transferred = 0;
  var total = 0;
  ordered.files.slice(start).forEach(function (n) { total += listing.sizes[n] || 0; });
  var progress = startProgress(host, 'Fetching binary logs', total, { format: formatBytes });
  var done = 0;
  var readNow = {};
  var fetchOne = function (name) {
    readNow[name] = source.kind === 'server' ? fetchFromServer(host, source, dir, name, listing)
      : fetchNames(host, source, dir, [name], listing.sizes, o, 'Fetching ' + name);
    transferred += readNow[name];
    done += listing.sizes[name] || 0;
    progress.update(done, (got.length + 1) + ' file(s)');
    return host.files.binlogHead(host.files.join(dir, name));
  };
  // The start file's previous GTIDs must be in the dump: else (a binlogFile named by another server, a
  // dump of a replica) the files before it are needed too, back to one that begins inside the dump.
  var heads = {};
  if (need.dumpGtids) {
    var dumpSet = gtids.parseSet(need.dumpGtids, 'The dump\'s gtidExecuted (@.json)');
    for (;;) {
      heads[ordered.files[start]] = fetchOne(ordered.files[start]);
      var prev = heads[ordered.files[start]].previousGtids;
      if (start === 0 || prev === null || !gtids.setText(gtids.minus(gtids.parseSet(prev), dumpSet))) break;
      start--;
    }
  }
  var bySince = null;
  if (need.since !== null && need.since !== undefined) {
    bySince = sinceStart(host, source, dir, ordered.files, start, need.since, o, function (name) { return (heads[name] = fetchOne(name)); }, listing);
    bySince.skipped = bySince.from - start;
    start = bySince.from;
  }
  var wanted = ordered.files.slice(start);
  // A daemon's or a server's files since needs were read whole already.
  if (source.kind !== 'server' && !targeted && !need.dumpGtids && !(bySince && source.kind === 'daemon')) {
    transferred = fetchNames(host, source, dir, wanted, listing.sizes, o, 'Fetching binary logs');
    got = wanted;
  } else {
    for (var i = 0; i < wanted.length; i++) {
      var name = wanted[i];
      var h = heads[name] || fetchOne(name);
      got.push(name);
      if (targeted && pastTarget(h, need)) break;
    }
  }
  progress.done(got.length + ' file(s)');
  // Read whole to tell where since begins, yet past until: said, not counted among the files.
  var pastUntil = Object.keys(readNow).filter(function (n) { return got.indexOf(n) < 0; });
  pastUntil.forEach(function (n) { transferred -= readNow[n]; });
  var sizes = {};
  var measured = host.files.stat(got.map(function (n) { return host.files.join(dir, n); })).sizes;
  var bytes = 0;
  got.forEach(function (n, k) { sizes[n] = measured[k]; bytes += measured[k] || 0; });
  var lo = folderOf.numberOf(got[0]);
  var hi = folderOf.numberOf(got[got.length - 1]);
  var seconds = (Date.now() - started) / 1000;
  var fetched = { files: got.length, bytes: bytes, transferred: transferred, seconds: seconds, first: got[0], last: got[got.length - 1],
    of: ordered.files.length, program: program, beforeSince: bySince ? bySince.skipped : null, headsRead: bySince ? bySince.heads : null,
    headBytes: bySince ? bySince.headBytes : null };
  return {
    dir: dir, files: got, order: ordered.order + ' at the source', sizes: sizes, skipped: ordered.skipped,
    missing: ordered.missing.filter(function (n) { var k = folderOf.numberOf(n); return k !== null && k > lo && k < hi; }),
    source: { kind: source.kind, url: source.url }, fetched: fetched,
    line: 'from ' + source.url + ' ' + kindText(source) + ': ' + got.length + ' of its ' + ordered.files.length + ' file(s) (' +
      got[0] + (got.length > 1 ? ' … ' + got[got.length - 1] : '') + '), ' + formatBytes(bytes) + ', ' + transferred +
      ' transferred now, ' + (got.length - transferred) + ' already in the cache ' + dir + ' (' + seconds.toFixed(1) + ' s)' +
      (pastUntil.length ? '; ' + pastUntil.length + ' more read whole to find where since begins, past until' : '') +
      (bySince ? '; ' + bySince.skipped + ' file(s) before since not fetched' + (bySince.heads ? ', told by ' + bySince.heads +
        ' read(s) of a file\'s first bytes (' + formatBytes(bySince.headBytes) + ')' : '') : ''),
  };
}

module.exports = { openBinlogs: openBinlogs, parseWhere: parseWhere };
