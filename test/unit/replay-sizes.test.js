'use strict';
// lib/binlog/replay-sizes.js: the replay's largest piece against what the target accepts, per road (the
// sessions: BINLOG statements and statements as text against max_allowed_packet; the applier: events,
// a compressed transaction whole, against replica_max_allowed_packet). The end-to-end refusal on a real
// server is test/shell/pitr-shapes.test.js's.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const replaySizes = require('../../lib/binlog/replay-sizes.js');
const gtids = require('../../lib/binlog/gtid-set.js');

// What the preflight calls: the target's gtid_executed read once and given.
const refuseOversized = (h, p) => replaySizes.refuseOversized(h, p, gtids.executed(h));

const U = 'aaaaaaaa-0000-0000-0000-00000000000a';

function host(held) {
  return fakeHost({ sql: [[/@@GLOBAL\.max_allowed_packet/, { rows: [{ m: 4194304 }] }],
    [/@@GLOBAL\.replica_max_allowed_packet/, { rows: [{ m: 1048576 }] }], [/@@GLOBAL\.gtid_executed/, { rows: [{ g: held || '' }] }]] });
}

// A compressed transaction: statements of 3 MB each as BINLOG, one event (the payload) of 2 MB.
const plan = (applier) => ({ applier: applier ? {} : null, transactions: [
  { gtid: `${U}:1`, file: 'binlog.000002', start: 4, sizes: { binlog: 3000000, binlogAt: 80, query: 70, queryAt: 60, event: 2000000, eventAt: 40 } },
  { gtid: `${U}:2`, file: 'binlog.000002', start: 900, sizes: { binlog: 0, binlogAt: null, query: 5000000, queryAt: 980, event: 5000000, eventAt: 980 } }] });

describe('replay sizes against the target (lib/binlog/replay-sizes.js)', function () {
  it('the sessions: the largest BINLOG statement or statement sent as text above max_allowed_packet, named by file:position', function () {
    let err = null;
    try { refuseOversized(host(), plan(false)); } catch (e) { err = e; }
    expect(err && err.code).to.equal('REPLAY_TOO_LARGE');
    expect(err.data).to.deep.equal({ file: 'binlog.000002', position: 980, bytes: 5000000, limit: 4194304, variable: 'max_allowed_packet' });
    expect(err.message).to.include('a statement the replay\'s sessions send as text, of 5000000 bytes (4.8 MB) at binlog.000002:980')
      .and.include('Nothing was changed.');
    // The target holds that one already (a rerun): only the BINLOG statement of 3 MB is left, under the limit.
    expect(() => refuseOversized(host(`${U}:2`), plan(false))).to.not.throw();
  });

  it('the applier: events against replica_max_allowed_packet (a compressed transaction is one event)', function () {
    let err = null;
    try { refuseOversized(host(`${U}:2`), plan(true)); } catch (e) { err = e; }
    expect(err && err.data).to.deep.equal({ file: 'binlog.000002', position: 40, bytes: 2000000, limit: 1048576, variable: 'replica_max_allowed_packet' });
    expect(err.message).to.include('an event of 2000000 bytes').and.include('SET GLOBAL replica_max_allowed_packet = 2000000');
  });
});
