'use strict';
// Masks applied after the load (lib/snapshot/masking.js) on the fake server: which names are
// refused and with what words, how a mask follows a foreign key group, the SQL each kind writes,
// when a unique column keeps distinct values, and the UPDATEs run with the key held only meanwhile.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const masking = require('../../lib/snapshot/masking.js');
const { parseMask } = require('../../lib/options/mask-spec.js');

// Loaded as `copy` from the dump's `shop`.
const TABLES = ['customers', 'orders'].map((table) => ({ schema: 'copy', dumpSchema: 'shop', table }));
const COLUMNS = {
  customers: [['id', 'int', 'NO', '', null], ['name', 'varchar', 'YES', '', 100], ['email', 'varchar', 'YES', '', 200],
    ['code', 'varchar', 'YES', 'STORED GENERATED', 10]],
  orders: [['id', 'int', 'NO', '', null], ['customer_id', 'int', 'YES', '', null], ['note', 'text', 'NO', '', 65535],
    ['ref_email', 'varchar', 'YES', '', 40]],
};
const UNIQUE = { customers: ['id', 'email'], orders: ['id'] };
// orders.ref_email references customers.email (both loaded); orders.customer_id a table not loaded.
const FKS = [
  { schema: 'copy', table: 'orders', columns: ['ref_email'], refSchema: 'copy', refTable: 'customers', refColumns: ['email'], refLoaded: true },
  { schema: 'copy', table: 'orders', columns: ['customer_id'], refSchema: 'billing', refTable: 'accounts', refColumns: ['id'], refLoaded: false },
];

function server(sql) {
  return fakeHost({ sql: (sql || []).concat([
    [/FROM information_schema\.COLUMNS WHERE TABLE_SCHEMA = \? AND TABLE_NAME = \?/, (s, [schema, table]) => ({
      rows: schema === 'copy' && COLUMNS[table] ? COLUMNS[table].map(([name, type, nullable, extra, maxLength]) =>
        ({ name, type, nullable, extra, maxLength })) : [] })],
    [/FROM information_schema\.STATISTICS/, (s, [schema, table]) => ({ rows: (UNIQUE[table] || []).map((name) => ({ name })) })],
    [/FROM information_schema\.TRIGGERS/, { rows: [{ n: 0 }] }],
    [/^UPDATE /, { affected: 7 }],
  ]) });
}
function refusal(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a refusal');
}
function resolve(h, text, fks) { return masking.resolveMasks(h, parseMask(text), TABLES, fks || FKS); }

describe('masks after the load (lib/snapshot/masking.js)', function () {
  it('refuses a table, column or kind that cannot be masked, before anything changes, with a suggestion', function () {
    const columnsOf = (t) => require('../../lib/snapshot/table-ddl.js').serverTableColumns(server(), t.schema, t.table);
    const no = (text) => refusal(() => masking.checkMasks(parseMask(text), TABLES, columnsOf)).message;
    expect(no('shop.custmers.email:email')).to.equal('mask: shop.custmers.email names the table shop.custmers, which is not ' +
      'in this load (did you mean shop.customers?). Nothing was changed.');
    expect(no('copy.customers.emial:email')).to.equal('mask: copy.customers.emial: the table copy.customers has no column ' +
      '"emial" (did you mean email?). Nothing was changed.');
    expect(no('shop.customers.code:hash')).to.equal('mask: shop.customers.code is a generated column: mask the columns it is ' +
      'computed from. Nothing was changed.');
    expect(no('shop.orders.note:null')).to.equal('mask: shop.orders.note is NOT NULL: use another kind than null. Nothing was changed.');
    expect(no('shop.orders.customer_id:digits')).to.equal('mask: shop.orders.customer_id is of type int: the kind digits needs ' +
      'a character or binary column (use fixed:<value> or null). Nothing was changed.');
    // fixed and null fit any type; a table whose columns are unknown is left for later.
    expect(masking.checkMasks(parseMask('shop.orders.customer_id:fixed:0,shop.orders.id:hash'), TABLES,
      (t) => (t.table === 'orders' ? null : columnsOf(t))).map((s) => s.name)).to.deep.equal(['shop.orders.customer_id', 'shop.orders.id']);
  });

  it('a mask follows its foreign key group: one kind, the shortest column\'s length, unique', function () {
    const h = server();
    const r = resolve(h, 'shop.customers.email:email,shop.customers.name:name');
    expect(r.masks.map((m) => [m.schema + '.' + m.table + '.' + m.column, m.kind, m.follows, m.maxLength, m.unique])).to.deep.equal([
      ['copy.orders.ref_email', 'email', 'shop.customers.email', 40, true],
      ['copy.customers.email', 'email', null, 40, true],
      ['copy.customers.name', 'name', null, 100, false]]);
    expect(r.notes).to.deep.equal([]);
    const e = refusal(() => resolve(server(), 'shop.customers.email:email,shop.orders.ref_email:hash'));
    expect(e.message).to.equal('mask: shop.orders.ref_email (hash) and shop.customers.email (email) are linked by foreign keys, ' +
      'so they need the same kind (a different mask would break the references). The data is loaded; nothing was masked and no ' +
      'orphan was removed.');
    // A key to a table outside the load: masked, and said.
    expect(resolve(server(), 'shop.orders.customer_id:fixed:0').notes).to.deep.equal(['copy.orders.customer_id is masked but ' +
      'references billing.accounts, which is not part of this load: those references no longer match']);
  });

  it('the SQL of each kind: keyed hash of the value, cut to the column, NULL kept NULL, fixed values never in the text', function () {
    const m = (kind, extra) => Object.assign({ column: 'e`mail', kind, value: null, maxLength: 40, unique: false }, extra);
    const h = 'SHA2(CONCAT(CAST(@restore_mask_key AS BINARY), 0x00, CAST(`e``mail` AS BINARY)), 256)';
    expect(masking.maskExpression(m('hash'))).to.deep.equal({ sql: 'LEFT(' + h + ', 40)', args: [] });
    expect(masking.maskExpression(m('email')).sql).to.equal("LEFT(CONCAT('user_', LEFT(" + h + ", 16), '@example.com'), 40)");
    expect(masking.maskExpression(m('hash', { maxLength: 1 << 24 })).sql).to.equal(h); // TEXT and longer: no cut
    expect(masking.maskExpression(m('null'))).to.deep.equal({ sql: 'NULL', args: [] });
    expect(masking.maskExpression(m('fixed', { value: "it's" }))).to.deep.equal({
      sql: 'CASE WHEN `e``mail` IS NULL THEN NULL ELSE LEFT(?, 40) END', args: ["it's"] });
    // While loading (the value LOAD DATA read): the fixed value as UTF-8 bytes, whatever the sql_mode.
    expect(masking.maskExpression(m('fixed', { value: 'né' }), '@`x`')).to.deep.equal({
      sql: "CASE WHEN @`x` IS NULL THEN NULL ELSE LEFT(CONVERT(X'6ec3a9' USING utf8mb4), 40) END", args: [] });
    expect(masking.maskExpression(m('fixed', { value: null }))).to.deep.equal({ sql: 'NULL', args: [] });
    // A unique name gets a hash suffix: two people of one name stay two.
    expect(masking.maskExpression(m('name', { unique: true })).sql).to.match(/, ' ', SUBSTRING\(SHA2\(.*\), 9, 16\)\), 40\)$/);
    expect(masking.maskExpression(m('name')).sql).to.not.match(/9, 16/);
    expect(masking.maskExpression(m('text')).sql).to.match(/CHAR_LENGTH\(`e``mail`\)\), 40\)$/);
  });

  it('a unique column keeps distinct values only where 64 bits of the hash survive the cut', function () {
    const k = (kind, maxLength, unique) => masking.keepsDistinct({ kind, maxLength, unique });
    expect([k('email', 33), k('email', 32), k('hash', 16), k('hash', 15), k('null', 1)]).to.deep.equal([true, false, true, false, true]);
    expect([k('name', 31, true), k('name', 30, true), k('name', 200, false)]).to.deep.equal([true, false, false]);
    expect([k('phone', 200), k('text', 200), k('digits', 200), k('fixed', 200)]).to.deep.equal([false, false, false, false]);
  });

  it('one UPDATE per table with every column of it; the key held only while they run, never in a statement', function () {
    // The pad the server makes for 'secret' (6 bytes): the client sends key XOR pad.
    const h = server([[/^SELECT HEX\(@restore_mask_pad\) AS p$/, { rows: [{ p: '0102030405FF' }] }]]);
    const r = masking.applyMasks(h, resolve(h, 'shop.customers.email:email,shop.customers.name:phone').masks,
      { maskKey: 'secret', held: false, rowEvents: null }, null);
    const run = h.statements().filter((s) => /^(SET @|UPDATE )/.test(s));
    expect(run.map((s) => s.replace(/^(UPDATE [^ ]+ SET [^ ]+) = .*/, '$1 = …'))).to.deep.equal(['SET @restore_mask_pad = RANDOM_BYTES(6)',
      "SET @restore_mask_key = @restore_mask_pad ^ X'72676076608B'",
      'SET @restore_mask_pad = NULL', 'UPDATE `copy`.`orders` SET `ref_email` = …', 'UPDATE `copy`.`customers` SET `email` = …',
      'SET @restore_mask_key = NULL']);
    // 's' 0x73 ^ 0x01 = 0x72, 'e' 0x65 ^ 0x02 = 0x67, … 't' 0x74 ^ 0xFF = 0x8B.
    expect(Buffer.from('72676076608B', 'hex').map((b, i) => b ^ [1, 2, 3, 4, 5, 255][i]).toString()).to.equal('secret');
    expect(run[4]).to.match(/^UPDATE `copy`\.`customers` SET `email` = LEFT\(CONCAT\('user_'.*\), `name` = LEFT\(CONCAT\('\+1-555-'/);
    expect(h.calls('sql').some((c) => JSON.stringify(c.slice(1)).includes('secret'))).to.equal(false);
    expect([r.keySource, r.tables.map((t) => [t.table, t.rows, t.columns.map((c) => c.column + ':' + c.kind)])]).to.deep.equal(['maskKey',
      [['orders', 7, ['ref_email:email']], ['customers', 7, ['email:email', 'name:phone']]]]);
    // A key held by the load step (masks applied while loading) is used as it is, and stays.
    const held = server();
    masking.applyMasks(held, resolve(held, 'shop.customers.email:email').masks, { maskKey: null, held: true, rowEvents: null }, 'maskKey');
    expect(held.statements().filter((s) => /^SET /.test(s))).to.deep.equal([]);
  });

  it('without maskKey the key is random, made on the server; a failed UPDATE says the data is NOT masked, and the key goes', function () {
    const h = server([[/^UPDATE `copy`\.`customers`/, () => { throw sqlError(1062, "Duplicate entry 'x' for key 'customers.email'"); }]]);
    const e = refusal(() => masking.applyMasks(h, resolve(h, 'shop.customers.email:email').masks, { maskKey: null, held: false,
      rowEvents: { statement: "SET SESSION binlog_format = 'ROW'", before: 'MIXED' } }, null));
    expect(e.message).to.equal("Masking copy.customers failed: Duplicate entry 'x' for key 'customers.email'. The data is loaded " +
      'but NOT masked (masked already: copy.orders): do not hand it out. Change the mask (e.g. hash for a unique column) ' +
      'and load again.');
    const set = h.statements().filter((s) => /^SET /.test(s));
    expect(set).to.deep.equal(["SET SESSION binlog_format = 'ROW'", 'SET @restore_mask_key = HEX(RANDOM_BYTES(32))',
      'SET @restore_mask_key = NULL', 'SET SESSION binlog_format = ?']);
    expect(h.calls('sql').slice(-1)[0][2]).to.deep.equal(['MIXED']);
    // A server without RANDOM_BYTES: a key from UUID(), RAND() and the clock instead, made there too.
    const old = server([[/RANDOM_BYTES/, () => { throw sqlError(1305, 'FUNCTION RANDOM_BYTES does not exist'); }]]);
    masking.applyMasks(old, resolve(old, 'shop.customers.email:email').masks, { maskKey: null, held: false, rowEvents: null }, null);
    expect(old.statements()).to.include('SET @restore_mask_key = SHA2(CONCAT(UUID(), RAND(), SYSDATE(6), CONNECTION_ID()), 256)');
  });
});
