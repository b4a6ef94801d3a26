'use strict';
// The stand-in's util.loadDump(url, options), after ../shared/mysqlsh-contract (README §2-3,
// loader-internals §1-2, §5.1, §6-9), loading for real into the test server. The pieces live in
// ./loader/; MySQL 8 DDL MariaDB rejects goes through ./mariadb-ddl-rewrites.js only.
//
// Emulated: option checks and conflicts; Incomplete dump / waitDumpTimeout → Dump timeout;
// metadata files required; ONE listing and the §2.1 chunk probe per table/partition (gaps load
// what was found, then "…data files are missing"); local_infile; the progress file (resume,
// resetProgress, UUID check, '' = off); filters incl. routine/event/trigger sections; loadDdl,
// loadData, dryRun; existing objects (ignore/drop); skipBinlog; sessionInitSql; characterSet;
// analyzeTables; the `schema` option; the end-of-load redo-log NOTE; the summary lines.
// Approximated: sequential on one session (`threads` only printed); deferTableIndexes cuts
// keys out of CREATE TABLE by line (SHOW CREATE TABLE layout) and re-adds them after the data,
// foreign keys at the schema's end; a zero-length chunk is sent as an empty LOAD DATA.
// Not emulated, and refused loudly ("stand-in: … is not emulated"): loadUsers with accounts in
// the dump, updateGtidSet, checksum verification, remote storage. Accepted without effect:
// showProgress, showMetadata, backgroundThreads, maxBytesPerTransaction (no sub-chunks),
// disableBulkLoad (BULK LOAD never used), createInvisiblePKs, ignoreVersion, handleGrantErrors.
const path = require('path');
const { shellThrowable } = require('../shell-errors');
const { parseLoadOptions } = require('./loader/load-options');
const { DumpDir, readRootMetadata, scanMetadata } = require('./loader/dump-metadata');
const { waitForDumpEnd } = require('./loader/dump-wait');
const { ProgressLog } = require('./loader/progress-log');
const { findExistingObjects, describe, dropStatement } = require('./loader/existing-objects');
const { serverUuid, serverVersion, isMariaDb, checkLocalInfile, noteIfRedoLogDisabled } = require('./loader/target-server');
const { prepareLoaderSession } = require('./loader/loader-session');
const { LoadRun, LoadAborted } = require('./loader/load-run');
const { summaryLines } = require('./loader/load-summary');

const WHERE = 'Util.loadDump';

function actionText(opts) {
  const parts = [opts.loadDdl && 'DDL', opts.loadData && 'Data', opts.loadUsers && 'Users'].filter(Boolean);
  if (parts.length === 1) return `Loading ${parts[0]} only`;
  if (parts.length) return `Loading ${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return [opts.analyzeTables !== 'off' && 'Updating table histograms', opts.updateGtidSet !== 'off' && 'Updating GTID_PURGED',
    opts.checksum && 'Verifying checksum information'].filter(Boolean).join(', ');
}

function dumpPath(url, cwd) {
  const local = url.replace(/^file:\/\//, '');
  return path.resolve(cwd, local);
}

function createLoadDump({ profile, openSession, out, cwd }) {
  const fail = (type, message, code) => { throw shellThrowable(profile, type, message, code, WHERE); };

  // Features the stand-in does not emulate fail loudly instead of being skipped.
  function notEmulated(what) { fail('RuntimeError', `stand-in: ${what} is not emulated by the test mysqlsh`); }

  function openDump(url, opts) {
    const dumpDir = new DumpDir(dumpPath(url, cwd), profile);
    if (!profile.atLeast('9.1.0')) out.print('Opening dump...');
    const root = readRootMetadata(dumpDir, profile, out);
    dumpDir.list();
    if (!dumpDir.has('@.done.json')) {
      if (!(opts.waitDumpTimeout > 0)) {
        out.error("Dump is not yet finished. Use the 'waitDumpTimeout' option to enable concurrent load and set a timeout for when we need to wait for new data to become available.");
        fail('RuntimeError', 'Incomplete dump', 53008);
      }
      waitForDumpEnd(dumpDir, opts.waitDumpTimeout, { profile, out });
    }
    return { dumpDir, root, doneInfo: dumpDir.readJson('@.done.json') };
  }

  // The plan: included schemas, the objects the filters keep, and the schema each goes to.
  function planFor(dumpDir, root, opts, filters) {
    const plan = scanMetadata(dumpDir, root, filters);
    if (opts.schema !== undefined && plan.length !== 1) {
      out.error(`The 'schema' option can only be used when loading a single schema, but ${plan.length} will be loaded.`);
      fail('ArgumentError', 'Invalid option: schema.');
    }
    for (const s of plan) s.target = opts.schema !== undefined ? opts.schema : s.name;
    return plan;
  }

  function checkDumpFeatures(root, opts) {
    if (opts.checksum && !root.checksum) {
      fail('RuntimeError', "The 'checksum' option cannot be used when the dump does not contain checksum information.");
    }
    if (opts.checksum && opts.dryRun) out.warn('Checksum information is not going to be verified, dryRun enabled.');
    else if (opts.checksum) notEmulated("checksum verification ('checksum': true)");
    if (opts.loadUsers && !root.users) out.warn("The 'loadUsers' option is set to true, but the dump does not contain the user data.");
    else if (opts.loadUsers) notEmulated("loading accounts ('loadUsers': true)");
    if (opts.updateGtidSet !== 'off') notEmulated("'updateGtidSet' (MariaDB has no GTID_PURGED)");
  }

  // Returns the set of `schema\0name` tables/views whose DDL must not run (ignored duplicates).
  function checkExistingObjects(session, plan, opts) {
    const skip = new Set();
    out.print('Checking for pre-existing objects...');
    const found = findExistingObjects(session, plan);
    if (!found.length) return skip;
    if (opts.ignoreExistingObjects) {
      for (const o of found) {
        out.note(`${describe(o)}, ignoring...`);
        if (o.type === 'table' || o.type === 'view') skip.add(`${o.schema}\u0000${o.name}`);
      }
      out.note("One or more objects in the dump already exist in the destination database but will be ignored because the 'ignoreExistingObjects' option was enabled.");
      return skip;
    }
    if (opts.dropExistingObjects) {
      if (!opts.dryRun) for (const o of found) session.execute(dropStatement(o));
      return skip;
    }
    for (const o of found) out.error(describe(o));
    out.error(profile.atLeast('9.1.0')
      ? "One or more objects in the dump already exist in the destination database. You must either exclude these objects from the load, enable the 'dropExistingObjects' option to drop them automatically, or enable the 'ignoreExistingObjects' option to ignore them."
      : 'One or more objects in the dump already exist in the destination database. You must either DROP these objects or exclude them from the load.');
    const phase = profile.atLeast('9.1.0') ? 'Checking for pre-existing objects' : 'Scanning metadata';
    return fail('RuntimeError', `While '${phase}': Duplicate objects found in destination database`, 53021);
  }

  function progressFileFor(opts, dumpDir, uuid) {
    if (opts.progressFile === '') return null;
    if (opts.progressFile !== undefined) return path.resolve(cwd, String(opts.progressFile).replace(/^file:\/\//, ''));
    return dumpDir.file(`load-progress.${uuid}.json`);
  }

  function printSummary(run, started, resuming) {
    const s = run.stats;
    for (const line of summaryLines({
      chunks: s.chunks, rows: s.rows, bytes: s.bytes, tables: s.tablesLoaded.size, schemas: s.schemasLoaded.size,
      dataMs: s.dataMs, totalMs: Date.now() - started, ddlFiles: run.ddl.files, ddlMs: run.ddl.ms,
      replaced: s.replaced, errors: run.errors, warnings: s.warnings, resuming,
    })) out.print(line);
  }

  function load(session, url, opts, filters, started) {
    checkLocalInfile(session, profile, out);
    out.print(`${actionText(opts)} from '${url}' using ${opts.threads} thread${opts.threads === 1 ? '' : 's'}.`);
    if (opts.dryRun) (profile.atLeast('9.6.0') ? out.note : out.print)('dryRun enabled, no changes will be made.');
    const { dumpDir, root, doneInfo } = openDump(url, opts);
    const version = serverVersion(session);
    out.print(`Target is MySQL ${version}. Dump was produced from MySQL ${root.serverVersion || (root.source && root.source.version) || 'unknown'}`);
    prepareLoaderSession(session, { profile, out, opts, root });
    const uuid = serverUuid(session);
    const progress = new ProgressLog({ file: progressFileFor(opts, dumpDir, uuid), profile, out, dryRun: opts.dryRun, resetProgress: opts.resetProgress });
    const plan = planFor(dumpDir, root, opts, filters);
    checkDumpFeatures(root, opts);
    const skipDdlOf = !progress.resuming && opts.loadDdl ? checkExistingObjects(session, plan, opts) : new Set();
    const run = new LoadRun({ session, out, profile, opts, filters, dumpDir, root, doneInfo, plan, progress,
      mariadb: isMariaDb(version), skipDdlOf });
    if (!opts.dryRun) {
      progress.checkServerUuid(uuid);
      try {
        run.execute();
      } catch (e) {
        if (!(e instanceof LoadAborted)) throw e;
        out.error('Aborting load...');
        printSummary(run, started, progress.resuming);
        fail('RuntimeError', 'Error loading dump');
      }
      noteIfRedoLogDisabled(session, out);
    }
    printSummary(run, started, progress.resuming);
    if (run.dataPending) fail('RuntimeError', 'Dump directory is corrupted, some of the data files are missing', 53030);
  }

  return function loadDump(url, options) {
    if (arguments.length < 1 || arguments.length > 2) {
      fail('ArgumentError', `Invalid number of arguments, expected 1 to 2 but got ${arguments.length}`);
    }
    if (typeof url !== 'string') fail('TypeError', 'Argument #1 is expected to be a string');
    const started = Date.now();
    const { opts, filters } = parseLoadOptions(profile, options, out);
    const session = openSession();
    try {
      load(session, url, opts, filters, started);
    } finally {
      session.close();
    }
    return undefined;
  };
}

module.exports = { createLoadDump };
