// What the dump argument names: a local dump directory, a remote dump ("host:/path",
// "rsync://host/module/path") or, with newest: true, a folder of dumps whose newest complete one
// is taken. A remote dump's metadata is fetched into its cache, which is then read like a local
// dump (data files missing until fetched). Returns {dir, source: null | {source, listing}, lines}:
// listing, what the host holds (dump-cache.js remoteListing).
var UserError = require('../core/user-error.js').UserError;
var resolveDumpDir = require('../dump/dump-paths.js').resolveDumpDir;
var parseSource = require('./remote-source.js').parseSource;
var childSource = require('./remote-source.js').childSource;
var newest = require('./newest-dump.js');
var dumpCache = require('./dump-cache.js');
var bucket = require('./bucket.js');
var optionTable = require('../options/option-table.js');

// rsh is for binlogs on a backup host too (lib/binlog/binlog-source.js).
function binlogsOverSsh(o) {
  try {
    var b = typeof o.binlogs === 'string' ? parseSource(o.binlogs) : null;
    return !!b && b.kind === 'ssh';
  } catch (e) {
    return false;
  }
}

// The s3* options are checked by bucket.bucketOptions (as declared in the option table too).
function checkOptions(o, remote, inBucket) {
  ['newest', 'rsh', 'cacheDir'].forEach(function (name) {
    var problem = o[name] === undefined ? null : optionTable.valueProblem(name, o[name]);
    if (problem) throw new UserError('OPTION_INVALID', 'Option ' + name + ' ' + problem + '.', { option: name });
  });
  if (inBucket && o.rsh !== undefined) {
    throw new UserError('OPTION_CONFLICT', 'Option rsh is for a dump on a backup host over ssh; this dump is in bucket ' +
      o.s3BucketName + '.', { options: ['rsh', 's3BucketName'] });
  }
  if (!remote && !inBucket && (o.cacheDir !== undefined || (o.rsh !== undefined && !binlogsOverSsh(o)))) {
    var name = o.cacheDir !== undefined ? 'cacheDir' : 'rsh';
    throw new UserError('OPTION_CONFLICT', 'Option ' + name + ' is for a dump on a backup host ' +
      '(user@host:/path or rsync://host/module/path); this dump is a local directory.', { option: name });
  }
}

function pickedLine(where, pick) {
  return 'Newest complete dump in ' + where + ': ' + pick.name + (pick.begin ? ' (taken ' + pick.begin + ')' : '') +
    ' of ' + pick.count + (pick.skipped.length ? '; unfinished, skipped: ' + pick.skipped.slice(0, 5).join(', ') +
      (pick.skipped.length > 5 ? ', …' : '') : '');
}

function openDumpSource(host, dumpArg, options) {
  if (typeof dumpArg !== 'string' || (dumpArg.trim() === '' && !(options && options.s3BucketName))) {
    throw new UserError('ARGUMENT_MISSING', 'No dump given: pass the dump directory (the one holding @.json), or host:/path for a dump on a backup host.');
  }
  var o = options || {};
  var s3 = bucket.bucketOptions(o);
  var source = s3 ? bucket.bucketSource(dumpArg, s3) : parseSource(dumpArg);
  checkOptions(o, !!source, !!s3);
  var lines = [];
  if (!source) {
    var dir = resolveDumpDir(host, dumpArg);
    if (o.newest) {
      if (!host.files.isDir(dir)) throw new UserError('DUMP_NOT_FOUND', 'newest: the folder of dumps ' + dir + ' does not exist.');
      var pick = newest.pickNewest(newest.localCandidates(host, dir), dir);
      lines.push(pickedLine(dir, pick));
      dir = host.files.join(dir, pick.name);
    }
    lines.forEach(host.out.print);
    return { dir: dir, source: null, lines: lines };
  }
  if (o.newest) {
    var remotePick = newest.pickNewest(newest.remoteCandidates(host, source, o.rsh), source.url);
    lines.push(pickedLine(source.url, remotePick));
    host.out.print(lines[lines.length - 1]);
    source = bucket.isBucket(source) ? bucket.childBucketSource(source, remotePick.name) : childSource(source, remotePick.name);
  }
  var cache = dumpCache.openCache(host, source, o.cacheDir);
  var listing = dumpCache.fetchMetadata(host, source, cache, o.rsh);
  return { dir: cache, source: { source: source, listing: listing }, lines: lines };
}

module.exports = { openDumpSource: openDumpSource };
