'use strict';
// restore load into replicated targets, in the real mysqlsh on real MySQL servers on loopback
// (test/support/topology.js): a GTID source with a replica, and a three-member Group Replication
// group. For each preset (safe, fastest, dev with latest and parents, masks) the load is pointed at
// the source / the primary, as a DBA would; afterwards every member has the same rows (and the same
// masked values), the replication threads run, the group is ONLINE. (Refusals at a replica or a
// secondary, and fastest's plan there: replicated-load.test.js, replicated-group.test.js.) Each topology is started once
// for the whole run (sharedReplicaSet, sharedGroup); every test drops what it loaded, through the topology.
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump } = require('../support/shell');
const { sharedReplicaSet, sharedGroup } = require('../support/topology');

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
  { name: 'a GTID source with a replica', get: sharedReplicaSet },
  { name: 'a three-member Group Replication group (the primary)', get: sharedGroup },
];

describe('restore load into replicated topologies (real Shell, real MySQL on loopback)', function () {
  const up = {};

  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(300000);
    // Both at once (when this file is the first to use them): start-up is mostly mysqld --initialize.
    const t0 = Date.now();
    const [set, group] = await Promise.all(TOPOLOGIES.map((t) => t.get()));
    up[TOPOLOGIES[0].name] = set;
    up[TOPOLOGIES[1].name] = group;
    process.stdout.write(`      (topologies ready in ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  });

  for (const topo of TOPOLOGIES) {
    describe(`into ${topo.name}`, function () {
      afterEach(async function () {
        const t = up[topo.name];
        if (!t) return;
        // What the test loaded goes, through the topology; a member left unequal fails the next test.
        await (await t.target()).query('DROP SCHEMA IF EXISTS shop');
        await t.waitApplied(60000).catch(() => {});
      });

      for (const c of CASES) {
        it(`${c.name}: every member ends with the same rows, replication running`, async function () {
          const t = up[topo.name];
          const target = await t.target();
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
          expect(await t.healthy(), 'replication running / group ONLINE').to.equal(true);
        });
      }
    });
  }
});
