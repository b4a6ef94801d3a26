// The problems inspect reports. Each is {code, message, file}: message = the fact (which table,
// which file) followed by what it means for util.loadDump and what to do, kept here once per
// code so a report can print the explanation once above many facts. A blocking problem makes
// util.loadDump stop with an error (contract §3); the others are facts the user should know.
var KINDS = {
  'dump-incomplete': { blocking: true, advice: 'util.loadDump stops at once with "Incomplete dump" (with ' +
    'waitDumpTimeout it loads what exists, waits for more and ends with "Dump timeout"). Let the dump finish, ' +
    'or copy @.done.json from the original dump.' },
  'metadata-missing': { blocking: true, advice: 'util.loadDump stops with "Dump directory is corrupted, some of ' +
    'the metadata files are missing". Copy the file from the original dump.' },
  // A name longer than a file name may be: the metadata naming it is damaged (MySQL Shell shortens long names).
  'name-too-long': { blocking: true, advice: 'util.loadDump finds no such file and stops as for a missing one ("Dump ' +
    'directory is corrupted, some of the … files are missing"). The metadata naming it was altered or damaged (MySQL Shell ' +
    'shortens the file names it writes): copy the metadata files again from the original dump.' },
  'metadata-damaged': { blocking: true, advice: 'The dump metadata was altered or damaged; util.loadDump may stop ' +
    'or load the wrong files. Copy @.done.json again from the original dump.' },
  // A member util.loadDump reads is missing or of a type it cannot cast (lib/dump/loader-json.js).
  'metadata-type': { blocking: true, advice: 'util.loadDump stops with that error before loading anything. Copy ' +
    'the file again from the original dump.' },
  'compression-unknown': { blocking: true, advice: 'util.loadDump knows only "none", "gzip" and "zstd" and stops ' +
    'with "Unknown compression type". Copy the table metadata file again from the original dump.' },
  // includesData false: the loader creates the table and never looks at its data files.
  'data-not-loaded': { blocking: false, advice: 'util.loadDump creates the table without rows and loads none of ' +
    'these files. If the rows are wanted, copy the table metadata file again from the original dump.' },
  // util.loadDump loads the tables the schema metadata lists, and no others, without a word.
  'tables-unlisted': { blocking: true, advice: 'util.loadDump loads only the schemas and tables the metadata lists ' +
    '(@.json "schemas", <schema>.json "tables"), without a word about the others: their rows would be missing. Copy ' +
    'the metadata files again from the original dump.' },
  'file-unreadable': { blocking: true, advice: 'util.loadDump fails when it opens such a file. Let the user running ' +
    'mysqlsh read it (owner, mode, ACLs), or replace it with the real file from the original dump.' },
  'chunk-missing': { blocking: true, advice: 'util.loadDump loads the chunks of a table up to the first gap, then ' +
    'fails with "Dump directory is corrupted, some of the data files are missing". Copy the files from the ' +
    'original dump, or replace them with empty stubs to load the table without their rows.' },
  'last-chunk-unknown': { blocking: true, advice: 'util.loadDump needs every chunk of a table up to the last ' +
    'one (named @@N), and fails with "some of the data files are missing" without it. Dumps of format 1.0.0, ' +
    'and unfinished ones, record no list of data files (chunkFileBytes in @.done.json): pass options.listing, ' +
    'a listing of the complete dump (ls, ls -l or rsync --list-only output from the backup host).' },
  'chunks-conflict': { blocking: true, advice: 'util.loadDump stops short of the last chunk and fails with "some ' +
    'of the data files are missing". Remove the wrong files.' },
  'chunk-corrupt': { blocking: true, advice: 'util.loadDump fails on such a file (zstd: "zstd.read: Unknown frame ' +
    'descriptor") or, when it was cut short, loads fewer rows without a word. Copy it again from the original dump.' },
  'format-unsupported': { blocking: true, advice: 'util.loadDump (MySQL Shell 8.0.27 to 9.x reads formats up to ' +
    '2.0.x) stops with "Unsupported dump version". Load it with the MySQL Shell that wrote it, or a newer one.' },
  'format-unrecorded': { blocking: false, advice: 'util.loadDump loads it as an old format (with a note); it was ' +
    'read here as format 1.0.0. MySQL Shell always writes the version: the file may have been edited.' },
  'format-newer': { blocking: false, advice: 'Facts recorded only in the newer format are not shown.' },
  // The loader takes the whole-table file as the only chunk (dump_reader.cc rescan_data): it loads
  // other rows than the chunks hold, without an error.
  'whole-and-chunked': { blocking: true, advice: 'util.loadDump loads only the whole-table file and ignores the ' +
    'chunk files, without a word. Remove the file that does not belong to the dump.' },
  'unlisted-files': { blocking: false, advice: 'util.loadDump ignores them; they may be left over from another ' +
    'dump written to the same directory.' },
};

function kind(code) {
  if (!Object.prototype.hasOwnProperty.call(KINDS, code)) throw new Error('unknown problem code ' + code);
  return KINDS[code];
}

// fact: one sentence saying what is wrong and where; file: the file concerned (or null); target:
// the table (or partition) concerned when the file does not say (e.g. an entry of @.done.json).
function makeProblem(code, fact, file, target) {
  var p = { code: code, message: fact + ' ' + kind(code).advice, file: file === undefined ? null : file, fact: fact };
  if (target) p.table = { schema: target.schema, table: target.table };
  return p;
}

function isBlocking(problem) { return kind(problem.code).blocking; }

function adviceFor(code) { return kind(code).advice; }

module.exports = { makeProblem: makeProblem, isBlocking: isBlocking, adviceFor: adviceFor };
