var output = require('../../lib/format/output.js');
var optionTable = require('../../lib/options/option-table.js');

module.exports = {
  name: 'binlogs',
  definition: {
    brief: 'Shows what a folder of binary log files holds: files, time range, transactions per table and dangerous events.',
    details: [
      'Reads the binary log files of a folder (as copied from the server\'s data directory, or written by ' +
      'mysqlbinlog --raw) in the order of its index file (binlog.index), else by the numbers of their names ' +
      '(name.000001, …). A file that is not a binary log is named and skipped; a number missing between two ' +
      'files, or a file the index lists that is not there, is named as a gap. Nothing is written and no ' +
      'connection is needed.',
      'where may also be a backup host (backup@host:/path over ssh, rsync://host/module/path), a bucket ' +
      '(s3://bucket/prefix, or a prefix with s3BucketName) or a live server (user[:password]@host:port, read by ' +
      'mysqlbinlog --read-from-remote-server --raw): the files are copied into the plugin\'s cache, from the first ' +
      'up to the first one past until, and the report says what was fetched (fetched: files, bytes, transferred).',
      'Prints each file (bytes, transactions, first and last commit time, GTIDs), the transactions committed in ' +
      'the range (since: at or after; until: before), per table the transactions and the rows inserted, updated ' +
      'and deleted (counted from the row events), and the dangerous events: DROP TABLE, DROP DATABASE, TRUNCATE, ' +
      'ALTER TABLE … DROP, and a transaction deleting or updating at least manyRows rows of one table, each with ' +
      'its commit time, GTID and file:position (where its transaction starts). tables narrows both lists.',
      'Times are read and shown in the connected server\'s time zone, or in UTC without a session (the report ' +
      'says which); a time with an offset ("2026-11-24 10:42:00+01:00", "…Z") is taken as given. A commit ' +
      'time is the immediate_commit_timestamp the server wrote (microseconds).',
      'The facts (outputFormat json or none): folder, order, timeZone, tableFilter, files (name, size, previousGtids, gtids, ' +
      'transactions, firstCommit, lastCommit in microseconds UTC and as text, error), skipped, missing, ' +
      'transactions, first, last, tables (table, transactions, inserted, updated, deleted), dangerous (kind, ' +
      'time, timeText, gtid, file, position, end, tables, schema, statement, rows) and undecoded (what the reader ' +
      'could not decode, e.g. a compressed transaction without the zstd program).',
      output.OUTPUT_FORMAT_DETAILS,
      'Example: restore.binlogs("/backups/binlogs", {until: "2026-11-24 10:42:00", tables: ["shop.*"]}), or from ' +
      'the command line: mysqlsh -- restore binlogs /backups/binlogs --until="2026-11-24 10:42:00"',
    ],
    parameters: [
      { name: 'where', type: 'string', brief: 'The folder of binary log files, host:/path, rsync://…, s3://bucket/prefix or user@host:port' },
      {
        name: 'options',
        type: 'dictionary',
        required: false,
        brief: 'Binlogs options',
        options: optionTable.memberOptions('binlogs'),
      },
    ],
    cli: true,
  },
  command: 'lib/commands/binlogs.js',
  run: function (host, args, command) {
    return output.runWithOutput(host, args[1], function (h, options) { return command.binlogsCommand(h, args[0], options); });
  },
};
