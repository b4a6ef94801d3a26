'use strict';
// Server changes (redo log off, tuning) are refused, unless force, on a server that serves others,
// and disabling the redo log is refused without the INNODB_REDO_LOG_ENABLE privilege. read_only
// is set for real on MariaDB; a replica, a source with replicas, Group Replication and the
// privilege are simulated through the MySQL 8.4 personality's state on the server (see
// test/mysqlsh/personality-mysql84.js). Refusals happen before anything changes.
const { expect } = require('chai');
const fx = require('./server-fixture');

const SCHEMA = 'safety_refusals';
const NAMES = Object.keys(fx.BASELINE);

describe('restore.load and restore.disableRedoLog refuse servers that serve others', function () {
  let dump;
  let shell;
  let configHome;

  function load(extra = '', opts = {}) {
    return shell(`restore.load(${JSON.stringify(dump)}, {preset: 'fastest', schema: '${SCHEMA}', dropExisting: true${extra}})`,
      { personality: 'mysql-8.4', ...opts });
  }

  async function expectNothingChanged() {
    expect(await fx.redoLogOnServer()).to.equal('ON');
    expect(await fx.globals(NAMES)).to.deep.equal(fx.BASELINE);
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
    expect(await fx.sql('SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [SCHEMA])).to.deep.equal([]);
  }

  before(() => { dump = fx.copyVetDump(); });
  beforeEach(async () => {
    ({ configHome, shell } = await fx.startFromBaseline());
    await fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA}`);
  });
  after(() => fx.dropPersonalitySchema());
  afterEach(async () => {
    await fx.backToDefaults();
    await fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA}`);
  });

  it('read_only ON (set for real): refused, nothing changed; with force it loads and puts everything back', async () => {
    await fx.sql('SET GLOBAL read_only = ON');
    const r = load();
    expect(r.error.message).to.include('Refusing to disable the InnoDB redo log and change 6 server setting(s)');
    expect(r.error.message).to.include('read_only is ON');
    expect(r.error.message).to.include('force: true');
    await expectNothingChanged();

    const forced = load(', force: true');
    expect(forced.error).to.equal(null);
    expect(forced.stderr + forced.stdout).to.include('force: going ahead although read_only is ON');
    expect(await fx.redoLogOnServer()).to.equal('ON');
    expect(await fx.globals(NAMES)).to.deep.equal(fx.BASELINE);
  });

  it('read_only ON without the personality (plain MariaDB): tuning alone is refused too', async () => {
    await fx.sql('SET GLOBAL read_only = ON');
    const r = shell(`restore.load(${JSON.stringify(dump)}, {tune: true, schema: '${SCHEMA}'})`);
    expect(r.error.message).to.include('Refusing to change 6 server setting(s)');
    await expectNothingChanged();
  });

  it('the safe preset makes no server change, so it loads on a read_only server', async () => {
    await fx.sql('SET GLOBAL read_only = ON');
    await fx.sql('SET GLOBAL local_infile = ON');
    const r = shell(`restore.load(${JSON.stringify(dump)}, {schema: '${SCHEMA}', progressFile: ''})`, { personality: 'mysql-8.4' });
    expect(r.error, r.error && r.error.message).to.equal(null);
    expect(r.value.settings).to.deep.equal([]);
    expect(r.value.redoLog).to.deep.equal({ before: 'ON', disabled: false, after: 'ON' });
  });

  const simulated = [
    ['a replica', 'replica_source', '10.0.0.5:3306', 'it is a replica of 10.0.0.5:3306'],
    ['a source with replicas connected', 'replica_hosts', 'r1.example:3306,r2.example:3307',
      '2 replica(s) are connected to it (SHOW REPLICAS: r1.example:3306, r2.example:3307)'],
    ['a Group Replication member', 'group_replication', 'ONLINE', 'Group Replication is running (member state ONLINE)'],
  ];
  simulated.forEach(([what, key, value, reason]) => {
    it(`${what} (simulated): restore.load and restore.disableRedoLog are refused`, async () => {
      await fx.setPersonality(key, value);
      const r = load();
      expect(r.error.message).to.include(reason);
      await expectNothingChanged();
      const d = shell('restore.disableRedoLog()', { personality: 'mysql-8.4' });
      expect(d.error.message).to.include(reason);
      expect(await fx.redoLogOnServer()).to.equal('ON');
    });
  });

  it('without INNODB_REDO_LOG_ENABLE (revoked through the personality): refused with the GRANT to run', async () => {
    const revoke = shell("shell.getSession().runSql(\"REVOKE INNODB_REDO_LOG_ENABLE ON *.* FROM 'root'@'127.0.0.1'\")",
      { personality: 'mysql-8.4' });
    expect(revoke.error).to.equal(null);
    const r = load();
    expect(r.error.message).to.include('lacks the INNODB_REDO_LOG_ENABLE privilege');
    expect(r.error.message).to.include("GRANT INNODB_REDO_LOG_ENABLE ON *.* TO 'root'@'127.0.0.1';");
    await expectNothingChanged();
    const d = shell('restore.disableRedoLog()', { personality: 'mysql-8.4' });
    expect(d.error.message).to.include('GRANT INNODB_REDO_LOG_ENABLE');
    // Keeping the redo log needs no privilege.
    const kept = load(", redoLog: 'keep'");
    expect(kept.error).to.equal(null);
    expect(kept.value.redoLog.disabled).to.equal(false);
  });

  it('on MariaDB itself there is no redo log switch: says so and loads with it on', async () => {
    const r = shell(`restore.load(${JSON.stringify(dump)}, {preset: 'fastest', schema: '${SCHEMA}', progressFile: ''})`);
    expect(r.error, r.error && r.error.message).to.equal(null);
    expect(r.stdout).to.match(/InnoDB redo log: left alone: MariaDB .* has no switchable InnoDB redo log/);
    expect(r.value.redoLog).to.deep.equal({ before: null, disabled: false, after: null });
    expect(r.value.settings.every((s) => s.restored)).to.equal(true);
    expect(await fx.globals(NAMES)).to.deep.equal(fx.BASELINE);
  });

  it('restore.disableRedoLog / enableRedoLog record the change for restore.status', async () => {
    const d = shell('restore.disableRedoLog()', { personality: 'mysql-8.4' });
    expect(d.error, d.error && d.error.message).to.equal(null);
    expect(d.value).to.deep.equal({ supported: true, before: 'ON', after: 'OFF' });
    expect(await fx.redoLogOnServer()).to.equal('OFF');
    const status = shell('restore.status()', { personality: 'mysql-8.4' });
    expect(status.value.leftBehind.redoLog).to.include({ disabledBy: 'restore.disableRedoLog', now: 'OFF' });
    // A load with redoLog "off" leaves the user's own switch alone and says so.
    await fx.sql('SET GLOBAL local_infile = ON');
    const l = load(", force: false, tune: false, redoLog: 'off'", {});
    expect(l.error, l.error && l.error.message).to.equal(null);
    expect(l.stdout).to.include('disabled by restore.disableRedoLog');
    expect(await fx.redoLogOnServer()).to.equal('OFF');
    const e = shell('restore.enableRedoLog()', { personality: 'mysql-8.4' });
    expect(e.value).to.deep.equal({ supported: true, before: 'OFF', after: 'ON' });
    expect(await fx.redoLogOnServer()).to.equal('ON');
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
    const plain = shell('restore.disableRedoLog()');
    expect(plain.value).to.deep.equal({ supported: false, before: null, after: null });
    expect(plain.stdout).to.include('has no switchable InnoDB redo log');
  });
});
