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

// Every skip of the suite goes through skipBecause: the reason is counted for the summary the
// root hooks print at the end of the run (test/support/root-hooks.js), then mocha skips. A skip in
// a "before all" hook skips every test of its suite: they are counted, so the summary adds up to
// mocha's pending count.
const skipped = new Map();
function skipBecause(ctx, why) {
  const beforeAll = ctx.test && ctx.test.type === 'hook' && /^"before all" hook/.test(ctx.test.originalTitle || ctx.test.title);
  const n = beforeAll ? ctx.test.parent.total() : 1;
  skipped.set(why, (skipped.get(why) || 0) + n);
  ctx.skip();
}

// Skips unless ../shared has what = ['shell', 'server', 'dumps', 'contract'].
function needs(ctx, what) {
  const missing = what.filter((w) => !HAVE[w]);
  if (missing.length) skipBecause(ctx, 'they need ' + missing.map((w) => SHARED_PARTS[w]).join(' + '));
}

const SHARED_PARTS = { shell: 'the real MySQL Shell (' + MYSQLSH + ')', server: 'a real MySQL server (' + WITH_MYSQL + ')',
  dumps: 'the real dumps (' + REAL_DUMPS + ')', contract: 'the Shell\'s option tables (' + path.join(SHARED, 'mysqlsh-contract', 'options.json') + ')' };

module.exports = { ROOT, SHARED, MYSQLSH, WITH_MYSQL, REAL_DUMPS, SAMPLE_SHOP, HAVE, shellBundles, realDump, needs, skipBecause, skipped };
