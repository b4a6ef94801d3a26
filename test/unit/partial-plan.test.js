'use strict';
// The plan of a partial import (lib/partial/partial-plan.js) on the sample dump held in memory.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const { readDumpModel } = require('../../lib/dump/dump-model.js');
const selection = require('../../lib/partial/selection.js');
const partialPlan = require('../../lib/partial/partial-plan.js');

function planFor(options, how, change) {
  const host = fakeHost({ mount: { '/d': 'sample-dumps/shop' } });
  if (change) change(host);
  const sel = selection.parseSelection(options);
  const model = readDumpModel(host, '/d', {});
  return partialPlan.planPartial(model, sel, how || {});
}

function byTable(plan, table, partition) {
  return plan.targets.find((t) => t.table === table && t.partition === (partition === undefined ? null : partition));
}

describe('partial plan (lib/partial/partial-plan.js)', function () {
  it('latest N chooses the newest N chunks and stubs the others, per partition too', function () {
    const p = planFor({ latest: { 'shop.orders': 2, 'shop.events': 0 } });
    const orders = byTable(p, 'orders');
    expect(partialPlan.chosenFiles(orders)).to.deep.equal(['shop@orders@10.tsv.zst', 'shop@orders@@11.tsv.zst']);
    expect(orders.stubbed).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    ['p2026_01', 'p2026_02', 'p2026_03', 'pmax'].forEach((part) => {
      expect(partialPlan.chosenFiles(byTable(p, 'events', part)), part).to.deep.equal([]);
    });
    // Tables without a rule are loaded whole.
    expect(byTable(p, 'customers').stubbed).to.deep.equal([]);
    expect(p.fetch).to.deep.equal([]);
    expect(p.bytesChosen).to.be.below(p.bytesTotal);
    expect(p.blockers).to.deep.equal([]);
  });

  it('a schema filter naming no schema of the dump is a blocker naming the closest one (a typo loads nothing, or what was to be left out)', function () {
    expect(planFor({ includeSchemas: ['shpo'] }).blockers).to.deep.equal(['includeSchemas: shpo names no schema of the dump: did you mean shop?']);
    expect(planFor({ excludeSchemas: ['hr'] }).blockers).to.deep.equal(['excludeSchemas: hr names no schema of the dump (it holds shop).']);
    expect(planFor({ includeSchemas: ['shop'] }).blockers).to.deep.equal([]);
  });

  it('tables the filters leave out are skipped, not stubbed', function () {
    const p = planFor({ includeTables: ['shop.orders'], latest: { 'shop.orders': 1 } });
    expect(p.targets.map((t) => t.table)).to.deep.equal(['orders']);
    expect(p.skippedTables.map((t) => t.table).sort()).to.deep.equal(['audit_log', 'customers', 'events', 'order items', 'products']);
  });

  it('a chosen chunk that is not in the directory is to be fetched; in place, an unchosen missing one gets a stub file', function () {
    const remove = (host) => host.files.remove(['/d/shop@orders@@11.tsv.zst', '/d/shop@orders@2.tsv.zst']);
    const view = planFor({ latest: { 'shop.orders': 1 } }, {}, remove);
    expect(view.fetch).to.deep.equal(['shop@orders@@11.tsv.zst']);
    const inPlace = planFor({ latest: { 'shop.orders': 1 } }, { inPlace: true }, remove);
    expect(inPlace.stubFiles).to.be.at.least(1);
    expect(inPlace.firstStub).to.equal('shop@orders@2.tsv.zst');
  });

  it('a table without a usable key: "latest" is warned about, never silently taken as the newest rows', function () {
    const p = planFor({ latest: { 'shop.audit_log': 1 } });
    expect(p.warnings).to.have.length(1);
    expect(p.warnings[0]).to.match(/^shop\.audit_log has no primary key or unique index: .*"latest" means nothing there/);
    expect(p.blockers).to.deep.equal([]);
    // latest 0 (the table without rows) chooses no chunk of data: no "highest chunk numbers are chosen anyway".
    const none = planFor({ latest: 0 });
    expect(none.warnings).to.deep.equal([]);
    expect(partialPlan.chosenFiles(byTable(none, 'audit_log'))).to.deep.equal(['shop@audit_log@@1.tsv.zst']);
  });

  it('restore.stub writes a stub for each missing unchosen chunk, and an .idx stub only where its .idx is missing', function () {
    const { stubCommand } = require('../../lib/commands/stub.js');
    const host = fakeHost({ mount: { '/d': 'sample-dumps/shop' } });
    const idx2 = host.fs.bytes('/d/shop@orders@2.tsv.zst.idx');
    host.files.remove(['/d/shop@orders@2.tsv.zst', '/d/shop@orders@3.tsv.zst', '/d/shop@orders@3.tsv.zst.idx']);
    const r = stubCommand(host, '/d', { latest: { 'shop.orders': 1 } });
    expect(r.written).to.equal(3);
    expect(r.skipped).to.equal(0);
    expect(host.fs.bytes('/d/shop@orders@2.tsv.zst').toString('hex')).to.equal('28b52ffd2000010000');
    expect(host.fs.bytes('/d/shop@orders@2.tsv.zst.idx')).to.deep.equal(idx2); // there: left as it was
    expect(host.fs.bytes('/d/shop@orders@3.tsv.zst.idx').toString('hex')).to.equal('0000000000000000');
    expect(host.log.filter((e) => e[0] === 'files.write').map((e) => e[1]).sort())
      .to.deep.equal(['/d/shop@orders@2.tsv.zst', '/d/shop@orders@3.tsv.zst', '/d/shop@orders@3.tsv.zst.idx']);
  });

  it('a rule or filter naming a table or partition the dump lacks is a blocker with the nearest name', function () {
    const p = planFor({ latest: { 'shop.ordrs': 1, 'shop.events.p2026_13': 1, 'shop.customers.p1': 1, 'nowhere.*': 1 } });
    expect(p.blockers).to.deep.equal([
      'latest: `shop`.`ordrs` names no table of the dump: did you mean shop.orders?',
      'latest: `shop`.`events`.`p2026_13` names no partition of shop.events: did you mean shop.events.p2026_03?',
      'latest: `shop`.`customers`.`p1` names no partition of shop.customers, which is not partitioned.',
    ]);
    expect(p.warnings).to.include('latest: `nowhere`.* matches no table of the dump.');
    expect(planFor({ includeTables: ['shop.orders', 'shop.custmers'] }).blockers).to.deep.equal([
      'includeTables: shop.custmers names no table of the dump: did you mean shop.customers?']);
    expect(planFor({ latest: { 'shop.orders': 1 }, includeTables: ['shop.orders'] }).blockers).to.deep.equal([]);
  });

  it('the printed plan counts tables, not partitions, and has a row per table or partition', function () {
    const { printPlan } = require('../../lib/partial/plan-report.js');
    const lines = (plan) => { const out = []; printPlan(null, plan, null, { print: (l) => out.push(l), warn: () => {} }); return out; };
    const all = lines(planFor({ latest: { 'shop.*': 1 } }));
    expect(all).to.include('Tables chosen:  6'); // shop.events: 4 partitions, one table
    expect(all.filter((l) => /^shop\./.test(l))).to.have.length(9); // a row per table or partition
    expect(lines(planFor({ includeTables: ['shop.orders', 'shop.events'], latest: { 'shop.orders': 1 } }))).to.include('Tables chosen:  2');
  });

  it('refuseBlocked says what blocks the plan and that nothing changed', function () {
    expect(() => partialPlan.refuseBlocked({ blockers: ['a chunk is corrupt'] }, 'The load'))
      .to.throw(/The load cannot be planned:\n {2}a chunk is corrupt\nNothing was changed\./);
    expect(() => partialPlan.refuseBlocked({ blockers: [] })).to.not.throw();
  });
});
