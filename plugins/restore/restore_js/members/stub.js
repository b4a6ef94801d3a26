var output = require('../../lib/format/output.js');
var selectionHelp = require('../selection-help.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'stub',
  definition: {
    brief: 'Fills every missing chunk that the selection did not choose with an empty stub, in a directory you prepared.',
    details: [
      'For people who prepare a dump directory themselves (a partial download) and load it with util.loadDump: ' +
      'this WRITES into that directory. restore.load and restore.view never need it: they leave the dump untouched ' +
      'and stub in a load view of their own.',
      'Writes the stubs restore.plan lists and nothing else: the Shell\'s own 9-byte empty zstd frame for zstd ' +
      'tables (an empty gzip member for gzip, an empty file for uncompressed tables), plus an 8-zero-byte .idx ' +
      'where the .idx is missing. It never writes over an existing file, never outside the dump directory, and ' +
      'never creates a file name util.loadDump would misread. Running it twice changes nothing the second time; ' +
      'when the real file arrives later (rsync), restore.inspect shows it as present again.',
      'The facts: the plan (as restore.plan\'s), written and skipped (how many files), skippedFiles (the first 20 ' +
      'names skipped because they existed).',
      selectionHelp.SELECTION_DETAILS,
      output.OUTPUT_FORMAT_DETAILS,
      output.factsAtScaleDetails('stub'),
      'Example: restore.stub("./dump", {latest: {"shop.orders": 2}}), or from the command line: mysqlsh -- ' +
      'restore stub ./dump --latest=shop.orders:2',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (relative to the current directory or absolute)' },
      { name: 'options', type: 'dictionary', required: false, brief: 'The selection',
        options: optionTable.memberOptions('stub') },
    ],
    cli: true,
  },
  command: 'lib/commands/stub.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.stubCommand(h, args[0], options || {}); });
  },
};
