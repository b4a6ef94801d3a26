// What the dump argument names: a local dump directory, a remote dump ("host:/path",
// "rsync://host/module/path") or, with newest: true, a folder of dumps whose newest complete one
// is taken. A remote dump's metadata is fetched into its cache, which is then read like a local
// dump (data files missing until fetched). Returns {dir, source: null | {source, sizes}, lines}.
var UserError = require('../core/user-error.js').UserError;
var resolveDumpDir = require('../dump/dump-paths.js').resolveDumpDir;
var parseSource = require('./remote-source.js').parseSource;
var childSource = require('./remote-source.js').childSource;
var newest = require('./newest-dump.js');
var dumpCache = require('./dump-cache.js');

function checkOptions(o, remote) {
  if (o.newest !== undefined && typeof o.newest !== 'boolean') throw new UserError('OPTION_INVALID', 'Option newest must be true or false.');
  if (o.rsh !== undefined && (typeof o.rsh !== 'string' || o.rsh.trim() === '')) {
    throw new UserError('OPTION_INVALID', 'Option rsh must be the remote shell command rsync runs, e.g. "ssh -p 2222".');
  }
  if (!remote && (o.cacheDir !== undefined || o.rsh !== undefined)) {
    throw new UserError('OPTION_CONFLICT', 'Option ' + (o.cacheDir !== undefined ? 'cacheDir' : 'rsh') + ' is for a dump on a backup host ' +
      '(user@host:/path or rsync://host/module/path); this dump is a local directory.');
  }
}

function pickedLine(where, pick) {
  return 'Newest complete dump in ' + where + ': ' + pick.name + (pick.begin ? ' (taken ' + pick.begin + ')' : '') +
    ' of ' + pick.count + (pick.skipped.length ? '; unfinished, skipped: ' + pick.skipped.slice(0, 5).join(', ') +
      (pick.skipped.length > 5 ? ', …' : '') : '');
}

function openDumpSource(host, dumpArg, options) {
  if (typeof dumpArg !== 'string' || dumpArg.trim() === '') {
    throw new UserError('ARGUMENT_MISSING', 'No dump given: pass the dump directory (the one holding @.json), or host:/path for a dump on a backup host.');
  }
  var o = options || {};
  var source = parseSource(dumpArg);
  checkOptions(o, !!source);
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
    source = childSource(source, remotePick.name);
  }
  var cache = dumpCache.openCache(host, source, o.cacheDir);
  var sizes = dumpCache.fetchMetadata(host, source, cache, o.rsh);
  return { dir: cache, source: { source: source, sizes: sizes }, lines: lines };
}

module.exports = { openDumpSource: openDumpSource };
