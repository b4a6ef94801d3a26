'use strict';
// restore.load with binlogs over the statements production logs besides rows (issue 53 items 1 and 3), real Shell,
// real servers: ANALYZE / OPTIMIZE TABLE, CREATE INDEX, CREATE USER + GRANT, FLUSH PRIVILEGES, a tablespace after
// a util.dumpSchemas dump. A full replay equals the source (CHECKSUM TABLE, SHOW GRANTS, gtid_executed); a filtered
// one skips what touches only the table left out and refuses the statement it cannot read, saying which option makes
// it matter. A replay stopped by a failure on the target continues, once the cause is fixed, with the same command.
const { expect } = require('chai');
const path = require('path');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { sharedReplicaSet, sharedGroup } = require('../support/topology');

const TABLES = ['shop.customers', 'shop.orders', 'shop.extra'];
const ACCOUNT = "'pitr_app'@'%'";

describe('restore load --binlogs: DDL, maintenance and account statements after the dump (real Shell, real servers)', function () {
  this.timeout(240000);
  let source;
  let target;
  let home;
  let dump;
  let folder;
  let uuid;
  let dumpEnd;
  let lastN; // the source's last GTID number
  let tablespaceGtid; // CREATE TABLESPACE: a statement whose objects the replay does not read
  let expected; // CHECKSUM TABLE of each table on the source at the end
  let expectedBefore; // … right before CREATE TABLESPACE
  let grants; // SHOW GRANTS of the account on the source

  const gtidOf = async (server) => String(await server.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
  const lastOf = async () => Number(new RegExp(`${uuid}:1-(\\d+)`).exec(await gtidOf(source))[1]);
  const views = async (server) => (await server.query("SELECT TABLE_NAME AS v FROM information_schema.views WHERE TABLE_SCHEMA = 'shop' ORDER BY 1"))
    .map((r) => r.v);
  const showGrants = async (server) => (await server.query(`SHOW GRANTS FOR ${ACCOUNT}`)).map((r) => Object.values(r)[0]);

  async function freshTarget() {
    await target.query(`DROP DATABASE IF EXISTS shop; DROP USER IF EXISTS ${ACCOUNT}`);
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  function load(options) {
    return runJs(target.uri, `restore.load(${JSON.stringify(dump)}, ${JSON.stringify(Object.assign({ outputFormat: 'none' }, options))})`,
      { configHome: home });
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, uuid } = await gtidSourceAndTarget());
    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE shop');
    await q('CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40))');
    await q('CREATE TABLE shop.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT, amount DECIMAL(10,2))');
    await q('CREATE TABLE shop.extra (k INT PRIMARY KEY, v VARCHAR(20))');
    await q('INSERT INTO shop.customers VALUES ' + Array.from({ length: 30 }, (_, i) => `(${i + 1}, 'c${i + 1}')`).join(','));
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES ' + Array.from({ length: 30 }, (_, i) => `(${i % 7 + 1}, ${i}.5)`).join(','));
    await q("INSERT INTO shop.extra VALUES (1, 'a'), (2, 'b')");
    dump = path.join(tempDir('restore-pitr-stmts-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    dumpEnd = await lastOf();
    // After the dump: rows, then what production logs besides rows.
    await q("INSERT INTO shop.customers VALUES (31, 'late'); UPDATE shop.orders SET amount = amount + 1 WHERE id <= 5");
    await q('ANALYZE TABLE shop.orders');
    await q('OPTIMIZE TABLE shop.customers');
    await q('CREATE INDEX k_amount ON shop.orders (amount)');
    await q(`CREATE USER ${ACCOUNT} IDENTIFIED BY 'Pitr-secret-9'`);
    await q(`GRANT SELECT, INSERT ON shop.* TO ${ACCOUNT}`);
    await q(`GRANT UPDATE ON shop.extra TO ${ACCOUNT}`);
    await q('FLUSH PRIVILEGES');
    await q('ANALYZE TABLE shop.extra');
    await q("UPDATE shop.extra SET v = 'changed' WHERE k = 1");
    await q('CREATE VIEW shop.v_extra AS SELECT k, v FROM shop.extra');
    await q('CREATE VIEW shop.v_orders AS SELECT o.id, c.name FROM shop.orders o JOIN shop.customers c ON c.id = o.customer_id');
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES (3, 99.00)');
    expectedBefore = await checksumTables(source, ['shop.customers', 'shop.orders']);
    tablespaceGtid = `${uuid}:${await lastOf() + 1}`;
    await q("CREATE TABLESPACE pitr_ts ADD DATAFILE 'pitr_ts.ibd'");
    await q('DROP TABLESPACE pitr_ts');
    await q("INSERT INTO shop.customers VALUES (32, 'last')");
    await q('FLUSH BINARY LOGS');
    lastN = await lastOf();
    expected = await checksumTables(source, TABLES);
    grants = await showGrants(source);
    folder = tempDir('restore-pitr-stmts-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    if (target) await freshTarget().catch(() => {});
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('a full replay: every statement applied, the target equal to the source (tables, grants, GTIDs)', async function () {
    await freshTarget();
    const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.not.include('filtered').and.not.include('Pitr-secret-9');
    expect(r.stdout).to.include(`replay: ${lastN - dumpEnd} transaction(s) after the dump`);
    expect(await views(target)).to.deep.equal(['v_extra', 'v_orders']);
    expect(r.stdout).to.match(/account statements \(CREATE \/ ALTER \/ DROP USER, GRANT, REVOKE, SET PASSWORD, FLUSH PRIVILEGES\): 4 replayed, as mysqlbinlog \| mysql would/);
    expect(r.stdout).to.include('no load filter is given, so a statement whose objects are not read replays (2 of them)');
    expect(await checksumTables(target, TABLES)).to.deep.equal(expected);
    expect(await showGrants(target)).to.deep.equal(grants);
    expect(await gtidOf(target)).to.include(`${uuid}:${dumpEnd + 1}-${lastN}`);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = 'shop' AND index_name = 'k_amount'")))
      .to.be.above(0);
  });

  it('excludeTables: what touches only the table left out is skipped and counted; the tablespace refused, naming it and excludeTables', async function () {
    await freshTarget();
    const refused = cli(target.uri, ['load', dump, `--binlogs=${folder}`, '--exclude-tables=shop.extra', '--output-format=json'], { configHome: home });
    expect(refused.status, refused.out).to.equal(1);
    const e = JSON.parse(refused.stdout).error;
    expect(e.code).to.equal('BINLOG_UNSUPPORTED');
    expect(e.message).to.include(`transaction ${tablespaceGtid} (binlog.`).and.include('holds "CREATE TABLESPACE pitr_ts ADD DATAFILE \'pitr_ts.ibd\'"')
      .and.include('excludeTables leaves objects out of the load (and the dump (util.dumpSchemas) holds only schema shop), so whether it touches only what is loaded cannot be told')
      .and.include(`Load without excludeTables, or load a dump of the whole instance (util.dumpInstance), or stop before it (stopBefore: "${tablespaceGtid}")`)
      .and.include('Nothing was changed.').and.not.include('filtered');
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);

    const r = load({ binlogs: folder, excludeTables: ['shop.extra'], stopBefore: tablespaceGtid, outputFormat: 'text' });
    expect(r.error, r.out).to.equal(null);
    // GRANT UPDATE ON shop.extra, ANALYZE TABLE shop.extra, the UPDATE of extra, the view over it.
    expect(r.out).to.match(/skipped: \d+ already in the dump \(its gtidExecuted\), 4 only of tables the load leaves out, 0 only of schemas it does not load;/)
      .and.include('left out of the replay: what touches only objects the load does not create (excludeTables; the dump (util.dumpSchemas) holds only schema shop)');
    expect(await checksumTables(target, ['shop.customers', 'shop.orders'])).to.deep.equal(expectedBefore);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop' AND table_name = 'extra'"))).to.equal(0);
    expect(await views(target)).to.deep.equal(['v_orders']);
    expect(await showGrants(target)).to.deep.equal(grants.filter((g) => !/`extra`/.test(g)));
  });

  // A replay stopped by a failure on the target (the account there already, made by hand): the transactions before it
  // stay, the message says the same command continues once the cause is fixed; dropped by hand (the target's own GTID),
  // the same command continues: with the load's progress file, and with dropExisting (no progress file to resume).
  for (const extra of [[], ['--drop-existing'], ['--drop-existing', '--replay-with=sessions']]) {
    it(`a replay stopped by a failure continues with the same command once the cause is fixed${extra.length ? ` (${extra.join(' ')})` : ''}`, async function () {
      await freshTarget();
      await target.query(`CREATE USER ${ACCOUNT}`);
      const args = ['load', dump, `--binlogs=${folder}`, ...extra];
      const failed = cli(target.uri, args, { configHome: home });
      expect(failed.status, failed.out).to.equal(1);
      expect(failed.out).to.match(/The replay failed at transaction [0-9a-f-]+:\d+ \(binlog\.\d+:\d+\)/).and.match(/the same command continues from there once the cause is fixed/i);
      const held = await gtidOf(target);
      expect(held).to.include(`${uuid}:${dumpEnd + 1}-`).and.not.include(`${uuid}:${dumpEnd + 1}-${lastN}`);
      await target.query(`DROP USER ${ACCOUNT}`); // the fix, logged: a GTID of the target's own
      const again = cli(target.uri, args, { configHome: home });
      expect(again.status, again.out).to.equal(0);
      if (extra.length) {
        expect(again.stdout).to.include('continuing a replay that stopped, from').and.include('dropExisting drops nothing')
          .and.include('util.loadDump: not run (continuing a replay that stopped, below)')
          .and.include('Drop before loading: nothing: the loaded tables hold this restore\'s load and replay, which continues (below)');
      }
      expect(await checksumTables(target, TABLES)).to.deep.equal(expected);
      expect(await showGrants(target)).to.deep.equal(grants);
      expect(await gtidOf(target)).to.include(`${uuid}:${dumpEnd + 1}-${lastN}`);
    });
  }

  // The same on a source with a replica and on a group's primary, where RESET BINARY LOGS AND GTIDS is no way out: every member
  // ends equal to the source.
  for (const [kind, start] of [['a source with a replica', sharedReplicaSet], ['a group primary', sharedGroup]]) {
    it(`${kind}: a replay stopped by a failure continues with the same command (dropExisting) once the cause is fixed`, async function () {
      const set = await start();
      const primary = set.primary ? await set.primary() : set.source;
      try {
        await primary.query(`CREATE USER ${ACCOUNT}`);
        const args = ['load', dump, `--binlogs=${folder}`, '--drop-existing'];
        const failed = cli(primary.uri, args, { configHome: home });
        expect(failed.status, failed.out).to.equal(1);
        expect(failed.out).to.match(/the same command continues from there once the cause is fixed/i);
        await primary.query(`DROP USER ${ACCOUNT}`);
        const again = cli(primary.uri, args, { configHome: home });
        expect(again.status, again.out).to.equal(0);
        expect(again.stdout).to.include('continuing a replay that stopped, from');
        await set.waitApplied();
        for (const m of set.members) {
          expect(await checksumTables(m, TABLES), `member ${m.port}`).to.deep.equal(expected);
          expect(await showGrants(m), `member ${m.port}`).to.deep.equal(grants);
          expect(await gtidOf(m), `member ${m.port}`).to.include(`${uuid}:${dumpEnd + 1}-${lastN}`);
        }
      } finally {
        await primary.query(`DROP SCHEMA IF EXISTS shop; DROP USER IF EXISTS ${ACCOUNT}`);
        await set.waitApplied();
      }
    });
  }
});
