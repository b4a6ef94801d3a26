'use strict';
// restore binlogs against the real Shell and the binary logs of a real server with GTIDs: the
// per-table counts are what the test did (and what the bundle's mysqlbinlog -v decodes), the
// DROP TABLE "mistake" is found with the GTID and position SHOW BINLOG EVENTS gives, and
// since/until narrow the report.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { startServer, copyBinlogs } = require('../support/server');
const { cli, tempDir } = require('../support/shell');
const { needs } = require('../support/real');

function json(r) {
  expect(r.status, r.out).to.equal(0);
  return JSON.parse(r.stdout);
}

describe('restore binlogs: a preview of real binary logs', function () {
  this.timeout(120000);
  let server;
  let folder;
  let beforeDrop; // the server's time just before the DROP, local and UTC
  let dropGtid;
  let dropPos;
  let bigDelete; // rows of orders the last DELETE removes, counted by the server
  const ORDERS_BIG = 1500;

  before(async function () {
    needs(this, ['server', 'shell']);
    // A time zone other than the machine's UTC: a time without an offset must be read in the server's.
    server = await startServer({ opts: '--gtid-mode=ON --enforce-gtid-consistency=ON --default-time-zone=+02:00' });
    const q = (sql) => server.query(sql);
    await q('FLUSH BINARY LOGS');
    await q('CREATE DATABASE shop');
    await q('CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(300))');
    await q('CREATE TABLE shop.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT, amount DECIMAL(10,2), ' +
      'created DATETIME(6), note TEXT, data JSON)');
    const customers = [];
    for (let i = 1; i <= 50; i++) customers.push(`(${i}, 'c${i}', ${i % 2 ? 'NULL' : "'Lyon'"})`);
    await q('INSERT INTO shop.customers VALUES ' + customers.join(','));
    for (let i = 1; i <= 10; i++) {
      await q(`INSERT INTO shop.orders (customer_id, amount, created, note, data) VALUES (${i}, ${i}.50, NOW(6), 'n${i}', '{"k": ${i}}')`);
    }
    await q('UPDATE shop.orders SET amount = amount + 1 WHERE id <= 5');
    await q('DELETE FROM shop.orders WHERE id = 10');
    await q('ALTER TABLE shop.orders ADD COLUMN status VARCHAR(10)');
    await q("BEGIN; INSERT INTO shop.customers VALUES (51, 'c51', 'Oslo'); " +
      "INSERT INTO shop.orders (customer_id, amount, status) VALUES (51, 9.99, 'new'); COMMIT");
    await q('SET SESSION cte_max_recursion_depth = 10000');
    await q(`INSERT INTO shop.orders (customer_id, amount, note) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n ` +
      `WHERE i < ${ORDERS_BIG}) SELECT i % 50 + 1, i / 100, REPEAT('x', i % 20) FROM n`);
    await new Promise((r) => setTimeout(r, 1100));
    beforeDrop = (await q('SELECT CAST(NOW(6) AS CHAR) AS l, CAST(UTC_TIMESTAMP(6) AS CHAR) AS u'))[0];
    await new Promise((r) => setTimeout(r, 20));
    await q('DROP TABLE shop.customers'); // the mistake
    for (let i = 0; i < 3; i++) await q('INSERT INTO shop.orders (customer_id, amount) VALUES (7, 1.00)');
    bigDelete = Number(await server.value('SELECT COUNT(*) FROM shop.orders WHERE id > 500'));
    await q('DELETE FROM shop.orders WHERE id > 500');
    await q('FLUSH BINARY LOGS');
    folder = tempDir('restore-binlogs-');
    copyBinlogs(server, folder);
    // The reference: where SHOW BINLOG EVENTS puts the DROP and its GTID.
    for (const log of await q('SHOW BINARY LOGS')) {
      const events = await q(`SHOW BINLOG EVENTS IN '${log.Log_name}'`);
      events.forEach((e, i) => {
        if (e.Event_type === 'Query' && /^DROP TABLE `shop`\.`customers`/.test(e.Info)) {
          const g = events[i - 1];
          dropGtid = /GTID_NEXT= '([^']+)'/.exec(g.Info)[1];
          dropPos = `${log.Log_name}:${g.Pos}`;
        }
      });
    }
    expect(dropGtid).to.be.a('string');
  });

  after(async function () {
    if (server) {
      await server.query('DROP DATABASE IF EXISTS shop').catch(() => {});
      await server.stop();
    }
  });

  it('counts every table\'s rows as the test wrote them and as mysqlbinlog -v decodes them, and finds the DROP', function () {
    const r = json(cli(null, ['binlogs', folder, '--output-format=json']));
    const byTable = {};
    r.tables.forEach((t) => { byTable[t.table] = t; });
    expect(byTable['shop.customers']).to.deep.equal({ table: 'shop.customers', transactions: 2, inserted: 51, updated: 0, deleted: 0 });
    expect(byTable['shop.orders']).to.include({ transactions: 18, inserted: 10 + 1 + ORDERS_BIG + 3, updated: 5 });
    expect(bigDelete).to.be.above(1000);
    expect(byTable['shop.orders'].deleted).to.equal(1 + bigDelete);
    // The reference decoder agrees row for row.
    const bin = path.join(path.dirname(server.client.trim().split(/\s+/)[0]), 'mysqlbinlog');
    const files = r.files.map((f) => path.join(folder, f.name));
    const decoded = spawnSync(bin, ['-v', '--base64-output=DECODE-ROWS', ...files], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
    const count = (re) => (decoded.match(re) || []).length;
    expect(byTable['shop.orders'].inserted).to.equal(count(/^### INSERT INTO `shop`\.`orders`/gm));
    expect(byTable['shop.orders'].updated).to.equal(count(/^### UPDATE `shop`\.`orders`/gm));
    expect(byTable['shop.orders'].deleted).to.equal(count(/^### DELETE FROM `shop`\.`orders`/gm));
    expect(byTable['shop.customers'].inserted).to.equal(count(/^### INSERT INTO `shop`\.`customers`/gm));

    const drop = r.dangerous.filter((d) => d.kind === 'drop-table');
    expect(drop).to.have.length(1);
    expect(drop[0].gtid).to.equal(dropGtid);
    expect(`${drop[0].file}:${drop[0].position}`).to.equal(dropPos);
    expect(drop[0].tables).to.deep.equal(['shop.customers']);
    const many = r.dangerous.filter((d) => d.kind === 'many-deletes');
    expect(many.map((d) => [d.tables[0], d.rows])).to.deep.equal([['shop.orders', bigDelete]]);
    expect(r.timeZone).to.equal('UTC');
    // DDL (the schema, two tables, the ALTER), customers, orders one by one, UPDATE, DELETE, the two-table one,
    // the big one, the DROP, three more, the big DELETE.
    expect(r.transactions).to.equal(4 + 1 + 10 + 1 + 1 + 1 + 1 + 1 + 3 + 1);
  });

  it('prints the DROP with its time, GTID and file:position', function () {
    const r = cli(null, ['binlogs', folder]);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include('Times in UTC (no session');
    const line = r.stdout.split('\n').filter((l) => l.indexOf('DROP TABLE `shop`.`customers`') >= 0);
    expect(line).to.have.length(1);
    expect(line[0]).to.include(dropGtid).and.include(dropPos);
    expect(line[0]).to.match(/^\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\s/);
    // The finding, as restore.load's stopBefore takes it.
    expect(r.stdout).to.include('stopBefore: "first drop of shop.customers"');
  });

  it('until (the server\'s time zone when connected) stops before the DROP; since starts at it', function () {
    const until = json(cli(server.uri, ['binlogs', folder, `--until=${beforeDrop.l}`, '--output-format=json']));
    expect(until.timeZone).to.equal('+02:00');
    expect(until.dangerous.filter((d) => d.kind === 'drop-table')).to.deep.equal([]);
    expect(until.tables.find((t) => t.table === 'shop.orders')).to.include({ transactions: 14, inserted: 10 + 1 + ORDERS_BIG });
    expect(until.last.gtid).to.not.equal(dropGtid);
    // Connected, times are shown in the server's zone too: the DROP in the hour NOW() gave before it.
    const connected = json(cli(server.uri, ['binlogs', folder, `--since=${beforeDrop.l}`, '--output-format=json']));
    expect(connected.first.gtid).to.equal(dropGtid);
    // binlog.000001 holds nothing at or after since (binlog.000002's first transaction is before it): not read.
    expect(connected.files.map((f) => f.name)).to.deep.equal(['binlog.000002', 'binlog.000003']);
    expect(connected.sinceSkip).to.deep.equal({ files: 1, first: 'binlog.000002', heads: 2 });
    expect(connected.dangerous[0].timeText.slice(0, 13)).to.equal(beforeDrop.l.slice(0, 13));

    // Without a session: UTC, the same moment given with its offset.
    const since = json(cli(null, ['binlogs', folder, `--since=${beforeDrop.u}Z`, '--tables=shop.orders', '--output-format=json']));
    expect(since.first.gtid).to.equal(dropGtid);
    expect(since.tables).to.deep.equal([{ table: 'shop.orders', transactions: 4, inserted: 3, updated: 0, deleted: bigDelete }]);
    // tables narrows the dangerous events too: the DROP of customers is not an event of orders.
    expect(since.dangerous.map((d) => d.kind)).to.deep.equal(['many-deletes']);
  });

  it('names and skips what is not a binary log; without an index, orders by the numbers of the names', function () {
    const other = tempDir('restore-binlogs-');
    for (const f of fs.readdirSync(folder).filter((n) => /\d{6}$/.test(n))) fs.copyFileSync(path.join(folder, f), path.join(other, f));
    fs.writeFileSync(path.join(other, 'binlog.999999'), 'not a binary log at all');
    fs.writeFileSync(path.join(other, 'notes.txt'), 'hello');
    const r = json(cli(null, ['binlogs', other, '--output-format=json']));
    expect(r.order).to.equal('file names');
    expect(r.skipped.map((s) => s.file).sort()).to.deep.equal(['binlog.999999', 'notes.txt']);
    expect(r.skipped.find((s) => s.file === 'binlog.999999').reason).to.match(/not a binary log/);
    expect(r.missing).to.deep.equal([]);
    expect(r.dangerous.filter((d) => d.kind === 'drop-table')[0].gtid).to.equal(dropGtid);
    // A folder that is not there, relative to the current directory: said so, with the folder it looked for.
    const none = cli(null, ['binlogs', 'no-such-folder'], { cwd: other });
    expect(none.status, none.out).to.equal(1);
    expect(none.stderr).to.include(`binlogs: ${fs.realpathSync(other)}/no-such-folder does not exist ("no-such-folder" is taken relative ` +
      `to the current directory ${fs.realpathSync(other)}). Give the folder holding the binary log files`);
    // Many files of one reason (a dump's folder given by mistake): one line names the first few and counts the rest.
    for (let i = 1; i <= 6; i++) fs.writeFileSync(path.join(other, `notes${i}.txt`), 'hello');
    const t = cli(null, ['binlogs', other]);
    expect(t.status, t.out).to.equal(0);
    expect(t.stdout.split('\n').filter((l) => /^WARNING: Skipped/.test(l))).to.deep.equal([
      'WARNING: Skipped 7 files: not named as a binary log (name.NNNNNN): notes.txt, notes1.txt, notes2.txt, notes3.txt, notes4.txt ' +
        'and 2 more (outputFormat json lists them under "skipped").',
      'WARNING: Skipped binlog.999999: ' + r.skipped.find((s) => s.file === 'binlog.999999').reason + '.']);
  });
});
