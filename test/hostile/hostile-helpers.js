'use strict';
// Shared by the hostile-input tests: a sandbox (a dump copy, a place for fetch lists, a config
// home with the plugin) hashed before and after each refused command.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { SAMPLE_SHOP, needs } = require('../support/real');
const { suiteServer } = require('../support/root-hooks');
const { copyDump, tempDir, installPlugin } = require('../support/shell');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');

function sandbox() {
  const dump = copyDump(SAMPLE_SHOP);
  const outside = tempDir('restore-outside-');
  const home = installPlugin(tempDir('restore-cfg-'));
  const stateDir = path.join(home, 'restore');
  const roots = [path.dirname(dump), outside, stateDir];
  return { dump, outside, home, stateDir, roots, hash: () => hashSandbox(roots) };
}

// A refused command: exit status 1, a message naming `names` (regexes), no internal location,
// and nothing in the sandbox changed or added.
function expectRefused(r, names, sb, before) {
  expect(r.status, r.out).to.equal(1);
  for (const n of names) expect(r.out, r.out).to.match(n);
  expect(r.out).to.not.match(/restore_js\/|\/lib\/|\sat \//);
  if (sb) expect(diffSandbox(before, sb.hash())).to.deep.equal(UNCHANGED);
}

// Hooks of a describe() whose tests run on the suite server with a fresh sandbox and no "shop"
// schema before and after each test. Returns {server, sb}, set for each test.
function sandboxHooks() {
  const t = { server: null, sb: null };
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    t.server = suiteServer();
    t.sb = sandbox();
    await t.server.query('DROP SCHEMA IF EXISTS shop');
  });
  afterEach(async function () {
    if (t.server) await t.server.query('DROP SCHEMA IF EXISTS shop');
  });
  return t;
}

function editJson(file, fn) {
  const v = JSON.parse(fs.readFileSync(file, 'utf8'));
  fn(v);
  fs.writeFileSync(file, JSON.stringify(v));
}

module.exports = { sandbox, sandboxHooks, expectRefused, editJson };
