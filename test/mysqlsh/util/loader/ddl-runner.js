'use strict';
// Executes a dump's DDL scripts statement by statement on the loader session. On a MariaDB target
// each statement first goes through the explicit rewrite list; whatever still fails is a load error
// (`Error processing <what>: MySQL Error …: <statement>`), never skipped.
const { splitStatements } = require('./ddl-script');
const { rewriteForMariaDb } = require('../mariadb-ddl-rewrites');
const { mysqlErrorText } = require('./loader-session');

class LoadAborted extends Error {}

class DdlRunner {
  constructor({ session, out, mariadb }) {
    this.session = session;
    this.out = out;
    this.mariadb = mariadb;
    this.files = 0;
    this.ms = 0;
    this.errors = 0;
  }

  // Runs one statement; on failure prints the ERROR line and throws LoadAborted.
  execute(sql, what, prefix = '') {
    const text = this.mariadb ? rewriteForMariaDb(sql).sql : sql;
    try {
      return this.session.execute(text);
    } catch (e) {
      this.errors++;
      this.out.error(`${prefix}Error processing ${what}: ${mysqlErrorText(e)}: ${text}`);
      throw new LoadAborted(what);
    }
  }

  // script: file text; keep(statement) filters statements (sections of excluded objects);
  // transform(sql) may replace a statement (schema override, deferred indexes).
  runScript(script, { what, prefix = '', keep = () => true, transform = (s) => s }) {
    const t0 = Date.now();
    for (const statement of splitStatements(script)) {
      if (!keep(statement)) continue;
      const sql = transform(statement.sql);
      if (sql) this.execute(sql, what, prefix);
    }
    this.files++;
    this.ms += Date.now() - t0;
  }
}

module.exports = { DdlRunner, LoadAborted };
