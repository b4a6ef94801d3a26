// newest: true — the argument names a folder of dumps (nightly backups), and the load takes the
// newest complete one: a sub-directory holding @.done.json (written last by MySQL Shell), newest
// by the time the dump records in @.json ("begin", when its snapshot was taken), then by name.
// Unfinished dumps are skipped and named.
var UserError = require('../core/user-error.js').UserError;
var shortHash = require('../core/short-hash.js').shortHash;
var rsync = require('./rsync.js');
var bucket = require('./bucket.js');
var cacheRoot = require('./dump-cache.js').cacheRoot;
var eachEntry = require('../core/listing.js').eachEntry;
var recordedBegin = require('../dump/dump-metadata.js').recordedBegin;
var isComplete = require('../dump/dump-complete.js').isComplete;
var pathMaker = require('../dump/dump-paths.js').pathMaker;

// candidates: [{name, complete, begin}] → {name, begin, skipped: [name]}.
function pickNewest(candidates, where) {
  var complete = candidates.filter(function (c) { return c.complete; });
  var skipped = candidates.filter(function (c) { return !c.complete; }).map(function (c) { return c.name; });
  if (!complete.length) {
    throw new UserError('DUMP_NOT_FOUND', 'newest: ' + where + ' holds no complete MySQL Shell dump (a directory with @.json and ' +
      '@.done.json)' + (skipped.length ? '; unfinished: ' + skipped.join(', ') : '') + '.');
  }
  complete.sort(function (a, b) {
    var ta = a.begin || '';
    var tb = b.begin || '';
    if (ta !== tb) return ta < tb ? 1 : -1;
    return a.name < b.name ? 1 : a.name > b.name ? -1 : 0;
  });
  return { name: complete[0].name, begin: complete[0].begin, skipped: skipped, count: complete.length };
}

function localCandidates(host, dir) {
  var f = host.files;
  var entries;
  try {
    entries = f.list(dir, { noSizeFor: [''] });
  } catch (e) {
    throw new UserError('DUMP_UNREADABLE', 'newest: cannot list the folder of dumps ' + dir + ': ' + e.message);
  }
  var out = [];
  eachEntry(entries, function (name, size, isDir) {
    if (!isDir || name.charAt(0) === '.') return;
    var sub = f.join(dir, name);
    if (!f.isFile(f.join(sub, '@.json'))) return;
    out.push({ name: name, dump: true, complete: isComplete(host, pathMaker(host, sub)), begin: recordedBegin(host, f.join(sub, '@.json')) });
  });
  return out;
}

// The @.json of every sub-directory is fetched (small); @.done.json only listed (it can be large).
function remoteCandidates(host, source, rsh) {
  var f = host.files;
  var dir = f.join(f.join(cacheRoot(host), 'folders'), shortHash(source.url));
  f.makeDirs(dir);
  if (bucket.isBucket(source)) {
    // The @.json of every dump under the prefix is fetched; @.done.json only listed.
    var done = {};
    bucket.candidates(host, source, dir).forEach(function (c) { done[c.name] = c.complete; });
    return localCandidates(host, dir).filter(function (c) { return done[c.name] !== undefined; }).map(function (c) {
      c.complete = c.dump && done[c.name] === true;
      return c;
    });
  }
  var base = rsync.baseArgs(source, rsh);
  rsync.run(host, source, base.concat(['-rt', '--include=/*/', '--include=/*/@.json', '--exclude=*', source.url + '/', dir + '/']),
    'fetching the @.json files of ' + source.url);
  var listed = rsync.run(host, source, base.concat(['-r', '--list-only', '--include=/*/', '--include=/*/@.done.json', '--exclude=*',
    source.url + '/']), 'listing ' + source.url);
  var listedDone = {};
  rsync.parseList(listed.stdout).forEach(function (e) {
    if (/\/@\.done\.json$/.test(e.name)) listedDone[e.name.slice(0, -'/@.done.json'.length)] = true;
  });
  return localCandidates(host, dir).map(function (c) {
    c.complete = c.dump && listedDone[c.name] === true;
    return c;
  });
}

module.exports = { pickNewest: pickNewest, localCandidates: localCandidates, remoteCandidates: remoteCandidates };
