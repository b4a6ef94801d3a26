'use strict';
// Which of the user's sessionInitSql statements the preflight tries on a session of its own
// before the load (lib/run/session-init-check.js): a SET that stays inside its session, nothing
// that could change data or the server in a dry run.
const { expect } = require('chai');
const { whyNotTried, statementWords } = require('../../lib/run/session-init-check.js');

describe('sessionInitSql: what is tried before the load', function () {
  it('tries a SET of session or user variables, names, a role, with plain values (quotes and comments ignored)', function () {
    for (const sql of ['SET SESSION sort_buffer_size = 4*1024*1024', 'set @a = 1', 'SET NAMES utf8mb4', 'SET ROLE ALL',
      "SET sql_mode = 'GLOBAL(x)'", '/* GLOBAL */ SET @a = 1 -- (x)', 'SET @`global` = 1', 'SET @a = 1;']) {
      expect(whyNotTried(sql), sql).to.equal(null);
    }
  });
  it('does not try what may act beyond its session, more than one statement, or anything but a SET', function () {
    const cases = {
      'SET GLOBAL innodb_io_capacity = 100': /GLOBAL/,
      'SET SESSION a = 1, @@global.b = 2': /GLOBAL/,
      'SET @a = 1 /*!80000 , PERSIST b = 2 */': /PERSIST/,
      "SET PASSWORD = 'x'": /PASSWORD/,
      'SET DEFAULT ROLE ALL TO u': /DEFAULT ROLE/,
      'SET RESOURCE GROUP rg FOR 12': /RESOURCE/,
      'SET @a = (SELECT COUNT(*) FROM t)': /calls a function or reads a table/,
      'SET @a = my_function()': /calls a function or reads a table/,
      'SET @a = 1; DROP TABLE t': /more than one statement/,
      'CREATE DATABASE x': /not a SET statement/,
      'INSERT INTO t VALUES (1)': /not a SET statement/,
    };
    for (const [sql, why] of Object.entries(cases)) expect(whyNotTried(sql), sql).to.match(why);
  });
  it('sees a statement cut at a comma (the command line splits a list there): a quote left open, parentheses unpaired', function () {
    for (const sql of ["SET SESSION sql_mode = 'ANSI_QUOTES", 'SET @a = IF(1 = 1', "NO_ZERO_DATE'"]) expect(statementWords(sql).torn, sql).to.equal(true);
    for (const sql of ["SET SESSION sql_mode = 'ANSI_QUOTES,NO_ZERO_DATE'", 'SET @a = IF(1 = 1, 2, 3)', "SET @a = 'it''s'", 'SET @a = \'(\'']) {
      expect(statementWords(sql).torn, sql).to.equal(false);
    }
  });
});
