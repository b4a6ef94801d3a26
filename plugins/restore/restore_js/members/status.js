var serverStatus = require('../../lib/server/server-status.js').serverStatus;

module.exports = {
  name: 'status',
  definition: {
    brief: 'Shows the state of the connected server that matters for a restore.',
    details: [
      'Reports the server version and flavour, local_infile, and the InnoDB redo log state where ' +
      'the server can switch it (MySQL 8.0.21 and later). Returns the same facts as a dictionary.',
    ],
    parameters: [],
    cli: true,
  },
  run: function (host) { return serverStatus(host); },
};
