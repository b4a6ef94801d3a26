// restore.version(): which plugin, which Shell, which JS engine.
var PLUGIN_VERSION = require('../core/plugin-version.js').PLUGIN_VERSION;
var formatPairs = require('../format/text-table.js').formatPairs;

function versionReport(host) {
  var facts = { plugin: PLUGIN_VERSION, shell: host.shell.version, engine: host.shell.engine };
  formatPairs([
    ['mysqlsh-restore', facts.plugin],
    ['MySQL Shell', host.shell.longVersion || facts.shell],
    ['JS engine', facts.engine],
  ]).forEach(host.out.print);
  return facts;
}

module.exports = { versionReport: versionReport };
