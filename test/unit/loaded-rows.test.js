'use strict';
// The report takes a table's rows from util.loadDump's progress file (lib/run/loaded-rows.js) only
// where they are the table's rows: the table created by this load, no later step changes it, one
// attempt in the file, every begun chunk done once, and no loaded row replaced another (the
// server's Innodb_rows_updated / Innodb_rows_deleted unchanged across util.loadDump).
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const loadedRows = require('../../lib/run/loaded-rows');

const line = (o) => JSON.stringify(o);
const data = (table, chunk, done, rows, more) => line({ op: 'TABLE-DATA', done, schema: 's', table, chunk, ...(done ? { rows } : {}), ...more });
const PROGRESS = [
  line({ op: 'SERVER-UUID', done: true, uuid: 'u' }),
  line({ op: 'TABLE-DDL', done: true, schema: 's', table: 'a' }),
  data('a', 0, false), data('a', 1, false), data('a', 0, true, 10), data('a', 1, true, 5),
  data('p', 0, false, 0, { partition: 'p0' }), data('p', 0, false, 0, { partition: 'p1' }),
  data('p', 0, true, 2, { partition: 'p0' }), data('p', 0, true, 3, { partition: 'p1' }),
  data('open', 0, false), data('open', 1, false), data('open', 0, true, 7),
  line({ op: 'TABLE-DATA-BULK', done: true, schema: 's', table: 'bulk', chunk: 0, rows: 4 }),
  line({ op: 'TABLE-SUB-DATA', done: true, schema: 's', table: 'a', chunk: 0, subchunk: 0 }),
].join('\n') + '\n';

describe('rows as util.loadDump loaded them (lib/run/loaded-rows.js)', function () {
  it('sums each table\'s done chunks (partitions too); a table with a chunk begun and not done, or loaded by BULK LOAD, is left out', function () {
    const m = loadedRows.loadedByTable(PROGRESS);
    expect([...m.entries()]).to.deep.equal([[JSON.stringify(['s', 'a']), 15], [JSON.stringify(['s', 'p']), 5]]);
  });

  it('a file holding two attempts (a blank line between them: a resumed load) gives nothing', function () {
    expect(loadedRows.loadedByTable(PROGRESS + '\n' + data('a', 0, true, 10) + '\n')).to.equal(null);
  });

  it('a batched load (lib/run/load-batches.js): as many blank lines as its calls less one, no more', function () {
    const batched = PROGRESS + '\n' + data('b', 0, false) + '\n' + data('b', 0, true, 4) + '\n\n' + data('c', 0, true, 1) + '\n';
    expect(loadedRows.loadedByTable(batched, 3).get(JSON.stringify(['s', 'b']))).to.equal(4);
    expect(loadedRows.loadedByTable(batched, 2)).to.equal(null);
    expect(loadedRows.loadedByTable('\n' + batched, 3)).to.equal(null);
  });

  it('a chunk done twice is not counted twice: the table is left out', function () {
    const m = loadedRows.loadedByTable(PROGRESS + data('a', 1, true, 5) + '\n');
    expect(m.has(JSON.stringify(['s', 'a']))).to.equal(false);
  });

  const plan = (afterLoad, lo) => ({ loadDumpOptions: { progressFile: '/state/p.json', ...lo }, snapshot: { ownership: { afterLoad } } });
  const fresh = { all: null, counted: {} };
  function run(p, status, { bump } = {}) {
    const host = fakeHost({ files: { '/state/p.json': PROGRESS }, status, sql: [[/global_status/, () => ({ rows: [
      { n: 'Innodb_rows_updated', v: String(status.updated) }, { n: 'Innodb_rows_deleted', v: String(status.deleted) }] })]] });
    const was = loadedRows.before(host, p);
    if (bump) status[bump] += 1;
    return loadedRows.measure(host, p, was);
  }

  it('a fresh table no later step changes: its rows as loaded; the others (changed after, on the server before) null', function () {
    const afterLoad = { all: null, counted: { [JSON.stringify(['s', 'p'])]: 'mask changes it after the load' } };
    const asLoaded = run(plan(afterLoad), { updated: 3, deleted: 1 });
    expect([asLoaded('s', 'a'), asLoaded('s', 'p'), asLoaded('s', 'open'), asLoaded('s', 'bulk'), asLoaded('s', 'none')])
      .to.deep.equal([15, null, null, null, null]);
  });

  it('every table counted: a row replaced or changed while util.loadDump ran, a resumed load or a replay, no local progress file', function () {
    expect(run(plan(fresh), { updated: 0, deleted: 0 }, { bump: 'updated' })).to.equal(null);
    expect(run(plan(fresh), { updated: 0, deleted: 0 }, { bump: 'deleted' })).to.equal(null);
    expect(run(plan({ all: 'this load resumes an earlier attempt', counted: {} }), { updated: 0, deleted: 0 })('s', 'a')).to.equal(null);
    expect(run(plan(fresh, { progressFile: '' }), { updated: 0, deleted: 0 })).to.equal(null);
    expect(run(plan(fresh, { s3BucketName: 'b' }), { updated: 0, deleted: 0 })).to.equal(null);
    expect(run(plan(fresh), { updated: 0, deleted: 0 })('s', 'a')).to.equal(15);
  });
});
