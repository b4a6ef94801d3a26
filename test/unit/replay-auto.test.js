'use strict';
// replayWith "auto" (lib/run/replay-preflight.js applierBlocked): the target's applier is not tried where it is
// not verified (a multi-primary group's member, topology "rebuild", a replica) or the account cannot create a
// channel; each said with its reason. A source with replicas and a single-primary group's primary may take it.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { applierBlocked } = require('../../lib/run/replay-preflight.js');

const grants = (line) => fakeHost({ sql: [[/^SHOW GRANTS/, { rows: [{ 'Grants for u@%': line }] }]] });
const ALL = 'GRANT ALL PRIVILEGES ON *.* TO `u`@`%`';

describe('replayWith "auto": when the target\'s applier is not tried', function () {
  it('standalone, a source with replicas, a single-primary group\'s primary: tried', function () {
    for (const topo of [{ kind: 'standalone' }, { kind: 'source' }, { kind: 'group-primary', group: { singlePrimary: true } }]) {
      expect(applierBlocked(grants(ALL), { topo: Object.assign({ unchecked: [] }, topo) }), topo.kind).to.equal(null);
    }
  });

  it('a multi-primary group, topology "rebuild", a replica, an unchecked topology: the sessions, with why', function () {
    const why = (topo) => applierBlocked(grants(ALL), { topo: Object.assign({ unchecked: [] }, topo) });
    expect(why({ kind: 'group-primary', group: { singlePrimary: false } })).to.include('a member of a multi-primary group, where the replay by a channel\'s applier is not verified');
    expect(why({ kind: 'standalone', rebuild: { from: 'x' } })).to.include('topology "rebuild"');
    expect(why({ kind: 'replica' })).to.include('replicated (replica)');
    expect(why({ kind: 'standalone', unchecked: ['replicas: no privilege'] })).to.include('could not be checked (replicas: no privilege)');
  });

  it('an account without REPLICATION_SLAVE_ADMIN, or SHOW GRANTS failing: the sessions, with why', function () {
    const topo = { kind: 'standalone', unchecked: [] };
    expect(applierBlocked(grants('GRANT SELECT, INSERT ON *.* TO `u`@`%`'), { topo })).to.include('lacks REPLICATION_SLAVE_ADMIN');
    expect(applierBlocked(grants('GRANT REPLICATION_SLAVE_ADMIN ON *.* TO `u`@`%`'), { topo })).to.equal(null);
    const failing = fakeHost({ sql: [[/^SHOW GRANTS/, () => { throw new Error('denied'); }]] });
    expect(applierBlocked(failing, { topo })).to.include('SHOW GRANTS failed');
  });
});
