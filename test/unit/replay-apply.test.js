'use strict';
// The replay's JS side (lib/binlog/replay-apply.js) over a fake engine: what it asks the companion
// to apply (the GTIDs the target holds left out, the logical clock handed over), the progress lines
// (transactions, bytes, the commit time reached) and REPLAY_FAILED naming the GTID and file:position.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { applyReplay } = require('../../lib/binlog/replay-apply.js');

const U = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
const AT = Date.UTC(2026, 10, 24, 10, 0, 0) * 1000; // microseconds

function setup(answers) {
  const host = fakeHost({ sql: [[/gtid_executed/, { rows: [{ g: `${U}:1-2` }] }]] });
  const progress = [];
  host.out.progress = (l) => progress.push(l);
  const asked = [];
  host.files.binlogApplyStart = (spec) => { asked.push(spec); return 7; };
  host.files.binlogApplyWait = (id, seconds, stop) => { asked.push({ id, seconds, stop }); return answers.shift(); };
  const plan = { folder: { dir: '/b' }, zone: { session: false, name: 'UTC' }, transactions: [1, 2, 3, 4, 5].map((n) => ({
    gtid: `${U}:${n}`, file: 'binlog.000002', start: n * 100, end: n * 100 + 100, time: AT + n * 1000000, lastCommitted: n - 1, sequenceNumber: n })) };
  return { host, progress, asked, plan };
}

describe('the replay over the companion\'s engine', function () {
  it('sends what the target lacks with its clock, polls, and says transactions, bytes and the commit time reached', function () {
    const last = (n) => ({ gtid: `${U}:${n}`, file: 'binlog.000002', end: n * 100 + 100, time: AT + n * 1000000 });
    const t = setup([
      { done: false, applied: 1, bytes: 100, last: last(3), failed: null },
      { done: true, applied: 3, bytes: 300, last: last(5), failed: null, retries: 1, statements: 9, cpuSeconds: 0.5, commitSeconds: 0.25 },
    ]);
    const r = applyReplay(t.host, t.plan, { workers: 4, unlogged: true, quietMs: 0 });
    expect(t.asked[0]).to.deep.equal({ dir: '/b', workers: 4, unlogged: true, rewrite: null, transactions: [3, 4, 5].map((n) => ['binlog.000002',
      n * 100, n * 100 + 100, `${U}:${n}`, n - 1, n, AT + n * 1000000, null, false]) });
    expect(t.asked[1]).to.deep.include({ id: 7 });
    expect(t.progress[0]).to.equal('Replaying binary logs - 33% (1 / 3 transactions; 100 B, commit time reached 2026-11-24 10:00:03.000000)');
    expect(r).to.include({ applied: 3, onTarget: 2, workers: 4, bytes: 300, retries: 1, statements: 9, cpuSeconds: 0.5, commitSeconds: 0.25 });
    expect(r.last).to.deep.equal({ gtid: `${U}:5`, time: AT + 5000000 });
  });

  it('a failed transaction: REPLAY_FAILED naming its GTID, file:position and the server\'s error', function () {
    const t = setup([{ done: true, applied: 1, bytes: 100, last: null, failed: { index: 1, gtid: `${U}:4`, file: 'binlog.000002',
      position: 400, code: 1032, message: 'Can\'t find record in \'a\'' } }]);
    let err = null;
    try { applyReplay(t.host, t.plan, { workers: 2 }); } catch (e) { err = e; }
    expect(err && err.code).to.equal('REPLAY_FAILED');
    expect(err.message).to.include(`The replay failed at transaction ${U}:4 (binlog.000002:400): MySQL error 1032: Can't find record in 'a'. ` +
      '1 transaction(s) were applied before it');
  });

  it('nothing left to apply: the engine is not started', function () {
    const t = setup([]);
    t.plan.transactions = t.plan.transactions.slice(0, 2);
    expect(applyReplay(t.host, t.plan, { workers: 4 })).to.include({ applied: 0, onTarget: 2 });
    expect(t.asked).to.deep.equal([]);
  });
});
