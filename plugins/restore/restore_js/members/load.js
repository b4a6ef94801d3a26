var output = require('../../lib/format/output.js');
var load = require('../../lib/commands/load.js');
var optionTable = require('../../lib/options/option-table.js');
var selectionOptions = require('../selection-options.js');

module.exports = {
  name: 'load',
  definition: {
    brief: 'Loads a MySQL Shell dump with util.loadDump, fast and safely: presets, redo log guard, tuning, drop, analyze.',
    details: [
      'Runs in phases and reports the time of each: preflight (checks only, privileges for every planned step ' +
      'included; nothing changes), prepare (stubs), server steps (tuning, redo log), drop existing (with ' +
      'dropExisting; last, once everything fallible has succeeded), util.loadDump, analyze, and revert, which ALWAYS ' +
      'runs: the redo log is enabled again and every changed setting is put back, also when util.loadDump or ' +
      'any other step fails or is interrupted. The report ends with the rows of each table, the settings changed ' +
      'and put back, and the redo log state before and after.',
      'Options come from a preset (restore.presets(); default "safe": no server changes) overridden by the ' +
      'options given. Every util.loadDump option is passed through unchanged, after a check that the running ' +
      'MySQL Shell knows it (a misspelled name gets the nearest valid one suggested).',
      'redoLog: "off" disables the InnoDB redo log during the load (MySQL 8.0.21 and later; needs the ' +
      'INNODB_REDO_LOG_ENABLE privilege, checked first). It is disabled only if it was on. On servers without the ' +
      'switch (MariaDB, older MySQL) the load goes on with it on, and says so.',
      'tune: true sets local_infile, innodb_flush_log_at_trx_commit, sync_binlog, innodb_adaptive_hash_index, ' +
      'innodb_io_capacity(_max) and innodb_redo_log_capacity for the load, where the server has them. The ' +
      'original values are written to <config home>/restore/state/<server uuid>.json BEFORE anything changes, ' +
      'so restore.revert() can put them back after a crash. Settings that need a restart are printed as my.cnf ' +
      'advice, never changed.',
      'Replicated targets: the preflight reads the topology (standalone, source with replicas connected, replica, ' +
      'Group Replication primary or secondary, InnoDB Cluster / ReplicaSet) and the plan prints it with what follows. ' +
      'A load pointed at a replica, a group secondary or a super_read_only server is refused before anything ' +
      'changes, naming the source or primary to point at. On a source with replicas or a group primary the binary ' +
      'log is never turned off: skipBinlog from a preset is dropped (the plan says why), skipBinlog: true given ' +
      'explicitly is refused, and no step of the plugin sets sql_log_bin = 0. fastest there keeps threads, deferred ' +
      'indexes, the index build buffer and tuning, keeps the redo log on, keeps sync_binlog and ' +
      'innodb_flush_log_at_trx_commit on a source with async replicas (relaxed on a group primary: the group holds ' +
      'what it certified), and sets maxBytesPerTransaction to a quarter of group_replication_transaction_size_limit. ' +
      'Afterwards every member (reached with this session\'s account; passwords from the Shell\'s credential store) ' +
      'must apply the load within membersTimeout seconds (progress lines while waiting) and have the same rows in every ' +
      'loaded table; the report ends with a members table, and a member that lags, differs or cannot be reached fails ' +
      'the load by name (an unreachable one already in the preflight). membersTimeout: 0 skips the verification. ' +
      'topology: "rebuild" (a cluster being rebuilt; refused while another member is there) loads with every standalone ' +
      'lever and prints the AdminAPI / SQL steps that add the members by clone.',
      'The redo log off and tuning are refused, unless force: true, on a server that serves others in other ways: ' +
      'read_only ON, or the redo log switched off on a source with replicas or a group member.',
      'dropExisting: true drops exactly the tables, views, routines, events and triggers the load will create, ' +
      'if they exist (never a schema, never anything outside the chosen schemas and tables). They are listed ' +
      'first; in interactive mode you are asked (force skips the question). With MySQL Shell 9.1 and later ' +
      'util.loadDump\'s own dropExistingObjects does the dropping.',
      'analyze: "on" runs ANALYZE TABLE on the loaded tables after the load (in batches), "histogram" also ' +
      'rebuilds the histograms the dump lists. dryRun: true prints the plan and changes nothing.',
      selectionOptions.SELECTION_DETAILS,
      selectionOptions.SOURCE_DETAILS,
      selectionOptions.VIEW_DETAILS + ' It is removed once the load finished, and kept (with its path in the ' +
      'report) when it failed. A full load also writes nothing into the dump: util.loadDump\'s progress file goes to ' +
      '<config home>/restore/progress.',
      output.OUTPUT_FORMAT_DETAILS,
      'Developer snapshots, after the data is in and before analyze: orphans: "parents" keeps a partial import ' +
      'consistent AND complete: the rows the loaded rows reference through a foreign key (from the server\'s ' +
      'catalog) or a relation are added from the chunks latest left out (read with util.importTable into a ' +
      'staging table, dropped afterwards; a remote dump\'s chunks are fetched, only those that can hold the keys ' +
      'when the key is the chunking index), then theirs, until nothing is missing; what no chunk holds (a key ' +
      'absent from the dump, a table left out of the load) is deleted as with "delete" and listed. "delete" ' +
      'removes the rows whose referenced row is missing (repeated until none is left; a NULL key is no orphan; when ' +
      'every key references a primary key, the load defers secondary indexes and foreign keys, and a second ' +
      'util.loadDump call with loadIndexes builds them once the orphans are gone), ' +
      '"report" counts them per foreign key; keys to a table that is not on the server are reported, never fixed. ' +
      'The report gives per table the rows loaded from the chosen chunks, added as parents (and from which ' +
      'chunks) and deleted as orphans (by which key). relations: {"shop.orders.customer_id": "shop.customers.id", ' +
      '"shop.shipments.(order_id, line)": "shop.order_items.(order_id, line)"} (command line: ' +
      '--relations=shop.orders.customer_id:shop.customers.id) declares keys the schema lacks; they count like ' +
      'declared ones for orphans and masks, and a table or column they name that does not exist stops the load ' +
      'before anything changes. A user preset may carry them. mask: {"shop.customers.email": "email"} (command line: ' +
      '--mask=shop.customers.email:email,shop.customers.name:name) replaces columns with the kinds ' +
      'email, name, phone, text, digits, fixed:<value>, null and hash: equal values get equal masks (keyed hash; ' +
      'maskKey makes the key stable across loads), columns linked by foreign keys get the same mask, results fit ' +
      'the column, NULL stays NULL. Masks are applied while loading (Shell 8.0.30+): the load view\'s table ' +
      'metadata gives LOAD DATA the masked value of each column (also for a full load, and for the rows orphans ' +
      '"parents" adds), so the original never reaches the server; the loader\'s sessions read the key from ' +
      'this session (performance_schema.user_variables_by_thread), so it is in no file or log. Columns linked by a ' +
      'foreign key or relation, unique columns whose kind may repeat values, and every column with an older Shell ' +
      'or without that table are masked by an UPDATE after the load. A stopped masked load resumes only with maskKey (or dropExisting starts it afresh). ' +
      'Names and kinds are checked against the dump\'s CREATE TABLE before anything changes. The dev preset completes parents; no preset masks anything (column names differ from one schema to ' +
      'the next).',
      'Under other names and owners: schemaMap: {"shop": "shop_copy", "billing": "billing_copy"} (command line: ' +
      '--schema-map=shop:shop_copy,billing:billing_copy) loads each mapped schema under its new name (tables, data, ' +
      'indexes, views, triggers, routines, events), beside the originals if they exist; references to a mapped schema ' +
      'qualified with its name in view, trigger, routine and event bodies (and foreign keys) are rewritten, and what ' +
      'cannot be rewritten with certainty (a name inside a string, dynamic SQL, an alias named like a schema) is listed ' +
      'as a warning naming the object. Every other option (latest, includeSchemas, includeTables, mask, orphans) names ' +
      'schemas as the dump does. Refused before anything changes: two schemas mapped to one name, a new name that ' +
      'exists on the server (unless dropExisting). Accounts in the dump with grants on a mapped schema: with loadUsers ' +
      'the grants are loaded for the new name; the report says which. definers: "strip" removes the DEFINER clauses ' +
      '(the objects get the loading account), "current" sets DEFINER=CURRENT_USER, "user@host" names an account; SQL ' +
      'SECURITY is kept; default "keep". When a DEFINER account is missing on the server and the loading account lacks ' +
      'SET_ANY_DEFINER / ALLOW_NONEXISTENT_DEFINER, the preflight says so and names the option. Both work through a load ' +
      'view (links to the dump\'s data files, rewritten copies of its metadata): nothing is written into the dump.',
      'Examples: restore.load("./dump", {preset: "fastest"}); restore.load("./dump", {preset: "dev", ' +
      'includeSchemas: ["shop"]}); the newest slice of last night\'s backup, straight from the backup host: ' +
      'restore.load("backup@backuphost:/backups", {newest: true, latest: {"shop.*": 2}, preset: "dev"}); from the ' +
      'command line: mysqlsh root@host -- restore load ./dump --preset=fastest, or mysqlsh root@localhost -- restore ' +
      'load backup@backuphost:/backups --newest --latest=shop.*:2 --preset=dev; the last 30 days of orders and what they ' +
      'reference: mysqlsh root@localhost -- restore load ./dump --since=shop.orders.created_at:30d --preset=dev',
    ],
    parameters: [
      { name: 'dumpDir', type: 'string', brief: 'The dump directory (absolute or relative to the current directory), or a dump on a backup host: user@host:/path, rsync://host/module/path' },
      { name: 'options', type: 'dictionary', required: false, brief: 'restore.load options and util.loadDump options',
        options: optionTable.memberOptions('load') },
    ],
    cli: true,
  },
  run: function (host, args) {
    return output.runWithOutput(host, args[1], function (h, options) {
      return load.runLoad(h, args[0], options);
    });
  },
};
