'use strict';
// The preflight decisions of lib/snapshot/load-masks.js (which masks LOAD DATA applies, and the
// table JSON it reads) and lib/snapshot/deferred-indexes.js (whether orphans "delete" defers the
// secondary indexes), on the sample dump in memory.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const loadMasks = require('../../lib/snapshot/load-masks.js');
const deferred = require('../../lib/snapshot/deferred-indexes.js');
const tableDdl = require('../../lib/snapshot/table-ddl.js');
const { parseMask } = require('../../lib/options/mask-spec.js');
const { parseRelations } = require('../../lib/options/relations.js');
const { readDumpMetadata } = require('../../lib/dump/dump-model.js');

const TABLES = ['customers', 'orders', 'order items'].map((t) => ({ schema: 'copy', dumpSchema: 'shop', table: t }));
const ctx = (shellVersion, loadOptions = {}) => ({ shellVersion, loadOptions, own: {} });

describe('masks applied while loading, and deferred indexes: the plans (lib/snapshot/)', function () {
  let host;
  let dump; // the dump model: what the plans read of the metadata
  beforeEach(function () {
    host = fakeHost({ mount: { '/d': 'sample-dumps/shop' } });
    dump = readDumpMetadata(host, '/d');
  });

  it('masks LOAD DATA applies: a unique column with a kind that keeps values distinct, a plain column', function () {
    const specs = parseMask('shop.customers.email:email,shop.customers.name:phone');
    const lm = loadMasks.planLoadMasks(host, ctx('9.1.0'), specs, [], TABLES, dump);
    expect(lm.after).to.deep.equal([]);
    expect(lm.masks.map((m) => [m.schema, m.table, m.column, m.unique, m.maxLength])).to.deep.equal([
      ['copy', 'customers', 'email', true, 200], ['copy', 'customers', 'name', false, 100]]);
    const entry = lm.tables[JSON.stringify(['copy', 'customers'])];
    expect(entry.file).to.equal('shop@customers.json');
    // The expression reads what LOAD DATA put in @`email`, never the column.
    expect(entry.decodeColumns.email).to.match(/^LEFT\(CONCAT\('user_', LEFT\(SHA2\(CONCAT\(CAST\(@restore_mask_key AS BINARY\), 0x00, CAST\(@`email` AS BINARY\)\), 256\), 16\), '@example\.com'\), 200\)$/);
    const json = JSON.parse(loadMasks.maskedTableJson(JSON.stringify(entry.json), entry));
    expect(Object.keys(json.options.decodeColumns)).to.deep.equal(['email', 'name']);
    expect(json.options.columns).to.deep.equal(['id', 'name', 'email', 'created_at']);
  });

  it('after the load: key columns (declared or relations), unique columns whose kind repeats values, old Shells', function () {
    const specs = parseMask('shop.customers.email:email,shop.orders.note:text,shop.customers.name:name');
    const rels = parseRelations('shop.orders.note:shop.customers.email');
    const lm = loadMasks.planLoadMasks(host, ctx('9.1.0'), specs, rels, TABLES, dump);
    expect(lm.masks.map((m) => m.column)).to.deep.equal(['name']);
    expect(lm.after.map((a) => a.name + ': ' + a.why)).to.deep.equal([
      'shop.customers.email: a foreign key or relation links it', 'shop.orders.note: a foreign key or relation links it']);
    const unique = loadMasks.planLoadMasks(host, ctx('9.1.0'), parseMask('shop.customers.email:digits'), [], TABLES, dump);
    expect(unique.after[0].why).to.equal('it is unique and digits may repeat values');
    const old = loadMasks.planLoadMasks(host, ctx('8.0.29'), parseMask('shop.customers.name:name'), [], TABLES, dump);
    expect(old.masks).to.deep.equal([]);
    expect(old.why).to.match(/^MySQL Shell 8\.0\.29 \(the key reaches the loader's sessions by sessionInitSql, 8\.0\.30\+\)$/);
  });

  it('the dump\'s own decoding is composed, not replaced; the key statement reads the key from the plugin\'s session', function () {
    const text = JSON.stringify({ options: { columns: ['id', 'photo'], decodeColumns: { photo: 'FROM_BASE64' } } });
    const json = JSON.parse(loadMasks.maskedTableJson(text, { decodeColumns: { photo: 'X' } }));
    expect(json.options.decodeColumns).to.deep.equal({ photo: 'X' });
    expect(loadMasks.keyStatement(42)).to.equal('SET @restore_mask_key = (SELECT VARIABLE_VALUE FROM ' +
      "performance_schema.user_variables_by_thread WHERE THREAD_ID = 42 AND VARIABLE_NAME = 'restore_mask_key')");
  });

  it('orphans "delete" defers the indexes only when every key references a primary key and nothing says otherwise', function () {
    const ddl = tableDdl.dumpTableColumns(host, dump, TABLES);
    expect(deferred.whyNotDeferred(ctx('9.1.0'), TABLES, ddl, [])).to.equal(null);
    // The sample dump declares no foreign key; a relation to a primary key keeps the deferral.
    expect(deferred.ddlForeignKeys(TABLES, ddl)).to.deep.equal([]);
    expect(deferred.whyNotDeferred(ctx('9.1.0'), TABLES, ddl, parseRelations('shop.orders.customer_id:shop.customers.id')))
      .to.equal(null);
    expect(deferred.whyNotDeferred(ctx('9.1.0'), TABLES, ddl, parseRelations('shop.orders.customer_id:shop.customers.email')))
      .to.equal('a key references columns other than its table\'s primary key');
    expect(deferred.whyNotDeferred(ctx('9.1.0', { deferTableIndexes: 'fulltext' }), TABLES, ddl, [])).to.equal('deferTableIndexes is given');
    expect(deferred.whyNotDeferred(ctx('9.1.0', { loadIndexes: true }), TABLES, ddl, [])).to.equal('loadIndexes is given');
    expect(deferred.whyNotDeferred(ctx('9.1.0', { ignoreExistingObjects: true }), TABLES, ddl, []))
      .to.match(/^ignoreExistingObjects: /);
    const o = deferred.indexBuildOptions({ threads: 4, resetProgress: true, dropExistingObjects: true, progressFile: '/p' });
    expect(o).to.deep.equal({ threads: 4, progressFile: '/p', loadDdl: false, loadData: false, loadUsers: false,
      loadIndexes: true, deferTableIndexes: 'all', analyzeTables: 'on', showProgress: false });
  });
});
