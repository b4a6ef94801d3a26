'use strict';
// Mocha root hooks: one throwaway real MySQL server for the whole run (../shared/bin/with-mysql),
// the server's state recorded before and compared after (the suite must leave it as it found
// it), temp files removed, and a summary of every skip and why (test/support/real.js skipBecause).
const { HAVE, skipped } = require('./real');
const { startServer, stopLeftovers } = require('./server');
const { cleanTemp } = require('./shell');
const { serverFingerprint } = require('./fingerprint');
const { stopShared } = require('./topology');

let server = null;
let before = null;

exports.mochaHooks = {
  async beforeAll() {
    this.timeout(180000);
    if (!HAVE.server || !HAVE.shell) return;
    if (process.env.MYSQL_TEST_URI) {
      // Never run the destructive parts against a server this run did not start, unless told.
      if (process.env.RESTORE_TEST_FOREIGN_SERVER !== 'yes') {
        throw new Error('MYSQL_TEST_URI is set: the tests drop schemas, change global variables and switch the redo ' +
          'log. Set RESTORE_TEST_FOREIGN_SERVER=yes to run them against that server anyway.');
      }
    }
    server = await startServer();
    before = await serverFingerprint(server);
  },
  async afterAll() {
    this.timeout(120000);
    cleanTemp();
    // The replicated topologies tests shared (test/support/topology.js), if any; its verdict after the rest.
    const sharedError = await stopShared().then(() => null, (e) => e);
    if (server) {
      const after = await serverFingerprint(server);
      await server.stop();
      const left = await stopLeftovers();
      if (left) process.stdout.write(`  (${left} test server(s) left running (by a test, or a hook that failed) were stopped)\n`);
      const changed = Object.keys(before).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
      if (changed.length) {
        throw new Error('The test run left the server changed: ' + changed.map((k) =>
          `${k}: ${JSON.stringify(before[k])} -> ${JSON.stringify(after[k])}`).join('; '));
      }
    }
    if (process.env.RESTORE_TEST_PART) {
      // scripts/run-tests.js prints the skips of every process together.
      require('fs').writeFileSync(process.env.RESTORE_TEST_PART + '.skipped.json', JSON.stringify(Object.fromEntries(skipped)));
    } else if (skipped.size) {
      // Printed when the process ends, so it is the run's last word, after mocha's counts.
      const lines = [...skipped].map(([why, n]) => `  ${n} test(s) skipped: ${why}`);
      process.once('exit', () => process.stdout.write(`\nSkipped:\n${lines.join('\n')}\n` +
        'To run them, put the shared folder beside the checkout (bin/mysqlsh: MySQL Shell; bin/with-mysql: a ' +
        'throwaway MySQL server; real-dumps/) and install zstd (scripts/setup-dev.sh).\n'));
    }
    if (sharedError) throw sharedError;
  },
};

// The suite's server (null when ../shared is missing).
exports.suiteServer = () => server;
