'use strict';
// Many small tables (issue 44): a real dump (util.dumpSchemas) of a few hundred tiny tables with
// secondary indexes, loaded with --preset=fastest. The plan says why each of the preset's levers
// is pulled or not (figures from the dump and the server); the text report lists the largest tables
// and the totals, not one line per table; the returned dictionary keeps every table.
const path = require('path');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { mysqlsh, cli, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { serverFingerprint } = require('../support/fingerprint');

const TABLES = 300;
const SCHEMA = 'many_small';

describe('restore load of a few hundred small tables (real Shell, real MySQL)', function () {
  let server;
  let dump;
  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(120000);
    server = suiteServer();
    const sql = [`DROP SCHEMA IF EXISTS ${SCHEMA}`, `CREATE SCHEMA ${SCHEMA}`];
    for (let i = 0; i < TABLES; i++) {
      const t = `${SCHEMA}.t${i}`;
      sql.push(`CREATE TABLE ${t} (id INT PRIMARY KEY, code VARCHAR(16), qty INT, KEY (code), KEY (qty))`);
      // Table i has i % 7 + 1 rows: t6 (7 rows) is among the largest, t0 (1 row) is not.
      const rows = [];
      for (let r = 1; r <= (i % 7) + 1; r++) rows.push(`(${r}, 'c${r}', ${r})`);
      sql.push(`INSERT INTO ${t} VALUES ${rows.join(', ')}`);
    }
    await server.query(sql.join(';\n'));
    dump = path.join(tempDir('restore-many-'), 'dump');
    const d = await withShellDumper(server, () => mysqlsh([server.uri, '--js', '-e',
      `util.dumpSchemas(['${SCHEMA}'], '${dump}', {showProgress: false})`], { env: DUMP_ENV }));
    expect(d.status, d.out).to.equal(0);
    await server.query(`DROP SCHEMA ${SCHEMA}`);
  });
  after(async function () {
    if (server) await server.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`);
  });

  it('fastest: levers chosen from the dump with their figures, the largest tables and the totals printed, every table returned',
    async function () {
      this.timeout(180000);
      const before = await serverFingerprint(server);
      const r = cli(server.uri, ['load', dump, '--preset=fastest', '--force']);
      expect(r.status, r.out).to.equal(0);
      // The plan: each lever with the figures behind it.
      expect(r.stdout).to.match(/Indexes deferred: fulltext \(util\.loadDump's default\), not the preset's all: 0 tables of at least 32\.0 MiB/);
      expect(r.stdout).to.match(new RegExp(`${TABLES} smaller tables \\(the largest: ${SCHEMA}\\.t\\d+, \\d+ B\\)`));
      expect(r.stdout).to.match(new RegExp(`Analyze after the load: 0 of ${TABLES} tables \\(preset fastest\\), those with at least ` +
        '320\\.0 KiB of data in the dump \\(innodb_stats_persistent_sample_pages 20 x innodb_page_size 16\\.0 KiB\\)'));
      expect(JSON.parse(/util\.loadDump options: (\{.*\})/.exec(r.stdout)[1]).deferTableIndexes).to.equal('fulltext');
      // The report: ten largest, the rest counted, the totals.
      expect(r.stdout).to.include(`Rows per table, the 10 largest of ${TABLES} (as loaded: util.loadDump's own count`);
      expect(r.stdout.match(new RegExp(`^\\s+${SCHEMA}\\.t\\d+\\s+7\\s+as loaded$`, 'gm'))).to.have.length(10);
      expect(r.stdout).to.include(`… and ${TABLES - 10} more table(s) (outputFormat json lists every table)`);
      const rows = Array.from({ length: TABLES }, (_, i) => (i % 7) + 1).reduce((a, b) => a + b, 0);
      // Tables this load created, changed by no later step: util.loadDump's count, no COUNT(*).
      expect(r.stdout).to.include(`Rows in all: ${rows} in ${TABLES} table(s) (${TABLES} as loaded)`);
      expect(r.stdout.split('\n').length).to.be.below(150);
      expect(Number(await server.value(`SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '${SCHEMA}' ` +
        "AND INDEX_NAME IN ('code', 'qty')"))).to.equal(TABLES * 2);
      // JSON: every table with its rows (the preset safe, without the levers: the report is the same for every preset).
      const j = cli(server.uri, ['load', dump, '--preset=safe', '--drop-existing', '--fresh-progress', '--force', '--output-format=json']);
      expect(j.status, j.out).to.equal(0);
      const report = JSON.parse(j.stdout);
      expect(report.tables).to.have.length(TABLES);
      expect(report.tables.reduce((n, t) => n + t.rows, 0)).to.equal(rows);
      expect(report.tables.filter((t) => t.source !== 'loaded')).to.deep.equal([]);
      await server.query(`DROP SCHEMA ${SCHEMA}`);
      expect(await serverFingerprint(server)).to.deep.equal(before);
    });
});
