'use strict';
// The committed sample dump (npm run sample-dumps) is what the README's main command loads: it
// must stay complete, loadable and small, with the shapes the partial-import demo relies on.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { runShell, ROOT } = require('../support/standin');

const SAMPLE = path.join(ROOT, 'sample-dumps', 'shop');

describe('sample-dumps/shop', () => {
  it('restore.inspect reports it complete and loadable, with a many-chunk orders table', () => {
    const r = runShell({ code: `restore.inspect(${JSON.stringify(SAMPLE)})`, uri: null });
    expect(r.error).to.equal(null);
    expect(r.value.complete).to.equal(true);
    expect(r.value.loadable).to.equal(true);
    const orders = r.value.tables.find((t) => t.table === 'orders');
    expect(orders.chunks.length).to.be.at.least(6);
    expect(r.value.tables.filter((t) => t.table === 'events').map((t) => t.partition)).to.have.length(4);
    expect(r.value.tables.map((t) => t.table)).to.include.members(['audit_log', 'order items']);
  });

  it('stays under 2 MB', () => {
    const bytes = fs.readdirSync(SAMPLE).reduce((n, f) => n + fs.statSync(path.join(SAMPLE, f)).size, 0);
    expect(bytes).to.be.below(2 * 1024 * 1024);
  });
});
