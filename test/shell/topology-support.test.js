'use strict';
// The test topologies themselves (test/support/topology.js): a GTID source with a replica and a
// three-member Group Replication group come up on loopback and replicate a row. They are the run's
// shared ones: the root hooks stop them at the end (stopShared), failing the run if a schema or a
// data directory stayed behind.
const { expect } = require('chai');
const { needs } = require('../support/real');
const { sharedReplicaSet, sharedGroup } = require('../support/topology');

describe('test topologies (real MySQL on loopback)', function () {
  let set = null;
  let group = null;

  before(async function () {
    needs(this, ['server']);
    this.timeout(300000);
    // Both at once (when no file used them before): start-up is mostly mysqld --initialize.
    const t0 = Date.now();
    [set, group] = await Promise.all([sharedReplicaSet(), sharedGroup()]);
    process.stdout.write(`      (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s; started in: replica set ` +
      `${set.startSeconds.toFixed(1)} s, group ${group.startSeconds.toFixed(1)} s)\n`);
  });

  afterEach(async function () {
    for (const t of [set, group]) {
      if (!t) continue;
      await (await t.target()).query('DROP SCHEMA IF EXISTS topo_smoke');
      await t.waitApplied(60000);
    }
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
    for (const s of await group.secondaries()) expect(Number(await s.value('SELECT @@GLOBAL.super_read_only AS v'))).to.equal(1);
    await primary.query('CREATE SCHEMA topo_smoke; CREATE TABLE topo_smoke.t (id INT PRIMARY KEY); INSERT INTO topo_smoke.t VALUES (1), (2), (3)');
    await group.waitApplied();
    const counts = Object.values(await group.rowCounts('topo_smoke'));
    expect(counts).to.deep.equal([1, 2, 3].map(() => ({ 'topo_smoke.t': 3 })));
    expect(await group.allOnline()).to.equal(true);
  });
});
