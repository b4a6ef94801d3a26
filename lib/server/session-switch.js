// Runs work with a boolean session variable switched off (foreign_key_checks while deleting
// orphans, sql_log_bin when the load stays out of the binary log) and puts the session's own
// value back afterwards, also on failure. Names are fixed by the callers, never user input.
function withSessionSwitchOff(host, name, fn) {
  var before = Number(host.sql.run('SELECT @@SESSION.' + name + ' AS v').rows[0].v);
  host.sql.run('SET SESSION ' + name + ' = 0');
  try {
    return fn();
  } finally {
    host.sql.run('SET SESSION ' + name + ' = ' + (before ? 1 : 0));
  }
}

module.exports = { withSessionSwitchOff: withSessionSwitchOff };
