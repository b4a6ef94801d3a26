'use strict';
// restore load into replicated targets, in the real mysqlsh on real MySQL servers on loopback
// (test/support/topology.js): a GTID source with a replica, and a three-member Group Replication
// group. For each preset (safe, fastest, dev with latest and parents, masks) the load is pointed at
// the source / the primary, as a DBA would; afterwards every member has the same rows (and the same
// masked values), the replication threads run, the group is ONLINE. A load pointed at a replica or
// a secondary is refused, naming the source / primary. Each topology is started once
// for the file; every test drops what it loaded, through the topology.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { startReplicaSet, startGroup } = require('../support/topology');

const SHOP_ROWS = { 'shop.customers': 1000, 'shop.orders': 12000, 'shop.products': 100, 'shop.events': 3000,
  'shop.audit_log': 2000, 'shop.order items': 1000 };
const RELATIONS = '--relations=shop.orders.customer_id:shop.customers.id';
const MASKS = '--mask=shop.customers.email:email,shop.customers.name:name';

// What each member must show, besides equal row counts.
const CASES = [
  { name: 'safe', args: ['--preset=safe'], full: true },
  { name: 'fastest', args: ['--preset=fastest'], full: true },
  { name: 'dev with --latest and parents', args: ['--preset=dev', '--latest=shop.orders:2,shop.customers:1', RELATIONS],
    check: async (m) => {
      const orders = Number(await m.value('SELECT COUNT(*) AS n FROM shop.orders'));
      expect(orders, 'latest orders only').to.be.within(1, 11999);
      expect(Number(await m.value(`SELECT COUNT(*) AS n FROM shop.orders o LEFT JOIN shop.customers c ON c.id = o.customer_id
        WHERE c.id IS NULL`)), 'orders without their customer').to.equal(0);
    } },
  { name: 'masks', args: ['--preset=safe', MASKS, '--mask-key=topology-test'], full: true,
    check: async (m) => {
      expect(Number(await m.value("SELECT COUNT(*) AS n FROM shop.customers WHERE email LIKE 'c%@example.com' OR name LIKE 'Customer %'")),
        'unmasked customers').to.equal(0);
    } },
];

// The same facts on every member: the masked values too (a digest of each table's columns).
async function digest(m) {
  return m.value("SELECT SHA2(GROUP_CONCAT(CONCAT_WS(',', id, name, email) ORDER BY id SEPARATOR ';'), 256) AS d FROM shop.customers");
}

const TOPOLOGIES = [
  { name: 'a GTID source with a replica', start: () => startReplicaSet({ replicas: 1 }),
    target: async (t) => t.source, healthy: async (t) => t.threadsRunning() },
  { name: 'a three-member Group Replication group (the primary)', start: () => startGroup({ members: 3 }),
    target: async (t) => t.primary(), healthy: async (t) => t.allOnline() },
];

describe('restore load into replicated topologies (real Shell, real MySQL on loopback)', function () {
  const up = {};

  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    const started = await Promise.allSettled(TOPOLOGIES.map((t) => t.start()));
    started.forEach((s, i) => { if (s.status === 'fulfilled') up[TOPOLOGIES[i].name] = s.value; });
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    process.stdout.write(`      (topologies started in parallel: ${TOPOLOGIES.map((t) => `${up[t.name].startSeconds.toFixed(1)} s`).join(', ')})\n`);
  });

  after(async function () {
    this.timeout(120000);
    await Promise.all(Object.values(up).map((t) => t.stop()));
  });

  for (const topo of TOPOLOGIES) {
    describe(`into ${topo.name}`, function () {
      afterEach(async function () {
        const t = up[topo.name];
        if (!t) return;
        // What the test loaded goes, through the topology; a member left unequal fails the next test.
        await (await topo.target(t)).query('DROP SCHEMA IF EXISTS shop');
        await t.waitApplied(60000).catch(() => {});
      });

      it('pointed at a replica / a secondary: refused before anything changes, naming where to point it', async function () {
        const t = up[topo.name];
        const target = await topo.target(t);
        const other = t.members.find((m) => m !== target);
        const gtids = await other.value('SELECT @@GLOBAL.gtid_executed AS g');
        const r = cli(other.uri, ['load', copyDump(SAMPLE_SHOP), '--preset=safe']);
        expect(r.status, r.out).to.not.equal(0);
        expect(r.out, 'names the source / primary').to.contain(`127.0.0.1:${target.port}`);
        expect(Number(await other.value("SELECT COUNT(*) AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
        expect(await other.value('SELECT @@GLOBAL.gtid_executed AS g'), 'nothing written').to.equal(gtids);
        expect(await topo.healthy(t)).to.equal(true);
      });

      for (const c of CASES) {
        it(`${c.name}: every member ends with the same rows, replication running`, async function () {
          const t = up[topo.name];
          const target = await topo.target(t);
          const r = cli(target.uri, ['load', copyDump(SAMPLE_SHOP), ...c.args]);
          expect(r.status, r.out).to.equal(0);
          await t.waitApplied(120000);
          const counts = await t.rowCounts('shop');
          const first = counts[`127.0.0.1:${target.port}`];
          if (c.full) expect(first, 'rows on the target').to.deep.equal(SHOP_ROWS);
          for (const [member, rows] of Object.entries(counts)) expect(rows, `rows on ${member}`).to.deep.equal(first);
          const digests = [];
          for (const m of t.members) {
            if (c.check) await c.check(m);
            digests.push(await digest(m));
          }
          expect(new Set(digests).size, 'customers identical on every member').to.equal(1);
          expect(await topo.healthy(t), 'replication running / group ONLINE').to.equal(true);
        });
      }
    });
  }
});
