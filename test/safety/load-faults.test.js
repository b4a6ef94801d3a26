'use strict';
// restore.load with a server error injected at each step (--fail-at: the first statement matching
// the pattern fails like a server error) and the MySQL 8.4 personality (the redo log switch,
// kept on the real server). After each run the redo log must be ON and every tuned setting back
// at its original value on the real server, or restore.status() must report exactly what is
// left and restore.revert() must repair it.
const { expect } = require('chai');
const fx = require('./server-fixture');

const SCHEMA = 'safety_faults';
const NAMES = Object.keys(fx.BASELINE);
const TUNED = { local_infile: 'ON', innodb_flush_log_at_trx_commit: '2', sync_binlog: '0', innodb_adaptive_hash_index: 'OFF',
  innodb_io_capacity: '2000', innodb_io_capacity_max: '4000' };

describe('restore.load: faults at every step leave the server as it was', function () {
  let dump;
  let configHome;
  let shell;

  function load(failAt, extra = '') {
    return shell(`restore.load(${JSON.stringify(dump)}, {preset: 'fastest', schema: '${SCHEMA}', dropExisting: true${extra}})`,
      { personality: 'mysql-8.4', failAt });
  }

  async function expectServerAsBefore() {
    expect(await fx.redoLogOnServer()).to.equal('ON');
    expect(await fx.globals(NAMES)).to.deep.equal(fx.BASELINE);
  }

  before(() => { dump = fx.copyVetDump(); });
  beforeEach(async () => { ({ configHome, shell } = await fx.startFromBaseline()); });
  afterEach(() => fx.backToDefaults());
  after(async () => {
    await fx.sql(`DROP DATABASE IF EXISTS ${SCHEMA}`);
    await fx.dropPersonalitySchema();
  });

  it('without a fault: loads, tunes every setting and the redo log for the load, puts all back', async () => {
    const r = load(null);
    expect(r.error).to.equal(null);
    expect(r.value.ok).to.equal(true);
    expect(r.value.redoLog).to.deep.equal({ before: 'ON', disabled: true, after: 'ON' });
    const during = {};
    r.value.settings.forEach((s) => { during[s.name] = s.value; expect(s.restored).to.equal(true); });
    expect(during).to.deep.equal(TUNED);
    expect(r.value.phases.map((p) => p.phase)).to.deep.equal(['preflight', 'server steps', 'util.loadDump', 'analyze', 'revert']);
    expect(r.value.tables.find((t) => t.table === 'mascotas')).to.deep.equal({ schema: SCHEMA, table: 'mascotas', rows: 5, exact: true });
    expect(r.stdout).to.match(/InnoDB redo log: before ON, OFF during the load, after ON/);
    // util.loadDump's own end-of-load check saw the redo log off (through the personality).
    expect(r.stderr).to.include('The redo log is currently disabled');
    await expectServerAsBefore();
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
  });

  const beforeOrInside = [
    ['preflight (reading the settings)', '^SHOW GLOBAL VARIABLES WHERE', 'preflight'],
    ['dropping existing objects', '^DROP TABLE', 'drop existing'],
    ['tuning (second setting)', '^SET GLOBAL innodb_flush_log_at_trx_commit = 2$', 'server steps'],
    ['disabling the redo log', '^ALTER INSTANCE DISABLE INNODB REDO_LOG', 'server steps'],
    ['util.loadDump, at its DDL', '^CREATE TABLE', 'util.loadDump'],
    ['util.loadDump, at its data', '^LOAD DATA', 'util.loadDump'],
  ];
  beforeOrInside.forEach(([what, failAt, phase]) => {
    it(`a failure in ${what}: the load fails, the redo log is ON and every setting back`, async () => {
      load(null); // the objects exist, so dropExisting has work to do
      await fx.setGlobals(fx.BASELINE);
      const r = load(failAt);
      expect(r.error, r.stdout).to.not.equal(null);
      expect(r.error.message + r.stderr).to.include('fault injected by the stand-in');
      if (phase !== 'preflight') {
        expect(r.stdout).to.match(new RegExp(`${phase.replace('.', '\\.')}\\s+[0-9.]+\\s+failed`));
        expect(r.stdout).to.match(/revert\s+[0-9.]+\s+ok/);
      }
      await expectServerAsBefore();
      expect(fx.stateFiles(configHome)).to.deep.equal([]);
    });
  });

  it('a failure in the analyze pass: the load succeeds, the failure is reported, the server is back', async () => {
    const r = load('^ANALYZE');
    expect(r.error).to.equal(null);
    expect(r.value.analyze.problems).to.have.length(1);
    expect(r.value.analyze.problems[0].message).to.include('fault injected');
    expect(r.stdout).to.match(/Analyze \(on\): 0 table\(s\), 1 problem\(s\)/);
    expect(r.stdout).to.include('ANALYZE failed for');
    await expectServerAsBefore();
  });

  it('a failure while putting a setting back: status reports exactly that setting, revert repairs it', async () => {
    const r = load('^SET GLOBAL innodb_flush_log_at_trx_commit = 1$');
    expect(r.error.message).to.include('The load finished, but the server could not be put back');
    expect(r.error.message).to.include('innodb_flush_log_at_trx_commit could not be put back to 1');
    expect(await fx.redoLogOnServer()).to.equal('ON');
    expect(await fx.globals(NAMES)).to.deep.equal({ ...fx.BASELINE, innodb_flush_log_at_trx_commit: '2' });
    expect(fx.stateFiles(configHome)).to.have.length(1);

    const status = shell('restore.status()', { personality: 'mysql-8.4' });
    expect(status.value.leftBehind).to.deep.equal({ redoLog: null, settings: [
      { name: 'innodb_flush_log_at_trx_commit', original: '1', value: '2', now: '2', by: 'restore.load' }] });
    expect(status.stdout).to.include('innodb_flush_log_at_trx_commit = 2 (original 1, set by restore.load)');

    // A new load refuses to record the changed value as an original.
    const again = load(null);
    expect(again.error.message).to.include('Run restore.revert() first');

    const rev = shell('restore.revert()', { personality: 'mysql-8.4' });
    expect(rev.error).to.equal(null);
    expect(rev.value.restored.map((s) => s.name)).to.deep.equal(['innodb_flush_log_at_trx_commit']);
    await expectServerAsBefore();
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
    expect(shell('restore.status()', { personality: 'mysql-8.4' }).value.leftBehind).to.equal(null);
  });

  it('a failure while enabling the redo log again: status reports it OFF, revert enables it', async () => {
    const r = load('^ALTER INSTANCE ENABLE INNODB REDO_LOG');
    expect(r.error.message).to.include('The InnoDB redo log could not be enabled again');
    expect(await fx.redoLogOnServer()).to.equal('OFF');
    expect(await fx.globals(NAMES)).to.deep.equal(fx.BASELINE);

    const status = shell('restore.status()', { personality: 'mysql-8.4' });
    expect(status.value.redoLog).to.equal('OFF');
    expect(status.value.leftBehind.settings).to.deep.equal([]);
    expect(status.value.leftBehind.redoLog).to.include({ disabledBy: 'restore.load', now: 'OFF' });
    expect(status.stdout).to.include('restore.revert() puts them back');

    const rev = shell('restore.revert()', { personality: 'mysql-8.4' });
    expect(rev.error).to.equal(null);
    expect(rev.value.redoLog).to.equal('enabled');
    await expectServerAsBefore();
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
  });

  it('a failure while counting rows for the report: the load still succeeds and the server is back', async () => {
    const r = load('^SELECT COUNT');
    expect(r.error).to.equal(null);
    expect(r.stdout).to.include('Could not read the rows loaded');
    await expectServerAsBefore();
  });

  it('a dry run changes nothing and shows the plan', async () => {
    const r = load(null, ', dryRun: true');
    expect(r.error).to.equal(null);
    expect(r.value.dryRun).to.equal(true);
    expect(r.value.settings.map((s) => s.name)).to.have.members(NAMES);
    expect(r.value.redoLog).to.deep.equal({ now: 'ON', action: 'disable' });
    expect(r.stdout).to.include('Dry run: nothing was dropped, changed or loaded.');
    await expectServerAsBefore();
    expect(fx.stateFiles(configHome)).to.deep.equal([]);
  });
});
