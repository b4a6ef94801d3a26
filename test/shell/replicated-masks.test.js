'use strict';
// Masks on a replicated target (issue 42, item 3): an UPDATE after util.loadDump would come after the
// original values reached every member and their binary logs, so a mask that would need one is
// refused in the preflight, naming it, why and the ways out, with nothing changed on any member;
// masks applied while loading go ahead, and the members get masked rows only. Real Shell, real
// MySQL: the run's shared group and source with a replica (test/support/topology.js).
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { serverFingerprint } = require('../support/fingerprint');
const { sharedGroup, sharedReplicaSet } = require('../support/topology');

// What a member is: its GTIDs, its schemas, the variables a load may change.
async function state(m) {
  return { gtids: await m.value('SELECT @@GLOBAL.gtid_executed AS g'), fingerprint: await serverFingerprint(m),
    schemas: (await m.query("SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'")).length };
}

function refusal(r) {
  expect(r.status, r.out).to.not.equal(0);
  return JSON.parse(r.stdout).error;
}

describe('masks on a replicated target: while loading, or refused before anything changes (real Shell, real MySQL)', function () {
  this.timeout(300000);
  before(function () { needs(this, ['shell', 'server']); });

  it('a group: a unique column masked by a kind that repeats values is refused, every member as it was', async function () {
    const group = await sharedGroup();
    const primary = await group.primary();
    const before = await Promise.all(group.members.map(state));
    const r = cli(primary.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=safe', '--mask=shop.customers.email:text', '--output-format=json']);
    const e = refusal(r);
    expect(e.code).to.equal('MASK_REPLICATED');
    expect(e.message).to.match(/^mask: this server is a group member, and shop\.customers\.email \(it is unique and text may repeat values\) would be masked by an UPDATE after the load, when the original values have already reached every member/);
    expect(e.message).to.match(/choose a kind that keeps a unique column distinct \(hash, .*\), .*or load a standalone server \(or topology: "rebuild"\).*Nothing was changed\.$/);
    // A dry run says the same, before anything runs.
    const dry = cli(primary.uri, ['load', copyDump(SAMPLE_SHOP), '--dry-run', '--mask=shop.customers.email:text', '--output-format=json']);
    expect(refusal(dry).code).to.equal('MASK_REPLICATED');
    expect(await Promise.all(group.members.map(state))).to.deep.equal(before);
  });

  it('a source with a replica: only the mask that needs an UPDATE is named; masks while loading reach the replica masked', async function () {
    const set = await sharedReplicaSet();
    const { source } = set;
    const [replica] = set.replicas;
    try {
      const before = await Promise.all(set.members.map(state));
      const r = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--mask=shop.customers.email:digits,shop.customers.name:name',
        '--output-format=json']);
      const e = refusal(r);
      expect(e.code).to.equal('MASK_REPLICATED');
      expect(e.message).to.match(/^mask: this server is a source with replicas connected, and shop\.customers\.email \(it is unique and digits may repeat values\) would be masked by an UPDATE/);
      expect(e.message).to.not.include('customers.name');
      expect(await Promise.all(set.members.map(state))).to.deep.equal(before);
      // A mask applied while loading: the replica gets masked rows, equal to the source's.
      const ok = cli(source.uri, ['load', copyDump(SAMPLE_SHOP), '--mask=shop.customers.name:name', '--mask-key=replicated']);
      expect(ok.status, ok.out).to.equal(0);
      expect(ok.stdout).to.match(/Masks while loading \(LOAD DATA writes the masked value, key: maskKey\): shop\.customers\.name name/);
      expect(ok.stdout).to.not.match(/Masks after the load/);
      await set.waitApplied();
      const names = async (m) => (await m.query('SELECT id, name FROM shop.customers ORDER BY id')).map((x) => `${x.id}:${x.name}`);
      const onReplica = await names(replica);
      expect(onReplica).to.have.length(1000);
      expect(onReplica).to.deep.equal(await names(source));
      expect(onReplica.filter((x) => !/^\d+:[A-Z][a-z]+ [A-Z][a-z]+$/.test(x))).to.deep.equal([]);
    } finally {
      await source.query('DROP SCHEMA IF EXISTS shop');
      await set.waitApplied();
    }
  });
});
