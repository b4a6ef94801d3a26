'use strict';
// Fixture locations and temp copies: real dumps are read-only, tests change copies.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { realDumpsDir } = require('../mysqlsh/contract-paths');

function realDump(name) { return path.join(realDumpsDir(), name); }

function copyRealDump(name) {
  const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-dump-'));
  fs.cpSync(realDump(name), dest, { recursive: true });
  return dest;
}

function tempDir(prefix = 'restore-test-') { return fs.mkdtempSync(path.join(os.tmpdir(), prefix)); }

module.exports = { realDump, copyRealDump, tempDir, realDumpsDir };
