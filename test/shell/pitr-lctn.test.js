'use strict';
// Issue 53 item 4: schemaMap on the applier road when the target's lower_case_table_names is 1 or 2. The channel's
// REPLICATE_REWRITE_DB is given the new names in lower case (given as typed, `Shop_copy` wedged lctn 2's applier and
// crashed lctn 1's mysqld, measured on 9.7.4), so the server renames inside a compressed transaction too, which the
// plugin's own rename cannot reach (on main: MySQL error 1049, or that transaction's rows written into the target's
// `Shop` loaded beside the copy). Every table of the copy as the source has it, `Shop` untouched.
// lctn 2 takes the same road (serverWork) but needs a case-insensitive data directory (mysqld sets it to 0 on any
// other, and this kernel has no CONFIG_UNICODE for ext4 or tmpfs casefold); it was measured by hand on a FUSE file
// system (test/support/cifuse.c), which was not steady enough under mocha to be part of npm test.
const { expect } = require('chai');
const path = require('path');
const { startServer, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

const GTIDS = '--gtid-mode=ON --enforce-gtid-consistency=ON';
const TABLES = ['Orders', 'items', 'Made'];
const SCHEMA = ['CREATE TABLE Shop.Orders (id INT PRIMARY KEY, v VARCHAR(20))', 'CREATE TABLE Shop.items (id INT PRIMARY KEY, n INT)',
  "INSERT INTO Shop.Orders VALUES (1, 'a'), (2, 'b'), (3, 'c')", 'INSERT INTO Shop.items VALUES (1, 10), (2, 20)'];

describe('restore load --binlogs --replayWith=applier --schemaMap on lower_case_table_names 1 (real Shell, real servers)', function () {
  this.timeout(300000);
  let source, target, home, dump, folder, expected, atDump; // eslint-disable-line one-var

  before(async function () {
    needs(this, ['server', 'shell']);
    const started = await Promise.allSettled([startServer({ opts: GTIDS }), startServer({ opts: GTIDS })]);
    const up = started.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    const failed = started.find((r) => r.status === 'rejected');
    if (failed) {
      await Promise.all(up.map((s) => s.stop()));
      throw failed.reason;
    }
    [source, target] = up;
    await target.reinitialize(['--lower-case-table-names=1']);
    expect(Number(await target.value('SELECT @@lower_case_table_names'))).to.equal(1);

    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE Shop');
    for (const s of SCHEMA) await q(s);
    atDump = await checksumTables(source, ['Shop.Orders', 'Shop.items']);
    dump = path.join(tempDir('restore-lctn-'), 'dump');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['Shop'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await q('FLUSH BINARY LOGS');
    await q("INSERT INTO Shop.Orders VALUES (4, 'd')");
    await q('UPDATE Shop.items SET n = n + 1');
    await q("USE Shop; UPDATE Orders SET v = CONCAT(v, '-u') WHERE id = 1; USE mysql");
    await q('CREATE TABLE Shop.Made (id INT PRIMARY KEY)'); // its text names the schema: rewritten by the plugin
    await q('INSERT INTO Shop.Made VALUES (1), (2)');
    // A compressed transaction: its TABLE_MAP events are inside the payload, which only the target's server opens.
    await q("SET SESSION binlog_transaction_compression = ON; UPDATE Shop.Orders SET v = CONCAT('z', v) WHERE id < 3; " +
      'SET SESSION binlog_transaction_compression = OFF');
    await q('FLUSH BINARY LOGS');
    expected = Object.values(await checksumTables(source, TABLES.map((t) => `Shop.${t}`)));
    folder = tempDir('restore-lctn-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('the channel\'s filter renames Shop to shop_copy (lower case); the copy\'s tables as the source\'s, a compressed transaction\'s rows too; the target\'s own Shop untouched', async function () {
    // The source's schema loaded beside the copy, as a DBA restores a copy next to production.
    await target.query('CREATE DATABASE Shop');
    for (const s of SCHEMA) await target.query(s);
    const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`, '--schemaMap=Shop:Shop_copy', '--replayWith=applier'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    const out = r.stdout.replace(/\s+/g, ' ');
    expect(out).to.include('the channel\'s filter renames the schemas (REPLICATE_REWRITE_DB Shop -> shop_copy), the new names in lower case as lower_case_table_names 1 compares them');
    expect(out).to.match(/the channel's filter REPLICATE_REWRITE_DB \(Shop,shop_copy\) was used [1-9]\d* time\(s\)/);
    expect(Object.values(await checksumTables(target, TABLES.map((t) => `Shop_copy.${t}`)))).to.deep.equal(expected);
    expect(await checksumTables(target, ['Shop.Orders', 'Shop.items'])).to.deep.equal(atDump);
  });
});
