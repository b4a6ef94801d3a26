// How many threads "client-cpus" in a preset means. util.loadDump and util.dump* default to 4
// threads; a preset never chooses fewer. The work runs on both sides: the client reads and
// decompresses (its CPUs), the server parses and inserts (innodb_read_io_threads follows the
// server's CPUs from MySQL 8.4 on: half of them, at least 4). The larger of the three wins.
var SHELL_DEFAULT_THREADS = 4;

function serverReadIoThreads(host) {
  if (!host.sql || !host.sql.connected()) return null;
  try {
    var rows = host.sql.run("SHOW GLOBAL VARIABLES LIKE 'innodb_read_io_threads'").rows;
    var n = rows.length ? Number(rows[0].Value) : NaN;
    return n > 0 ? n : null;
  } catch (e) {
    return null; // no such variable (not InnoDB): decide from the client alone
  }
}

// {threads, why}: the choice and the sentence the plan prints.
function chooseThreads(host) {
  var client = Number(host.shell.cpuCount()) || 1;
  var server = serverReadIoThreads(host);
  var threads = Math.max(SHELL_DEFAULT_THREADS, client, server || 0);
  var from = threads === client ? 'the client\'s CPUs' : threads === server ? 'the server\'s innodb_read_io_threads'
    : 'the Shell\'s default';
  var why = threads + ' = the largest of the Shell\'s default (' + SHELL_DEFAULT_THREADS + '), the client\'s CPUs (' + client + ')' +
    (server ? ' and the server\'s innodb_read_io_threads (' + server + ')' : '') + ': ' + from +
    '. Give threads: N to choose another number.';
  return { threads: threads, why: why };
}

module.exports = { chooseThreads: chooseThreads, SHELL_DEFAULT_THREADS: SHELL_DEFAULT_THREADS };
