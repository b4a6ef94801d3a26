// restore.inspect(dumpDir[, options]): what a dump directory holds and whether util.loadDump
// would load it. Prints a compact report (one line per table or partition) and returns the
// same facts as a dictionary.
var readDumpModel = require('../dump/dump-model.js').readDumpModel;
var settle = require('../core/memory.js').settle;
var isBlocking = require('../dump/dump-problems.js').isBlocking;
var adviceFor = require('../dump/dump-problems.js').adviceFor;
var textTable = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var chunkTable = require('../dump/chunk-table.js');
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var fetchFiles = require('../remote/dump-cache.js').fetchFiles;
var parseSource = require('../remote/remote-source.js').parseSource;
var UserError = require('../core/user-error.js').UserError;
var formatBytes = textTable.formatBytes;
var lazyList = require('../format/output.js').lazyList;

var SHOWN_PER_CODE = 10;
var STATES = ['present', 'empty', 'stub', 'missing', 'corrupt'];

function sum(list, fn) { return list.reduce(function (n, x) { return n + fn(x); }, 0); }

// Sum that stays null once one part is unknown.
function sumKnown(list, fn) {
  return list.reduce(function (n, x) { var v = fn(x); return n === null || v === null ? null : n + v; }, 0);
}

// null when the metadata does not say (format 1.0.x without options.primaryIndex).
function orderedByKey(t) {
  return t.primaryIndex === null ? null : t.primaryIndex.length > 0;
}

function tableFacts(t) {
  var e = { schema: t.schema, table: t.table };
  if (t.partition !== null) e.partition = t.partition;
  e.basename = t.base;
  e.compression = t.compression;
  e.extension = t.ext;
  e.chunking = t.chunking;
  e.primaryIndex = t.primaryIndex;
  e.chunksOrderedByKey = orderedByKey(t);
  e.rows = t.partition === null ? t.info.rows : null;
  e.dataBytes = t.dataBytes;
  e.chunkSource = t.chunkSource;
  e.lastChunkKnown = t.lastChunkKnown;
  // Counts and chunk numbers per state, not an entry per chunk: a dump's facts stay small at a
  // million chunks (the file of chunk n is <basename>@n.<extension>, the last one's @@n).
  e.chunks = t.chunks.length;
  e.dataBytesUsable = t.usableDataBytes;
  e.states = chunkTable.stateRanges(t.chunks);
  return e;
}

function totalsOf(model) {
  var totals = {
    schemas: model.schemas.length,
    tables: model.tables.length,
    views: sum(model.schemas, function (s) { return s.views.length; }),
    partitions: sum(model.tables, function (t) { return t.partitions.length; }),
    chunks: sum(model.targets, function (t) { return t.chunks.length; }),
  };
  STATES.forEach(function (s) { totals[s] = sum(model.targets, function (t) { return t.counts[s]; }); });
  // Unreadable data files count as corrupt (they cannot load) but are named as unreadable.
  totals.unreadable = sum(model.targets, function (t) {
    return chunkTable.indexesIn(t.chunks, 'corrupt').filter(function (i) { return chunkTable.isUnreadable(t.chunks, i); }).length;
  });
  totals.dataBytes = model.recordedDataBytes !== null ? model.recordedDataBytes
    : sumKnown(model.targets, function (t) { return t.dataBytes; });
  totals.dataBytesPresent = sumKnown(model.targets, function (t) { return t.usableDataBytes; });
  totals.fileBytes = sum(model.targets, function (t) { return t.fileBytes; });
  return totals;
}

function inspectFacts(model, totals) {
  return {
    format: model.format,
    dumper: model.dumper,
    origin: model.origin,
    complete: model.complete,
    schemas: model.schemas.map(function (s) { return { schema: s.schema, tables: s.tables, views: s.views }; }),
    // Made one at a time as they are printed (50,000 tables), an array for outputFormat "none".
    tables: lazyList(model.targets.length, function (i) { return tableFacts(model.targets[i]); }),
    totals: totals,
    loadable: model.loadable,
    dataCheck: dataCheck(model),
    problems: model.problems.map(function (p) { return { code: p.code, message: p.message, file: p.file }; }),
  };
}

// How the data files were checked: by structure (always), decompressed in full (verify: true).
function dataCheck(model) {
  var v = model.verified;
  return v ? { method: 'decompressed', files: v.files, fileBytes: v.fileBytes } : { method: 'structure' };
}

function dataCheckText(model) {
  var v = model.verified;
  if (v) return 'decompressed in full: ' + v.files + ' file(s), ' + textTable.formatBytes(v.fileBytes) + ' (verify)';
  return 'frame and block headers only (verify: true decompresses every file)';
}

function tableNote(t) {
  if (t.ext === null) return 'metadata missing';
  if (!t.includesData) return 'no data dumped';
  var notes = [];
  if (!t.lastChunkKnown) notes.push('last chunk unknown');
  if (orderedByKey(t) === false) notes.push('no key: "latest" means nothing');
  return notes.join('; ');
}

function tableRow(t) {
  return [
    displayTable(t.schema, t.table, t.partition),
    (t.counts.present + t.counts.empty) + '/' + t.chunks.length + (t.lastChunkKnown ? '' : '+?'),
    t.counts.stub, t.counts.missing, t.counts.corrupt,
    textTable.formatBytes(t.usableDataBytes) + ' / ' + textTable.formatBytes(t.dataBytes),
    tableNote(t),
  ];
}

function verdict(model, totals) {
  if (model.loadable) {
    var notes = [];
    if (totals.stub) notes.push(totals.stub + ' stubbed chunk' + (totals.stub === 1 ? '' : 's') + ' load no rows');
    var skipped = model.problems.filter(function (p) { return p.code === 'data-not-loaded'; });
    if (skipped.length) {
      notes.push(skipped.length + ' table(s) whose metadata says "includesData": false are created without their ' +
        'data files\' rows');
    }
    return 'util.loadDump would load this dump' + (notes.length ? ' (' + notes.join('; ') + ').' : '.');
  }
  var counts = {};
  model.problems.filter(isBlocking).forEach(function (p) { counts[p.code] = (counts[p.code] || 0) + 1; });
  var reasons = [];
  if (counts['dump-incomplete']) reasons.push('the dump is unfinished');
  if (counts['metadata-missing']) reasons.push(counts['metadata-missing'] + ' metadata file(s) missing');
  if (totals.missing) reasons.push(totals.missing + ' data file(s) missing');
  var corrupt = totals.corrupt - totals.unreadable;
  if (corrupt) reasons.push(corrupt + ' data file(s) corrupt');
  if (counts['last-chunk-unknown']) reasons.push(counts['last-chunk-unknown'] + ' table(s) with an unknown last chunk');
  if (counts['chunks-conflict']) reasons.push(counts['chunks-conflict'] + ' table(s) with conflicting chunk files');
  if (counts['file-unreadable']) reasons.push(counts['file-unreadable'] + ' unreadable file(s)');
  if (counts['name-too-long']) reasons.push(counts['name-too-long'] + ' file name(s) too long to exist');
  if (counts['metadata-type']) reasons.push(counts['metadata-type'] + ' metadata member(s) util.loadDump cannot read');
  if (counts['compression-unknown']) reasons.push(counts['compression-unknown'] + ' table(s) with an unknown compression');
  if (counts['format-unsupported']) reasons.push('a dump format newer than util.loadDump reads');
  if (counts['whole-and-chunked']) reasons.push(counts['whole-and-chunked'] + ' table(s) with a whole-table file beside their chunks');
  if (counts['tables-unlisted']) reasons.push(counts['tables-unlisted'] + ' table(s) with data the metadata does not list');
  if (counts['metadata-damaged']) reasons.push(counts['metadata-damaged'] + ' damaged metadata entr' + (counts['metadata-damaged'] === 1 ? 'y' : 'ies'));
  return 'util.loadDump would fail' + (corrupt ? ' or load fewer rows' : '') + ': ' + reasons.join(', ') + '.';
}

// Problems grouped by code: what the code means once, then one line per fact.
function problemLines(problems) {
  var groups = new Map();
  problems.forEach(function (p) {
    if (!groups.has(p.code)) groups.set(p.code, []);
    groups.get(p.code).push(p);
  });
  var lines = [];
  groups.forEach(function (list, code) {
    lines.push('[' + code + '] ' + adviceFor(code));
    list.slice(0, SHOWN_PER_CODE).forEach(function (p) { lines.push('  - ' + p.fact); });
    if (list.length > SHOWN_PER_CODE) {
      lines.push('  - … and ' + (list.length - SHOWN_PER_CODE) + ' more (all in the "problems" of outputFormat "json" or "none").');
    }
  });
  return lines;
}

// Table lines in name order (schema, table, partition), whatever order the metadata listed them in.
function byName(a, b) {
  var ka = [a.schema, a.table, a.partition || ''];
  var kb = [b.schema, b.table, b.partition || ''];
  for (var i = 0; i < 3; i++) {
    if (ka[i] !== kb[i]) return ka[i] < kb[i] ? -1 : 1;
  }
  return 0;
}

function printReport(host, model, totals) {
  var line = host.out.print;
  textTable.formatPairs([
    ['Dump', model.dir],
    ['Format', model.format + (model.dumper ? ' (' + model.dumper + ')' : '')],
    ['Origin', model.origin || 'not recorded (format 1.0.x)'],
    ['Complete', model.complete ? 'yes' : 'NO: @.done.json is missing (unfinished dump)'],
    ['Contents', totals.schemas + ' schema(s), ' + totals.tables + ' table(s), ' + totals.views + ' view(s)' +
      (totals.partitions ? ', ' + totals.partitions + ' partition(s)' : '')],
    ['Data files', totals.chunks + ' (' + STATES.map(function (s) { return totals[s] + ' ' + s; }).join(', ') + ')'],
    ['Data', textTable.formatBytes(totals.dataBytesPresent) + ' of ' + textTable.formatBytes(totals.dataBytes) +
      ' (uncompressed) in usable files; ' + textTable.formatBytes(totals.fileBytes) + ' on disk'],
    ['Checked', dataCheckText(model)],
  ]).forEach(line);
  line('');
  if (model.targets.length) {
    var sorted = model.targets.slice().sort(byName);
    textTable.eachTableLine(['Table', 'Chunks', 'Stubs', 'Missing', 'Corrupt', 'Data', 'Note'], sorted.length,
      function (k) { return tableRow(sorted[k]); }, { right: [1, 2, 3, 4, 5] }, line);
    line('');
  }
  if (model.targets.some(function (t) { return tableNote(t).indexOf('latest') >= 0; })) {
    line('Tables marked "no key" have no primary or unique index: their chunks follow the server\'s scan order, so ' +
      'the highest-numbered chunks are not the newest rows.');
    line('');
  }
  if (model.problems.length) {
    line('Problems:');
    problemLines(model.problems).forEach(line);
    line('');
  }
  line('Verdict: ' + verdict(model, totals));
}

// A dump in a bucket (s3BucketName): inspect checks every data file's bytes, so every file is
// fetched into the cache first (the whole dump, said before it starts; reused by later runs).
function fromBucket(host, dumpDir, o) {
  var src = openDumpSource(host, dumpDir, o);
  // The listing names the data files (lib/remote/bucket.js bucketListing); their .idx files are asked by name.
  var data = src.source.listing.names().filter(function (n) { return !/\.(json|sql)$/.test(n); });
  var sizes = src.source.listing.sizesOf(data.concat(data.map(function (n) { return n + '.idx'; })));
  var names = [];
  var bytes = 0;
  sizes.forEach(function (size, n) { names.push(n); bytes += size; });
  host.out.print('restore.inspect reads every data file: fetching ' + names.length + ' file(s), ' + formatBytes(bytes) +
    ', from ' + src.source.source.url + ' into ' + src.dir + ' (restore.plan reads only the metadata).');
  fetchFiles(host, src.source.source, src.dir, names, sizes);
  return src.dir;
}

function inspectDump(host, dumpDir, options) {
  var o = options || {};
  if (o.s3BucketName !== undefined) dumpDir = fromBucket(host, dumpDir, o);
  else if (parseSource(dumpDir)) {
    // parseSource refuses a URL or an address with a password first (never shown). A backup host's dump
    // is no directory here: "backup@host:/x" would be reported as a missing relative path.
    throw new UserError('REMOTE_UNSUPPORTED', 'restore.inspect reads every data file of a dump here (or in a bucket: s3BucketName); ' +
      dumpDir + ' is on a backup host. restore.plan reads its metadata from there; to check its data files, run restore.inspect ' +
      'on the backup host, or copy the dump here first.', { path: dumpDir });
  }
  // The report needs no chunk file's name in the model's listing: chunks are looked up as runs.
  var model = readDumpModel(host, dumpDir, { listing: o.listing, verify: o.verify, chunksInFiles: false });
  // @.done.json as read (its text, tableDataBytes, tableRows) is for writing a load view's copy:
  // let go before the report (50,000 tables: 11 MB).
  model.done = null;
  var totals = totalsOf(model);
  settle(host, model.targets.length);
  printReport(host, model, totals);
  // The facts list every chunk: made only when asked for (lib/format/output.js).
  return function () { return inspectFacts(model, totals); };
}

module.exports = { inspectDump: inspectDump };
