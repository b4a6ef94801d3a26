'use strict';
// Class 1 of issue 12: nothing destructive before every fallible check. An account that may drop
// the tables but not change server settings asks for dropExisting + tune: refused in preflight,
// the tables still there with their rows, no setting changed, no state file written.
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { sandbox, expectRefused } = require('./hostile-helpers');

const USER = 'restore_hostile';

describe('hostile 1: destructive steps never come before fallible ones', function () {
  let server;
  let sb;
  beforeEach(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    sb = sandbox();
    await server.query('DROP SCHEMA IF EXISTS shop');
    await server.query('CREATE SCHEMA shop');
    await server.query('CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(20))');
    await server.query("INSERT INTO shop.orders VALUES (1, 'keep me'), (2, 'me too')");
    await server.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await server.query(`CREATE USER '${USER}'@'%' IDENTIFIED BY 'pw'`);
    await server.query(`GRANT ALL ON shop.* TO '${USER}'@'%'`);
  });
  afterEach(async function () {
    if (!server) return;
    await server.query(`DROP USER IF EXISTS '${USER}'@'%'`);
    await server.query('DROP SCHEMA IF EXISTS shop');
  });

  async function expectTablesKept() {
    const rows = await server.query('SELECT id, note FROM shop.orders ORDER BY id');
    expect(rows.map((r) => r.note)).to.deep.equal(['keep me', 'me too']);
  }

  it('dropExisting + tune without SYSTEM_VARIABLES_ADMIN: refused before the drop, tables kept', async function () {
    await server.query(`GRANT REPLICATION CLIENT, REPLICATION SLAVE ON *.* TO '${USER}'@'%'`);
    await server.query(`GRANT SELECT ON performance_schema.replication_group_members TO '${USER}'@'%'`);
    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const r = cli(`${USER}:pw@127.0.0.1:${server.port}`, ['load', sb.dump, '--drop-existing', '--tune'],
      { configHome: sb.home });
    expectRefused(r, [/SYSTEM_VARIABLES_ADMIN/, /Nothing was dropped or changed/, /GRANT SYSTEM_VARIABLES_ADMIN ON \*\.\* TO 'restore_hostile'@'%'/], sb, before);
    await expectTablesKept();
    expect(await serverFingerprint(server)).to.deep.equal(fp);
  });

  it('dropExisting + redoLog off without INNODB_REDO_LOG_ENABLE: refused before the drop, tables kept', async function () {
    await server.query(`GRANT REPLICATION CLIENT, REPLICATION SLAVE ON *.* TO '${USER}'@'%'`);
    await server.query(`GRANT SELECT ON performance_schema.replication_group_members TO '${USER}'@'%'`);
    const before = sb.hash();
    const r = cli(`${USER}:pw@127.0.0.1:${server.port}`, ['load', sb.dump, '--drop-existing', '--redo-log=off'],
      { configHome: sb.home });
    expectRefused(r, [/INNODB_REDO_LOG_ENABLE/], sb, before);
    await expectTablesKept();
    expect(await server.redoLog()).to.equal('ON');
  });

  it('a Group Replication check the account may not run counts as "could not check", not "not a member"', async function () {
    // Every other check can run; only performance_schema.replication_group_members is out of reach.
    await server.query(`GRANT REPLICATION CLIENT, REPLICATION SLAVE, SYSTEM_VARIABLES_ADMIN, PROCESS ON *.* TO '${USER}'@'%'`);
    await server.query(`GRANT SELECT ON performance_schema.global_status TO '${USER}'@'%'`);
    await server.query(`GRANT SELECT ON performance_schema.global_variables TO '${USER}'@'%'`);
    const denied = await server.query(`SELECT COUNT(*) AS n FROM information_schema.TABLE_PRIVILEGES WHERE GRANTEE = "'${USER}'@'%'" ` +
      "AND TABLE_NAME = 'replication_group_members'");
    expect(Number(denied[0].n)).to.equal(0);
    const before = sb.hash();
    const r = cli(`${USER}:pw@127.0.0.1:${server.port}`, ['load', sb.dump, '--drop-existing', '--tune'],
      { configHome: sb.home });
    expectRefused(r, [/could not be checked \(groupReplication: /, /replication_group_members/, /Nothing was dropped or changed/],
      sb, before);
    await expectTablesKept();
  });

  it('issue 20, 5: orphan and mask steps without DELETE, UPDATE or the right to set sql_log_bin are refused in preflight', async function () {
    // May create and load shop, but not change its rows afterwards: a load must never end with
    // personal data unmasked because a privilege was missing.
    await server.query('DROP SCHEMA shop');
    await server.query(`REVOKE UPDATE, DELETE ON shop.* FROM '${USER}'@'%'`);
    const before = sb.hash();
    const fp = await serverFingerprint(server);
    const r = cli(`${USER}:pw@127.0.0.1:${server.port}`, ['load', sb.dump, '--preset=safe', '--skip-binlog',
      '--orphans=delete', '--mask=shop.customers.email:email'], { configHome: sb.home });
    expectRefused(r, [/DELETE \(orphans: "delete" deletes rows of `shop`\.`customers`\)/,
      /UPDATE \(mask changes rows of `shop`\.`customers`\)/, /SESSION_VARIABLES_ADMIN \(with skipBinlog/,
      /GRANT DELETE ON `shop`\.\* TO 'restore_hostile'@'%'/, /Nothing was dropped or changed/], sb, before);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    expect(await serverFingerprint(server)).to.deep.equal(fp);
  });

  it('a safety check that cannot run for lack of privilege refuses before a drop (not skipped)', async function () {
    const before = sb.hash();
    const r = cli(`${USER}:pw@127.0.0.1:${server.port}`, ['load', sb.dump, '--drop-existing', '--tune'],
      { configHome: sb.home });
    expectRefused(r, [/could not be checked/, /REPLICATION/, /Nothing was dropped or changed/], sb, before);
    await expectTablesKept();
  });
});
