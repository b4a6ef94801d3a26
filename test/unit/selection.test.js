'use strict';
// lib/partial/selection.js under plain Node: what a user chose (loadDump's filters plus `latest`).
const { expect } = require('chai');
const selection = require('../../lib/partial/selection.js');

function refusal(fn) {
  try { fn(); } catch (e) { expect(e.isUserError, e.stack).to.equal(true); return e.message; }
  throw new Error('expected a UserError');
}

describe('selection (lib/partial/selection.js)', function () {
  it('reads filters given as arrays or as comma-separated text, with backticks', function () {
    const sel = selection.parseSelection({ includeSchemas: 'shop, billing', excludeTables: ['shop.`a.b`', 'billing.audit'] });
    expect(sel.includeSchemas).to.deep.equal(['shop', 'billing']);
    expect(sel.excludeTables).to.deep.equal([{ schema: 'shop', table: 'a.b' }, { schema: 'billing', table: 'audit' }]);
    expect(selection.isPartial(sel)).to.equal(false);
  });

  it('decides which tables loadDump loads: exclude beats include, includeTables narrows its schemas', function () {
    const sel = selection.parseSelection({ includeSchemas: ['shop', 'hr'], excludeTables: ['shop.audit'], includeTables: ['shop.orders', 'shop.audit2'] });
    expect(selection.isTableChosen(sel, 'shop', 'orders')).to.equal(true);
    expect(selection.isTableChosen(sel, 'shop', 'audit')).to.equal(false);
    expect(selection.isTableChosen(sel, 'shop', 'customers')).to.equal(false);
    expect(selection.isTableChosen(sel, 'other', 'orders')).to.equal(false);
    expect(selection.isSchemaChosen(sel, 'shop')).to.equal(true);
    expect(selection.isSchemaChosen(sel, 'hr')).to.equal(false);
  });

  it('reads latest as a number, a dictionary and the command-line text (a colon inside backticks is the name\'s)', function () {
    expect(selection.parseSelection({ latest: 3 }).latest).to.deep.equal([{ schema: '*', table: '*', partition: null, count: 3 }]);
    const d = selection.parseSelection({ latest: { 'shop.orders': 2, 'shop.*': 0 } }).latest;
    expect(d).to.deep.include({ schema: 'shop', table: 'orders', partition: null, count: 2 });
    expect(d).to.deep.include({ schema: 'shop', table: '*', partition: null, count: 0 });
    const t = selection.parseSelection({ latest: 'shop.`a:b`:4,shop.events.p1:1' }).latest;
    expect(t).to.deep.equal([{ schema: 'shop', table: 'a:b', partition: null, count: 4 },
      { schema: 'shop', table: 'events', partition: 'p1', count: 1 }]);
  });

  it('gives the most specific latest rule: partition, then table, then schema, then *', function () {
    const sel = selection.parseSelection({ latest: { '*': 9, 'shop.*': 5, 'shop.events': 3, 'shop.events.p1': 1 } });
    expect(selection.latestCount(sel, 'shop', 'events', 'p1')).to.equal(1);
    expect(selection.latestCount(sel, 'shop', 'events', 'p2')).to.equal(3);
    expect(selection.latestCount(sel, 'shop', 'orders', null)).to.equal(5);
    expect(selection.latestCount(sel, 'hr', 'people', null)).to.equal(9);
    expect(selection.latestCount(selection.parseSelection({}), 'hr', 'people', null)).to.equal(null);
    expect(selection.isPartial(sel)).to.equal(true);
  });

  it('refuses contradictions and mistakes with what to change', function () {
    expect(refusal(() => selection.parseSelection({ includeSchemas: ['shop', 'shop'] }))).to.match(/includeSchemas names shop twice/);
    expect(refusal(() => selection.parseSelection({ includeTables: ['shop.a'], excludeTables: ['shop.a'] })))
      .to.match(/Both includeTables and excludeTables name `shop`.`a`/);
    expect(refusal(() => selection.parseSelection({ includeTables: ['shop.a'], excludeSchemas: ['shop'] })))
      .to.match(/whose schema is in excludeSchemas/);
    expect(refusal(() => selection.parseSelection({ includeSchemas: ['hr'], latest: { 'shop.orders': 1 } })))
      .to.match(/latest names `shop`.`orders`, which the include\/exclude options leave out/);
    expect(refusal(() => selection.parseSelection({ latest: -1 }))).to.match(/latest/);
    expect(refusal(() => selection.parseSelection({ latest: { 'shop.orders': 1.5 } }))).to.match(/latest/);
    expect(refusal(() => selection.parseSelection({ includeTables: ['orders'] }))).to.match(/includeTables/);
  });

  it('lists latest rules that match no table of the dump', function () {
    const sel = selection.parseSelection({ latest: { 'shop.orders': 1, 'shop.gone': 1, '*': 2 } });
    const unmatched = selection.unmatchedLatest(sel, [{ schema: 'shop', table: 'orders', partition: null }]);
    expect(unmatched.map(selection.describeRule)).to.deep.equal(['`shop`.`gone`']);
  });
});
