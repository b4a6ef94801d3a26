'use strict';
// The session the loader works on, prepared as loader-internals §6 lists, plus the
// Shell's way of writing a server error ("MySQL Error 1146 (42S02): …").
const { shellThrowable } = require('../../shell-errors');
const { quoteValue } = require('../../sql-placeholders');

const WHERE = 'Util.loadDump';

function mysqlErrorText(e) {
  const code = e.code !== undefined ? e.code : 0;
  const state = e.sqlState || 'HY000';
  const message = (e.cause && e.cause.message) || e.message;
  return `MySQL Error ${code} (${state}): ${message}`;
}

// The statements every loader session starts with, in the Shell's order.
function initStatements(opts, root) {
  const charset = opts.characterSet || root.defaultCharacterSet || 'utf8mb4';
  const list = [
    "SET SQL_MODE = 'NO_AUTO_VALUE_ON_ZERO'",
    'SET SESSION net_read_timeout = 1800',
    'SET SESSION wait_timeout = 31536000',
  ];
  if (opts.skipBinlog) list.push('SET sql_log_bin=0');
  list.push('SET sql_quote_show_create = 1', 'SET foreign_key_checks = 0', 'SET unique_checks = 0',
    `SET NAMES ${quoteValue(charset)}`);
  if (root.tzUtc) list.push("SET TIME_ZONE='+00:00'");
  return list;
}

// Runs the session set-up; failures are the Shell's connection errors.
function prepareLoaderSession(session, { profile, out, opts, root }) {
  const fail = (e, message) => { throw shellThrowable(profile, 'RuntimeError', message, e.code, WHERE); };
  for (const sql of initStatements(opts, root)) {
    try {
      session.execute(sql);
    } catch (e) {
      if (sql === 'SET sql_log_bin=0') fail(e, `'SET sql_log_bin=0' failed with error: ${mysqlErrorText(e)}`);
      out.error(`Error opening connection to MySQL: ${mysqlErrorText(e)}`);
      fail(e, e.message);
    }
  }
  for (const sql of opts.sessionInitSql) {
    try {
      session.execute(sql);
    } catch (e) {
      fail(e, `Error while executing sessionInitSql: ${mysqlErrorText(e)}`);
    }
  }
}

module.exports = { prepareLoaderSession, mysqlErrorText, initStatements, WHERE };
