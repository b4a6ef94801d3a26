'use strict';
// Masks applied while util.loadDump loads (lib/snapshot/load-masks.js), on the sample dump in
// memory: when every mask waits for after the load and why, how the dump's own decoding of a
// column is kept under the mask, which table JSONs cannot carry a mask, and how the key reaches
// the loader's sessions without being written anywhere. (snapshot-load-plans.test.js has the plan
// of the sample's plain columns.)
const { expect } = require('chai');
const { sqlError } = require('../support/fake-host.js');
const { sampleHost } = require('../support/sample-dump.js');
const loadMasks = require('../../lib/snapshot/load-masks.js');
const { parseMask } = require('../../lib/options/mask-spec.js');
const { readDumpMetadata } = require('../../lib/dump/dump-model.js');

const LOADED = ['customers', 'orders'].map((table) => ({ schema: 'shop', dumpSchema: 'shop', table }));

// The plan for masks (text as the command line writes them) on the sample, its table JSONs edited first.
function plan(text, { shell = '9.1.0', loadOptions = {}, edit, host = sampleHost() } = {}) {
  if (edit) {
    const json = JSON.parse(host.fs.text('/d/shop@customers.json'));
    edit(json.options);
    host.fs.put('/d/shop@customers.json', JSON.stringify(json));
  }
  return loadMasks.planLoadMasks(host, { shellVersion: shell, loadOptions, own: {} }, parseMask(text), [], LOADED,
    readDumpMetadata(host, '/d'));
}
function later(p) { return p.after.map((a) => a.name + ': ' + a.why); }

describe('masks applied while loading (lib/snapshot/load-masks.js)', function () {
  it('every mask waits for after the load when the load reads no data or no DDL', function () {
    const noData = plan('shop.customers.name:name,shop.orders.note:text', { loadOptions: { loadData: false } });
    expect([noData.masks, noData.tables, later(noData)]).to.deep.equal([[], {}, ['shop.customers.name: loadData is false',
      'shop.orders.note: loadData is false']]);
    expect(later(plan('shop.customers.name:name', { loadOptions: { loadDdl: false } }))).to.deep.equal([
      "shop.customers.name: loadDdl is false (the tables' columns are checked against the dump's DDL)"]);
    expect(plan('shop.customers.name:name', { shell: '8.0.30' }).masks.map((m) => m.column)).to.deep.equal(['name']);
  });

  it('the dump\'s own decoding of a column stays under the mask (UNHEX, FROM_BASE64, an expression)', function () {
    const decoded = (decode) => plan('shop.customers.name:hash', { edit: (o) => { o.decodeColumns = { name: decode }; } })
      .masks[0].expression;
    expect(decoded('unhex')).to.contain('CAST(UNHEX(@`name`) AS BINARY)');
    expect(decoded('FROM_BASE64')).to.contain('CAST(FROM_BASE64(@`name`) AS BINARY)');
    expect(decoded('REVERSE(@`name`)')).to.contain('CAST((REVERSE(@`name`)) AS BINARY)');
    expect(plan('shop.customers.name:hash').masks[0].expression).to.contain('CAST(@`name` AS BINARY)');
  });

  it('a table JSON without its columns, or with a column named like the key, leaves the mask for after the load', function () {
    expect(later(plan('shop.customers.name:name', { edit: (o) => { delete o.columns; } }))).to.deep.equal([
      "shop.customers.name: the dump's table JSON does not list its columns"]);
    const clash = plan('shop.customers.name:name,shop.orders.note:text', { edit: (o) => { o.columns.push('Restore_Mask_Key'); } });
    expect(later(clash)).to.deep.equal(['shop.customers.name: the table has a column named restore_mask_key']);
    expect(clash.masks.map((m) => m.column)).to.deep.equal(['note']);
    expect(Object.keys(clash.tables)).to.deep.equal([JSON.stringify(['shop', 'orders'])]);
  });

  it('a unique column is masked while loading only by a kind that keeps values distinct in its length', function () {
    // customers.email is UNIQUE varchar(200).
    const p = plan('shop.customers.email:name');
    expect(p.masks.map((m) => [m.column, m.unique, m.maxLength])).to.deep.equal([['email', true, 200]]);
    expect(p.masks[0].expression).to.match(/SUBSTRING\(SHA2\(.*\), 9, 16\)\), 200\)$/); // the hash suffix keeps them apart
    expect(later(plan('shop.customers.email:phone'))).to.deep.equal(['shop.customers.email: it is unique and phone may repeat values']);
  });

  it('the key reaches the loaders through the plugin\'s own session: its thread, when the account can read it back', function () {
    const probe = (answer) => sampleHost({ sql: [
      [/FROM performance_schema\.threads WHERE PROCESSLIST_ID = CONNECTION_ID\(\)$/, { rows: [{ t: 77 }] }],
      [/FROM performance_schema\.user_variables_by_thread WHERE THREAD_ID = \? AND VARIABLE_NAME = 'restore_mask_probe'$/, answer]] });
    const h = probe((sql, args) => ({ rows: args[0] === 77 ? [{ v: 'ok' }] : [] }));
    expect(loadMasks.keyThread(h)).to.equal(77);
    expect(h.statements().filter((s) => /^SET @/.test(s))).to.deep.equal(["SET @restore_mask_probe = 'ok'", 'SET @restore_mask_probe = NULL']);
    expect(loadMasks.keyThread(probe(() => { throw sqlError(1142, 'SELECT command denied to user'); }))).to.equal(null);
    expect(loadMasks.keyThread(probe({ rows: [] }))).to.equal(null);
    // The key itself: lib/snapshot/mask-key.js (test/unit/masking.test.js).
  });

  // A column whose DDL gives no length (int, datetime…) has maxLength null: LEFT(x, NULL) would be NULL.
  it('a fixed mask on a column without a length writes its value uncut', function () {
    const p = plan('shop.orders.customer_id:fixed:7');
    expect(p.masks.map((m) => m.column)).to.deep.equal(['customer_id']);
    expect(p.masks[0].expression).to.equal("CASE WHEN @`customer_id` IS NULL THEN NULL ELSE CONVERT(X'37' USING utf8mb4) END");
  });
});
