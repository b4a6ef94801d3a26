'use strict';
// What a load creates (lib/partial/load-objects.js), taken from the dump model (lib/dump/): the
// filters, triggers, histograms, routines and events, renames; the one rule for base names every
// reader now shares; and a load that reads each metadata file of the dump once. Plain Node, the
// sample dump copied into memory (test/support/fake-host.js).
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const { readDumpModel, readDumpMetadata } = require('../../lib/dump/dump-model.js');
const { loadObjects } = require('../../lib/partial/load-objects.js');
const { runLoad } = require('../../lib/commands/load.js');
const { analyzeMember } = require('../../lib/commands/analyze.js');

function sampleHost(more) { return fakeHost(Object.assign({ mount: { '/d': 'sample-dumps/shop' } }, more || {})); }

function editJson(host, p, fn) {
  const j = JSON.parse(host.fs.text(p));
  fn(j);
  host.fs.put(p, JSON.stringify(j, null, 4));
}

// The sample dump with a trigger, a histogram, a view and routines of every kind.
function richHost(more) {
  const host = sampleHost(more);
  editJson(host, '/d/shop.json', (j) => {
    j.views = ['recent'];
    j.basenames.recent = 'shop@recent';
    j.functions = ['f1'];
    j.procedures = ['p1', 'p2'];
    j.events = ['nightly'];
  });
  host.fs.put('/d/shop@recent.sql', 'CREATE VIEW `recent` AS SELECT 1;\n');
  host.fs.put('/d/shop@recent.pre.sql', 'CREATE VIEW `recent` AS SELECT 1 AS `1`;\n');
  editJson(host, '/d/shop@orders.json', (j) => {
    j.triggers = ['orders_bi', 'orders_bu'];
    j.histograms = [{ column: 'status', buckets: 16 }, { column: 'total' }, { nope: true }];
  });
  host.fs.put('/d/shop@orders.triggers.sql', 'CREATE TRIGGER `orders_bi` BEFORE INSERT ON `orders` FOR EACH ROW SET @x = 1;\n');
  return host;
}

const names = (list, key) => list.map((x) => x[key || 'table']).sort();

describe('what a load creates, from the dump model (lib/partial/load-objects.js)', function () {
  it('takes schemas, tables, views, routines, events, triggers and histograms from the model, after the filters', function () {
    const host = richHost();
    const model = readDumpModel(host, '/d');
    const all = loadObjects(model, {}, true, null);
    expect(all.dir).to.equal('/d');
    expect(all.format).to.equal('2.0.1');
    expect(all.schemas).to.deep.equal([{ schema: 'shop', dumpSchema: 'shop' }]);
    expect(names(all.tables)).to.deep.equal(['audit_log', 'customers', 'events', 'order items', 'orders', 'products']);
    expect(all.views).to.deep.equal([{ schema: 'shop', dumpSchema: 'shop', view: 'recent' }]);
    expect(all.routines.map((r) => r.type + ' ' + r.name)).to.deep.equal(['FUNCTION f1', 'PROCEDURE p1', 'PROCEDURE p2']);
    expect(names(all.events, 'name')).to.deep.equal(['nightly']);
    const orders = all.tables.find((t) => t.table === 'orders');
    expect(orders.triggers).to.deep.equal(['orders_bi', 'orders_bu']);
    expect(orders.histograms).to.deep.equal([{ column: 'status', buckets: 16 }, { column: 'total', buckets: 100 }]);

    const some = loadObjects(model, { includeTables: ['shop.orders', 'shop.recent'], excludeTriggers: ['shop.orders.orders_bu'],
      excludeRoutines: ['shop.p2'], includeEvents: ['shop.none'] }, true, null);
    expect(names(some.tables)).to.deep.equal(['orders']);
    expect(names(some.views, 'view')).to.deep.equal(['recent']);
    expect(some.triggers.map((t) => t.name)).to.deep.equal(['orders_bi']);
    expect(some.routines.map((r) => r.name)).to.deep.equal(['f1', 'p1']);
    expect(some.events).to.deep.equal([]);

    const noDetails = loadObjects(model, {}, false, null).tables.find((t) => t.table === 'orders');
    expect(noDetails.triggers).to.deep.equal([]);
    expect(noDetails.histograms).to.deep.equal([]);
    const noDdl = loadObjects(model, { loadDdl: false }, true, null);
    expect(noDdl.ddl).to.equal(false);
  });

  it('names objects where they are created: the schema option, or schemaMap\'s renames', function () {
    const model = readDumpMetadata(richHost(), '/d');
    const moved = loadObjects(model, { schema: 'other' }, false, null);
    expect(moved.tables.every((t) => t.schema === 'other' && t.dumpSchema === 'shop')).to.equal(true);
    const renamed = loadObjects(model, {}, false, (s) => (s === 'shop' ? 'shop_copy' : null));
    expect(renamed.schemas).to.deep.equal([{ schema: 'shop_copy', dumpSchema: 'shop' }]);
    expect(renamed.views[0]).to.include({ schema: 'shop_copy', dumpSchema: 'shop' });
  });

  it('the metadata part of the model reads no @.done.json and no chunk, and gives the same objects', function () {
    const host = richHost();
    const meta = readDumpMetadata(host, '/d');
    const read = host.calls('files.loadText').map((e) => e[1]);
    expect(read).to.not.include('/d/@.done.json');
    expect(read.filter((p) => /@\d+\.tsv\.zst$/.test(p))).to.deep.equal([]);
    expect(meta.complete).to.equal(true);
    expect(loadObjects(meta, {}, true, null)).to.deep.equal(loadObjects(readDumpModel(richHost(), '/d'), {}, true, null));
  });

  it('refuses a chosen object whose metadata file is missing, and a damaged histogram, naming the file', function () {
    const host = sampleHost();
    host.files.remove(['/d/shop@orders.json']);
    const model = readDumpMetadata(host, '/d');
    expect(() => loadObjects(model, {}, true, null)).to.throw(/The table metadata file shop@orders\.json is missing from the dump in \/d/);
    expect(loadObjects(model, { excludeTables: ['shop.orders'] }, true, null).tables).to.have.length(5);
    expect(loadObjects(model, {}, false, null).tables, 'without details the table JSON is not needed').to.have.length(6);

    const h2 = sampleHost();
    h2.files.remove(['/d/shop.json']);
    expect(() => loadObjects(readDumpMetadata(h2, '/d'), {}, false, null)).to.throw(/The schema metadata file shop\.json is missing/);

    const h3 = sampleHost();
    editJson(h3, '/d/shop@orders.json', (j) => { j.histograms = [{ column: 'status', buckets: 5000 }]; });
    const m3 = readDumpMetadata(h3, '/d');
    expect(() => loadObjects(m3, {}, true, null)).to.throw(/The histogram of column status in shop@orders\.json has 5000 buckets/);
    expect(() => loadObjects(m3, {}, false, null), 'checked only where histograms are used').to.not.throw();
  });
});

describe('restore.analyze of a dump\'s tables, from the metadata part of the model (lib/commands/analyze.js)', function () {
  it('analyzes the chosen tables and rebuilds the histograms the dump lists; an unknown directory is named', function () {
    // The server holds the dump's tables.
    const host = richHost({ sql: [[/FROM information_schema\.TABLES WHERE TABLE_SCHEMA = \?/, { rows: ['orders', 'customers', 'products']
      .map((name) => ({ name, est: 10, bytes: 16384 })) }]] });
    const r = analyzeMember(host, { dumpDir: '/d', includeTables: ['shop.orders', 'shop.customers'], mode: 'histogram' });
    expect(r.tables).to.equal(2);
    const sql = host.statements().filter((q) => /^ANALYZE /.test(q));
    expect(sql.join('\n')).to.match(/`shop`\.`orders`/).and.to.match(/`shop`\.`customers`/).and.to.not.match(/`products`/);
    expect(sql.join('\n')).to.match(/UPDATE HISTOGRAM ON `status`, `total` WITH 16 BUCKETS|UPDATE HISTOGRAM ON `status` WITH 16 BUCKETS/);
    expect(host.calls('files.loadText').map((e) => e[1])).to.not.include('/d/@.done.json');
    expect(() => analyzeMember(sampleHost(), { dumpDir: '/nowhere' })).to.throw(/The dump directory \/nowhere does not exist/);
  });
});

describe('base names: one rule for every reader (lib/dump/dump-catalog.js)', function () {
  function refused(host) {
    const out = [];
    [readDumpModel, readDumpMetadata].forEach((read) => {
      try { read(host, '/d'); out.push(null); } catch (e) { out.push(e.message); }
    });
    return out;
  }

  it('an empty or non-text base name in a basenames map is refused as damage (never replaced by a guess)', function () {
    [['/d/@.json', (j) => { j.basenames.shop = ''; }, /@\.json gives schema shop an empty or non-text file name \(""\): the metadata is damaged/],
      ['/d/shop.json', (j) => { j.basenames.orders = ''; }, /shop\.json gives table shop\.orders an empty or non-text file name \(""\)/],
      ['/d/shop.json', (j) => { j.basenames.orders = '../x'; }, /would point outside the dump directory/],
    ].forEach(([file, edit, message]) => {
      const host = sampleHost();
      editJson(host, file, edit);
      const got = refused(host);
      expect(got[0], file).to.match(message);
      expect(got[1], file + ' (metadata part)').to.equal(got[0]);
    });
  });

  it('a base name of another JSON type is the loader\'s typecast error, naming file, member, found and expected type', function () {
    [[7, 'Integer'], [null, 'Null'], [['x'], 'Array']].forEach(([value, found]) => {
      const host = sampleHost();
      editJson(host, '/d/shop.json', (j) => { j.basenames.orders = value; });
      [readDumpModel(host, '/d'), readDumpMetadata(host, '/d')].forEach((model) => {
        const p = model.problems.find((x) => x.code === 'metadata-type');
        expect(p && p.message).to.match(new RegExp('^shop\\.json: "basenames\\.orders" is ' + found + ', where util\\.loadDump ' +
          'reads a string \\(String\\): it stops with "Invalid typecast: String expected, but value is ' + found + '"'));
        expect(model.loadable === undefined || model.loadable === false).to.equal(true);
      });
    });
  });

  it('a name the map lacks gets the loader\'s own fallback: the schema\'s name, "<schema base>@<table>"', function () {
    const host = sampleHost();
    editJson(host, '/d/@.json', (j) => { delete j.basenames; });
    editJson(host, '/d/shop.json', (j) => { delete j.basenames.orders; });
    const model = readDumpModel(host, '/d');
    expect(model.schemas[0].basename).to.equal('shop');
    expect(model.tables.find((t) => t.table === 'orders').basename).to.equal('shop@orders');
    expect(model.schemas[0].bases.get('order items')).to.equal('shop@order%20items');
  });
});

describe('a load reads each metadata file of the dump once (lib/commands/load.js on the fake host)', function () {
  function loadingHost() {
    const host = richHost();
    host.server.variables.local_infile = 'ON';
    return host;
  }

  function readsPerFile(host) {
    const counts = {};
    host.calls('files.loadText').map((e) => e[1]).filter((p) => p.indexOf('/d/') === 0)
      .forEach((p) => { counts[p] = (counts[p] || 0) + 1; });
    return counts;
  }

  [
    ['a full load with dropExisting and histograms', { dropExisting: true, analyze: 'histogram' }],
    ['a partial import (latest)', { latest: { 'shop.orders': 2 }, dropExisting: true }],
    ['a load under schemaMap', { schemaMap: { shop: 'shop_copy' } }],
    // A dry run: the masks are checked against the CREATE TABLE texts in the preflight.
    ['a load with masks (the CREATE TABLE texts)', { mask: { 'shop.customers.email': 'email' }, dryRun: true }],
  ].forEach(([what, options]) => {
    it(what, function () {
      const host = loadingHost();
      runLoad(host, '/d', Object.assign({ preset: 'safe', force: true }, options));
      expect(host.calls('util.loadDump')).to.have.length(options.dryRun ? 0 : 1);
      const counts = readsPerFile(host);
      expect(counts['/d/@.json'], '@.json read').to.equal(1);
      expect(counts['/d/shop.json']).to.equal(1);
      expect(counts['/d/shop@orders.json']).to.equal(1);
      if (options.mask) expect(counts['/d/shop@customers.sql'], 'the CREATE TABLE text').to.equal(1);
      expect(Object.keys(counts).filter((p) => counts[p] > 1), 'files read twice').to.deep.equal([]);
    });
  });
});
