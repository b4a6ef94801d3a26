'use strict';
// Issue 20, 5: a server with lower_case_table_names = 1 stores the dump's `Orders` as `orders`.
// Drops, analyze and the row counts must all find it (before, only drops folded the case: the
// report said the table was not there and analyze skipped it). A server of its own, initialized
// with that setting (it can be set only then).
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, mysqlsh, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { startServer } = require('../support/server');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

describe('hostile: table names on a lower_case_table_names = 1 server (real Shell, own MySQL)', function () {
  let own = null;
  let dump;
  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    const suite = suiteServer();
    await suite.query('DROP SCHEMA IF EXISTS casey');
    await suite.query('CREATE SCHEMA casey');
    await suite.query('CREATE TABLE casey.`Orders` (id INT PRIMARY KEY, note VARCHAR(20))');
    await suite.query("INSERT INTO casey.`Orders` VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    dump = `${tempDir('restore-case-')}/dump`;
    const r = await withShellDumper(suite, async () => mysqlsh([suite.uri, '--js', '-e',
      `util.dumpSchemas(["casey"], ${JSON.stringify(dump)}, {showProgress: false})`], { env: DUMP_ENV }));
    await suite.query('DROP SCHEMA casey');
    expect(r.status, r.out).to.equal(0);
    own = await startServer();
    await own.reinitialize(['--lower-case-table-names=1']);
    expect(Number(await own.value('SELECT @@lower_case_table_names'))).to.equal(1);
  });
  after(async function () {
    if (own) await own.stop();
  });

  it('load, analyze and the row counts find `Orders` stored as `orders`; a second load with dropExisting drops it', async function () {
    const first = cli(own.uri, ['load', dump, '--preset=safe', '--analyze=on']);
    expect(first.status, first.out).to.equal(0);
    expect(await own.value("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'casey'")).to.equal('orders');
    expect(first.out).to.match(/casey\.`?Orders`? +3\b/).and.match(/Analyze \(on\): 1 table\(s\)/);
    expect(first.out).to.not.match(/not there/);
    const again = cli(own.uri, ['load', dump, '--preset=safe', '--drop-existing', '--force']);
    expect(again.status, again.out).to.equal(0);
    expect(again.out).to.match(/casey\.`?Orders`? +3\b/);
    expect(Number(await own.value('SELECT COUNT(*) FROM casey.orders'))).to.equal(3);
  });
});
