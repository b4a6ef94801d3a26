'use strict';
// since (issue 38): "the rows at or after a point", exact, from dumps made by the real
// util.dumpSchemas (many small chunks, with and without checksum: true; an auto-increment key
// whose created_at grows with it, a composite key with the time first), loaded from a local
// directory, a read-only one and a backup host (ssh, rsync daemon). What is expected is asked of
// the source tables on the same server: SELECT … WHERE col >= since. The plan's heads read are
// checked against ceil(log2(chunks)) + 2.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { skipBecause } = require('../support/real');
const { cli, tempDir, installPlugin } = require('../support/shell');
const { snapshotFixture } = require('../support/snapshot-fixture');
const { DATA_FILE } = require('../support/dump-facts');
const { formatBytes } = require('../../lib/format/text-table');
const { remoteMissing, startSshHost, startRsyncDaemon } = require('../support/remote-host');

const SRC = 'since_src';
const ROWS = 12000;

// orders: id grows with created_at (several orders in the same minute at chunk edges), ts/d/ep the
// same time as TIMESTAMP, DATE and epoch seconds; events: the time leads the key; notes: a time
// that goes down as the key grows; customers: what orders reference (a foreign key); fixed (issue
// 42): chunked by id, 100 rows of its early chunks later corrected to a recent created_at.
const SEED = `
CREATE SCHEMA ${SRC};
CREATE TABLE ${SRC}.customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL);
CREATE TABLE ${SRC}.orders (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id INT NOT NULL, created_at DATETIME NOT NULL,
  ts TIMESTAMP NULL, d DATE NULL, ep BIGINT NULL, note VARCHAR(60),
  CONSTRAINT orders_customer FOREIGN KEY (customer_id) REFERENCES customers (id));
CREATE TABLE ${SRC}.events (at DATETIME NOT NULL, seq INT NOT NULL, payload VARCHAR(60), PRIMARY KEY (at, seq));
CREATE TABLE ${SRC}.notes (id INT PRIMARY KEY, created_at DATETIME NOT NULL, body VARCHAR(60));
CREATE TABLE ${SRC}.fixed (id INT AUTO_INCREMENT PRIMARY KEY, created_at DATETIME NOT NULL, body VARCHAR(60));
SET SESSION cte_max_recursion_depth = 100000;
INSERT INTO ${SRC}.customers WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 20000)
  SELECT n, CONCAT('customer number ', n) FROM s;
INSERT INTO ${SRC}.orders (customer_id, created_at, ts, d, ep, note)
  WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
  SELECT 1 + (n * 7) % 20000, TIMESTAMP('2026-08-01') + INTERVAL (n DIV 3) * 29 MINUTE,
    TIMESTAMP('2026-08-01') + INTERVAL (n DIV 3) * 29 MINUTE, DATE(TIMESTAMP('2026-08-01') + INTERVAL (n DIV 3) * 29 MINUTE),
    UNIX_TIMESTAMP(TIMESTAMP('2026-08-01') + INTERVAL (n DIV 3) * 29 MINUTE), CONCAT('order number ', n, ' with some text') FROM s;
INSERT INTO ${SRC}.events WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
  SELECT TIMESTAMP('2026-08-01') + INTERVAL (n DIV 2) * 11 MINUTE, n % 2, CONCAT('event payload ', n) FROM s;
INSERT INTO ${SRC}.notes WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
  SELECT n, TIMESTAMP('2026-12-01') - INTERVAL n * 13 MINUTE, CONCAT('note body text ', n) FROM s;
INSERT INTO ${SRC}.fixed (created_at, body) WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < ${ROWS})
  SELECT TIMESTAMP('2026-08-01') + INTERVAL n * 10 MINUTE, CONCAT('fixed row body ', n) FROM s;
UPDATE ${SRC}.fixed SET created_at = TIMESTAMP('2026-11-20') + INTERVAL id SECOND WHERE id <= 3000 AND id % 30 = 7;
ANALYZE TABLE ${SRC}.customers, ${SRC}.orders, ${SRC}.events, ${SRC}.notes, ${SRC}.fixed;
`;

function ceilLog2(n) { let k = 0; while (2 ** k < n) k++; return k; }

function chunkCount(dir, base) {
  return fs.readdirSync(dir).filter((f) => f.startsWith(base + '@') && DATA_FILE.test(f)).length;
}

describe('since: the rows at or after a point, exact (real Shell, real MySQL)', function () {
  this.timeout(600000);
  const fx = snapshotFixture([{ schema: SRC, seed: SEED, variants: { plain: {}, sums: { checksum: true } } }]);
  const dumps = fx.dumps;
  const target = fx.target;
  let server;
  before(function () {
    server = fx.server;
    // Many chunks: the bisection has something to do.
    expect(chunkCount(dumps.plain, `${SRC}@orders`)).to.be.above(8);
    expect(chunkCount(dumps.plain, `${SRC}@events`)).to.be.above(8);
  });

  async function ids(sql) { return (await server.query(sql)).map((r) => String(Object.values(r)[0])).sort(); }

  // The loaded table equals the source's rows at or after the point (whole rows, not only keys).
  async function expectSlice(schema, table, key, where) {
    const want = await ids(`SELECT CONCAT_WS('|', ${key}) AS k FROM ${SRC}.${table} WHERE ${where}`);
    const got = await ids(`SELECT CONCAT_WS('|', ${key}) AS k FROM ${schema}.${table}`);
    expect(got.length, `${table} WHERE ${where}`).to.be.above(0);
    expect(got.length, `${table} WHERE ${where}`).to.be.below(ROWS);
    expect(got).to.deep.equal(want);
    const cols = (await server.query('SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND ' +
      'TABLE_NAME = ?', [SRC, table])).map((r) => r.c);
    const same = Number(await server.value(`SELECT COUNT(*) FROM ${schema}.${table} t JOIN ${SRC}.${table} s USING (${key}) WHERE ` +
      cols.map((c) => `t.${c} <=> s.${c}`).join(' AND ')));
    expect(same, `${table}: rows equal to the source`).to.equal(got.length);
    return got.length;
  }

  // The plan's line "… N head(s) read (at most M)" for a table, checked against the chunks.
  function headsRead(out, dir, table) {
    const m = new RegExp(`since ${SRC}\\.${table}\\.[^\\n]*\\n[^\\n]*\\n\\s+found by (?:bisection over the chunks' first rows: (\\d+) ` +
      `head\\(s\\) read \\(at most (\\d+)\\)|the key ranges of @\\.checksums\\.json)`).exec(out);
    expect(m, out).to.not.equal(null);
    if (m[1] === undefined) return 0;
    const n = chunkCount(dir, `${SRC}@${table}`);
    expect(Number(m[2])).to.equal(ceilLog2(n) + 2);
    expect(Number(m[1])).to.be.at.most(ceilLog2(n) + 2);
    return Number(m[1]);
  }

  it('local dump: a DATETIME growing with the key and a time-first composite key in one load, latest on a third table, ' +
    'orphans "parents" completing the slice', async function () {
    const s = target('since_a');
    const r = cli(server.uri, ['load', dumps.plain, `--schema=${s}`, '--since=since_src.orders.created_at:2026-09-20 10:00:00,' +
      'since_src.events.at:2026-09-01 12:00', '--since-scan', '--latest=since_src.customers:1', '--orphans=parents',
    '--exclude-tables=since_src.notes,since_src.fixed']);
    expect(r.status, r.out).to.equal(0);
    const orders = await expectSlice(s, 'orders', 'id', "created_at >= '2026-09-20 10:00:00'");
    await expectSlice(s, 'events', 'at, seq', "at >= '2026-09-01 12:00:00'");
    // created_at does not lead the key (id): sinceScan loads every chunk; at leads events' key: bisection.
    expect(r.out).to.include(`created_at does not lead the chunking key (id): sinceScan: every chunk loads ` +
      `(${chunkCount(dumps.plain, `${SRC}@orders`)} chunk file(s), `);
    expect(headsRead(r.out, dumps.plain, 'events')).to.be.above(0);
    expect(r.out).to.match(/exact: restore\.load deletes the rows before the point \(or NULL\) after the load \(only chunk \d+ can hold/);
    expect(r.out, r.out).to.match(/Parents added: [1-9]\d* row\(s\)/);
    expect(r.out).to.match(new RegExp(`since: \\d+ row\\(s\\) of ${s}\\.orders before 2026-09-20 10:00:00 removed \\(the DELETE covered the whole table, which held no row before the load; ` +
      'every chunk loaded: sinceScan\\)'));
    // Every order's customer is there: parents completed the slice.
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${s}.orders o LEFT JOIN ${s}.customers c ON c.id = o.customer_id ` +
      'WHERE c.id IS NULL'))).to.equal(0);
    expect(Number(await server.value(`SELECT COUNT(DISTINCT customer_id) FROM ${s}.orders`))).to.be.at.most(
      Number(await server.value(`SELECT COUNT(*) FROM ${s}.customers`)));
    expect(orders).to.be.above(100);
  });

  it('read-only dump with checksums: key ranges instead of heads; TIMESTAMP from a duration counted back from the ' +
    'dump\'s time (sinceScan: every chunk); sinceExact: false keeps the boundary chunk whole', async function () {
    const ro = dumps.sums;
    fs.chmodSync(ro, 0o555);
    try {
      const s = target('since_b');
      const begin = JSON.parse(fs.readFileSync(path.join(ro, '@.json'), 'utf8')).begin;
      // The source rows end in 2026-08-01 + 4000 * 29 min; the dump's time is today: a duration reaching into the rows.
      const days = Math.ceil((Date.parse(begin.replace(' ', 'T') + 'Z') - Date.parse('2026-09-25T00:00:00Z')) / 86400000);
      const point = new Date(Date.parse(begin.replace(' ', 'T') + 'Z') - days * 86400000).toISOString().replace('T', ' ').slice(0, 19);
      const r = cli(server.uri, ['load', ro, `--schema=${s}`, `--since=since_src.orders.ts:${days} days,since_src.events.at:2026-09-03`,
        '--since-scan', '--exclude-tables=since_src.notes,since_src.fixed']);
      expect(r.status, r.out).to.equal(0);
      expect(r.out).to.include(`(${days} days before the dump's time ${begin} (@.json begin); TIMESTAMP values are in UTC`);
      await expectSlice(s, 'orders', 'id', `ts >= '${point}'`);
      await expectSlice(s, 'events', 'at, seq', "at >= '2026-09-03 00:00:00'");
      expect(headsRead(r.out, ro, 'events')).to.equal(0); // the time leads the key: @.checksums.json says
      expect(r.out).to.include('ts does not lead the chunking key (id): sinceScan: every chunk loads'); // no head read
      const t = target('since_c');
      const r2 = cli(server.uri, ['load', ro, `--schema=${t}`, '--since=since_src.orders.id:7777', '--since-exact=false',
        '--include-tables=since_src.orders,since_src.customers']);
      expect(r2.status, r2.out).to.equal(0);
      expect(headsRead(r2.out, ro, 'orders')).to.equal(0); // the key itself: @.checksums.json
      expect(r2.out).to.include('sinceExact: false: the rows of chunk');
      expect(r2.out).to.match(/since with sinceExact: false: the boundary chunk\(s\) loaded whole, their rows before the point kept \(since_src\.orders chunk \d+, before 7777\)/);
      const loaded = await ids(`SELECT id FROM ${t}.orders`);
      const wanted = await ids(`SELECT id FROM ${SRC}.orders WHERE id >= 7777`);
      // Whole chunks: every wanted row, plus the boundary chunk's older ones, all below the point.
      expect(wanted.every((x) => loaded.includes(x))).to.equal(true);
      expect(loaded.length).to.be.above(wanted.length);
    } finally {
      fs.chmodSync(ro, 0o755);
    }
  });

  it('DATE and epoch columns, exact (sinceScan); first rows going down refused naming the chunks, even approximate; ' +
    'an unknown column or a value that does not parse refused before anything changes', async function () {
    const s = target('since_d');
    const r = cli(server.uri, ['load', dumps.plain, `--schema=${s}`, '--since=since_src.orders.d:2026-10-01', '--since-scan',
      '--include-tables=since_src.orders,since_src.customers']);
    expect(r.status, r.out).to.equal(0);
    await expectSlice(s, 'orders', 'id', "d >= '2026-10-01'");
    const e = target('since_e');
    const epoch = String(Date.parse('2026-09-12T07:00:00Z') / 1000);
    const r2 = cli(server.uri, ['load', dumps.plain, `--schema=${e}`, `--since=since_src.orders.ep:${epoch}`, '--since-scan',
      '--include-tables=since_src.orders,since_src.customers']);
    expect(r2.status, r2.out).to.equal(0);
    await expectSlice(e, 'orders', 'id', `ep >= ${epoch}`);

    const refused = cli(server.uri, ['plan', dumps.plain, '--since=since_src.notes.created_at:2026-09-01', '--since-exact=false']);
    expect(refused.status, refused.out).to.equal(1);
    expect(refused.out).to.match(/created_at`? does not grow with the key of since_src\.notes: chunk \d+ starts at [-\d: ]+, lower than chunk \d+/);
    expect(refused.out).to.include('not even approximately. Pass sinceScan: true');
    const scanned = cli(server.uri, ['plan', dumps.plain, '--since=since_src.notes.created_at:2026-09-01', '--since-scan']);
    expect(scanned.status, scanned.out).to.equal(0);
    const n = chunkCount(dumps.plain, `${SRC}@notes`);
    expect(scanned.out).to.include(`sinceScan: every chunk loads (${n} chunk file(s), `);

    const before = await server.query('SHOW DATABASES');
    const typo = cli(server.uri, ['load', dumps.plain, '--schema=since_f', '--since=since_src.orders.created:30d']);
    expect(typo.status, typo.out).to.equal(1);
    expect(typo.out).to.include('did you mean since_src.orders.created_at?');
    const bad = cli(server.uri, ['load', dumps.plain, '--schema=since_f', '--since=since_src.orders.created_at:last month']);
    expect(bad.status, bad.out).to.equal(1);
    expect(bad.out).to.match(/"last month" (does not parse|has an unknown unit)/);
    expect(await server.query('SHOW DATABASES')).to.deep.equal(before);
  });

  // Issue 42: the rows a since on fixed.created_at asks for, and a checksum of them, from the source.
  const POINT = '2026-10-01 00:00:00';
  const sliceOf = (schema, where) => `SELECT COUNT(*) AS n, BIT_XOR(CRC32(CONCAT_WS('|', id, created_at, body))) AS sum ` +
    `FROM ${schema}.fixed${where ? ' WHERE ' + where : ''}`;

  it('a column not leading the chunking key, rows of early chunks corrected later: refused by default with the reason and ' +
    'both ways out, nothing changed; sinceScan loads exactly the rows asked for; sinceExact: false loads and says approximate',
  async function () {
    const wanted = (await server.query(sliceOf(SRC, `created_at >= '${POINT}'`)))[0];
    const corrected = Number(await server.value(`SELECT COUNT(*) FROM ${SRC}.fixed WHERE id <= 3000 AND created_at >= '${POINT}'`));
    expect(corrected).to.equal(100);
    const n = chunkCount(dumps.plain, `${SRC}@fixed`);
    expect(n).to.be.above(2);
    const only = ['--include-tables=since_src.fixed', `--since=since_src.fixed.created_at:${POINT}`];

    const before = await server.query('SHOW DATABASES');
    const refused = cli(server.uri, ['load', dumps.plain, '--schema=since_fx0', ...only]);
    expect(refused.status, refused.out).to.equal(1);
    expect(refused.out).to.include('created_at does not lead the chunking key of since_src.fixed (id: the table JSON\'s primaryIndex)');
    expect(refused.out).to.include(`a row of an earlier chunk may hold a value at or after ${POINT}`);
    // The cost named is what the dump's @.done.json records for the table's chunk files.
    const done = JSON.parse(fs.readFileSync(path.join(dumps.plain, '@.done.json'), 'utf8'));
    const bytes = Object.entries(done.chunkFileBytes).filter(([f]) => f.startsWith(`${SRC}@fixed@`)).reduce((a, [, b]) => a + b, 0);
    expect(refused.out).to.include(`sinceScan: true reads every chunk (${n} chunk file(s), ${formatBytes(bytes)} uncompressed as ` +
      '@.done.json records, read and loaded)');
    expect(refused.out).to.include('sinceExact: false loads the chunks from the one their first rows point at: approximate');
    expect(refused.out).to.include('Nothing was changed.');
    expect(await server.query('SHOW DATABASES')).to.deep.equal(before);
    const json = cli(server.uri, ['plan', dumps.plain, ...only, '--output-format=json']);
    expect(json.status, json.out).to.equal(1);
    expect(JSON.parse(json.stdout || json.out).error).to.include({ code: 'SINCE_UNSUITED' });

    const s = target('since_fx1');
    const exact = cli(server.uri, ['load', dumps.plain, `--schema=${s}`, ...only, '--since-scan']);
    expect(exact.status, exact.out).to.equal(0);
    const got = (await server.query(sliceOf(s)))[0];
    expect([String(got.n), String(got.sum)]).to.deep.equal([String(wanted.n), String(wanted.sum)]);
    expect(exact.out).to.include(`created_at does not lead the chunking key (id): sinceScan: every chunk loads (${n} chunk file(s), `);
    // The rows removed: what every chunk held before the point, as the source says.
    const older = Number(await server.value(`SELECT COUNT(*) FROM ${SRC}.fixed WHERE created_at < '${POINT}'`));
    expect(exact.out).to.include(`since: ${older} row(s) of ${s}.fixed before ${POINT} removed (the DELETE covered the whole table, which ` +
      'held no row before the load; every chunk loaded: sinceScan).');

    const a = target('since_fx2');
    const approx = cli(server.uri, ['load', dumps.plain, `--schema=${a}`, ...only, '--since-exact=false']);
    expect(approx.status, approx.out).to.equal(0);
    const m = /the first rows place the point in chunk (\d+) of (\d+)/.exec(approx.out);
    expect(m, approx.out).to.not.equal(null);
    expect(Number(m[2])).to.equal(n);
    expect(approx.out).to.include(`APPROXIMATE (sinceExact: false): rows at or after the point in chunks before ${m[1]} are not loaded; ` +
      'rows before the point in the chunks that load are kept');
    expect(approx.out).to.include(`since APPROXIMATE (sinceExact: false): since_src.fixed: created_at does not lead the chunking key; ` +
      `chunks ${m[1]}-${n - 1} of ${n} loaded whole with their rows before ${POINT}; rows at or after it in chunks before ${m[1]} ` +
      '(not read) are not loaded.');
    // What it says may be missing is missing: the corrected rows of the early chunks; nothing else asked for.
    const missing = Number(await server.value(`SELECT COUNT(*) FROM ${SRC}.fixed s LEFT JOIN ${a}.fixed t USING (id) ` +
      `WHERE s.created_at >= '${POINT}' AND t.id IS NULL`));
    expect(missing).to.equal(corrected);
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${a}.fixed WHERE created_at < '${POINT}'`))).to.be.above(0);

    // A point after the last key: the last chunk loads and the trim deletes all of it; said as that.
    const e = target('since_fx3');
    const after = cli(server.uri, ['load', dumps.plain, `--schema=${e}`, '--include-tables=since_src.fixed', '--since=since_src.fixed.id:99999']);
    expect(after.status, after.out).to.equal(0);
    expect(Number(await server.value(`SELECT COUNT(*) FROM ${e}.fixed`))).to.equal(0);
    const last = /since: (\d+) row\(s\) of since_fx3\.fixed before 99999 removed \(the DELETE covered the whole table, which held no row before the load; boundary chunk (\d+)\)\./.exec(after.out);
    expect(last, after.out).to.not.equal(null);
    expect(Number(last[2])).to.equal(n - 1);
    expect(after.out).to.include(`No rows left: the steps after util.loadDump deleted every row it loaded (since's trim ${last[1]} row(s)).`);
    expect(after.out).to.not.include('No data loaded');
  });

  describe('from a backup host', function () {
    let ssh;
    let daemon;
    before(async function () {
      const why = remoteMissing();
      if (why) skipBecause(this, why);
      ssh = await startSshHost();
      daemon = await startRsyncDaemon({ dumps: path.dirname(dumps.plain) });
    });
    after(async function () {
      if (ssh) await ssh.stop();
      if (daemon) await daemon.stop();
    });

    function cached(home) {
      const root = path.join(home, 'restore', 'cache');
      const dir = path.join(root, fs.readdirSync(root).filter((d) => d !== 'folders')[0]);
      return fs.readdirSync(dir).filter((f) => f.startsWith(`${SRC}@orders@`) && DATA_FILE.test(f));
    }

    it('over ssh: heads read there (head -c), only the chunks from the boundary on fetched', async function () {
      const home = installPlugin(tempDir('restore-cfg-'));
      const s = target('since_g');
      const r = cli(server.uri, ['load', `root@127.0.0.1:${dumps.plain}`, `--rsh=${ssh.rsh}`, `--schema=${s}`,
        '--since=since_src.orders.id:7777', '--include-tables=since_src.orders,since_src.customers'],
      { configHome: home });
      expect(r.status, r.out).to.equal(0);
      await expectSlice(s, 'orders', 'id', 'id >= 7777');
      const heads = headsRead(r.out, dumps.plain, 'orders');
      expect(r.out).to.include(`Chunk heads read on the backup host over ssh (head -c): ${heads} file(s)`);
      const m = /the point falls in chunk (\d+) of (\d+)[^\n]*; (\d+) chunk\(s\) load/.exec(r.out);
      // The cache holds exactly the chunks from the boundary on: the heads crossed without their files.
      expect(cached(home).length).to.equal(Number(m[3]));
      expect(Number(m[1]) + Number(m[3])).to.equal(Number(m[2]));
    });

    it('from an rsync daemon: the probed chunks fetched whole, then the chunks from the boundary on', async function () {
      const home = installPlugin(tempDir('restore-cfg-'));
      const s = target('since_h');
      const r = cli(server.uri, ['load', `rsync://127.0.0.1:${daemon.port}/dumps/plain`, `--schema=${s}`,
        '--since=since_src.orders.id:7777', '--include-tables=since_src.orders,since_src.customers'],
      { configHome: home });
      expect(r.status, r.out).to.equal(0);
      await expectSlice(s, 'orders', 'id', 'id >= 7777');
      const heads = headsRead(r.out, dumps.plain, 'orders');
      const probe = new RegExp(`Chunk heads from the rsync daemon: ${heads} probed chunk file\\(s\\), fetched whole into the cache ` +
        `\\(${heads} transferred\\)`);
      expect(r.out).to.match(probe);
      const m = /the point falls in chunk (\d+) of (\d+)[^\n]*; (\d+) chunk\(s\) load/.exec(r.out);
      const f = /Fetched (\d+) data file\(s\) from [^(]*\((\d+) transferred, (\d+) already in the cache\)/.exec(r.out);
      // customers (1 chunk or more) + the orders chunks from the boundary on; the probed ones among them were there already.
      const customers = chunkCount(dumps.plain, `${SRC}@customers`);
      expect(Number(f[1])).to.equal(customers + Number(m[3]));
      expect(Number(f[2]) + Number(f[3])).to.equal(Number(f[1]));
      expect(cached(home).length).to.be.at.most(Number(m[3]) + heads);
    });
  });
});
