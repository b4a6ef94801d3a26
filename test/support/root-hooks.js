'use strict';
// Mocha root hooks: one throwaway MariaDB for the whole run (or MYSQL_TEST_URI if given).
const { startMariaDb } = require('./mariadb-server');

let server = null;

exports.mochaHooks = {
  async beforeAll() {
    this.timeout(120000);
    if (process.env.MYSQL_TEST_URI) return;
    server = await startMariaDb();
    process.env.MYSQL_TEST_URI = server.uri;
    process.env.RESTORE_TEST_OWN_SERVER = '1';
  },
  async afterAll() {
    this.timeout(60000);
    if (server) {
      await server.stop();
      delete process.env.MYSQL_TEST_URI;
    }
  },
};

exports.testServer = () => server;
