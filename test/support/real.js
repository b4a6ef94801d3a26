'use strict';
// Where the real MySQL Shell, the real MySQL server and the real dumps are: ../shared beside the
// checkout (or RESTORE_SHARED_DIR). Tests that need them skip, and say so, when they are absent.
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = path.resolve(process.env.RESTORE_SHARED_DIR || path.join(ROOT, '..', 'shared'));
const MYSQLSH = path.join(SHARED, 'bin', 'mysqlsh');
const WITH_MYSQL = path.join(SHARED, 'bin', 'with-mysql');
const REAL_DUMPS = path.join(SHARED, 'real-dumps');
const SAMPLE_SHOP = path.join(ROOT, 'sample-dumps', 'shop');

function has(p) {
  try { fs.accessSync(p, fs.constants.X_OK); return true; } catch (e) { return false; }
}

const HAVE = {
  shell: has(MYSQLSH),
  server: has(WITH_MYSQL),
  dumps: fs.existsSync(REAL_DUMPS),
  contract: fs.existsSync(path.join(SHARED, 'mysqlsh-contract', 'options.json')),
};

// Shell bundles to test against: every bundle in ../shared/mysqlsh (newest first).
function shellBundles() {
  const dir = path.join(SHARED, 'mysqlsh');
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => /^mysqlsh-.*\.tar\.zst$/.test(f))
    .sort((a, b) => b.localeCompare(a, undefined, { numeric: true })).map((f) => path.join(dir, f));
}

function realDump(name) { return path.join(REAL_DUMPS, name); }

// Skipped parts, collected for the summary at the end of the run.
const skipped = new Map();
function needs(ctx, what) {
  const missing = what.filter((w) => !HAVE[w]);
  if (!missing.length) return;
  const key = missing.join(' + ');
  skipped.set(key, (skipped.get(key) || 0) + 1);
  ctx.skip();
}

module.exports = { ROOT, SHARED, MYSQLSH, WITH_MYSQL, REAL_DUMPS, SAMPLE_SHOP, HAVE, shellBundles, realDump, needs, skipped };
