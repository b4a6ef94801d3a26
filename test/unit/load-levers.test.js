'use strict';
// The levers of a built-in preset chosen from the dump's figures (lib/run/load-levers.js): which
// value each gets, and the plan line with the figures behind it.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { chooseLevers } = require('../../lib/run/load-levers');
const { recordedTableBytes } = require('../../lib/dump/dump-model');

const MiB = 1024 * 1024;
const STATS = { innodb_stats_persistent: 'ON', innodb_stats_auto_recalc: 'ON', innodb_stats_persistent_sample_pages: '20',
  innodb_page_size: '16384' };

// A dump whose @.done.json records these bytes per table of schema s.
function host(bytes, variables = STATS) {
  const tableDataBytes = { s: bytes };
  return fakeHost({ files: { '/d/@.json': JSON.stringify({ dumper: 'mysqlsh Ver 9.1.0', version: '2.0.1', schemas: ['s'] }),
    '/d/@.done.json': JSON.stringify({ dataBytes: Object.values(bytes).reduce((a, b) => a + b, 0), tableDataBytes }) }, variables });
}
const tables = (names) => names.map((t) => ({ schema: 's', dumpSchema: 's', table: t }));
const FASTEST = { preset: { name: 'fastest', source: 'built-in' }, explicit: {}, lo: { deferTableIndexes: 'all' }, own: { analyze: 'on' } };
const choose = (h, names, p = {}) => chooseLevers(h, Object.assign({ tableBytes: () => recordedTableBytes(h, '/d', null), tables: tables(names) },
  FASTEST, p));

describe('restore.load levers chosen from the dump (lib/run/load-levers.js)', function () {
  it('small tables only: util.loadDump\'s default deferral, no ANALYZE, each with its figures', function () {
    const r = choose(host({ a: 600, b: 700 }), ['a', 'b']);
    expect(r.loadOptions).to.deep.equal({ deferTableIndexes: 'fulltext' });
    expect(r.analyzeTables).to.deep.equal([]);
    expect(r.lines[0]).to.equal('Indexes deferred: fulltext (util.loadDump\'s default), not the preset\'s all: 0 tables of at least ' +
      '32.0 MiB hold 0 B of the 1.3 KiB of data; 2 smaller tables (the largest: s.b, 700 B); one ALTER TABLE per table after its ' +
      'rows would cost more than it saves');
    expect(r.lines[1]).to.match(/^Analyze after the load: 0 of 2 tables \(preset fastest\), those with at least 320\.0 KiB .* the 2 smaller/);
  });

  it('the bytes in big tables: every index deferred; ANALYZE of the tables above the statistics sample', function () {
    const r = choose(host({ big: 200 * MiB, mid: 1 * MiB, tiny: 10 }), ['big', 'mid', 'tiny']);
    expect(r.loadOptions).to.deep.equal({});
    expect(r.lines[0]).to.match(/^Indexes deferred: all \(preset fastest\): 1 table of at least 32\.0 MiB holds 200\.0 MiB of the 201\.0 MiB/);
    expect(r.analyzeTables.map((t) => t.table)).to.deep.equal(['big', 'mid']);
  });

  it('one big table among many small ones: the small tables\' ALTERs outweigh it', function () {
    const bytes = { big: 40 * MiB };
    for (let i = 0; i < 50; i++) bytes[`t${i}`] = 100;
    expect(choose(host(bytes), Object.keys(bytes)).loadOptions).to.deep.equal({ deferTableIndexes: 'fulltext' });
  });

  it('1,000 smaller tables or more: twice the preset\'s threads (their DDL waits on the disk); fewer, or threads given: as they are', function () {
    const small = (n) => { const b = {}; for (let i = 0; i < n; i++) b[`t${i}`] = 640; return b; };
    const lo = { deferTableIndexes: 'all', threads: 4 };
    const many = small(1000);
    const r = choose(host(many), Object.keys(many), { lo });
    expect(r.loadOptions).to.deep.equal({ deferTableIndexes: 'fulltext', threads: 8 });
    expect(r.lines[1]).to.equal('Threads: 8, twice the preset\'s 4: 1000 tables smaller than 32.0 MiB (at least 1000), each one ' +
      'CREATE TABLE that waits on the disk more than on the CPUs');
    const fewer = small(999);
    expect(choose(host(fewer), Object.keys(fewer), { lo }).loadOptions).to.deep.equal({ deferTableIndexes: 'fulltext' });
    expect(choose(host(many), Object.keys(many), { lo, explicit: { threads: 4 } }).loadOptions).to.deep.equal({ deferTableIndexes: 'fulltext' });
    const heavy = Object.assign(small(1000), { big: 2000 * MiB });
    expect(choose(host(heavy), Object.keys(heavy), { lo }).loadOptions).to.deep.equal({});
    // dev: no threads of its own (util.loadDump's 4, the redo log on): as they are. Without DDL: none.
    const dev = choose(host(many), Object.keys(many), { preset: { name: 'dev', source: 'built-in' }, lo: {} });
    expect(dev.loadOptions).to.deep.equal({});
    expect(choose(host(many), Object.keys(many), { lo: { deferTableIndexes: 'all', threads: 4, loadDdl: false } }).loadOptions)
      .to.deep.equal({ deferTableIndexes: 'fulltext' });
  });

  it('explicit options and statistics off: left as they are, every table analyzed', function () {
    const h = host({ a: 600 });
    expect(choose(h, ['a'], { explicit: { deferTableIndexes: 'all', analyze: 'on' } })).to.deep.equal({ loadOptions: {}, analyzeTables: null, lines: [] });
    expect(choose(h, ['a'], { preset: { name: 'mine', source: '/x/presets.json' } }).lines).to.deep.equal([]);
    const off = choose(host({ a: 600 }, Object.assign({}, STATS, { innodb_stats_auto_recalc: 'OFF' })), ['a']);
    expect(off.analyzeTables).to.equal(null);
    expect(off.lines[1]).to.equal('Analyze after the load: every table (preset fastest): innodb_stats_persistent is ON, ' +
      'innodb_stats_auto_recalc OFF on this server');
  });

  it('no recorded size: the preset\'s levers kept, and the plan says why', function () {
    const h = fakeHost({ files: { '/d/@.json': JSON.stringify({ dumper: 'mysqlsh Ver 9.1.0', version: '2.0.1', schemas: ['s'] }) }, variables: STATS });
    const r = choose(h, ['a']);
    expect([r.loadOptions, r.analyzeTables]).to.deep.equal([{}, null]);
    expect(r.lines).to.deep.equal(['Levers of preset fastest kept as they are: @.done.json records no data size for some loaded tables']);
  });
});
