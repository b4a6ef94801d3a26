var output = require('../../lib/format/output.js');
var selectionHelp = require('../selection-help.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'plan',
  definition: {
    brief: 'Plans a partial import: which data files to fetch, which to stub, which tables to skip.',
    details: [
      'Reads the dump metadata and applies the selection: what restore.load with the same options would load, ' +
      'fetch and stub. Nothing in the dump directory is changed. For a dump on a backup host (user@host:/path) ' +
      'only its metadata is fetched, into the cache restore.load uses. With fetchListFile it writes the data files ' +
      'missing here, one per line relative to the dump directory, for rsync --files-from.',
      selectionHelp.SELECTION_DETAILS,
      selectionHelp.SOURCE_DETAILS,
      'The facts: fetch (file names), stubs (how many chunks are stubbed), skippedTables, tables (each with ' +
      'chosen and fetch file names, stubbed: how many, and stubbedChunks: their numbers as ranges, e.g. "0-97"), ' +
      'bytesChosen, bytesTotal and warnings.',
      output.OUTPUT_FORMAT_DETAILS,
      output.factsAtScaleDetails('plan'),
      'Example: restore.plan("./dump", {latest: {"shop.orders": 2}}), or from the command line: mysqlsh -- ' +
      'restore plan ./dump --latest=shop.orders:2 --fetch-list-file=fetch.txt',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (relative to the current directory or absolute), or user@host:/path, rsync://host/module/path' },
      { name: 'options', type: 'dictionary', required: false, brief: 'The selection, and where to write the fetch list',
        options: optionTable.memberOptions('plan') },
    ],
    cli: true,
  },
  command: 'lib/commands/plan.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.planCommand(h, args[0], options || {}); });
  },
};
