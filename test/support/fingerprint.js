'use strict';
// What a restore may change on a server, read so that tests can prove it was put back: the redo
// log, every global variable the plugin may set, the accounts, the schemas.
const WATCHED = ['local_infile', 'innodb_flush_log_at_trx_commit', 'sync_binlog', 'innodb_adaptive_hash_index',
  'innodb_io_capacity', 'innodb_io_capacity_max', 'innodb_redo_log_capacity', 'innodb_change_buffering',
  'innodb_ddl_threads', 'innodb_ddl_buffer_size', 'innodb_parallel_read_threads', 'innodb_buffer_pool_size',
  'read_only', 'super_read_only', 'foreign_key_checks', 'unique_checks', 'sql_log_bin'];

async function serverFingerprint(server) {
  return {
    redoLog: await server.redoLog(),
    variables: await server.variables(WATCHED),
    accounts: (await server.query("SELECT CONCAT(user, '@', host) AS a FROM mysql.user ORDER BY 1")).map((r) => r.a),
  };
}

module.exports = { serverFingerprint, WATCHED };
