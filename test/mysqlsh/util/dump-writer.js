'use strict';
// util.dumpInstance / dumpSchemas / dumpTables of the stand-in: real dump directories (format
// 2.0.1 for Shell 8.0.27+, the older layouts for older profiles) written from the connected
// server, in the order the Shell writes them: @.json first, @.done.json last.
// Differences from the Shell are listed in test/fidelity/dump-format.test.js.
const fs = require('fs');
const path = require('path');
const { shellThrowable } = require('../shell-errors');
const { shellType } = require('../values');
const { quoteValue, quoteIdentifier } = require('../sql-placeholders');
const { readDumpOptions } = require('./dump-options');
const { checkRequested } = require('./dump-selection');
const { buildPlan, countObjects } = require('./dump-plan');
const { resolveOutputDir, notEmptyProblem, createOutputDir } = require('./dump-output-dir');
const catalog = require('./dump-catalog');
const docs = require('./dump-json-docs');
const ddlFiles = require('./dump-ddl-files');
const { TableDataDumper } = require('./dump-table-data');
const { createDumpConsole } = require('./dump-console');

const EXTENSIONS = { zstd: 'tsv.zst', gzip: 'tsv.gz', none: 'tsv' };

// Tables without a usable key: split in scan order from 8.0.32 (8.0.30 wrote one file, 8.1.1
// splits; the change lies between, BUG#34195250), before that one un-chunked file.
const keylessChunked = (profile) => profile.atLeast('8.0.32');

function timestamp(d = new Date()) {
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

// Accounts are listed as 'user'@'host' in @.json.
const sqlString = (v) => `'${String(v).replace(/'/g, "''")}'`;
const id = (name) => quoteIdentifier(name, 0);
const quoted = (schema, name) => `${id(schema)}.${id(name)}`;
const columnList = (index) => `column${index.columns.length > 1 ? 's' : ''} ${index.columns.map((c) => id(c.name)).join(', ')}`;

function hostOf(session) {
  const m = /@([^:/?]+)/.exec(session.getUri());
  return m ? m[1] : 'localhost';
}

function createDumpers({ profile, openSession, out, cwd }) {
  const currentDir = () => (typeof cwd === 'function' ? cwd() : cwd) || process.cwd();

  function argumentTypes(origin, checks) {
    for (const [value, kind, n] of checks) {
      const t = shellType(value);
      if (kind === 'string' && t !== 'String') {
        throw shellThrowable(profile, 'TypeError', `Argument #${n} is expected to be a string`, undefined, `Util.${origin}`);
      }
      if (kind === 'array' && (t !== 'Array' || Array.from(value).some((x) => typeof x !== 'string'))) {
        throw shellThrowable(profile, 'TypeError', `Argument #${n} is expected to be an array of strings`, undefined, `Util.${origin}`);
      }
    }
  }

  function run(origin, request, outputUrl, options, optionsArg) {
    const settings = readDumpOptions(profile, `util.${origin}`, options, optionsArg);
    const fail = (type, message) => shellThrowable(profile, type, message, undefined, `Util.${origin}`);
    if (settings.filters.conflicts.length) {
      settings.filters.conflicts.forEach((line) => out.error(line));
      throw fail('ArgumentError', 'Conflicting filtering options');
    }
    const session = openSession();
    try {
      try {
        checkRequested(origin, session, request, settings);
      } catch (e) {
        if (e && (e.type || e.cause)) throw e;
        throw fail('ArgumentError', e.message);
      }
      const dir = resolveOutputDir(outputUrl, currentDir());
      const problem = notEmptyProblem(outputUrl, dir);
      if (problem) throw fail('ArgumentError', problem);
      return new DumpRun({ profile, out, session, origin, request, settings, dir, fail }).run();
    } finally {
      session.close();
    }
  }

  return {
    dumpInstance(outputUrl, options) {
      argumentTypes('dumpInstance', [[outputUrl, 'string', 1]]);
      return run('dumpInstance', {}, outputUrl, options, 2);
    },
    dumpSchemas(schemas, outputUrl, options) {
      argumentTypes('dumpSchemas', [[schemas, 'array', 1], [outputUrl, 'string', 2]]);
      return run('dumpSchemas', { schemas: Array.from(schemas) }, outputUrl, options, 3);
    },
    dumpTables(schema, tables, outputUrl, options) {
      argumentTypes('dumpTables', [[schema, 'string', 1], [tables, 'array', 2], [outputUrl, 'string', 3]]);
      return run('dumpTables', { schema, tables: Array.from(tables) }, outputUrl, options, 4);
    },
  };
}

class DumpRun {
  constructor(args) {
    Object.assign(this, args);
    this.con = createDumpConsole(args.out);
    this.extension = EXTENSIONS[args.settings.compression];
    this.keylessChunked = keylessChunked(args.profile);
  }

  exec(sql) { return this.session.execute(sql); }

  run() {
    const { settings, con } = this;
    const started = Date.now();
    if (settings.dryRun) con.status('dryRun enabled, no locks will be acquired and no files will be created.');
    this.exec("SET SQL_MODE = ''");
    this.exec(`SET NAMES ${quoteValue(settings.charset, 0)}`);
    if (settings.tzUtc) this.exec("SET TIME_ZONE = '+00:00'");
    if (settings.consistent) this.lockAndSnapshot();
    con.status('Initializing - done');

    const plan = buildPlan(this);
    if (plan.invalidPartitions.length) {
      plan.invalidPartitions.forEach((line) => this.out.error(line));
      throw this.fail('ArgumentError', 'Invalid partitions');
    }
    con.plan(this.origin, countObjects(plan, settings));
    // Accounts are DDL: none with dataOnly. One whose DDL the server will not show is left out.
    const accounts = plan.accounts && settings.ddl ? ddlFiles.readAccountsDdl(this.session, plan.accounts, con.note) : null;
    if (accounts) con.users(accounts.length, plan.totalAccounts);
    con.status('Gathering information - done');
    if (settings.consistent) {
      con.status('All transactions have been started');
      con.status('Locking instance for backup');
      if (!settings.dryRun) this.exec('UNLOCK TABLES');
      con.status('Global read lock has been released');
    }
    if (settings.ocimds && settings.ddl) {
      con.status(`Checking for compatibility with MySQL Database Service ${settings.targetVersion}`);
      con.status('Compatibility checks finished.');
    }
    const server = catalog.serverInfo(this.session);
    const ctx = { profile: this.profile, host: hostOf(this.session), serverShortVersion: server.shortVersion, charset: settings.charset };
    if (settings.ddl) con.status('Writing global DDL files');
    if (accounts) con.status('Writing users DDL');
    if (settings.dryRun) {
      if (settings.data) this.describeData(plan);
      return undefined;
    }

    try {
      createOutputDir(this.dir);
    } catch (e) {
      throw this.fail('RuntimeError', e.message);
    }
    this.writeJson('@.json', docs.rootDocument({
      profile: this.profile,
      origin: this.origin,
      settings,
      server,
      sysvars: this.profile.atLeast('9.1.0') ? catalog.globalVariables(this.session) : null,
      schemas: plan.schemas,
      users: accounts ? accounts.map((a) => `${sqlString(a.user)}@${sqlString(a.host)}`) : null,
      begin: timestamp(new Date(started)),
      estimates: this.estimates(plan),
    }));
    for (const s of plan.schemas) this.writeJson(`${s.basename}.json`, docs.schemaDocument(this.profile, settings, s));
    if (settings.ddl) ddlFiles.writeGlobalFiles(this.dir, ctx);
    if (accounts) ddlFiles.writeUsersFile(this.dir, ctx, accounts);
    con.status(`Running data dump using ${settings.threads} thread${settings.threads > 1 ? 's' : ''}.`);
    if (settings.showProgress) con.note('Progress information uses estimated values and may not be accurate.');
    con.status('Writing schema metadata - done');
    if (settings.ddl) {
      for (const s of plan.schemas) ddlFiles.writeSchemaFiles(this.dir, ctx, this.session, s, settings);
      con.status('Writing DDL - done');
    }
    for (const s of plan.schemas) {
      for (const t of s.tables) {
        this.writeJson(`${t.basename}.json`, docs.tableDocument(this.profile, settings, { ...t, chunked: this.chunked(t) }, this.extension));
      }
    }
    con.status('Writing table metadata - done');

    const totals = { dataBytes: 0, fileBytes: 0, rows: 0, tableDataBytes: {}, tableRows: {}, chunkFileBytes: {} };
    const dataStarted = Date.now();
    if (settings.data) {
      con.status('Starting data dump');
      for (const s of plan.schemas) for (const t of s.tables) this.dumpTableData(t, totals);
    }
    const finished = Date.now();
    this.writeJson('@.done.json', docs.doneDocument(this.profile, timestamp(new Date(finished)), totals));
    con.summary({
      dumpMs: finished - dataStarted,
      totalMs: finished - started,
      schemas: plan.schemas.length,
      tables: plan.schemas.reduce((n, s) => n + s.tables.length, 0),
      dataBytes: totals.dataBytes,
      fileBytes: totals.fileBytes,
      rows: totals.rows,
      compressed: settings.compression !== 'none',
    });
    return undefined;
  }

  // FLUSH TABLES WITH READ LOCK, then a consistent snapshot in this (the only) dump session.
  lockAndSnapshot() {
    const { con, settings } = this;
    con.status('Acquiring global read lock');
    if (settings.dryRun) {
      con.status('Global read lock acquired');
      return;
    }
    try {
      this.exec('FLUSH NO_WRITE_TO_BINLOG TABLES');
      this.exec('FLUSH TABLES WITH READ LOCK');
    } catch (e) {
      this.out.error(`Failed to acquire global read lock: ${e.message}`);
      throw this.fail('RuntimeError', 'Unable to acquire global read lock');
    }
    con.status('Global read lock acquired');
    this.exec('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    this.exec('START TRANSACTION WITH CONSISTENT SNAPSHOT');
  }

  chunked(t) {
    return this.settings.chunking && (t.index !== null || this.keylessChunked);
  }

  estimates(plan) {
    const all = plan.schemas.flatMap((s) => s.tables);
    return { rows: all.reduce((n, t) => n + t.estimate.rows, 0), bytes: all.reduce((n, t) => n + t.estimate.bytes, 0) };
  }

  describeData(plan) {
    for (const s of plan.schemas) {
      for (const t of s.tables) {
        const name = quoted(s.name, t.name);
        this.con.status(`Preparing data dump for table ${name}`);
        if (!this.settings.chunking) {
          this.con.status(`Data dump for table ${name} will ${t.index ? `use ${columnList(t.index)} as an index` : 'not use an index'}`);
        } else if (t.index) {
          this.con.status(`Data dump for table ${name} will be chunked using ${columnList(t.index)}`);
        } else {
          this.noteKeyless(name);
        }
      }
    }
  }

  noteKeyless(name) {
    this.con.note(this.keylessChunked
      ? `Could not select columns to be used as an index for table ${name}. Data will be dumped to multiple files by a single thread.`
      : `Could not select columns to be used as an index for table ${name}. Chunking has been disabled for this table, data will be dumped to a single file.`);
  }

  dumpTableData(t, totals) {
    if (this.settings.chunking && !t.index) this.noteKeyless(quoted(t.schema, t.name));
    const parts = t.partitions.length ? t.partitions : [{ name: null, basename: t.basename }];
    totals.tableDataBytes[t.schema] = totals.tableDataBytes[t.schema] || {};
    totals.tableRows[t.schema] = totals.tableRows[t.schema] || {};
    let bytes = 0;
    let rowCount = 0;
    for (const p of parts) {
      const dumper = new TableDataDumper(this.session, { ...t, partition: p.name, basename: p.basename }, {
        settings: this.settings, dir: this.dir, extension: this.extension, keylessChunked: this.keylessChunked,
      });
      for (const f of dumper.run()) {
        totals.chunkFileBytes[f.name] = f.dataBytes;
        totals.fileBytes += f.fileBytes;
        bytes += f.dataBytes;
        rowCount += f.rows;
      }
    }
    totals.tableDataBytes[t.schema][t.name] = bytes;
    totals.tableRows[t.schema][t.name] = rowCount;
    totals.dataBytes += bytes;
    totals.rows += rowCount;
  }

  writeJson(name, doc) {
    fs.writeFileSync(path.join(this.dir, name), docs.jsonText(doc));
  }
}

module.exports = { createDumpers };
