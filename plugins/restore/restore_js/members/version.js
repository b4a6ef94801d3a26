var output = require('../../lib/format/output.js');
var versionReport = require('../../lib/commands/version.js').versionReport;

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
  run: function (host, args) { return output.runWithOutput(host, args[0], function (h) { return versionReport(h); }); },
};
