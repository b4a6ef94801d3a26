var output = require('../../lib/format/output.js');

module.exports = {
  name: 'revert',
  definition: {
    brief: 'Puts the server back as it was before a restore that did not finish (crash, kill, lost connection).',
    details: [
      'restore.load and restore.disableRedoLog write what they change to a state file BEFORE changing it: ' +
      '<config home>/restore/state/<server uuid>.json. restore.load puts everything back itself at the end, ' +
      'also when it fails; when it could not (the client died, the connection broke, the server refused), the ' +
      'state file is left behind and restore.status() reports it.',
      'This member enables the InnoDB redo log again if a restore disabled it, sets every recorded setting ' +
      'back to its original value, removes the replication channel restore_replay that an interrupted replay by the ' +
      'target\'s applier left (only the plugin\'s own), and removes the state file once nothing is left. What still cannot be ' +
      'put back stays in the file, and the error says what and why. Run it only when no load is running.',
      'The facts: reverted, redoLog, restored, failed, stateFile, channelRemoved.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.revert(), or from the command line: mysqlsh root@host -- restore revert',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  command: 'lib/commands/revert.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], function (h) { return command.revertMember(h); }); },
};
