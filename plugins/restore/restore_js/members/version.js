var output = require('../../lib/format/output.js');

module.exports = {
  name: 'version',
  definition: {
    brief: 'Shows the versions of the plugin, of MySQL Shell and of its JavaScript engine.',
    details: [
      'The facts: plugin, shell and engine.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.version(), or from the command line: mysqlsh -- restore version',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  command: 'lib/commands/version.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], function (h) { return command.versionReport(h); }); },
};
