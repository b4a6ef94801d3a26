'use strict';
// The report's rows per table (lib/server/row-counts.js): an exact COUNT(*) where a scan is cheap,
// InnoDB's estimate (exact: false) where it is not; a table the load has just analyzed has a
// fresh estimate and is scanned only up to 32 MiB; a table the dump records as small is counted
// without its statistics being read.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host');
const { tableRowCounts } = require('../../lib/server/row-counts');

const MiB = 1024 * 1024;
const TABLES = [{ name: 'small', est: '90', bytes: String(MiB) }, { name: 'mid', est: '1990000', bytes: String(100 * MiB) },
  { name: 'huge', est: '9000000', bytes: String(300 * MiB) }];

function host() {
  return fakeHost({ sql: [
    [/information_schema\.TABLES/, { rows: TABLES }],
    [/COUNT\(\*\)/, (sql) => ({ rows: [...sql.matchAll(/SELECT (\d+) AS k, COUNT\(\*\) AS n FROM `s`\.`(\w+)`/g)]
      .map((m) => ({ k: m[1], n: m[2] === 'small' ? 100 : 2000000 })) })],
  ] });
}
const t = (names) => names.map((n) => ({ schema: 's', table: n }));
const statsRead = (h) => h.log.filter((e) => e[0] === 'sql' && /TABLE_ROWS/.test(e[1])).map((e) => e[2].slice(1));
const counted = (h) => h.log.filter((e) => e[0] === 'sql' && /COUNT\(\*\)/.test(e[1])).map((e) => [...e[1].matchAll(/`s`\.`(\w+)`/g)].map((m) => m[1]));

describe('rows per table for the report (lib/server/row-counts.js)', function () {
  it('counts tables up to 256 MiB, estimates bigger ones', function () {
    const h = host();
    expect(tableRowCounts(h, t(['small', 'mid', 'huge', 'gone']))).to.deep.equal([
      { schema: 's', table: 'small', rows: 100, exact: true, source: 'counted' }, { schema: 's', table: 'mid', rows: 2000000, exact: true, source: 'counted' },
      { schema: 's', table: 'huge', rows: 9000000, exact: false, source: 'estimate' }, { schema: 's', table: 'gone', rows: null, exact: false, source: null }]);
    expect(counted(h)).to.deep.equal([['small', 'mid']]);
    expect(statsRead(h)).to.deep.equal([['small', 'mid', 'huge']]);
  });

  it('a table just analyzed: its fresh estimate above 32 MiB, no scan', function () {
    const h = host();
    expect(tableRowCounts(h, t(['small', 'mid', 'huge']), { analyzed: t(['small', 'mid']) })).to.deep.equal([
      { schema: 's', table: 'small', rows: 100, exact: true, source: 'counted' }, { schema: 's', table: 'mid', rows: 1990000, exact: false, source: 'estimate' },
      { schema: 's', table: 'huge', rows: 9000000, exact: false, source: 'estimate' }]);
    expect(counted(h)).to.deep.equal([['small']]);
  });

  it('tables the dump records as small: counted, no statistics read for them; the others as before', function () {
    const h = host();
    const recorded = { small: 900, mid: 120 * MiB };
    const tables = ['small', 'mid', 'huge'].map((n) => ({ schema: 's', dumpSchema: 'd', table: n }));
    expect(tableRowCounts(h, tables, { tableBytes: (s, n) => (s === 'd' && recorded[n] !== undefined ? recorded[n] : null) }))
      .to.deep.equal([{ schema: 's', table: 'small', rows: 100, exact: true, source: 'counted' }, { schema: 's', table: 'mid', rows: 2000000, exact: true, source: 'counted' },
        { schema: 's', table: 'huge', rows: 9000000, exact: false, source: 'estimate' }]);
    expect(statsRead(h)).to.deep.equal([['huge']]);
    expect(counted(h)).to.deep.equal([['small', 'mid']]);
  });

  it('a table whose rows util.loadDump\'s count gives: taken as loaded, neither counted nor its statistics read', function () {
    const h = host();
    const asLoaded = (schema, table) => (schema === 's' && table === 'mid' ? 1234 : null);
    expect(tableRowCounts(h, t(['small', 'mid', 'gone']), { asLoaded })).to.deep.equal([
      { schema: 's', table: 'small', rows: 100, exact: true, source: 'counted' },
      { schema: 's', table: 'mid', rows: 1234, exact: true, source: 'loaded' },
      { schema: 's', table: 'gone', rows: null, exact: false, source: null }]);
    expect(counted(h)).to.deep.equal([['small']]);
    expect(statsRead(h)).to.deep.equal([['small']]);
  });
});
