var stubCommand = require('../../lib/partial/partial-commands.js').stubCommand;
var selectionOptions = require('../selection-options.js');

module.exports = {
  name: 'stub',
  definition: {
    brief: 'Fills every missing chunk that the selection did not choose with an empty stub.',
    details: [
      'Writes the stubs restore.plan lists and nothing else: the Shell\'s own 9-byte empty zstd frame for zstd ' +
      'tables (an empty gzip member for gzip, an empty file for uncompressed tables), plus an 8-zero-byte .idx ' +
      'where the .idx is missing. It never writes over an existing file, never outside the dump directory, and ' +
      'never creates a file name util.loadDump would misread. Running it twice changes nothing the second time; ' +
      'when the real file arrives later (rsync), restore.inspect shows it as present again.',
      selectionOptions.SELECTION_DETAILS,
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (relative to the current directory or absolute)' },
      { name: 'options', type: 'dictionary', required: false, brief: 'The selection',
        options: selectionOptions.SELECTION_OPTIONS },
    ],
    cli: true,
  },
  run: function (host, args) { return stubCommand(host, args[0], args[1] || {}); },
};
