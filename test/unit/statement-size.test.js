'use strict';
// The plugin's own row changes on a Group Replication group (lib/snapshot/statement-size.js):
// batches sized from group_replication_transaction_size_limit and the rows measured, and a rollback
// by the group (error 3100) named with the limit and what the server's error log says.
const { expect } = require('chai');
const { fakeHost, sqlError } = require('../support/fake-host.js');
const statementSize = require('../../lib/snapshot/statement-size.js');
const orphans = require('../../lib/snapshot/orphans.js');

const FK = { name: 'orders_customer', schema: 'shop', table: 'orders', columns: ['customer_id'], refSchema: 'shop',
  refTable: 'customers', refColumns: ['id'], refExists: true, refLoaded: true, virtual: false };

function host(widest, deletes) {
  let left = deletes;
  return fakeHost({ sql: [
    [/information_schema\.COLUMNS/, { rows: [{ c: 'id' }, { c: 'customer_id' }, { c: 'note' }] }],
    [/AS w FROM/, { rows: [{ w: widest }] }],
    [/^DELETE /, (sql) => {
      const m = /LIMIT (\d+)$/.exec(sql);
      const n = m ? Number(m[1]) : Infinity;
      const got = Math.min(n, left);
      left -= got;
      return { affected: got };
    }],
  ] });
}

describe('statement size on a group (lib/snapshot/statement-size.js)', function () {
  it('no group: one statement; a group: rows per statement from a quarter of the limit and the widest row sampled', function () {
    expect(statementSize.batchRows(host(100, 0), 'shop', 'orders', null)).to.equal(null);
    // (60000 / 4) / (100 + 8 * 3 + 32) = 96
    expect(statementSize.batchRows(host(100, 0), 'shop', 'orders', 60000)).to.equal(96);
    expect(statementSize.batchRows(host(1000000, 0), 'shop', 'orders', 60000)).to.equal(1);
  });

  it('orphans "delete" on a group: single-table DELETEs with LIMIT until one deletes fewer, every row counted', function () {
    const h = host(100, 250);
    const out = orphans.fixOrphans(h, [FK], 'delete', { groupLimit: 60000 });
    const deletes = h.log.filter((e) => e[0] === 'sql' && /^DELETE /.test(e[1])).map((e) => e[1]);
    // 250 rows in batches of 96: 96, 96, 58 (then the next round finds the key's table unchanged).
    expect(deletes.length).to.equal(3);
    for (const d of deletes) {
      expect(d).to.match(/^DELETE FROM `shop`\.`orders` WHERE `shop`\.`orders`\.`customer_id` IS NOT NULL AND NOT EXISTS \(SELECT 1 FROM `shop`\.`customers` AS p WHERE p\.`id` = `shop`\.`orders`\.`customer_id`\) LIMIT 96$/);
    }
    expect(out.keys[0].deleted).to.equal(250);
    const single = host(100, 250);
    orphans.fixOrphans(single, [FK], 'delete');
    const one = single.log.filter((e) => e[0] === 'sql' && /^DELETE /.test(e[1]));
    expect(one.length).to.equal(1);
    expect(one[0][1]).to.match(/^DELETE `shop`\.`orders` FROM `shop`\.`orders` LEFT JOIN/);
  });

  it('a rollback by the group (error 3100) is named: the limit and the error log\'s words; other errors stay as they are', function () {
    const said = 'Error on session 42. Transaction of size 130000 exceeds specified limit 60000. To increase the limit please ' +
      'adjust group_replication_transaction_size_limit option.';
    const h = fakeHost({ sql: [
      [/information_schema\.COLUMNS/, { rows: [{ c: 'id' }] }],
      [/AS w FROM/, { rows: [{ w: 8 }] }],
      [/performance_schema\.error_log/, { rows: [{ d: said }] }],
      [/^DELETE /, () => { throw sqlError(3100, "Error on observer while running replication hook 'before_commit'."); }],
    ] });
    let e = null;
    try { orphans.fixOrphans(h, [FK], 'delete', { groupLimit: 60000 }); } catch (x) { e = x; }
    expect(e && e.code).to.equal('GROUP_ROLLED_BACK');
    expect(e.message).to.include('The group rolled back the orphans DELETE of `shop`.`orders` (error 3100');
    expect(e.message).to.include(`the server's error log says "${said}"`);
    expect(e.message).to.include('group_replication_transaction_size_limit is 60000 bytes');
    const other = sqlError(1205, 'Lock wait timeout exceeded');
    expect(statementSize.namedRollback(h, other, 'x', 60000)).to.equal(other);
    const writeset = statementSize.namedRollback(h, sqlError(3231, 'The size of writeset data for the current transaction exceeds a ' +
      'limit imposed by an external component.'), 'since\'s DELETE of shop.orders', 60000);
    expect(writeset.code).to.equal('GROUP_ROLLED_BACK');
    expect(writeset.message).to.include('The group rolled back since\'s DELETE of shop.orders (error 3231');
    const noGroup = sqlError(3100, 'hook');
    expect(statementSize.namedRollback(h, noGroup, 'x', null)).to.equal(noGroup);
  });
});
