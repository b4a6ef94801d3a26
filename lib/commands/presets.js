// restore.presets(): every load and dump preset, built-in and the user's own.
var presets = require('../options/presets.js');
var formatTable = require('../format/text-table.js').formatTable;
var secrets = require('../options/secrets.js');

function optionsText(options) {
  return Object.keys(options).map(function (k) {
    var v = options[k] === presets.CLIENT_CPUS ? 'client CPUs' : secrets.isSecret(k) ? secrets.HIDDEN : JSON.stringify(options[k]);
    return k + '=' + v;
  }).join(', ');
}

// restore.presets(): prints every preset and returns them as {name: {kind, description, source, extends, options}}.
function presetsReport(host) {
  var all = presets.allPresets(host);
  ['load', 'dump'].forEach(function (kind) {
    var rows = all.filter(function (p) { return p.kind === kind; }).map(function (p) {
      return [p.name + (p.extends ? ' (extends ' + p.extends + ')' : ''), optionsText(p.options)];
    });
    host.out.print((kind === 'load' ? 'Load presets (restore.load)' : 'Dump presets (restore.dump)') + ':');
    formatTable(['preset', 'options'], rows).forEach(function (l) { host.out.print('  ' + l); });
    host.out.print('');
  });
  all.forEach(function (p) { host.out.print(p.name + ': ' + p.description); });
  var users = all.filter(function (p) { return p.source !== 'built-in'; });
  host.out.print('');
  host.out.print(users.length ? 'User presets from ' + presets.presetsFile(host) + '.'
    : 'Add your own in ' + presets.presetsFile(host) + ', e.g. {"nightly": {"extends": "fastest", "threads": 8}}.');
  host.out.print('"client CPUs" is counted when the preset is used (' + host.shell.cpuCount() + ' here).');
  var out = {};
  all.forEach(function (p) {
    out[p.name] = { kind: p.kind, description: p.description, source: p.source, extends: p.extends, options: secrets.withoutSecrets(p.options) };
  });
  return out;
}

module.exports = { presetsReport: presetsReport };
