'use strict';
// Rolling a replay forward (lib/binlog/replay-record.js), and GTID sets with MySQL 8.3+ tags
// (lib/binlog/gtid-set.js): what the target's gtid_executed must say for the same command with a
// later stop to continue, and each refusal (a stop before what it holds, a write in between, no record).
const { expect } = require('chai');
const { spawnSync } = require('child_process');
const { HAVE_PYTHON, prelude } = require('../support/companion');
const { fakeHost } = require('../support/fake-host');
const gtids = require('../../lib/binlog/gtid-set.js');
const { planForward, writeRecord } = require('../../lib/binlog/replay-record.js');

const S = '3e11fa47-71ca-11e1-9e33-c80aa9429562'; // the source
const T = 'aaaaaaaa-0000-0000-0000-000000000001'; // the target (the fake host's server_uuid)

describe('GTID sets with tags (MySQL 8.3+, lib/binlog/gtid-set.js)', function () {
  it('reads and writes them as the 9.7 server prints them, a tag\'s GTIDs apart from the untagged ones', function () {
    const s = gtids.parseSet(`${T}:1:abc:1:mytag:1-3,\n${S}:1-5`, 'x');
    expect(gtids.setText(s)).to.equal(`${S}:1-5,${T}:1:abc:1:mytag:1-3`);
    expect(gtids.hasGtid(s, `${T}:mytag:2`)).to.equal(true);
    expect(gtids.hasGtid(s, `${T}:2`)).to.equal(false);
    expect(gtids.setText(gtids.minus(s, gtids.parseSet(`${T}:MyTag:2`)))).to.equal(`${S}:1-5,${T}:1:abc:1:mytag:1:3`);
    expect(gtids.splitGtid(`${T}:mytag:4`)).to.deep.equal({ uuid: `${T}:mytag`, n: 4 });
  });

  it('the companion reads a PREVIOUS_GTIDS event in the tagged format (bytes of a 9.7 server\'s file) into that text', function () {
    if (!HAVE_PYTHON) this.skip();
    // 5ce1d240-…:1, its tag abc:1, its tag mytag:1-2, as the server wrote them after SET gtid_next = 'AUTOMATIC:<tag>'.
    const body = '01030000000000015ce1d240eac911f1ab8b02fc00000001000100000000000000010000000000000002000000000000005ce1d240eac911f1' +
      'ab8b02fc00000001066162630100000000000000010000000000000002000000000000005ce1d240eac911f1ab8b02fc000000010a6d79746167010000' +
      '000000000001000000000000000300000000000000';
    const r = spawnSync('python3', ['-B', '-c', [...prelude(), 'ev = importlib.import_module("companion_under_test.binlog_events")',
      `b = bytes.fromhex("${body}")`, 'print(json.dumps([ev.gtid_set(b), ev.gtid_ranges(b)]))'].join('\n')], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const [text, untaggedOnly] = JSON.parse(r.stdout);
    const u = '5ce1d240-eac9-11f1-ab8b-02fc00000001';
    expect(gtids.setText(gtids.parseSet(text, 'x'))).to.equal(`${u}:1:abc:1:mytag:1-2`);
    expect(untaggedOnly, 'the listener\'s reading (COM_BINLOG_DUMP_GTID) is unchanged').to.equal(null);
  });

  it('refuses a text that is no GTID set with a UserError saying where it came from, never a plain Error', function () {
    ['x:1', `${T}:tag`, `${T}:1:`, T, `${T}:1-2:not-a-tag:3`].forEach((text) => {
      let err = null;
      try { gtids.parseSet(text, 'The target\'s gtid_executed'); } catch (e) { err = e; }
      expect(err && err.code, text).to.equal('GTID_SET_INVALID');
      expect(err.message).to.include('The target\'s gtid_executed holds').and.include('uuid:tag:1-5');
    });
  });
});

describe('rolling a replay forward (lib/binlog/replay-record.js)', function () {
  const trx = (n) => ({ gtid: `${S}:${n}`, time: 1700000000000000 + n });
  // The replay planned: the source's transactions 11 up to the stop, the rest to 25 past it.
  const ALL = [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];
  // pastStop: where the files go on past the stop; what the history up to it holds (the dump's 1-10, the replay's).
  const plan = (upTo) => ({ transactions: ALL.filter((n) => n <= upTo).map(trx), zone: { session: false }, target: 'until X',
    pastStop: { dir: '/bl', files: ['binlog.000002'], position: 4, known: `${S}:1-${upTo}`, numbered: 0, uuid: null }, upTo });
  // The files past the stop as the companion reads them (binlog_plan.py past, tested on real files in pitr-history):
  // the transactions above the stop, the last the target holds.
  function hostHolding(set) {
    const state = { g: set, scans: 0 };
    const host = fakeHost({ sql: [[/@@GLOBAL\.gtid_executed/, () => ({ rows: [{ g: state.g }] })]] });
    host.files.binlogHead = () => ({ previousGtids: `${S}:1-10` });
    host.files.binlogPast = (paths, spec) => {
      state.scans++;
      const held = gtids.parseSet(spec.held);
      const got = ALL.filter((n) => gtids.hasGtid(held, `${S}:${n}`));
      return { count: got.length, last: got.length ? { gtid: `${S}:${got[got.length - 1]}`, commit: trx(got[got.length - 1]).time } : null };
    };
    host.state = state;
    return host;
  }
  const p = { key: 'k1', resumed: false, tablesThere: true, dropExisting: false };
  const rows = { examined: ['shop\u0000t'], own: [] };

  function restoredTo(host, n) {
    host.state.g = `${T}:1-4,${S}:11-${n}`; // the load's own (the target's uuid), then the replay up to n
    writeRecord(host, { key: 'k1', rows: rows, last: trx(n) });
  }

  it('a fresh target (nothing of the replay, no record): no roll forward', function () {
    expect(planForward(hostHolding(''), plan(20), p)).to.equal(null);
  });

  it('the restore left the replay up to 14: the same command to a later stop rolls forward from there, with the first load\'s row facts', function () {
    const host = hostHolding('');
    restoredTo(host, 14);
    const f = planForward(host, plan(18), p);
    expect(f.from.gtid).to.equal(`${S}:14`);
    expect(f.held).to.equal(4);
    expect(f.rows).to.deep.equal(rows);
    expect(f.line).to.match(new RegExp(`^ {2}rolling forward from ${S}:14, committed .* to until X: the target holds the dump and 4 transaction`));
    // A roll forward killed part way (16 applied of 18): the same command continues.
    host.state.g = `${T}:1-4,${S}:11-16`;
    expect(planForward(host, plan(20), p).from.gtid).to.equal(`${S}:16`);
  });

  it('a stop before what the target holds: refused, naming the point it holds', function () {
    const host = hostHolding('');
    restoredTo(host, 18);
    expect(() => planForward(host, plan(15), p)).to.throw().that.satisfies((e) => e.code === 'REPLAY_PAST_STOP' &&
      e.message.includes(`holds this replay already up to ${S}:18, committed`) && e.message.includes('past until X'));
    // The target holding only the load's own GTIDs and the replay up to the stop: the files past it are not read.
    host.state.g = `${T}:1-4,${S}:11-15`;
    host.state.scans = 0;
    expect(planForward(host, plan(15), p).held).to.equal(5);
    expect(host.state.scans).to.equal(0);
  });

  it('a write on the target after a restore that ended, another selection, tables gone, a hole: refused, said', function () {
    const host = hostHolding('');
    restoredTo(host, 14);
    host.state.g = `${T}:1-5,${S}:11-14`;
    expect(() => planForward(host, plan(18), p)).to.throw().that.satisfies((e) => e.code === 'TARGET_CHANGED' &&
      e.message.includes(`not of this replay: ${T}:5`));
    host.state.g = `${T}:1-4,${S}:11-14`;
    expect(() => planForward(host, plan(18), Object.assign({}, p, { key: 'k2' }))).to.throw()
      .that.satisfies((e) => e.code === 'TARGET_CHANGED' && e.message.includes('loaded another dump, or other tables'));
    // Tables gone: loaded anew they would miss what the target holds; on a replicated target no RESET is offered.
    expect(() => planForward(host, plan(18), Object.assign({}, p, { tablesThere: false, replicated: true }))).to.throw()
      .that.satisfies((e) => e.code === 'TARGET_CHANGED' && e.message.includes('the loaded tables are not on the server') &&
        e.message.includes('restore onto a fresh server (or a fresh group)') && !e.message.includes('drop the loaded schemas and RESET'));
    // A hole in what the target holds of the replay: not the plugin's doing.
    restoredTo(host, 12);
    host.state.g = `${T}:1-4,${S}:11-12:14`;
    expect(() => planForward(host, plan(18), p)).to.throw().that.satisfies((e) => e.code === 'TARGET_CHANGED' &&
      e.message.includes(`holds ${S}:14 of this replay but not ${S}:13`));
  });

  it('a replay that stopped (a failure, a kill): the same command continues, record or not, dropExisting or not, over a fix of the target\'s own', function () {
    // No record (another machine's, or lost): what the target holds is the replay's beginning, the tables are there.
    const none = planForward(hostHolding(`${T}:1-7,${S}:11-12`), plan(18), Object.assign({}, p, { existing: ['shop\u0000t'] }));
    expect(none).to.include({ held: 2, stopped: true }).and.deep.include({ rows: { examined: ['shop\u0000t'], own: [] }, record: null });
    expect(none.line).to.match(new RegExp(`^ {2}continuing a replay that stopped, from ${S}:12, committed .* to until X: the target holds 2 transaction`));
    // The record written as the replay began, then the fix (a transaction of the target's own, T:5): continued.
    const host = hostHolding(`${T}:1-4`);
    writeRecord(host, { key: 'k1', rows: rows, last: null, replaying: true });
    host.state.g = `${T}:1-5,${S}:11-13`;
    const f = planForward(host, plan(18), Object.assign({}, p, { dropExisting: true }));
    expect(f).to.include({ held: 3, stopped: true }).and.deep.include({ rows: rows });
    expect(f.line).to.include('dropExisting drops nothing');
    // A later transaction the source's logical clock let commit with a missing one: the same; one that depended on it: refused.
    const clocked = (upTo) => Object.assign(plan(upTo), { transactions: plan(upTo).transactions.map((t, k) =>
      Object.assign(t, { file: 'binlog.000002', start: 100 * k, sequenceNumber: k + 1, lastCommitted: k < 3 ? k : 2 })) });
    host.state.g = `${T}:1-5,${S}:11-12:14`; // 13 (sequence 3) missing, 14 (last_committed 2) held
    expect(planForward(host, clocked(18), p).from.gtid).to.equal(`${S}:14`);
    host.state.g = `${T}:1-5,${S}:11-13:15-16`; // 14 (sequence 4) missing, 16 (last_committed 2 < 4) ok, 15 too
    expect(planForward(host, clocked(18), p).held).to.equal(5);
    expect(() => planForward(host, plan(18), p)).to.throw().that.satisfies((e) => e.code === 'TARGET_CHANGED' &&
      e.message.includes(`holds ${S}:15 of this replay but not ${S}:14`));
  });

  it('a record the target no longer matches (RESET BINARY LOGS AND GTIDS since): a fresh load, its rows measured as before', function () {
    const host = hostHolding('');
    restoredTo(host, 14);
    host.state.g = '';
    expect(planForward(host, plan(18), p)).to.equal(null);
  });
});
