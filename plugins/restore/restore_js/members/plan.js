var planCommand = require('../../lib/partial/partial-commands.js').planCommand;
var selectionOptions = require('../selection-options.js');

module.exports = {
  name: 'plan',
  definition: {
    brief: 'Plans a partial import: which data files to fetch, which to stub, which tables to skip.',
    details: [
      'Reads the dump metadata (fetch it first, e.g. rsync -a --include="*/" --include="*.json" ' +
      '--include="*.sql" --include="*.idx" --exclude="*" host:/backups/latest/ ./dump/) and applies the ' +
      'selection. Nothing in the dump directory is changed. With fetchListFile it writes the data files to ' +
      'fetch, one per line relative to the dump directory, for rsync --files-from.',
      selectionOptions.SELECTION_DETAILS,
      'Returns fetch, stub, skippedTables, tables, bytesChosen, bytesTotal and warnings.',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (relative to the current directory or absolute)' },
      { name: 'options', type: 'dictionary', required: false, brief: 'The selection, and where to write the fetch list',
        options: selectionOptions.SELECTION_OPTIONS.concat([
          { name: 'fetchListFile', type: 'string', brief: 'Write the data files to fetch to this file' }]) },
    ],
    cli: true,
  },
  run: function (host, args) { return planCommand(host, args[0], args[1] || {}); },
};
