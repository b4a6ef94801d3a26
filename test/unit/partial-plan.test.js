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
    expect(orders.chosen).to.deep.equal(['shop@orders@10.tsv.zst', 'shop@orders@@11.tsv.zst']);
    expect(orders.stubbed).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    ['p2026_01', 'p2026_02', 'p2026_03', 'pmax'].forEach((part) => {
      expect(byTable(p, 'events', part).chosen, part).to.deep.equal([]);
    });
    // Tables without a rule are loaded whole.
    expect(byTable(p, 'customers').stubbed).to.deep.equal([]);
    expect(p.fetch).to.deep.equal([]);
    expect(p.bytesChosen).to.be.below(p.bytesTotal);
    expect(p.blockers).to.deep.equal([]);
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
  });

  it('refuseBlocked says what blocks the plan and that nothing changed', function () {
    expect(() => partialPlan.refuseBlocked({ blockers: ['a chunk is corrupt'] }, 'The load'))
      .to.throw(/The load cannot be planned:\n {2}a chunk is corrupt\nNothing was changed\./);
    expect(() => partialPlan.refuseBlocked({ blockers: [] })).to.not.throw();
  });
});
