var output = require('../../lib/format/output.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'inspect',
  definition: {
    brief: 'Shows what a MySQL Shell dump directory holds and whether util.loadDump would load it.',
    details: [
      'Reads the dump metadata (formats 1.0.0 to 2.0.1, written by MySQL Shell 8.0.21 and later) and the ' +
      'directory listing, and reports every schema, table, view and partition with its data files. Nothing ' +
      'is loaded, nothing is written and no connection is needed.',
      'Each data file (chunk) is present, missing, stub (holds no data although the dump recorded data for ' +
      'it), empty (the chunk was empty when dumped) or corrupt (not valid data of its compression). By default ' +
      'the structure of each zstd or gzip file is walked (frame and block headers; nothing is decompressed), ' +
      'which finds truncated files and most garbage; verify: true decompresses every file in full and compares ' +
      'its size with the dump\'s record, which also finds a file cut between two frames and damage the decoder ' +
      'rejects or that changes the size (the Shell writes no checksum into its zstd files: damage that still ' +
      'decodes to the same size is found by nothing short of the original).',
      'The chunk list of a table comes from chunkFileBytes in @.done.json (dumps of format 1.0.1 and later), ' +
      'otherwise from the data files and .idx files present, plus the listing file when one is given. When ' +
      'none of these shows a table\'s last chunk (@@N), the report says so instead of guessing.',
      'A dump without @.done.json is unfinished: it is reported as incomplete and not loadable, because ' +
      'util.loadDump stops at once with "Incomplete dump".',
      'Prints one line per table (or partition): chunks usable/total, stubs, missing and corrupt files, ' +
      'uncompressed bytes usable/total, then the problems found and a verdict. The facts (outputFormat json or ' +
      'none): format, dumper, origin, complete, schemas, tables, totals, loadable, dataCheck (method: structure or ' +
      'decompressed, with files and fileBytes) and problems (one entry per problem: code, message and file; past 100 tables with missing or corrupt chunks, one entry says how many more). ' +
      'Each table (or partition) says its chunks as counts and ranges, never an entry per chunk: {schema, table, ' +
      'partition (a partition only), basename, compression, extension, chunking, primaryIndex, chunksOrderedByKey, ' +
      'rows, dataBytes, chunkSource, lastChunkKnown, chunks: how many, dataBytesUsable, states: the chunk numbers in ' +
      'each state that occurs}, e.g. {..., chunks: 12, states: {present: "0-9, 11", missing: "10"}}; chunk n is ' +
      'the file <basename>@n.<extension>, the last one <basename>@@n.<extension>. In a script: var r = ' +
      'restore.inspect("./dump", {outputFormat: "none"}); r.tables.filter(function (t) { return t.states.missing; }).',
      'listing: for a dump only part of which was copied here, when the dump does not record its chunk list (format ' +
      '1.0.0, or no @.done.json): the output of ls, ls -l or rsync --list-only taken on the backup host, one file per ' +
      'line (absolute, or relative to the current directory).',
      'Tables without a primary or unique index are chunked in the server\'s scan order: for them the ' +
      'highest-numbered chunks are not the newest rows, and the report says that "latest" means nothing there.',
      output.OUTPUT_FORMAT_DETAILS,
      output.factsAtScaleDetails('inspect'),
      'Example: restore.inspect("./dump"), restore.inspect("./dump", {verify: true}), or from the command line: ' +
      'mysqlsh -- restore inspect ./dump --listing=dump-listing.txt',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory, absolute or relative to the current directory (with ' +
        's3BucketName: the dump\'s prefix in the bucket; every data file is fetched into cacheDir to be checked)' },
      {
        name: 'options',
        type: 'dictionary',
        required: false,
        brief: 'Inspect options',
        options: optionTable.memberOptions('inspect'),
      },
    ],
    cli: true,
  },
  command: 'lib/commands/inspect.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.inspectDump(h, args[0], options); });
  },
};
