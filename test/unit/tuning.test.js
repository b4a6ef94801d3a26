'use strict';
// Restore-time tuning (lib/server/tuning.js) on the fake server: which settings change and to
// what, the state file written before the first change, the order of the changes and of their
// revert, the index build buffer, and the restart-only advice.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const tuning = require('../../lib/server/tuning.js');
const restoreState = require('../../lib/server/restore-state.js');
const topology = require('../../lib/server/topology.js');
const road = require('../../lib/server/replicated-road.js');

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;
// A server as installed: every tunable at its default.
const DEFAULTS = { local_infile: 'OFF', innodb_flush_log_at_trx_commit: '1', sync_binlog: '1', innodb_adaptive_hash_index: 'ON',
  innodb_io_capacity_max: '2000', innodb_io_capacity: '200', innodb_redo_log_capacity: String(100 * MiB) };

function server(variables, sql) { return fakeHost({ variables: Object.assign({}, DEFAULTS, variables), sql }); }
function changes(plan) { return plan.map((p) => [p.name, p.original, p.value]); }
function setGlobals(h) { return h.statements().filter((s) => /^SET GLOBAL /.test(s)); }
function stateFile(h) { return restoreState.statePath(h, h.sql.serverInfo().uuid); }

describe('restore-time tuning (lib/server/tuning.js)', function () {
  it('plans each setting the server has that differs, to the value a bulk load wants', function () {
    expect(changes(tuning.planTuning(server({}), {}))).to.deep.equal([
      ['local_infile', 'OFF', 'ON'],
      ['innodb_flush_log_at_trx_commit', '1', '2'],
      ['sync_binlog', '1', '0'],
      ['innodb_adaptive_hash_index', 'ON', 'OFF'],
      ['innodb_io_capacity_max', '2000', '4000'],
      ['innodb_io_capacity', '200', '2000'],
      ['innodb_redo_log_capacity', String(100 * MiB), String(2 * GiB)]]);
  });

  it('leaves alone what is already there or higher, what the server lacks, what is kept, and the redo log capacity when the redo log is off', function () {
    const h = server({ local_infile: 'on', innodb_io_capacity_max: '20000', innodb_io_capacity: '5000', sync_binlog: '0' });
    delete h.server.variables.innodb_adaptive_hash_index; // a server without it
    expect(changes(tuning.planTuning(h, { redoOff: true, keep: ['innodb_flush_log_at_trx_commit'] }))).to.deep.equal([]);
    // The topology keeps the durability settings (a source with replicas).
    const kept = tuning.planTuning(server({}), { kept: { sync_binlog: 'replicas', innodb_flush_log_at_trx_commit: 'replicas' } });
    expect(kept.map((p) => p.name)).to.deep.equal(['local_infile', 'innodb_adaptive_hash_index', 'innodb_io_capacity_max',
      'innodb_io_capacity', 'innodb_redo_log_capacity']);
  });

  it('records the originals in the state file before the first SET GLOBAL, raises the io capacity maximum first', function () {
    const h = server({});
    const plan = tuning.planTuning(h, {});
    const state = restoreState.newState(h);
    tuning.applyTuning(h, state, plan, 'restore.load');
    const firstSet = h.log.findIndex((e) => e[0] === 'sql' && /^SET GLOBAL /.test(e[1]));
    const saved = h.log.findIndex((e) => e[0] === 'files.write' && e[1] === stateFile(h));
    expect(saved).to.be.within(0, firstSet);
    const recorded = JSON.parse(h.fs.text(stateFile(h))).settings;
    expect(recorded.map((s) => [s.name, s.original, s.by])).to.deep.equal(plan.map((p) => [p.name, p.original, 'restore.load']));
    expect(setGlobals(h)).to.deep.equal(['SET GLOBAL local_infile = ON', 'SET GLOBAL innodb_flush_log_at_trx_commit = 2',
      'SET GLOBAL sync_binlog = 0', 'SET GLOBAL innodb_adaptive_hash_index = OFF', 'SET GLOBAL innodb_io_capacity_max = 4000',
      'SET GLOBAL innodb_io_capacity = 2000', 'SET GLOBAL innodb_redo_log_capacity = ' + 2 * GiB]);
    expect(h.server.variables.innodb_io_capacity).to.equal('2000');
  });

  it('a value that is not a number or ON/OFF goes as a placeholder, never into the statement', function () {
    const h = server({});
    const state = restoreState.newState(h);
    tuning.applyTuning(h, state, [{ name: 'innodb_adaptive_hash_index', original: 'ON', value: "x'; DROP TABLE t; --" }], 'restore.load');
    expect(h.calls('sql').filter((e) => /^SET GLOBAL /.test(e[1])).map((e) => [e[1], e[2]])).to.deep.equal([
      ['SET GLOBAL innodb_adaptive_hash_index = ?', ["x'; DROP TABLE t; --"]]]);
  });

  it('puts back newest first, only what this load changed, skips what is already back, and keeps what failed for restore.revert()', function () {
    const h = server({}, [[/^SET GLOBAL sync_binlog = 1$/, () => { throw sqlError(1227, 'Access denied; you need SUPER'); }]]);
    const state = restoreState.newState(h);
    tuning.applyTuning(h, state, tuning.planTuning(h, {}), 'restore.load');
    state.settings.push({ name: 'innodb_old_setting', original: '1', value: '2', by: 'restore.load' });
    state.settings.push({ name: 'innodb_io_capacity', original: '300', value: '2000', by: 'restore.disableRedoLog' });
    h.server.variables.innodb_flush_log_at_trx_commit = '1'; // put back by hand meanwhile
    const before = h.statements().length;
    const r = tuning.revertSettings(h, state, 'restore.load');
    expect(h.statements().slice(before).filter((s) => /^SET GLOBAL /.test(s))).to.deep.equal([
      'SET GLOBAL innodb_redo_log_capacity = ' + 100 * MiB, 'SET GLOBAL innodb_io_capacity = 200',
      'SET GLOBAL innodb_io_capacity_max = 2000', 'SET GLOBAL innodb_adaptive_hash_index = ON', 'SET GLOBAL sync_binlog = 1',
      'SET GLOBAL local_infile = OFF']);
    expect(r.restored.filter((x) => x.already).map((x) => x.name)).to.deep.equal(['innodb_flush_log_at_trx_commit']);
    expect(r.unknown).to.deep.equal([{ name: 'innodb_old_setting', original: '1' }]);
    expect(r.failed.map((x) => [x.name, x.error])).to.deep.equal([['sync_binlog', 'Access denied; you need SUPER']]);
    // What is left to put back: the failed one, and another command's change.
    expect(JSON.parse(h.fs.text(stateFile(h))).settings.map((s) => s.name)).to.deep.equal(['sync_binlog', 'innodb_io_capacity']);
    expect(h.server.variables).to.include({ local_infile: 'OFF', innodb_io_capacity: '200', innodb_io_capacity_max: '2000', sync_binlog: '0' });
  });

  it('index builds: a quarter of the buffer pool shared by the load\'s threads, 1 MiB to 1 GiB, only above what is set', function () {
    const at = (pool, ddl, threads, keep) => tuning.planIndexBuilds(fakeHost({ variables: { innodb_buffer_pool_size: String(pool),
      innodb_ddl_buffer_size: String(ddl) } }), threads, keep);
    const b = at(8 * GiB, MiB, 4);
    expect([b.value, b.original, b.statement]).to.deep.equal([String(512 * MiB), String(MiB), 'SET SESSION innodb_ddl_buffer_size = ' + 512 * MiB]);
    expect(at(64 * GiB, MiB, 2).value).to.equal(String(GiB));
    expect(at(16 * MiB, 512 * 1024, 8).value).to.equal(String(MiB)); // half a MiB each: the floor
    expect(at(8 * GiB, GiB, 4)).to.equal(null);
    expect(at(8 * GiB, MiB, 4, ['innodb_ddl_buffer_size'])).to.equal(null);
    expect(tuning.planIndexBuilds(fakeHost({ variables: { innodb_buffer_pool_size: String(8 * GiB) } }), 4)).to.equal(null);
  });

  it('restart-only advice: skip-log-bin only where nothing needs the binary log, log file size only without a redo log capacity', function () {
    const h = fakeHost({ variables: { innodb_doublewrite: 'ON', innodb_autoinc_lock_mode: '1', log_bin: 'ON', innodb_log_file_size: String(48 * MiB) } });
    expect(tuning.restartAdvice(h, {}, false).map((a) => a[0])).to.deep.equal(['innodb_doublewrite = OFF',
      'innodb_autoinc_lock_mode = 2', 'skip-log-bin', 'innodb_log_file_size = 1G']);
    expect(tuning.restartAdvice(h, { skipBinlog: true }, false).map((a) => a[0])).to.not.include('skip-log-bin');
    expect(tuning.restartAdvice(h, {}, true).map((a) => a[0])).to.not.include('skip-log-bin');
    h.server.variables.innodb_redo_log_capacity = String(100 * MiB);
    expect(tuning.restartAdvice(h, {}, true).map((a) => a[0])).to.deep.equal(['innodb_doublewrite = OFF', 'innodb_autoinc_lock_mode = 2']);
    expect(tuning.adviceLines([['innodb_doublewrite = OFF', 'halves page writes']])).to.deep.equal([
      'Settings that need a restart (not changed; for my.cnf if the load is slow):', '[mysqld]', 'innodb_doublewrite = OFF    # halves page writes']);
  });

  // The plan's words and tuning's choice come from one rule (replicated-road.js durabilityKeptWhy).
  it('a group primary alone ONLINE keeps sync_binlog and innodb_flush_log_at_trx_commit, as its plan says', function () {
    const h = server({ gtid_mode: 'ON' }, [[/FROM performance_schema\.replication_group_members$/, { rows: [
      { id: 'aaaaaaaa-0000-0000-0000-000000000001', host: 'db1', port: 3306, state: 'ONLINE', role: 'PRIMARY' },
      { id: 'b', host: 'db2', port: 3306, state: 'UNREACHABLE', role: 'SECONDARY' }] }]]);
    const topo = topology.readTopology(h);
    expect(road.planLines(topo, { tune: true, verify: 0 }).join('\n')).to.match(/innodb_flush_log_at_trx_commit: kept/);
    const names = tuning.planTuning(h, { kept: road.keptDurability(topo) }).map((p) => p.name);
    expect(names).to.not.include('sync_binlog');
    expect(names).to.not.include('innodb_flush_log_at_trx_commit');
  });
});
