'use strict';
// Running the real Shell's dumper (9.1) against the test server (MySQL 9.7), as the dump tests do.
const DUMP_ENV = { MYSQLSH_ALLOW_NEWER_SERVER: '1' }; // the Shell is older than the server

// Shell 9.1's dumper reads EXPLAIN's row estimate in the JSON layout of version 1 (9.7 defaults to
// 2; without it: "Couldn't find the row count in JSON output of an EXPLAIN statement"). Runs fn
// with version 1 and puts the server's value back, whatever happens.
async function withShellDumper(server, fn) {
  const explain = await server.value('SELECT @@GLOBAL.explain_json_format_version');
  await server.query('SET GLOBAL explain_json_format_version = 1');
  try {
    return await fn();
  } finally {
    await server.query(`SET GLOBAL explain_json_format_version = ${Number(explain)}`);
  }
}

module.exports = { DUMP_ENV, withShellDumper };
