'use strict';
// CI runs the e2e scenario files exactly as docker-compose runs them under real mysqlsh, but
// through the stand-in's command line: plainly against MariaDB, and with the MySQL 8.4
// personality so the redo log path is taken.
const path = require('path');
const { expect } = require('chai');
const { runCli, ROOT } = require('../support/standin');
const { tempDir } = require('../support/paths');

const SCENARIO = path.join(ROOT, 'test', 'e2e', 'scenario-partial.js');

describe('e2e scenarios through the stand-in command line', function () {
  this.timeout(300000);

  it('scenario-partial against MariaDB as it is', () => {
    const r = runCli([process.env.MYSQL_TEST_URI, '--js', '-f', SCENARIO], { env: { E2E_WORKDIR: tempDir() } });
    expect(r.status).to.equal(0, r.stderr + r.stdout);
    expect(r.stdout).to.include('E2E scenario-partial: OK');
  });

  it('scenario-partial with the MySQL 8.4 personality: the redo log is off for the load and on afterwards', () => {
    const r = runCli([process.env.MYSQL_TEST_URI, '--personality=mysql-8.4', '--js', '-f', SCENARIO],
      { env: { E2E_WORKDIR: tempDir() } });
    expect(r.status).to.equal(0, r.stderr + r.stdout);
    expect(r.stdout).to.include('InnoDB redo log: before ON, OFF during the load, after ON');
    expect(r.stdout).to.include('E2E scenario-partial: OK');
  });
});
