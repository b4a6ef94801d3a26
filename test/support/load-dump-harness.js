'use strict';
// Runs the stand-in's util.loadDump against the test server: captured output lines, every
// statement the loader sends, a side session for checks, temp dirs, and cleanup.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { SyncBridge } = require('../mysqlsh/sync-bridge');
const { ClassicSession } = require('../mysqlsh/classic-session');
const { makeProfile } = require('../mysqlsh/profile');
const { errorText, errorCode } = require('../mysqlsh/shell-errors');
const { createLoadDump } = require('../mysqlsh/util/load-dump');
const { realDumpsDir } = require('../mysqlsh/contract-paths');
const { writeChunkedDump } = require('./chunked-dump-writer');

class LoadDumpHarness {
  constructor() {
    this.bridge = new SyncBridge();
    this.uri = process.env.MYSQL_TEST_URI;
    this.checker = new ClassicSession({ bridge: this.bridge, uri: this.uri, profile: makeProfile() });
    this.tmpDirs = [];
    this.schemas = new Set();
  }

  // A loadDump for Shell `version`; resets the captured lines and statements.
  // sqlHooks: classic-session hooks for the loader's sessions (e.g. the MySQL 8.4 personality).
  loader(version = '8.4.0', { cwd = os.tmpdir(), sqlHooks = [] } = {}) {
    const profile = makeProfile(version);
    this.lines = [];
    this.statements = [];
    const out = {
      print: (t) => this.lines.push(String(t)),
      error: (t) => this.lines.push(`ERROR: ${t}`),
      warn: (t) => this.lines.push(`WARNING: ${t}`),
      note: (t) => this.lines.push(`NOTE: ${t}`),
    };
    const openSession = () => new ClassicSession({
      bridge: this.bridge, uri: this.uri, profile, sqlHooks, onStatement: (sql) => this.statements.push(sql),
    });
    return createLoadDump({ profile, openSession, out, cwd });
  }

  // Runs fn and returns the error's message (fails when nothing is thrown).
  static thrown(fn) {
    try {
      fn();
    } catch (e) {
      return { message: errorText(e), code: errorCode(e), error: e };
    }
    throw new Error('expected an error, got none');
  }

  output() { return this.lines.join('\n'); }

  sql(statement) { return this.checker.execute(statement); }

  scalar(statement) { return this.sql(statement).rows[0][0]; }

  schemaExists(name) {
    return this.sql(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '${name.replace(/'/g, "''")}'`).rows[0][0] > 0;
  }

  // Schemas the test creates; dropped in cleanup().
  own(...names) { names.forEach((n) => this.schemas.add(n)); }

  tmpDir(prefix = 'load-dump-') {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.tmpDirs.push(d);
    return d;
  }

  // A hand-made dump (chunked-dump-writer.js spec) in a new temp dir; returns its path.
  writeDump(spec) {
    const dir = path.join(this.tmpDir(), 'dump');
    writeChunkedDump(dir, spec);
    return dir;
  }

  // A writable copy of a real dump.
  copyRealDump(name) {
    const dest = path.join(this.tmpDir(), name);
    fs.cpSync(path.join(realDumpsDir(), name), dest, { recursive: true });
    return dest;
  }

  cleanup() {
    try {
      // Schemas of one dump may reference each other (foreign keys across schemas).
      this.sql('SET foreign_key_checks = 0');
      for (const s of this.schemas) this.sql(`DROP DATABASE IF EXISTS \`${s.replace(/`/g, '``')}\``);
    } finally {
      for (const d of this.tmpDirs) fs.rmSync(d, { recursive: true, force: true });
      this.checker.close();
      this.bridge.close();
    }
  }
}

// Mocha hooks: a fresh harness for each test, handed to `set`, cleaned up after it.
function harnessPerTest(set) {
  let h = null;
  beforeEach(() => { h = new LoadDumpHarness(); set(h); });
  afterEach(() => h.cleanup());
}

// Rows in a data file, counted independently of the loader: decompress and count line ends.
function rowsInDataFile(file) {
  const data = file.endsWith('.zst')
    ? spawnSync('zstd', ['-dc', '-q', file], { maxBuffer: 1 << 30 }).stdout
    : fs.readFileSync(file);
  let n = 0;
  for (const byte of data) if (byte === 0x0a) n++;
  return n;
}

module.exports = { LoadDumpHarness, harnessPerTest, rowsInDataFile };
