'use strict';
// A fresh clone with nothing beside it: `npm test` passes, with every test that needs the shared
// folder skipped and the reasons listed (README, docs/tests.md). CI has the shared folder, so this
// runs the suite once more with RESTORE_SHARED_DIR pointing at a folder that does not exist.
const { expect } = require('chai');
const { spawnSync } = require('child_process');
const os = require('os');
const path = require('path');
const { ROOT, skipBecause } = require('../support/real');

const INNER = 'RESTORE_TEST_WITHOUT_SHARED';

describe('npm test without the shared folder', function () {
  it('passes, and its skip summary names every skipped test with the reason', function () {
    if (process.env[INNER]) skipBecause(this, 'it runs the suite itself (not inside that run)');
    this.timeout(120000);
    const env = { ...process.env, [INNER]: '1', RESTORE_SHARED_DIR: path.join(os.tmpdir(), 'no-shared-' + process.pid) };
    for (const v of ['RESTORE_MYSQLSH', 'MYSQL_TEST_URI', 'RESTORE_TEST_FOREIGN_SERVER', 'SHUFFLE_SEED', 'RESTORE_TEST_PART',
      'RESTORE_TEST_TIMINGS_WRITE']) delete env[v];
    // What npm test runs (scripts/run-tests.js: the files in two mocha processes, their skips listed together).
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'run-tests.js')],
      { cwd: ROOT, env, encoding: 'utf8', maxBuffer: 64 << 20 });
    const out = run.stdout + run.stderr;
    expect(run.status, out).to.equal(0);
    expect(out).to.match(/^\d+ passed, 0 failed, \d+ skipped$/m);
    const pending = Number((/^\d+ passed, 0 failed, (\d+) skipped$/m.exec(out) || [])[1]);
    const listed = [...out.matchAll(/^ {2}(\d+) test\(s\) skipped: (.+)$/gm)];
    expect(pending, out).to.be.above(0);
    expect(listed.reduce((n, m) => n + Number(m[1]), 0), out).to.equal(pending);
    expect(listed.map((m) => m[2]).join('\n')).to.include(env.RESTORE_SHARED_DIR);
  });
});
