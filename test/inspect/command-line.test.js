'use strict';
// mysqlsh -- restore inspect <dir> [--listing=file]: the report, the returned dictionary, exit codes.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { runCli } = require('../support/standin');
const { realDump, tempDir } = require('../support/paths');

describe('restore inspect from the command line', () => {
  it('prints the report and the returned dictionary; exit code 0', () => {
    const r = runCli(['--', 'restore', 'inspect', realDump('fortunewalla__dvdstore__mysql_ds2')]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.include('Format:     1.0.2 (mysqlsh Ver 8.0.26');
    expect(r.stdout).to.match(/ds2\.customers\s+1\/1\s+0\s+0\s+0\s+2\.9 MiB \/ 2\.9 MiB/);
    expect(r.stdout).to.include('Verdict: util.loadDump would load this dump.');
    expect(r.stdout).to.include('"loadable": true');
  });

  it('--listing is passed as the listing option', () => {
    const listing = path.join(tempDir(), 'ls.txt');
    fs.writeFileSync(listing, 'stackoverflow@Tags@@0.tsv.zst\n');
    const r = runCli(['--', 'restore', 'inspect', realDump('mysql__mysql-shell__test_dump1'), `--listing=${listing}`]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/stackoverflow\.Tags\s+0\/1\s+0\s+1\s+0/);
  });

  it('a bad dump directory: the message on stderr, exit code 1', () => {
    const r = runCli(['--', 'restore', 'inspect', '/nonexistent/dump']);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.include('The dump directory /nonexistent/dump does not exist.');
  });
});
