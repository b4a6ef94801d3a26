var output = require('../../lib/report/output.js');
var serverStatus = require('../../lib/server/server-status.js').serverStatus;

module.exports = {
  name: 'status',
  definition: {
    brief: 'Shows the state of the connected server that matters for a restore.',
    details: [
      'Reports the server version and flavour, local_infile, and the InnoDB redo log state where ' +
      'the server can switch it (MySQL 8.0.21 and later), and a restore state file left behind by a restore that did ' +
      'not finish.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.status(), or from the command line: mysqlsh root@host -- restore status',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  run: function (host, args) { return output.runWithOutput(host, args[0], function (h) { return serverStatus(h); }); },
};
