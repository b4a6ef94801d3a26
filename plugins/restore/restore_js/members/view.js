var output = require('../../lib/format/output.js');
var selectionHelp = require('../selection-help.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'view',
  definition: {
    brief: 'Makes the load view of a partial import, for loading it with util.loadDump yourself.',
    details: [
      selectionHelp.VIEW_DETAILS,
      'restore.load makes and removes its own view; restore.view makes one and leaves it, and prints the ' +
      'util.loadDump call for it. Nothing is written into the dump, and no server is needed.',
      selectionHelp.SELECTION_DETAILS,
      selectionHelp.SOURCE_DETAILS,
      'The facts: the plan (as restore.plan\'s), view {dir, links, stubs, written, checksums} and progressFile.',
      output.OUTPUT_FORMAT_DETAILS,
      output.factsAtScaleDetails('view'),
      'Example: restore.view("/mnt/backups/2026-11-24", {latest: {"shop.orders": 2}}), or from the command line: ' +
      'mysqlsh -- restore view backup@backuphost:/backups --newest --latest=shop.*:2 --view-dir=./shop-view',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory, or user@host:/path, rsync://host/module/path' },
      { name: 'options', type: 'dictionary', required: false, brief: 'The selection, and where the view goes',
        options: optionTable.memberOptions('view') },
    ],
    cli: true,
  },
  command: 'lib/commands/view.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.viewCommand(h, args[0], options || {}); });
  },
};
