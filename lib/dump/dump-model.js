// The model of one dump directory: what its metadata says (format, origin, schemas, tables,
// partitions), which data files each table or partition has and in which state each one is,
// the problems util.loadDump would meet, and whether it would load the directory at all.
// Host calls are batched: a few checks, one directory listing, one read of first bytes for
// every data file that needs it, and (format 1.0.0 only) one read of .idx files; the rest is
// O(number of files).
var UserError = require('../core/user-error.js').UserError;
var paths = require('./dump-paths.js');
var metadata = require('./dump-metadata.js');
var readCatalog = require('./dump-catalog.js').readCatalog;
var parsedDocuments = require('./dump-catalog.js').parsedDocuments;
var chunkList = require('./chunk-list.js');
var chunkSurvey = require('./chunk-survey.js');
var problemsOf = require('./dump-problems.js');
var unlistedFiles = require('./unlisted-files.js').unlistedFiles;
var eachEntry = require('../core/listing.js').eachEntry;
var fileSet = require('../core/listing.js').fileSet;
var settle = require('../core/memory.js').settle;
var chunkNames = require('./chunk-names.js');
var readDoneFile = require('./done-file.js').readDoneFile;
var doneTypeProblems = require('./done-file.js').doneTypeProblems;
var tableFigures = require('./done-file.js').tableFigures;
var releaseText = require('./done-file.js').releaseText;
var chunkTable = require('./chunk-table.js');
var isComplete = require('./dump-complete.js').isComplete;
var displayTable = require('../format/display-name.js').displayTable;

function checkDumpDir(host, dumpDir) {
  if (dumpDir === '') throw new UserError('ARGUMENT_MISSING', 'No dump directory given: pass the directory holding @.json.');
  var dir = paths.resolveDumpDir(host, dumpDir);
  if (!host.files.isDir(dir)) {
    if (host.files.isFile(dir)) {
      throw new UserError('NOT_A_DUMP', dir + ' is a file, not a directory: give the dump directory (the one holding @.json).',
        { path: dir });
    }
    // Something that is neither (a device such as /dev/null, a pipe, a socket) says what it is.
    var st = host.files.stat([dir]);
    var special = st.errors.length ? st.errors[0][2] : null;
    if (special) {
      throw new UserError('NOT_A_DUMP', dir + ' is ' + special + ', not a directory: give the dump directory (the one holding @.json).',
        { path: dir });
    }
    var relative = host.files.isAbs(dumpDir) ? '' : ' (' + JSON.stringify(dumpDir) + ' is taken relative to the ' +
      'current directory ' + host.files.cwd() + ')';
    throw new UserError('DUMP_NOT_FOUND', 'The dump directory ' + dir + ' does not exist' + relative + '.', { path: dir });
  }
  var pathOf = paths.pathMaker(host, dir);
  if (!host.files.isFile(pathOf('@.json'))) {
    // An unreadable directory also hides @.json: say that, not "no @.json".
    try {
      host.files.list(dir, { noSizeFor: [''] });
    } catch (e) {
      throw new UserError('DUMP_UNREADABLE', 'Cannot read the dump directory ' + dir + ': ' + ((e && e.message) || e) + '. Check its permissions.',
        { path: dir });
    }
    throw new UserError('NOT_A_DUMP', dir + ' is not a MySQL Shell dump: it has no @.json (the file util.dumpInstance, ' +
      'util.dumpSchemas and util.dumpTables write first). Give the directory the dump was written to.', { path: dir });
  }
  return { dir: dir, pathOf: pathOf };
}

// name -> size of every file. A stat per file is most of the cost of listing a big dump: DDL
// scripts never need a size, and .idx files only when chunkFileBytes does not record the sizes.
// Entries that cannot be stat'ed (a dangling symlink, a symlink loop) go to `broken`.
// omit: 'chunks' leaves chunk files out (see chunkNames.CHUNK_LIKE), the ones needed are then
// looked up one by one (addFiles); 'idx' leaves out the chunks' .idx files, which say nothing
// chunkFileBytes does not (half of a big dump's names: 100,000 names cost mysqlsh 15 MB).
// counts (when given) gets {omitted, omittedIdx}: how many names the listing left out, and how
// many of them are .idx files.
function listFiles(host, dir, done, broken, omit, counts) {
  var opts = { noSizeFor: done.chunkList ? ['.sql', '.idx'] : ['.sql'], joined: true };
  if (omit === 'chunks') opts.omitMatching = chunkNames.CHUNK_LIKE;
  if (omit === 'idx') opts.omitMatching = chunkNames.CHUNK_IDX_LIKE;
  if (omit) opts.countEnding = '.idx';
  var entries;
  try {
    entries = host.files.list(dir, opts);
  } catch (e) {
    throw new UserError('DUMP_UNREADABLE', 'Cannot list the dump directory ' + dir + ': ' + ((e && e.message) || e) + '.',
      { path: dir });
  }
  // Without a string made per name (lib/core/listing.js fileSet).
  var sizes = fileSet(entries, function (i, isDir, error, size) { return isListed(isDir, error, size); });
  entries.errors.slice().sort(function (a, b) { return a[0] - b[0]; }).forEach(function (e) {
    broken.push(brokenEntry(sizes.nameAt(e[0]), sizes.sizeAt(e[0]), entries.dirs.indexOf(e[0]) >= 0, e[1], e[2]));
  });
  if (counts) { counts.omitted = entries.omitted || 0; counts.omittedIdx = entries.omittedEnding || 0; }
  return sizes;
}

// special: what a non-regular entry is ("a named pipe"), as the host says, else null.
function addEntry(sizes, broken, name, size, isDir, error, special) {
  if (error) broken.push(brokenEntry(name, size, isDir, error, special));
  if (isListed(isDir, error, size)) sizes.set(name, size);
}

// Whether an entry is one of the files: an unreadable file is there (not missing: nothing may be
// written in its place).
function isListed(isDir, error, size) { return !isDir && (!error || size !== null); }

function brokenEntry(name, size, isDir, error, special) {
  return { name: name, size: size, isDir: isDir, error: error, special: special || null };
}

// name -> whether a listing made with `omit` (listFiles) may have left that name out.
function omittedBy(omit) {
  var re = omit === 'chunks' ? new RegExp(chunkNames.CHUNK_LIKE) : omit === 'idx' ? new RegExp(chunkNames.CHUNK_IDX_LIKE) : null;
  return function (name) { return re !== null && re.test(name); };
}

// Adds to sizes (and broken) what the directory holds at these names.
function addFiles(host, pathOf, names, sizes, broken) {
  if (!names.length) return;
  var found = host.files.stat(names.map(pathOf));
  eachEntry({ names: names, sizes: found.sizes, dirs: found.dirs, errors: found.errors }, function (name, size, isDir, error, special) {
    if (size !== null || error) addEntry(sizes, broken, name, size, isDir, error, special); // else not there
  });
}

// With a survey (a load view reads only the chunks it loads) and chunkFileBytes (which names every
// data file), a big dump's listing leaves the chunk files out: the ones surveyed, and their .idx
// files, are looked up afterwards. Measured with 100,000 chunks: 25 MB and 0.4 s less.
function surveyedFiles(host, pathOf, targets, surveyedFrom, sizes, broken) {
  var names = [];
  targets.forEach(function (t) {
    for (var i = surveyedFrom(t); i < t.chunks.length; i++) {
      var file = chunkTable.fileOf(t.chunks, i);
      if (!sizes.has(file)) names.push(file, file + '.idx');
    }
  });
  addFiles(host, pathOf, names, sizes, broken);
}

function brokenProblems(broken) {
  return broken.slice(0, 20).map(function (e) {
    // util.loadDump lists regular files only (mysqlshdk/libs/storage/backend/directory.cc
    // filter_files): such an entry is missing for it.
    if (e.special) {
      return problemsOf.makeProblem('file-unreadable', e.name + ' is not a regular file (' + e.special +
        '): util.loadDump does not see it, as if the file were missing.', e.name);
    }
    var tooLong = paths.tooLongFact(e.name, 'the metadata');
    if (tooLong) return problemsOf.makeProblem('name-too-long', tooLong, e.name);
    if (e.size !== null) {
      return problemsOf.makeProblem('file-unreadable', e.name + ' cannot be read by the user running mysqlsh (' +
        e.error + ').', e.name);
    }
    return problemsOf.makeProblem('file-unreadable', e.name + ' cannot be read (' + e.error + '): a dangling ' +
      'symbolic link, a symbolic link loop or an unreadable entry.', e.name);
  });
}

function readListing(host, file) {
  var f = host.files;
  var full = f.normpath(f.isAbs(file) ? file : f.join(f.cwd(), file));
  if (!f.isFile(full)) {
    throw new UserError('PATH_MISSING', 'The listing file ' + full + ' (options.listing) does not exist or is not a file.',
      { option: 'listing', path: full });
  }
  return chunkList.parseListing(f.loadText(full));
}

function incompleteProblem() {
  return problemsOf.makeProblem('dump-incomplete', 'The dump is unfinished: @.done.json, which MySQL Shell ' +
    'writes last, is missing.', '@.done.json');
}

function newerFormatProblem(format) {
  var newest = metadata.NEWEST_FORMAT;
  return problemsOf.makeProblem('format-newer', 'The dump format ' + format + ' is newer than ' + newest +
    ', the newest this plugin knows; it was read as ' + newest + '.', '@.json');
}

function formatProblems(format) {
  if (format.unsupported) {
    return [problemsOf.makeProblem('format-unsupported', 'The dump format ' + format.format + ' is newer than 2.0.x.', '@.json')];
  }
  if (format.unrecorded) {
    return [problemsOf.makeProblem('format-unrecorded', '@.json records no dump format version ("version").', '@.json')];
  }
  return format.newerThanKnown ? [newerFormatProblem(format.format)] : [];
}

// The members of @.json and @.done.json util.loadDump would stop on (loader-json.js). figures: the
// done file's tableFigures.
function loaderTypeProblems(root, doneFile, figures) {
  var out = [];
  metadata.rootTypeProblems(root, function (fact) { out.push(problemsOf.makeProblem('metadata-type', fact, '@.json')); });
  if (doneFile) doneTypeProblems(doneFile, function (fact) { out.push(problemsOf.makeProblem('metadata-type', fact, '@.done.json')); }, figures);
  return out;
}

// What util.loadDump finds by name beside the chunks the model knows (dump_reader.cc
// Table_data_info::rescan_data, 9.1.0): the whole-table name first (then it looks no further),
// and after chunks 0..N-1 the plain @N before @@N (then it never finds the last chunk); a table
// whose metadata says includesData: false has its data files ignored. Two names per table or
// partition are asked, whatever the number of chunks; a name is looked up only when the listing
// may have left it out (omitted(name)), a slice of targets at a time: 100,000 names and their
// paths made at once lived long enough to be kept by mysqlsh's heap (50,000 tables).
var LOOKUP_SLICE = 2000;

function nameProblems(host, pathOf, targets, sizes, broken, omitted) {
  function ask(names, n) { if (!sizes.has(n) && omitted(n)) names.push(n); }
  for (var from = 0; from < targets.length; from += LOOKUP_SLICE) {
    var names = [];
    for (var i = from; i < targets.length && i < from + LOOKUP_SLICE; i++) {
      var t = targets[i];
      if (t.ext === null) continue;
      ask(names, chunkNames.wholeFileName(t.base, t.ext));
      if (!t.includesData) {
        ask(names, chunkNames.chunkFileName(t.base, t.ext, 0, false));
        ask(names, chunkNames.chunkFileName(t.base, t.ext, 0, true));
      } else if (t.chunking && t.lastChunkKnown && t.chunks.length) {
        ask(names, chunkNames.chunkFileName(t.base, t.ext, t.chunks.length - 1, false));
      }
    }
    addFiles(host, pathOf, names, sizes, broken);
  }
  var out = [];
  targets.forEach(function (t) {
    if (t.ext === null) return;
    var name = displayTable(t.schema, t.table, t.partition);
    var whole = chunkNames.wholeFileName(t.base, t.ext);
    if (!t.includesData) {
      var found = [whole, chunkNames.chunkFileName(t.base, t.ext, 0, false), chunkNames.chunkFileName(t.base, t.ext, 0, true)]
        .filter(function (n) { return sizes.has(n); });
      if (found.length) {
        out.push(problemsOf.makeProblem('data-not-loaded', name + ': ' + t.info.metadataFile + ' says "includesData": ' +
          'false, but its data files are there (' + found[0] + '); its rows are not loaded.', t.info.metadataFile, t));
      }
      return;
    }
    if (!t.chunking || !t.chunks.length) return;
    if (sizes.has(whole) && t.chunkSource === 'chunkFileBytes') {
      out.push(problemsOf.makeProblem('whole-and-chunked', name + ': both the whole-table file ' + whole +
        ' and chunk files exist.', whole, t));
    }
    var twin = chunkNames.chunkFileName(t.base, t.ext, t.chunks.length - 1, false);
    if (t.lastChunkKnown && sizes.has(twin)) {
      out.push(problemsOf.makeProblem('chunks-conflict', name + ': both ' + twin + ' and ' +
        chunkTable.fileOf(t.chunks, t.chunks.length - 1) + ' exist: util.loadDump takes ' + twin + ' as a chunk ' +
        'and then finds no last chunk.', twin, t));
    }
  });
  return out;
}

// Tables whose data @.done.json records (tableDataBytes: the dumper writes an entry for every table
// it dumped) but which no schema metadata lists: util.loadDump never looks for them
// (dump_reader.cc: the tables come from <schema>.json "tables" only). figures: tableFigures, or null.
function unlistedTables(figures, catalog) {
  var recorded = figures && figures.tableDataBytes;
  if (!recorded || typeof recorded !== 'object' || Array.isArray(recorded)) return [];
  var tablesOf = function (schema) {
    var tables = Object.prototype.hasOwnProperty.call(recorded, schema) ? recorded[schema] : null;
    return tables && typeof tables === 'object' && !Array.isArray(tables) ? tables : null;
  };
  // Usually every table recorded is listed: counted first, without a text made per table (50,000 tables).
  var recordedCount = 0;
  Object.keys(recorded).forEach(function (schema) { if (tablesOf(schema)) recordedCount += Object.keys(tablesOf(schema)).length; });
  var listedCount = 0;
  catalog.tables.forEach(function (t) {
    if (tablesOf(t.schema) && Object.prototype.hasOwnProperty.call(tablesOf(t.schema), t.table)) listedCount++;
  });
  if (listedCount === recordedCount) return [];
  var listed = new Set(catalog.tables.map(function (t) { return JSON.stringify([t.schema, t.table]); }));
  var out = [];
  Object.keys(recorded).forEach(function (schema) {
    var tables = recorded[schema];
    if (!tables || typeof tables !== 'object' || Array.isArray(tables)) return;
    var entry = catalog.schemas.find(function (s) { return s.schema === schema; });
    Object.keys(tables).forEach(function (table) {
      if (listed.has(JSON.stringify([schema, table])) || out.length >= 20) return;
      var where = entry ? entry.basename + '.json does not list it in "tables"' : '@.json does not list its schema in "schemas"';
      out.push(problemsOf.makeProblem('tables-unlisted', '@.done.json records ' + tables[table] + ' bytes of data of ' +
        displayTable(schema, table) + ', but ' + where + '.', entry ? entry.basename + '.json' : '@.json', { schema: schema, table: table }));
    });
  });
  return out;
}

// The catalog of the metadata (dump-catalog.js), from a listing of the directory: sizes (name ->
// size) and broken as listFiles made them; chunksOmitted: the listing left chunk files out, so a
// metadata file whose name looks like a chunk's is looked up on its own. parsed: documents
// already read (readCatalog's ctx.parsed), or null.
function catalogOf(host, opened, root, done, listed, parsed, options) {
  var chunkLike = new RegExp(chunkNames.CHUNK_LIKE);
  return readCatalog({ host: host, pathOf: opened.pathOf, root: root, done: done, parsed: parsed,
    tableDocuments: !!(options && options.tableDocuments), schemaDocuments: !!(options && options.schemaDocuments),
    exists: function (name) {
      if (!listed.sizes.has(name) && listed.chunksOmitted && chunkLike.test(name)) {
        addFiles(host, opened.pathOf, [name], listed.sizes, listed.broken);
      }
      // An entry util.loadDump does not list (a pipe, a socket, a device: not a regular file) is
      // missing for it; reading one could block.
      return listed.sizes.has(name) && !listed.broken.some(function (e) { return e.name === name && e.special; });
    } });
}

// What both readers give from the metadata (readDumpModel adds the data files' facts).
function metadataPart(opened, root, format, complete, catalog) {
  return {
    dir: opened.dir,
    format: format.format,
    dumper: typeof root.dumper === 'string' ? root.dumper : null,
    origin: metadata.dumpOrigin(root),
    complete: complete,
    // When the dump was taken (@.json "begin"), as it records it.
    begin: typeof root.begin === 'string' ? root.begin : null,
    rootJson: root, // @.json as parsed (a load view under schemaMap writes a copy of its own)
    schemas: catalog.schemas,
    tables: catalog.tables,
    targets: catalog.targets,
  };
}

// options: {listing: path or undefined, chunksInFiles: false when the caller never needs the chunk
// files (nor their .idx files) in `files` (restore.inspect, restore.stub: their sizes are in the
// chunk tables, and a million names cost memory), listingNames: names of the complete dump (a remote listing:
// [name] or () -> [name], asked only when @.done.json does not name a table's data files), verify: true to decompress every present data file,
// surveyedFrom: target -> the first chunk number to read, to read only the newest chunks (see chunk-survey.js),
// idxFiles: list the chunks' .idx files although chunkFileBytes records the sizes,
// tableDocuments: keep every schema and table JSON as parsed (entry.json, info.json; a load that rewrites
// them: schemaMap, masks), schemaDocuments: keep the schema JSONs (a model read again with metadataFrom),
// metadataFrom: a model of the same directory read earlier in this command, whose metadata has not
// changed since (a remote dump's cache, read again once chosen data files are fetched): its
// parsed @.json, @.done.json and schema and table JSONs are taken as they are, not read again}.
function readDumpModel(host, dumpDir, options) {
  var opened = checkDumpDir(host, dumpDir);
  var pathOf = opened.pathOf;
  var earlier = options && options.metadataFrom ? options.metadataFrom : null;
  var root = earlier ? earlier.rootJson : metadata.readJsonFile(host, pathOf('@.json'));
  var format = metadata.checkFormat(root, pathOf('@.json'));
  // @.done.json is written last: without it the dump is unfinished (a reported problem, not an error).
  var complete = earlier ? earlier.complete : isComplete(host, pathOf);
  var doneFile = earlier ? earlier.done : complete ? readDoneFile(host, pathOf('@.done.json')) : null;
  var done = metadata.doneFacts(doneFile, null);
  var broken = [];
  var surveyedFrom = options && options.surveyedFrom ? options.surveyedFrom : null;
  // restore.stub (idxFiles) writes the .idx files a chunk lacks: it must see them.
  var idxNeeded = !!(options && options.idxFiles);
  // Without chunk files in `files`, every chunk named by chunkFileBytes (from surveyedFrom on) is
  // looked up afterwards as runs of numbers, and read in the same pass (chunk-survey.js
  // surveyChunkFiles): no name made per chunk (restore.plan of 100,000 chunks: 70 MB less peak).
  var byRuns = !!done.chunkList && !!options && options.chunksInFiles === false;
  // A load view needs the surveyed chunks' names in `files` (it links them): looked up by name.
  var lean = !byRuns && !!(surveyedFrom && done.chunkList);
  var omit = lean || byRuns ? 'chunks' : done.chunkList && !idxNeeded ? 'idx' : null;
  var listed = {};
  var sizes = listFiles(host, opened.dir, done, broken, omit, listed);
  settle(host, sizes.size + (listed.omitted || 0));
  // Each table's figures (tableDataBytes, tableRows) are parsed for the catalog and the checks that
  // read them, then let go: a table entry keeps its own (a load view parses them again).
  var figures = doneFile ? tableFigures(doneFile) : null;
  var typeProblems = loaderTypeProblems(root, doneFile, figures);
  var catalog = catalogOf(host, opened, root, metadata.doneFacts(doneFile, figures), { sizes: sizes, broken: broken,
    chunksOmitted: omit === 'chunks' }, earlier ? parsedDocuments(earlier) : null, options);
  var tablesUnlisted = unlistedTables(figures, catalog);
  figures = null;
  settle(host, catalog.targets.length);
  var listingNames = options && options.listing ? readListing(host, options.listing)
    : (options && options.listingNames) || null;

  var fileNames = function () {
    // The rare table chunkFileBytes says nothing about is found by its files: list them all.
    if (lean || byRuns) { lean = byRuns = false; sizes = listFiles(host, opened.dir, done, broken = [], omit = null); }
    return sizes.keys();
  };
  var listProblems = chunkList.buildChunkLists(catalog.targets,
    { chunkList: done.chunkList, fileNames: fileNames, listingNames: listingNames });
  // The chunk lists were the last walk of the text: what a load view walks again is read from the file.
  if (doneFile) releaseText(doneFile);
  settle(host, catalog.targets.length);
  if (lean) surveyedFiles(host, pathOf, catalog.targets, surveyedFrom, sizes, broken);
  var stateCtx = { sizes: sizes, dir: opened.dir, pathOf: pathOf,
    tableBytes: function (t) { return t.partition === null ? t.info.dataBytes : null; },
    surveyedFrom: surveyedFrom,
    verify: options && options.verify ? { threads: Number(host.shell.cpuCount()) || 1 } : null };
  var verified = null;
  if (byRuns) {
    var survey = chunkSurvey.surveyChunkFiles(host, catalog.targets, stateCtx, broken);
    verified = survey.verified;
    // Chunk-like files no chunk list names (leftovers of another dump): listed the usual way, to be
    // reported, and the states made again from that listing.
    // Not with surveyedFrom: the chunks before it are not looked up (as a load view's listing, which
    // leaves every chunk file out, it does not report leftovers).
    if (!surveyedFrom && survey.found < listed.omitted - listed.omittedIdx) {
      byRuns = false;
      sizes = stateCtx.sizes = listFiles(host, opened.dir, done, broken = [], omit = idxNeeded ? null : 'idx');
    }
  }
  if (!byRuns) {
    stateCtx.unreadable = new Map(broken.map(function (e) { return [e.name, e.error]; }));
    stateCtx.notRegular = new Set(broken.filter(function (e) { return e.special; }).map(function (e) { return e.name; }));
    verified = chunkSurvey.assignStates(host, catalog.targets, stateCtx);
  }
  settle(host, catalog.targets.length);
  var problems = [];
  if (!complete) problems.push(incompleteProblem());
  problems = problems.concat(brokenProblems(broken));
  problems = problems.concat(formatProblems(format), typeProblems);
  problems = problems.concat(catalog.problems, listProblems, chunkSurvey.stateProblems(catalog.targets));
  problems = problems.concat(nameProblems(host, pathOf, catalog.targets, sizes, broken, omittedBy(omit)));
  problems = problems.concat(tablesUnlisted);
  var unlisted = unlistedFiles(sizes, catalog.schemas);
  if (unlisted) problems.push(unlisted);

  var model = metadataPart(opened, root, format, complete, catalog);
  model.recordedDataBytes = done.dataBytes;
  // When the dump finished (@.done.json "end"), as it records it.
  model.end = doneFile && typeof doneFile.json.end === 'string' ? doneFile.json.end : null;
  model.done = doneFile; // @.done.json as read by done-file.js (a load view writes its own copy from it)
  model.problems = problems;
  model.loadable = !problems.some(problemsOf.isBlocking);
  model.files = sizes; // name -> size (null where not needed) of every file, from the one listing
  // (with a survey, of the chunk files only those surveyed: a load view stubs the others;
  // with chunksInFiles false, usually none of them)
  model.verified = verified; // null, or {files, fileBytes} decompressed in full
  return model;
}

// The metadata part of the model alone, for what needs no data file (restore.analyze of a dump's
// tables): the same checks and catalog (schemas, tables, views, routines, events, table settings
// and histograms, each JSON read once), from a listing without the chunk files; @.done.json is
// not read (it can be large): rows, data bytes, chunk lists and states are left out (targets
// have no chunks). Returns {dir, format, dumper, origin, complete, begin, rootJson, schemas,
// tables, targets, problems (the metadata's), files}.
function readDumpMetadata(host, dumpDir) {
  var opened = checkDumpDir(host, dumpDir);
  var pathOf = opened.pathOf;
  var root = metadata.readJsonFile(host, pathOf('@.json'));
  var format = metadata.checkFormat(root, pathOf('@.json'));
  var done = metadata.doneFacts(null);
  var broken = [];
  var sizes = listFiles(host, opened.dir, done, broken, 'chunks');
  var catalog = catalogOf(host, opened, root, done, { sizes: sizes, broken: broken, chunksOmitted: true }, null);
  var model = metadataPart(opened, root, format, isComplete(host, pathOf), catalog);
  model.problems = brokenProblems(broken).concat(formatProblems(format), loaderTypeProblems(root, null, null), catalog.problems);
  model.files = sizes;
  return model;
}

// Each table's data bytes as @.done.json records them (restore.load's levers weigh the dump by
// them): (schema, table) -> bytes or null; null when the dump has no @.done.json. doneFile: the one
// readDumpModel read already (model.done), else it is read here.
function recordedTableBytes(host, dumpDir, doneFile) {
  if (!doneFile) {
    var pathOf = checkDumpDir(host, dumpDir).pathOf;
    if (!isComplete(host, pathOf)) return null;
    doneFile = readDoneFile(host, pathOf('@.done.json'));
  }
  return metadata.doneFacts(doneFile, tableFigures(doneFile)).tableDataBytes;
}

module.exports = { readDumpModel: readDumpModel, readDumpMetadata: readDumpMetadata, recordedTableBytes: recordedTableBytes };
