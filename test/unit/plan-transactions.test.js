'use strict';
// The plan's transactions kept as columns (lib/binlog/plan-transactions.js): what a consumer reads of a row is what
// the companion's read gave (binlog_plan.py rows), values past the columns' widths included, and what the plan
// changes (a derived GTID, the names a transaction writes, texts) is what it reads after.
const { expect } = require('chai');
const planTransactions = require('../../lib/binlog/plan-transactions.js');

const U = '3e11fa47-71ca-11e1-9e33-c80aa9429562';
// [file index, start, end, gtid, lastCommitted, sequenceNumber, commit, set index, binlog, query, event sizes, extra | 0]
const row = (o) => [o.f || 0, o.start, o.end, o.gtid === undefined ? `${U}:${o.start}` : o.gtid, o.lc === undefined ? 0 : o.lc,
  o.seq === undefined ? 1 : o.seq, o.commit === undefined ? 1764000000000000 : o.commit, o.set || 0, o.b || 0, o.q || 0, o.e || 0, o.x || 0];

describe('the plan\'s transactions as columns', function () {
  const sets = [{ 'shop.a': true }, { 'shop.b': true }];

  it('a consumer reads each row as the companion gave it, values past the columns\' widths and nulls included', function () {
    const s = planTransactions.create(['binlog.000001', 'binlog.000002'], sets);
    s.push(row({ start: 4, end: 300 }));
    s.push(row({ f: 1, start: 5000000000, end: 5000000100, gtid: `${U}:9007199254740991`, lc: 3000000000, seq: null, commit: null, set: 1 }));
    s.push(row({ start: 300, end: 300 + 3 * 1073741824, gtid: null, lc: null, b: 2000, q: 10, e: 2100,
      x: { statements: [{ text: 'DROP TABLE shop.a', schema: '', position: 400 }], incomplete: 'cut' } }));
    const l = s.list();
    expect(l.length).to.equal(3);
    expect(l.at(0)).to.include({ file: 'binlog.000001', start: 4, end: 300, gtid: `${U}:4`, lastCommitted: 0, sequenceNumber: 1,
      commit: 1764000000000000, time: 1764000000000000, sizes: null, incomplete: null, inDump: false, idempotent: false });
    expect(l.at(0).tables).to.equal(sets[0]);
    expect(l.at(1)).to.include({ file: 'binlog.000002', start: 5000000000, end: 5000000100, gtid: `${U}:9007199254740991`,
      lastCommitted: 3000000000, sequenceNumber: null, commit: null, time: null });
    expect(l.at(1).tables).to.equal(sets[1]);
    const big = l.at(2);
    expect(big).to.include({ start: 300, end: 300 + 3 * 1073741824, gtid: null, lastCommitted: null, incomplete: 'cut' });
    expect(big.sizes).to.deep.equal({ binlog: 2000, binlogAt: 300, query: 10, queryAt: 300, event: 2100, eventAt: 300 });
    expect(big.statements.map((x) => x.text)).to.deep.equal(['DROP TABLE shop.a']);
    expect(l.at(3)).to.equal(undefined);
  });

  it('what the plan changes is read after; filter, slice and pick give the same rows, not copies', function () {
    const s = planTransactions.create(['binlog.000001'], sets);
    for (let n = 1; n <= 40000; n++) s.push(row({ start: n * 10, end: n * 10 + 10, gtid: n % 2 ? `${U}:${n}` : null }));
    const l = s.list();
    l.set(1, 'gtid', 'aaaaaaaa-0000-0000-0000-000000000001:1');
    l.set(1, 'tablesAt', l.tablesIndex(['shop.a', 'shop.b']));
    l.set(1, 'texts', { 30: 'x' });
    const odd = l.filter((t) => t.gtid !== null && t.gtid.startsWith(U));
    expect(odd.length).to.equal(20000);
    expect(odd.at(19999)).to.include({ start: 399990, gtid: `${U}:39999` });
    const picked = l.pick([1, 39999]);
    expect(picked.map((t) => t.gtid)).to.deep.equal(['aaaaaaaa-0000-0000-0000-000000000001:1', null]);
    expect(picked.at(0).tables).to.deep.equal(['shop.a', 'shop.b']);
    expect(picked.at(0).texts).to.deep.equal({ 30: 'x' });
    picked.set(1, 'idempotent', true);
    expect(l.at(39999).idempotent).to.equal(true);
    expect(l.slice(-2).map((t) => t.start)).to.deep.equal([399990, 400000]);
    expect(l.slice(5, 7).map((t, k) => [k, t.start])).to.deep.equal([[0, 60], [1, 70]]);
    expect(l.some((t) => t.start === 400000)).to.equal(true);
    expect(l.every((t) => t.start > 10)).to.equal(false);
  });
});
