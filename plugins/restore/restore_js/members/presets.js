var output = require('../../lib/format/output.js');

module.exports = {
  name: 'presets',
  definition: {
    brief: 'Shows the named option sets of restore.load and restore.dump.',
    details: [
      'Built-in load presets: fastest (one thread per client CPU, all indexes deferred, no binlog, redo log off, ' +
      'tuned settings, ANALYZE TABLE afterwards; everything put back), safe (the default: no server changes, ' +
      'resumable) and dev (re-imports for developers: drop what the load creates, a fresh progress file, ' +
      'ANALYZE TABLE). Built-in dump presets: backup and dev-snapshot.',
      'Your own presets live in $MYSQLSH_USER_CONFIG_HOME/restore/presets.json (default ' +
      '~/.mysqlsh/restore/presets.json), a JSON dictionary of presets. A preset may extend a built-in one and ' +
      'override some options: {"nightly": {"extends": "fastest", "threads": 8, "description": "…"}}; one that ' +
      'extends nothing names its kind: {"tiny": {"kind": "load", "threads": 2}}. "client-cpus" as threads means ' +
      'one thread per CPU of the client machine. A mistake in the file is reported with the file and the key.',
      'The facts: preset name → kind, description, source (built-in or the file), extends, options.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.presets(), or from the command line: mysqlsh -- restore presets',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  command: 'lib/commands/presets.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], function (h) { return command.presetsReport(h); }); },
};
