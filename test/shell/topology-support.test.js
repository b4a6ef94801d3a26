'use strict';
// The test topologies themselves (test/support/topology.js): a GTID source with a replica and a
// three-member Group Replication group come up on loopback, replicate a row, and go down with
// their data directories removed.
const fs = require('fs');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { startReplicaSet, startGroup } = require('../support/topology');

describe('test topologies (real MySQL on loopback)', function () {
  let set = null;
  let group = null;
  const dirs = [];

  before(async function () {
    needs(this, ['server']);
    this.timeout(300000);
    // Both at once: start-up is mostly mysqld --initialize, which waits more than it computes.
    const [s, g] = await Promise.allSettled([startReplicaSet({ replicas: 1 }), startGroup({ members: 3 })]);
    set = s.status === 'fulfilled' ? s.value : null;
    group = g.status === 'fulfilled' ? g.value : null;
    for (const t of [set, group]) if (t) dirs.push(...t.members.map((m) => m.datadir));
    if (s.status === 'rejected') throw s.reason;
    if (g.status === 'rejected') throw g.reason;
    process.stdout.write(`      (started in parallel: replica set ${set.startSeconds.toFixed(1)} s, group ${group.startSeconds.toFixed(1)} s)\n`);
  });

  after(async function () {
    this.timeout(120000);
    const t0 = Date.now();
    await Promise.all([set, group].filter(Boolean).map((t) => t.stop()));
    if (dirs.length) process.stdout.write(`      (stopped in ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
    for (const d of dirs) expect(fs.existsSync(d), `${d} removed`).to.equal(false);
  });

  it('a GTID source with a replica: a row written on the source reaches the replica', async function () {
    const replicas = await set.source.query('SHOW REPLICAS');
    expect(replicas.map((r) => Number(r.Port))).to.deep.equal([set.replicas[0].port]);
    expect(Number(await set.replicas[0].value('SELECT @@GLOBAL.super_read_only AS v'))).to.equal(1);
    await set.source.query('CREATE SCHEMA topo_smoke; CREATE TABLE topo_smoke.t (id INT PRIMARY KEY); INSERT INTO topo_smoke.t VALUES (1), (2)');
    await set.waitApplied();
    const counts = Object.values(await set.rowCounts('topo_smoke'));
    expect(counts).to.deep.equal([{ 'topo_smoke.t': 2 }, { 'topo_smoke.t': 2 }]);
    expect(await set.threadsRunning()).to.equal(true);
  });

  it('a three-member group: all ONLINE, one primary, a row written on it reaches every member', async function () {
    const members = await group.groupMembers();
    expect(members.map((m) => m.state)).to.deep.equal(['ONLINE', 'ONLINE', 'ONLINE']);
    expect(members.filter((m) => m.role === 'PRIMARY')).to.have.length(1);
    const primary = await group.primary();
    expect(primary).to.equal(group.members[0]);
    for (const s of await group.secondaries()) expect(Number(await s.value('SELECT @@GLOBAL.super_read_only AS v'))).to.equal(1);
    await primary.query('CREATE SCHEMA topo_smoke; CREATE TABLE topo_smoke.t (id INT PRIMARY KEY); INSERT INTO topo_smoke.t VALUES (1), (2), (3)');
    await group.waitApplied();
    const counts = Object.values(await group.rowCounts('topo_smoke'));
    expect(counts).to.deep.equal([1, 2, 3].map(() => ({ 'topo_smoke.t': 3 })));
    expect(await group.allOnline()).to.equal(true);
  });
});
