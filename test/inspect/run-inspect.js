'use strict';
// restore.inspect through the stand-in mysqlsh, without a server connection (inspect needs none).
const { runShell } = require('../support/standin');

function inspect(dumpDir, options, extra = {}) {
  const args = [JSON.stringify(dumpDir)].concat(options === undefined ? [] : [JSON.stringify(options)]);
  return runShell({ code: `restore.inspect(${args.join(', ')})`, uri: null, ...extra });
}

// A successful run: fails the test with the shell's error text otherwise.
function inspectOk(dumpDir, options, extra) {
  const r = inspect(dumpDir, options, extra);
  if (r.error) throw new Error(`restore.inspect(${dumpDir}) failed: ${r.error.message}`);
  return r;
}

function tableEntry(result, schema, table, partition) {
  const e = result.tables.find((t) => t.schema === schema && t.table === table &&
    (partition === undefined || t.partition === partition));
  if (!e) throw new Error(`no entry for ${schema}.${table}${partition ? ` partition ${partition}` : ''}`);
  return e;
}

module.exports = { inspect, inspectOk, tableEntry };
