var output = require('../../lib/format/output.js');

module.exports = {
  name: 'status',
  definition: {
    brief: 'Shows the state of the connected server that matters for a restore.',
    details: [
      'Reports the server version and flavour, local_infile, and the InnoDB redo log state where ' +
      'the server can switch it (MySQL 8.0.21 and later), and a restore state file left behind by a restore that did ' +
      'not finish.',
      'Also what the server itself records, so that any client sees it whatever config home holds the state file: ' +
      'restore-time settings at the values restore tuning uses that were set at runtime since the server started ' +
      '(performance_schema.variables_info: when and by whom) and are not in this client\'s state file, and LOAD DATA ' +
      'statements running on other connections (all of them with the PROCESS privilege, else your own). Facts: ' +
      'runtimeChanges and loadsRunning (null when the server cannot tell).',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.status(), or from the command line: mysqlsh root@host -- restore status',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  command: 'lib/commands/status.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], function (h) { return command.serverStatus(h); }); },
};
