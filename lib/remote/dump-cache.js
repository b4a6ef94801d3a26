// The local cache of a remote dump: a directory of the plugin's own (in <config home>/restore/cache,
// or cacheDir) that rsync fills with the dump's metadata and, later, exactly the chosen data files.
// What an earlier run fetched stays and is reused (rsync skips files that are up to date). The
// cache is never the dump: the plugin loads from a load view built on it.
var UserError = require('../core/user-error.js').UserError;
var shortHash = require('../core/short-hash.js').shortHash;
var rsync = require('./rsync.js');
var bucket = require('./bucket.js');
var startProgress = require('../format/progress.js').startProgress;
var formatBytes = require('../format/text-table.js').formatBytes;

var MARK = '.restore-cache.json';
var BATCHES = 10; // progress moves between rsync runs: about a tenth of the bytes each
var RSYNC_BATCH_BYTES = 67108864; // but at least this much a run: each costs a connection (an ssh login)

function cacheRoot(host) {
  var f = host.files;
  return f.join(f.join(host.shell.configHome, 'restore'), 'cache');
}

function safeName(text) {
  return String(text).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80) || 'dump';
}

// Makes (or finds) the cache directory of a source; returns its path. A cacheDir that exists must
// be one the plugin made (it holds the cache marker): rsync (or a bucket's
// objects) must never write over other files.
function openCache(host, source, cacheDir) {
  var f = host.files;
  var given = cacheDir !== undefined && cacheDir !== null;
  var dir;
  if (given) {
    if (typeof cacheDir !== 'string' || cacheDir.trim() === '') throw new UserError('OPTION_INVALID', 'Option cacheDir must name a directory.',
      { option: 'cacheDir' });
    dir = f.normpath(f.isAbs(cacheDir) ? cacheDir : f.join(f.cwd(), cacheDir));
  } else {
    dir = f.join(cacheRoot(host), safeName(source.name) + '-' + shortHash(source.url));
  }
  var mark = f.join(dir, MARK);
  if (f.isDir(dir)) {
    if (!f.isFile(mark)) {
      throw new UserError('PATH_REFUSED', 'cacheDir ' + dir + ' exists and is not a cache made by the restore plugin: rsync would write ' +
        'over its files. Give a directory that does not exist yet (or an earlier cacheDir).', { option: 'cacheDir', path: dir });
    }
    return dir;
  }
  if (f.isFile(dir)) throw new UserError('PATH_REFUSED', 'cacheDir ' + dir + ' is a file: give a directory.',
    { option: 'cacheDir', path: dir });
  if (given && !f.isDir(f.dirname(dir))) {
    throw new UserError('PATH_MISSING', 'Cannot make cacheDir ' + dir + ': its parent directory ' + f.dirname(dir) + ' does not exist.',
      { option: 'cacheDir', path: dir });
  }
  f.makeDirs(dir, { fresh: true });
  f.writeFiles([{ path: mark, data: JSON.stringify({ cache: 1, source: source.url }) }], { overwrite: false });
  return dir;
}

// What rsync reads from its standard input with --files-from: one name a line, each looked up by
// name (include patterns match every entry of the dump directory against every pattern: 3.4 s for
// 2,000 chosen chunks among 200,000 files). "./" keeps a name from reading as a comment ("#…") and
// marks where its path in the cache begins; below: a path before it (the dump's, from a daemon's top).
function namesInput(names, below) {
  return names.map(function (n) { return (below || '') + './' + n + '\n'; }).join('');
}

// name -> size of those of the names that are files on the host; one it does not hold is left out
// (--ignore-missing-args). --files-from needs a destination: the cache (--list-only writes nothing).
function listNamed(host, source, dir, names, rsh, what) {
  var sizes = new Map();
  var r = rsync.run(host, source, rsync.baseArgs(source, rsh).concat(['--list-only', '--ignore-missing-args', '--files-from=-',
    source.url + '/', dir + '/']), what, namesInput(names));
  rsync.parseList(r.stdout).forEach(function (e) { if (!e.isDir) sizes.set(e.name, e.size); });
  return sizes;
}

// What is on the backup host, asked as needed (restore.plan of a million chunks lists none of them):
//   sizesOf(names) -> Map name -> size of those of the names the host holds;
//   names() -> every file name there but the .idx files (once; only for a dump whose @.done.json
//              does not name a table's data files).
function remoteListing(host, source, dir, rsh) {
  var all = null;
  return {
    sizesOf: function (names) {
      if (!names.length) return new Map();
      return listNamed(host, source, dir, names, rsh, 'listing data files of ' + source.url);
    },
    names: function () {
      if (all === null) {
        all = [];
        var r = rsync.run(host, source, rsync.baseArgs(source, rsh).concat(['--list-only', '--exclude=*.idx', source.url + '/']),
          'listing ' + source.url);
        rsync.parseList(r.stdout).forEach(function (e) { if (!e.isDir) all.push(e.name); });
      }
      return all;
    },
  };
}

// The dump's metadata (every .json and .sql but util.loadDump progress files) into the cache.
// Returns the remote listing (remoteListing; a bucket's has the same interface, bucket.js
// bucketListing): what else the host holds is asked when needed.
function fetchMetadata(host, source, dir, rsh) {
  if (bucket.isBucket(source)) return bucket.fetchMetadata(host, source, dir);
  var started = Date.now();
  // The dump's first file, asked alone: a cache keeps files an earlier fetch brought.
  if (!listNamed(host, source, dir, ['@.json'], rsh, 'listing ' + source.url).has('@.json')) {
    throw new UserError('NOT_A_DUMP', source.url + ' is not a MySQL Shell dump: it has no @.json (the file util.dumpInstance, ' +
      'util.dumpSchemas and util.dumpTables write first).');
  }
  rsync.run(host, source, rsync.baseArgs(source, rsh).concat(['-rt', '--chmod=u+rw,o-rwx', '--exclude=load-progress*', '--include=*.json',
    '--include=*.sql', '--exclude=*', source.url + '/', dir + '/']), 'fetching the metadata of ' + source.url);
  host.out.print('Fetched the metadata of ' + source.url + ' into ' + dir + ' (' + ((Date.now() - started) / 1000).toFixed(1) + ' s)');
  return remoteListing(host, source, dir, rsh);
}

// What a fetch of these names would transfer, and their sizes on the host ({todo: [name], sizes}).
// A dry run of the fetch itemizes each file the host holds with its size, and whether it would be
// transferred (rsync's own check: size and time); with the sizes known, only the names already in
// the cache are asked, and a cache without any costs no run.
function fetchState(host, source, dir, names, sizes, rsh) {
  var f = host.files;
  var found = f.stat(names.map(function (n) { return f.join(dir, n); })).sizes;
  var asked = sizes ? names.filter(function (n, i) { return found[i] !== null; }) : names;
  var got = new Map();
  var changed = new Set();
  if (asked.length) {
    var r = rsync.run(host, source, rsync.baseArgs(source, rsh).concat(['-n', '-t', '--chmod=u+rw,o-rwx', '-ii', '--out-format=%i %l %n',
      '--ignore-missing-args', '--files-from=-', source.url + '/', dir + '/']), 'fetching data files of ' + source.url, namesInput(asked));
    String(r.stdout).split('\n').forEach(function (l) {
      var m = /^([.>])f.{9} (\d+) (.+)$/.exec(l);
      if (!m) return;
      got.set(m[3], Number(m[2]));
      if (m[1] === '>') changed.add(m[3]);
    });
  }
  return { todo: names.filter(function (n, i) { return found[i] === null || changed.has(n); }), sizes: sizes || got };
}

// One batch of data files by rsync; returns how many it transferred. From an rsync daemon the names
// go from the module's top: rsync 3.5's daemon reports files named from a directory below the top
// as "vanished" when it sends them (listings and dry runs are not affected).
function rsyncBatch(host, source, dir, batch, rsh) {
  var m = source.kind === 'daemon' ? /^(rsync:\/\/[^/]+\/[^/]+)(?:\/(.*))?$/.exec(source.url) : null;
  var r = rsync.run(host, source, rsync.baseArgs(source, rsh).concat(['-t', '--chmod=u+rw,o-rwx', '--out-format=%n', '--ignore-missing-args',
    '--files-from=-', (m ? m[1] : source.url) + '/', dir + '/']), 'fetching data files of ' + source.url,
  namesInput(batch, m && m[2] ? m[2] + '/' : ''));
  return String(r.stdout).split('\n').filter(function (l) { return l.trim() !== '' && !/\/$/.test(l); }).length;
}

// Exactly these data files (names relative to the dump) into the cache, with progress by bytes
// (rsync, or GETs from a bucket, several files at once); sizes: name -> size of them at the source
// (the listing's sizesOf), or null from rsync: its dry run tells them. Returns {files, bytes,
// fetched}: fetched counts what was transferred (the rest was in the cache already).
// opts.label: the progress line's (binary logs are not data files).
function fetchFiles(host, source, dir, names, sizes, rsh, opts) {
  var inBucket = bucket.isBucket(source);
  var state = inBucket ? { todo: names, sizes: sizes } : fetchState(host, source, dir, names, sizes, rsh);
  var todo = state.todo;
  sizes = state.sizes;
  var total = 0;
  names.forEach(function (n) { total += sizes.get(n) || 0; });
  var done = total;
  todo.forEach(function (n) { done -= sizes.get(n) || 0; });
  var progress = startProgress(host, (opts && opts.label) || 'Fetching data files', total, { format: formatBytes });
  var per = Math.max(inBucket ? 1 : RSYNC_BATCH_BYTES, Math.ceil((total - done) / BATCHES));
  var count = names.length - todo.length;
  var fetched = 0;
  for (var i = 0; i < todo.length;) {
    var batch = [];
    var bytes = 0;
    while (i < todo.length && (batch.length === 0 || bytes < per)) {
      batch.push(todo[i]);
      bytes += sizes.get(todo[i]) || 0;
      i++;
    }
    fetched += inBucket ? bucket.fetchBatch(host, source, dir, batch, sizes) : rsyncBatch(host, source, dir, batch, rsh);
    done += bytes;
    count += batch.length;
    progress.update(done, count + ' / ' + names.length + ' files');
  }
  progress.done(names.length + ' files, ' + formatBytes(total));
  return { files: names.length, bytes: total, fetched: fetched };
}

module.exports = { openCache: openCache, fetchMetadata: fetchMetadata, fetchFiles: fetchFiles, cacheRoot: cacheRoot };
