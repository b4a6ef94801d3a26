'use strict';
// The server-safety decisions (lib/server/server-safety.js) on the fake server: which servers are
// refused server-wide changes and with what words, what force lets through (with a warning), what
// the replicated road expects, checks that cannot run, the redo log privilege and when switching
// the redo log off risks more than the load.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const safety = require('../../lib/server/server-safety.js');

const CHANGES = 'disable the InnoDB redo log and change 3 server setting(s)';
const REPLICA_OF = [/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: '', Source_Host: '10.0.0.5', Source_Port: 3306 }] }];
const REPLICAS = [/^SHOW REPLICAS$/, { rows: [{ Server_Id: 2, Host: '10.0.0.7', Port: 3307 }] }];
const GROUP = [/replication_group_members/, { rows: [{ MEMBER_STATE: 'ONLINE' }] }];
const deny = (code, message) => () => { throw sqlError(code, message); };

function refusal(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a refusal');
}
function changed(h) { return h.statements().filter((s) => !/^(SHOW|SELECT)\b/.test(s)); }

describe('server safety: what a load may change on this server (lib/server/server-safety.js)', function () {
  it('a standalone server: nothing to refuse, nothing warned', function () {
    const h = fakeHost({});
    expect(safety.checkServerSafety(h, CHANGES, false, true, false)).to.deep.equal([]);
    expect(h.warned).to.deep.equal([]);
    expect(changed(h)).to.deep.equal([]);
  });

  it('refuses a replica, a source with replicas, a read-only server and a group member, naming each reason', function () {
    const h = fakeHost({ variables: { read_only: 'ON', super_read_only: 'ON' }, sql: [REPLICA_OF, REPLICAS, GROUP] });
    const e = refusal(() => safety.checkServerSafety(h, CHANGES, false, false, false));
    expect(e.isUserError).to.equal(true);
    expect(e.message).to.equal('Refusing to ' + CHANGES + ': this server looks like it serves others: it is a replica of ' +
      '10.0.0.5:3306 (SHOW REPLICA STATUS); 1 replica(s) are connected to it (SHOW REPLICAS: 10.0.0.7:3307); read_only ' +
      'and super_read_only are ON; Group Replication is running (member state ONLINE). Those changes make it unsafe for ' +
      'them (a crash while the redo log is off loses the instance). Load without server changes (preset: "safe", or ' +
      'redoLog: "keep" and tune: false), or pass force: true if you are sure nobody depends on this server during the load.');
    expect(changed(h)).to.deep.equal([]);
    expect(refusal(() => safety.checkServerSafety(fakeHost({ variables: { read_only: 'ON' } }), CHANGES, false, false, false))
      .message).to.match(/serves others: read_only is ON\. /);
  });

  it('force goes ahead with a warning per reason', function () {
    const h = fakeHost({ sql: [REPLICAS] });
    expect(safety.checkServerSafety(h, CHANGES, true, false, false)).to.deep.equal([
      '1 replica(s) are connected to it (SHOW REPLICAS: 10.0.0.7:3307)']);
    expect(h.warned).to.deep.equal(['force: going ahead although 1 replica(s) are connected to it (SHOW REPLICAS: 10.0.0.7:3307).']);
  });

  it('on the replicated road replicas and a group are expected; a server that is itself a replica is not', function () {
    expect(safety.checkServerSafety(fakeHost({ sql: [REPLICAS, GROUP] }), CHANGES, false, false, true)).to.deep.equal([]);
    expect(refusal(() => safety.checkServerSafety(fakeHost({ sql: [REPLICA_OF, REPLICAS] }), CHANGES, false, false, true))
      .message).to.match(/serves others: it is a replica of 10\.0\.0\.5:3306 \(SHOW REPLICA STATUS\)\. /);
  });

  it('Group Replication\'s own channels are not a source; older servers are asked with the older statements', function () {
    const own = fakeHost({ sql: [[/^SHOW REPLICA STATUS$/, { rows: [{ Channel_Name: 'group_replication_applier', Source_Host: '' }] }]] });
    expect(safety.servesOthers(own, false)).to.deep.equal([]);
    const old = fakeHost({ sql: [
      [/^SHOW (REPLICA STATUS|REPLICAS)$/, deny(1064, 'You have an error in your SQL syntax')],
      [/^SHOW SLAVE STATUS$/, { rows: [{ Channel_Name: '', Master_Host: '10.0.0.9', Master_Port: 3310 }] }],
      [/^SHOW SLAVE HOSTS$/, { rows: [{ Host: '10.0.0.8', Port: 3311 }] }],
    ] });
    expect(safety.servesOthers(old, false)).to.deep.equal(['it is a replica of 10.0.0.9:3310 (SHOW REPLICA STATUS)',
      '1 replica(s) are connected to it (SHOW REPLICAS: 10.0.0.8:3311)']);
  });

  it('a check that cannot run is warned about, never taken for "not serving others"; before a drop it refuses', function () {
    const noPrivilege = () => fakeHost({ sql: [
      [/^SHOW REPLICA STATUS$/, deny(1227, 'Access denied; you need (at least one of) the REPLICATION CLIENT privilege(s)')],
      [/replication_group_members/, deny(1142, 'SELECT command denied to user')],
    ] });
    const h = noPrivilege();
    expect(safety.checkServerSafety(h, CHANGES, false, false, false)).to.deep.equal([]);
    expect(h.warned).to.deep.equal([
      'Could not check whether the server serves others (replica): Access denied; you need (at least one of) the REPLICATION CLIENT privilege(s)',
      'Could not check whether the server serves others (groupReplication): SELECT command denied to user']);
    const e = refusal(() => safety.checkServerSafety(noPrivilege(), CHANGES, false, true, false));
    expect(e.message).to.match(/^Refusing to disable the InnoDB redo log and change 3 server setting\(s\) before dropping existing objects: whether this server serves others could not be checked \(replica: Access denied.*; groupReplication: SELECT command denied to user\)\. Nothing was dropped or changed\. /);
    expect(safety.checkServerSafety(noPrivilege(), CHANGES, true, true, false)).to.deep.equal([]);
    // No such table (a server without Group Replication): not a member, nothing to warn about.
    const mariadb = fakeHost({ sql: [[/replication_group_members/, deny(1146, "Table 'performance_schema.replication_group_members' doesn't exist")]] });
    expect(safety.servesOthers(mariadb, false)).to.deep.equal([]);
    expect(mariadb.warned).to.deep.equal([]);
  });

  it('the redo log privilege: held through ALL or by name on *.*, else refused with the GRANT to run (force: warned)', function () {
    const grants = (lines, user) => fakeHost({ grants: lines, sql: user ? [[/^SELECT CURRENT_USER\(\) AS u$/, { rows: [{ u: user }] }]] : [] });
    expect(safety.checkRedoLogPrivilege(grants(['GRANT ALL PRIVILEGES ON *.* TO `root`@`%`']), false)).to.equal(true);
    expect(safety.checkRedoLogPrivilege(grants(['GRANT USAGE ON *.* TO `a`@`%`',
      'GRANT BACKUP_ADMIN,INNODB_REDO_LOG_ENABLE ON *.* TO `a`@`%`']), false)).to.equal(true);
    const schemaOnly = grants(['GRANT USAGE ON *.* TO `o\'neil`@`10.%`', 'GRANT ALL PRIVILEGES ON `shop`.* TO `o\'neil`@`10.%`'], "o'neil@10.%");
    expect(refusal(() => safety.checkRedoLogPrivilege(schemaOnly, false)).message).to.equal('This account cannot disable the ' +
      'InnoDB redo log: it lacks the INNODB_REDO_LOG_ENABLE privilege (SHOW GRANTS). Ask an administrator to run: GRANT ' +
      "INNODB_REDO_LOG_ENABLE ON *.* TO 'o''neil'@'10.%'; Or load with redoLog: \"keep\".");
    const forced = grants(['GRANT USAGE ON *.* TO `a`@`%`'], 'a@%');
    expect(safety.checkRedoLogPrivilege(forced, true)).to.equal(false);
    expect(forced.warned[0]).to.match(/force: trying anyway.*GRANT INNODB_REDO_LOG_ENABLE ON \*\.\* TO 'a'@'%';$/);
  });

  it('the redo log off risks more than the load: other schemas, a group, replicas; system schemas do not count', function () {
    const schemas = (names, sql) => fakeHost({ sql: [[/information_schema\.SCHEMATA/, { rows: names.map((s) => ({ s })) }]].concat(sql || []) });
    const system = ['mysql', 'sys', 'performance_schema', 'information_schema'];
    expect(safety.redoOffRisk(schemas(system.concat(['shop'])), ['shop'], null)).to.equal(null);
    expect(safety.redoOffRisk(schemas(system.concat(['shop', 'crm', 'a', 'b', 'c', 'd', 'e'])), ['shop'], null)).to.equal(
      'the server holds 6 schema(s) outside this load (crm, a, b, c, d, …)');
    const tables = [[/lower_case_table_names/, { rows: [{ l: '1' }] }],
      [/information_schema\.TABLES/, { rows: [{ s: 'shop', t: 'orders' }, { s: 'shop', t: 'keepme' }] }]];
    expect(safety.redoOffRisk(schemas(['shop'], tables), ['shop'], null, [{ schema: 'shop', table: 'Orders' }])).to.equal(
      'the schema(s) of this load hold 1 table(s) or view(s) it does not load (shop.keepme)');
    expect(safety.redoOffRisk(schemas(['shop'], tables), ['shop'], null, [{ schema: 'shop', table: 'orders' }, { schema: 'shop', table: 'keepme' }]))
      .to.equal(null);
    expect(safety.redoOffRisk(schemas(['shop']), ['shop'], { group: {}, replicas: [] })).to.equal('it is a Group Replication member');
    expect(safety.redoOffRisk(schemas(['shop']), ['shop'], { group: null, replicas: [{ host: '127.0.0.1', port: 3307 }] }))
      .to.equal('1 replica(s) are connected to it (127.0.0.1:3307)');
    expect(safety.redoOffRisk(schemas(['shop'], [REPLICAS]), ['shop'], null)).to.equal(
      '1 replica(s) are connected to it (SHOW REPLICAS: 10.0.0.7:3307)');
  });
});
