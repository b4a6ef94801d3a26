'use strict';
// replayWith "applier" (lib/binlog/replay-applier.js) over a fake server and a fake listener: the channel
// created with the listener's port and password and removed whatever happens, the applier's error as
// REPLAY_FAILED, a target that cannot connect back as REPLAY_APPLIER_REFUSED, and the preflight's refusals.
const { expect } = require('chai');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { fakeHost } = require('../support/fake-host');
const { PY_DIR, HAVE_PYTHON } = require('../support/companion');
const { planApplier, tuneWorkers, applyWithApplier, removeLeftover, leftoverChannel } = require('../../lib/binlog/replay-applier.js');

const U = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
const SECRET = '0123456789abcdef0123456789abcdef';

function setup(o) {
  let held = `${U}:1-2`;
  let channel = !!o.leftover;
  const host = fakeHost({ sql: [
    [/gtid_executed/, () => ({ rows: [{ g: held }] })],
    [/^SELECT c\.USER AS user/, () => ({ rows: channel ? [{ user: o.channelUser || 'mysqlsh_restore', io: 'ON' }] : [] })],
    [/^CHANGE REPLICATION SOURCE/, () => { channel = true; return { rows: [] }; }],
    [/^RESET REPLICA ALL/, () => { channel = false; return { rows: [] }; }],
    [/WAIT_FOR_EXECUTED_GTID_SET/, () => { held = o.after || held; return { rows: [{ w: o.finished ? 0 : 1 }] }; }],
    [/^SELECT RECEIVED_TRANSACTION_SET/, { rows: [{ r: o.received || '' }] }],
    [/LAST_APPLIED_TRANSACTION <> ''/, { rows: [{ n: o.busy || 0 }, { n: 0 }] }],
    [/replication_connection_status WHERE/, { rows: [o.io || { state: 'ON', code: 0, message: '' }] }],
    [/replication_applier_status_by_worker/, { rows: o.applier ? [o.applier] : [] }],
    [/@@GLOBAL.server_id AS sid, VERSION/, { rows: [{ sid: 2, v: '9.7.4-2', u: 'bbbbbbbb-0000-0000-0000-000000000001', w: 4 }] }],
  ] });
  const feed = [];
  host.files.binlogFeedStart = (spec) => { feed.push(['start', spec]); return { id: 3, port: 40000, user: 'mysqlsh_restore', password: SECRET, tls: spec.tls === 'required' }; };
  host.files.binlogFeedStatus = () => ({ sent: 1, connections: o.connections === undefined ? 1 : o.connections, failed: null });
  host.files.binlogFeedStop = (id) => { feed.push(['stop', id]); return { cpuSeconds: 0.1, tls: o.tls ? 'TLSv1.3' : null }; };
  const plan = { folder: { dir: '/b' }, zone: { session: false, name: 'UTC' }, applier: { address: '127.0.0.1', workers: 4, tls: !!o.tls },
    transactions: [1, 2, 3, 4].map((n) => ({ gtid: `${U}:${n}`, file: 'binlog.000002', start: n * 100, end: n * 100 + 100, time: 0 })) };
  const sqls = () => host.log.filter((e) => e[0] === 'sql').map((e) => e[1]);
  return { host, feed, plan, sqls };
}

function thrown(fn) {
  try { fn(); } catch (e) { return e; }
  return null;
}

describe('replayWith "applier": the target\'s applier fed by the plugin', function () {
  it('serves what the target lacks, creates the channel with the listener\'s port and password, waits, removes it', function () {
    const t = setup({ finished: true, after: `${U}:1-4` });
    const r = applyWithApplier(t.host, t.plan, { quietMs: 0 });
    expect(t.feed[0][1].transactions.map((x) => x[3])).to.deep.equal([`${U}:3`, `${U}:4`]);
    expect(t.feed[0][1]).to.include({ address: '127.0.0.1', targetServerId: 2, version: '9.7.4' });
    const change = t.host.log.find((e) => e[0] === 'sql' && /^CHANGE REPLICATION SOURCE/.test(e[1]));
    expect(change[1]).to.include('SOURCE_AUTO_POSITION = 1').and.include("FOR CHANNEL 'restore_replay'").and.not.include(SECRET);
    expect(change[2]).to.deep.equal(['127.0.0.1', 40000, 'mysqlsh_restore', SECRET]);
    expect(t.sqls().filter((s) => /REPLICA/.test(s) && !/^CHANGE/.test(s))).to.deep.equal(["START REPLICA FOR CHANNEL 'restore_replay'",
      "STOP REPLICA FOR CHANNEL 'restore_replay'", "RESET REPLICA ALL FOR CHANNEL 'restore_replay'"]);
    expect(t.feed[1]).to.deep.equal(['stop', 3]);
    expect(r).to.include({ applied: 2, onTarget: 2, bytes: 200, workers: 4 });
  });

  it('the applier\'s error: REPLAY_FAILED naming the next transaction and the server\'s words; the channel removed', function () {
    const t = setup({ after: `${U}:1-3`, applier: { code: 1062, message: 'Duplicate entry \'1\' for key \'PRIMARY\'' } });
    const err = thrown(() => applyWithApplier(t.host, t.plan, { quietMs: 0 }));
    expect(err && err.code).to.equal('REPLAY_FAILED');
    expect(err.message).to.include(`The replay failed at transaction ${U}:4 (binlog.000002:400): the target's applier says MySQL error 1062: ` +
      'Duplicate entry').and.include('1 transaction(s) were applied before it').and.not.include(SECRET);
    expect(t.sqls()).to.include("RESET REPLICA ALL FOR CHANNEL 'restore_replay'");
    expect(t.feed[1]).to.deep.equal(['stop', 3]);
  });

  it('a target that cannot connect back: REPLAY_APPLIER_REFUSED quoting its connection error, what to do', function () {
    const t = setup({ connections: 0, io: { state: 'OFF', code: 2003, message: 'Can\'t connect to MySQL server on \'127.0.0.1:40000\' (111)' } });
    const err = thrown(() => applyWithApplier(t.host, t.plan, { quietMs: 0 }));
    expect(err && err.code).to.equal('REPLAY_APPLIER_REFUSED');
    expect(err.message).to.include('could not connect back to the plugin at 127.0.0.1:40000').and.include('MySQL error 2003')
      .and.include('use replayWith "sessions"').and.include('nothing was applied');
    expect(err.data).to.include({ nothingApplied: true, applied: 0 });
    expect(err.data.reason).to.include('MySQL error 2003');
    expect(t.sqls()).to.include("RESET REPLICA ALL FOR CHANNEL 'restore_replay'");
    // Not proven untouched (replayWith "auto" must not fall back): the channel received a transaction, or gtid_executed moved.
    const rx = setup({ connections: 0, io: { state: 'OFF', code: 2003, message: 'x' }, received: `${U}:3` });
    expect(thrown(() => applyWithApplier(rx.host, rx.plan, { quietMs: 0 })).data.nothingApplied).to.equal(false);
    const busy = setup({ connections: 0, io: { state: 'OFF', code: 2003, message: 'x' }, busy: 1 });
    expect(thrown(() => applyWithApplier(busy.host, busy.plan, { quietMs: 0 })).data.nothingApplied).to.equal(false);
    const moved = setup({ connections: 0, io: { state: 'OFF', code: 2003, message: 'x' }, after: `${U}:1-2,bbbbbbbb-0000-0000-0000-000000000001:1` });
    expect(thrown(() => applyWithApplier(moved.host, moved.plan, { quietMs: 0 })).data.nothingApplied).to.equal(false);
  });

  it('an interrupted run\'s channel is removed before the replay reads gtid_executed', function () {
    const t = setup({ leftover: true, finished: true, after: `${U}:1-4` });
    applyWithApplier(t.host, t.plan, { quietMs: 0 });
    const s = t.sqls();
    expect(s.indexOf("STOP REPLICA FOR CHANNEL 'restore_replay'")).to.be.below(s.findIndex((x) => /gtid_executed/.test(x)));
  });

  it('the preflight refuses a channel that is not the plugin\'s, commit order off, and outsideSlice "skip"', function () {
    const vars = (o) => [/replica_parallel_workers AS w/, { rows: [Object.assign({ w: 4, o: 1, lb: 1, lru: 1, sid: 2 }, o)] }];
    const mk = (o, rows, ip) => {
      const h = fakeHost({ sql: [vars(o), [/^SELECT c\.USER AS user/, { rows: rows || [] }], [/socket_instances/, { rows: [{ ip: ip || '' }] }]] });
      h.files.binlogFeedStart = (spec) => {
        if (spec.address !== '127.0.0.1') throw new Error('Cannot assign requested address');
        return { id: 1, port: 1 };
      };
      h.files.binlogFeedStop = () => null;
      return h;
    };
    const plan = { transactions: [{ gtid: `${U}:3` }] };
    expect(planApplier(mk({}), plan, false)).to.include({ address: '127.0.0.1', workers: 4, leftover: false });
    expect(thrown(() => planApplier(mk({}, [{ user: 'repl', io: 'ON' }]), plan, false)).message).to.include('not the plugin\'s (its user is repl)');
    expect(thrown(() => planApplier(mk({ o: 0 }), plan, false)).message).to.include('replica_preserve_commit_order OFF');
    expect(thrown(() => planApplier(mk({}), { transactions: [{ gtid: `${U}:3`, idempotent: true }] }, false)).code).to.equal('REPLAY_APPLIER_REFUSED');
    expect(planApplier(mk({}), plan, true).lines[0]).to.include('skipBinlog does not hold for the replay');
    expect(thrown(() => planApplier(mk({}, [], '::ffff:10.1.2.3'), plan, false)).message)
      .to.include('connect from 10.1.2.3, and the plugin cannot listen there (Cannot assign requested address)');
    const filtered = fakeHost({ sql: [vars({}), [/global_filters/, { rows: [{ f: 'REPLICATE_DO_DB' }] }]] });
    expect(thrown(() => planApplier(filtered, plan, false)).message).to.include('global replication filters (REPLICATE_DO_DB');
  });

  it('over TLS: the listener made to require it, the channel created with SOURCE_SSL = 1, the version negotiated reported', function () {
    const t = setup({ finished: true, after: `${U}:1-4`, tls: true });
    const r = applyWithApplier(t.host, t.plan, { quietMs: 0 });
    expect(t.feed[0][1].tls).to.equal('required');
    const change = t.host.log.find((e) => e[0] === 'sql' && /^CHANGE REPLICATION SOURCE/.test(e[1]));
    expect(change[1]).to.include('SOURCE_SSL = 1');
    expect(r.tls).to.equal('TLSv1.3');
    const plain = setup({ finished: true, after: `${U}:1-4` });
    applyWithApplier(plain.host, plain.plan, { quietMs: 0 });
    expect(plain.feed[0][1].tls).to.equal(null);
    expect(plain.host.log.find((e) => e[0] === 'sql' && /^CHANGE REPLICATION SOURCE/.test(e[1]))[1]).to.include('SOURCE_SSL = 0');
  });

  it('without TLS (no openssl): over loopback, said in the plan; across a network refused, naming what to install', function () {
    const mk = (ip, tls) => {
      const h = fakeHost({ sql: [[/replica_parallel_workers AS w/, { rows: [{ w: 4, o: 1, lb: 1, lru: 1, sid: 2 }] }],
        [/socket_instances/, { rows: [{ ip }] }]] });
      h.files.binlogFeedStart = (spec) => ({ id: 1, port: 1, tls: tls && spec.tls === 'if-possible',
        tlsWhy: tls ? null : 'the openssl program is not on PATH to make the listener\'s certificate' });
      h.files.binlogFeedStop = () => null;
      return h;
    };
    const plan = { transactions: [{ gtid: `${U}:3` }] };
    const enc = planApplier(mk('10.1.2.3', true), plan, false);
    expect(enc).to.include({ address: '10.1.2.3', tls: true });
    expect(enc.lines[0]).to.include('over TLS, SOURCE_SSL = 1, with a key and certificate made for this run');
    for (const ip of ['', '127.0.0.1', '::1']) {
      const a = planApplier(mk(ip, false), plan, false);
      expect(a.tls).to.equal(false);
      expect(a.lines[0]).to.include('not encrypted: over loopback, the rows do not leave this machine (the openssl program is not on PATH');
    }
    const err = thrown(() => planApplier(mk('10.1.2.3', false), plan, false, true));
    expect(err && err.code).to.equal('REPLAY_APPLIER_REFUSED');
    expect(err.data.reason).to.include('cannot speak TLS (the openssl program is not on PATH').and.include('at 10.1.2.3, not over loopback')
      .and.include('would cross the network in clear');
    expect(err.message).to.include('apt-get install openssl').and.include('Nothing was changed.');
  });

  it('a killed replay\'s channel: found by the next load\'s preflight (nothing changed there), removed first of the changes in one line; another\'s is left alone', function () {
    const t = setup({ leftover: true });
    expect(leftoverChannel(t.host)).to.equal(true);
    expect(t.sqls().filter((s) => /REPLICA/.test(s))).to.deep.equal([]);
    expect(removeLeftover(t.host)).to.equal(true);
    expect(t.sqls().filter((s) => /REPLICA/.test(s))).to.deep.equal(["STOP REPLICA FOR CHANNEL 'restore_replay'", "RESET REPLICA ALL FOR CHANNEL 'restore_replay'"]);
    expect(t.host.printed).to.deep.equal(['Replication channel \'restore_replay\' left by an interrupted replay: stopped and removed (with its password).']);
    const other = setup({ leftover: true, channelUser: 'repl' });
    expect(leftoverChannel(other.host)).to.equal(false);
    expect(removeLeftover(other.host)).to.equal(false);
    expect(other.sqls().filter((s) => /REPLICA/.test(s))).to.deep.equal([]);
    expect(removeLeftover(setup({}).host)).to.equal(false);
  });

  it('with the load\'s tuning on, the applier\'s workers become the load\'s threads: one more tuned setting, said in the plan', function () {
    const mk = () => {
      const a = { workers: 4, lines: ['  applied by: the target\'s replication applier (channel \'restore_replay\', replica_parallel_workers 4, commit order kept)'] };
      return { applier: a, workers: 4, lines: ['x', 'y', a.lines[0]] };
    };
    const tuned = [];
    const off = mk();
    tuneWorkers(off, tuned, false, 8);
    expect(tuned).to.deep.equal([]);
    const on = mk();
    tuneWorkers(on, tuned, true, 8);
    expect(tuned).to.deep.equal([{ name: 'replica_parallel_workers', original: '4', value: '8', why: 'replayWith "applier": as many applier workers as the load\'s threads' }]);
    expect(on.lines[2]).to.include('replica_parallel_workers 8 (the load\'s threads, put back after)');
    expect(on.workers).to.equal(8);
  });

  it('the listener\'s key and certificate (the companion, openssl): made 0600 in a folder of the run\'s 0700, under the state directory, gone once loaded', function () {
    const openssl = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
    if (!HAVE_PYTHON || !openssl) this.skip();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'feed-tls-'));
    try {
      // rmtree watched: the modes as they are just before the files go.
      const script = ['import json, os, shutil, sys', `sys.path.insert(0, ${JSON.stringify(path.dirname(PY_DIR))})`,
        'from restore_py import binlog_guard', 'seen = {}', 'real = shutil.rmtree',
        'def watch(d, **kw):',
        '    seen.update({n: oct(os.stat(os.path.join(d, n)).st_mode & 0o777) for n in os.listdir(d)}); seen["dir"] = oct(os.stat(d).st_mode & 0o777); real(d, **kw)',
        'shutil.rmtree = watch', `ctx, why = binlog_guard.tls_context(${JSON.stringify(path.join(home, 'tls'))})`,
        'print(json.dumps({"ctx": ctx is not None, "why": why, "seen": seen}))'].join('\n');
      const r = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8' });
      expect(r.status, r.stderr).to.equal(0);
      expect(JSON.parse(r.stdout)).to.deep.equal({ ctx: true, why: null, seen: { 'key.pem': '0o600', 'cert.pem': '0o600', dir: '0o700' } });
      expect(fs.readdirSync(path.join(home, 'tls'))).to.deep.equal([]);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
