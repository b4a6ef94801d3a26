var output = require('../../lib/format/output.js');

module.exports = {
  name: 'enableRedoLog',
  definition: {
    brief: 'Enables the InnoDB redo log again (MySQL 8.0.21+), whoever disabled it.',
    details: [
      'ALTER INSTANCE ENABLE INNODB REDO_LOG, if the redo log is off, and removes the record of it from the ' +
      'restore state file. Run it once no load is running. restore.revert() does this too, and also puts back ' +
      'the settings a restore changed.',
      'On servers without the switch (MariaDB, MySQL before 8.0.21) it says so and does nothing. The facts: ' +
      'supported, before, after.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.enableRedoLog(), or from the command line: mysqlsh root@host -- restore enable-redo-log',
    ],
    parameters: output.outputOnlyParameters(),
    cli: true,
  },
  // The member takes no options but outputFormat: nothing else reaches lib/.
  command: 'lib/commands/enable-redo-log.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], function (h) { return command.enableRedoLogMember(h); }); },
};
