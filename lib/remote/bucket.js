// A dump in an S3-compatible bucket: util.loadDump's s3BucketName (and s3Region, s3Profile,
// s3ConfigFile, s3CredentialsFile, s3EndpointOverride) with a prefix as the dump argument. Read as a
// backup host is (lib/remote/dump-cache.js): its metadata into the cache, then exactly the chosen
// data files, with GET requests (host.files.bucketList / bucketFetch, which never send
// anything else). Credentials and region are found as MySQL Shell finds them.
var UserError = require('../core/user-error.js').UserError;
var optionTable = require('../options/option-table.js');

// Declared with bucket: true in lib/options/option-table.js (util.loadDump's names).
var S3_OPTIONS = optionTable.bucketNames();
var METADATA = /\.(json|sql)$/;

function isBucket(source) { return !!source && source.kind === 's3'; }

// The s3* options given (only those util.loadDump knows), or null without s3BucketName.
function bucketOptions(o) {
  if (o.s3BucketName === undefined || o.s3BucketName === null) return null;
  var s3 = {};
  S3_OPTIONS.forEach(function (k) {
    if (o[k] === undefined || o[k] === null) return;
    var problem = optionTable.valueProblem(k, o[k]);
    if (problem) throw new UserError('OPTION_INVALID', 'Option ' + k + ' ' + problem + '.', { option: k });
    s3[k] = o[k];
  });
  return s3;
}

// The dump argument is the prefix of the dump in the bucket ("nightly/2026-11-24"; "" or "/" for
// its top). → {kind: 's3', url, name, bucket, prefix (no slash at either end), s3}.
function bucketSource(dumpArg, s3) {
  var prefix = String(dumpArg === undefined || dumpArg === null ? '' : dumpArg).trim().replace(/^\/+|\/+$/g, '');
  if (/^s3:\/\//i.test(prefix)) {
    throw new UserError('REMOTE_ADDRESS_INVALID', JSON.stringify(dumpArg) + ': with s3BucketName the dump argument is the ' +
      'prefix in the bucket (e.g. "backups/2026-11-24"), not a URL.');
  }
  var parts = prefix.split('/').filter(Boolean);
  return { kind: 's3', url: 's3://' + s3.s3BucketName + (prefix ? '/' + prefix : ''), name: parts.length ? parts[parts.length - 1] : s3.s3BucketName,
    bucket: s3.s3BucketName, prefix: prefix, s3: s3 };
}

function childBucketSource(source, name) {
  var prefix = source.prefix ? source.prefix + '/' + name : name;
  return { kind: 's3', url: 's3://' + source.bucket + '/' + prefix, name: name, bucket: source.bucket, prefix: prefix, s3: source.s3 };
}

function keyPrefix(source) { return source.prefix ? source.prefix + '/' : ''; }

// name -> size of the objects directly under the dump's prefix.
function listDump(host, source) {
  var l = host.files.bucketList(source.s3, keyPrefix(source), '/');
  var sizes = new Map();
  l.names.forEach(function (n, i) { if (n !== '') sizes.set(n, l.sizes[i]); });
  if (!sizes.size && !l.prefixes.length) {
    throw new UserError('DUMP_NOT_FOUND', 'There is nothing under ' + source.url + ': check the prefix (the dump argument) and ' +
      's3BucketName.');
  }
  if (!sizes.has('@.json')) {
    throw new UserError('NOT_A_DUMP', source.url + ' is not a MySQL Shell dump: it has no @.json (the file util.dumpInstance, util.dumpSchemas ' +
      'and util.dumpTables write first)' + (l.prefixes.length ? '; it holds ' + l.prefixes.length + ' prefix(es) (' +
      l.prefixes.slice(0, 3).join(', ') + '): name one of them, or give newest: true for the newest dump in it' : '') + '.');
  }
  return sizes;
}

function fetch(host, source, dir, names, sizes, refresh) {
  var items = names.map(function (n) { return [keyPrefix(source) + n, n, sizes.get(n)]; });
  return host.files.bucketFetch(source.s3, items, dir, Math.max(2, Math.min(8, host.shell.cpuCount() * 2)), !!refresh);
}

// The listing of a bucket's dump, with the interface of a backup host's (lib/remote/dump-cache.js
// remoteListing): one paged listing of the prefix is made anyway (its @.json and metadata), so
// both questions are answered from it. sizes: name -> size of every object.
function bucketListing(sizes) {
  var all = null;
  return {
    sizesOf: function (names) {
      var out = new Map();
      names.forEach(function (n) { if (sizes.has(n)) out.set(n, sizes.get(n)); });
      return out;
    },
    names: function () {
      if (all === null) {
        all = [];
        sizes.forEach(function (size, n) { if (!/\.idx$/.test(n)) all.push(n); });
      }
      return all;
    },
  };
}

// The metadata (every .json and .sql but util.loadDump progress files) into the cache, fetched
// again every run (small; a dump written again under the same prefix is read as it is now);
// returns the listing (bucketListing).
function fetchMetadata(host, source, dir) {
  var started = Date.now();
  var sizes = listDump(host, source);
  var names = [];
  sizes.forEach(function (size, n) { if (METADATA.test(n) && !/^load-progress/.test(n)) names.push(n); });
  fetch(host, source, dir, names, sizes, true);
  host.out.print('Fetched the metadata of ' + source.url + ' into ' + dir + ' (' + names.length + ' file(s), ' +
    ((Date.now() - started) / 1000).toFixed(1) + ' s)');
  return bucketListing(sizes);
}

// One batch of data files into the cache, several at once (lib/remote/dump-cache.js fetchFiles
// makes the batches and the progress); files an earlier run fetched whole are kept. Returns how
// many were transferred.
function fetchBatch(host, source, dir, names, sizes) {
  return fetch(host, source, dir, names, sizes, false).fetched;
}

// newest: the dumps one level under the prefix, each with its @.json fetched into folderDir/<name>
// (read there by newest-dump.js) and whether it has @.done.json: [{name, complete}].
function candidates(host, source, folderDir) {
  var f = host.files;
  var top = host.files.bucketList(source.s3, keyPrefix(source), '/');
  if (!top.prefixes.length && !top.names.length) {
    throw new UserError('DUMP_NOT_FOUND', 'newest: there is nothing under ' + source.url + ': check the prefix (the dump argument) ' +
      'and s3BucketName.');
  }
  var out = [];
  top.prefixes.forEach(function (p) {
    var name = p.replace(/\/$/, '');
    if (name === '' || name.charAt(0) === '.') return;
    var child = childBucketSource(source, name);
    var l = host.files.bucketList(source.s3, keyPrefix(child) + '@.', '');
    var has = new Map();
    l.names.forEach(function (n, i) { has.set('@.' + n, l.sizes[i]); });
    if (!has.has('@.json')) return;
    var dir = f.join(folderDir, name);
    f.makeDirs(dir);
    fetch(host, child, dir, ['@.json'], has, true);
    out.push({ name: name, complete: has.has('@.done.json') });
  });
  return out;
}

module.exports = { isBucket: isBucket, bucketOptions: bucketOptions, bucketSource: bucketSource, keyPrefix: keyPrefix,
  childBucketSource: childBucketSource, fetchMetadata: fetchMetadata, fetchBatch: fetchBatch, candidates: candidates };
