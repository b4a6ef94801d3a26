var versionReport = require('../../lib/report/version-report.js').versionReport;

module.exports = {
  name: 'version',
  definition: {
    brief: 'Shows the versions of the plugin, of MySQL Shell and of its JavaScript engine.',
    details: ['Returns a dictionary with the keys plugin, shell and engine.'],
    parameters: [],
    cli: true,
  },
  run: function (host) { return versionReport(host); },
};
