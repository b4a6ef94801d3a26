var output = require('../../lib/format/output.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'load',
  definition: {
    brief: 'Loads a MySQL Shell dump with util.loadDump, fast and safely: presets, redo log guard, tuning, drop, analyze.',
    details: [
      'Runs in phases, each timed: preflight (checks only), prepare, server steps, drop, util.loadDump, replay, ' +
      'developer slices, analyze, members, and revert, which ALWAYS runs: every changed setting is put back (saved ' +
      'first, for restore.revert() after a crash).',
      'Options come from a preset (restore.presets(); default "safe": no server changes) overridden by the options ' +
      'given; by section: ' + optionTable.sectionIndex('load').join(' '),
      'The server is changed only where that cannot cost more than this load (the plan says why, lever by lever); a ' +
      'replica or group secondary is refused; every member is verified. With latest, since, mask, schemaMap or ' +
      'definers util.loadDump loads a load view of the plugin\'s own: nothing is written into the dump. binlogs: ' +
      'replayed after the load. restore.plan: the plan; docs/options.md: each option.',
      'Examples: restore.load("./dump", {preset: "fastest"}); restore.load("backup@backuphost:/backups", {newest: ' +
      'true, latest: {"shop.*": 2}, preset: "dev"}); mysqlsh root@host -- restore load ./dump ' +
      '--since=shop.events.at:30d --mask=shop.customers.email:email --preset=dev',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (absolute or relative to the current directory), or a dump on a backup host: user@host:/path, rsync://host/module/path' },
      { name: 'options', type: 'dictionary', required: false, brief: 'restore.load options and util.loadDump options',
        options: optionTable.memberOptions('load') },
    ],
    cli: true,
  },
  command: 'lib/commands/load.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) {
      return command.runLoad(h, args[0], options);
    });
  },
};
