var output = require('../../lib/format/output.js');

module.exports = {
  name: 'disableRedoLog',
  definition: {
    brief: 'Disables the InnoDB redo log (MySQL 8.0.21+) for a load you run yourself; records it for restore.status().',
    details: [
      'ALTER INSTANCE DISABLE INNODB REDO_LOG makes bulk loads 2-3 times faster, and makes the server NOT crash ' +
      'safe: a crash while it is off means rebuilding the instance, and clone and backup tools fail meanwhile. ' +
      'restore.load with redoLog: "off" does this for you and always enables it again; use this member only ' +
      'for loads you run some other way, and restore.enableRedoLog() right after.',
      'Refused, unless force: true, on a server that serves others (a replica, a source with replicas ' +
      'connected, read_only or super_read_only ON, a Group Replication member), and when the account lacks ' +
      'the INNODB_REDO_LOG_ENABLE privilege (the GRANT statement to run is shown). The change is recorded in ' +
      'the restore state file first, so restore.status() reports it and restore.revert() undoes it.',
      'On servers without the switch (MariaDB, MySQL before 8.0.21) it says so and does nothing. The facts: ' +
      'supported, before, after.',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.disableRedoLog(), load, then restore.enableRedoLog(); from the command line: mysqlsh ' +
      'root@host -- restore disable-redo-log',
    ],
    parameters: [
      { name: 'options', type: 'dictionary', required: false, brief: 'Options',
        options: [{ name: 'force', type: 'bool', brief: 'Disable it although the server looks like it serves others (default: false)' },
          output.outputFormatOption()] },
    ],
    cli: true,
  },
  command: 'lib/commands/disable-redo-log.js',
  run: function (host, args, command) { return output.runWithOutput(host, args[0], command.disableRedoLogMember); },
};
