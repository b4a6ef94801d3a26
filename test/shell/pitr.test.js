'use strict';
// restore.load with binlogs (issue 43): a dump made by the real util.dumpSchemas of a source with
// GTIDs, transactions of every kind after it, a mistake (DROP TABLE) and more after it; restored on
// a fresh server to just before the mistake by time and by GTID, every table equal (CHECKSUM TABLE)
// to the source at that moment; a rerun applies nothing twice; a gap refused before anything changes.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { sharedReplicaSet } = require('../support/topology');

const TABLES = ['shop.customers', 'shop.orders', 'shop.extra'];
const BIG = 3000;

describe('restore load --binlogs: point in time after the dump (real Shell, real servers)', function () {
  this.timeout(240000);
  let source;
  let target;
  let home;
  let dump;
  let folder;
  let uuid;
  let dumpEnd; // the source's last GTID number in the dump
  let afterDump; // the GTID numbers of the second file (right after the dump)
  let beforeDrop; // NOW(6) on the source just before the DROP
  let dropGtid;
  let expected; // CHECKSUM TABLE on the source right before the DROP
  let bothGtid; // the transaction over customers, orders and extra
  let customersBeforeBoth; // CHECKSUM TABLE shop.customers right before it
  let sliceBeforeDrop; // the rows of shop.orders with id >= 10 right before the DROP (count, checksum)
  let midway; // NOW(6) on the source after the transaction over three tables, before the large insert
  let expectedMidway; // CHECKSUM TABLE on the source then

  // The rows of shop.orders from id 10 on: their count and an order-free checksum of every column.
  async function orderSlice(server, schema = 'shop') {
    const r = await server.query("SELECT COUNT(*) AS n, CAST(BIT_XOR(CRC32(CONCAT_WS('|', id, customer_id, amount, IFNULL(note, '-'), " +
      `IFNULL(status, '-')))) AS CHAR) AS x, MIN(id) AS lo FROM ${schema}.orders WHERE id >= 10`);
    return { n: Number(r[0].n), x: String(r[0].x) };
  }

  async function checksums(server, schema = 'shop') {
    const out = {};
    for (const t of TABLES) {
      const r = await server.query(`CHECKSUM TABLE ${t.replace(/^shop\./, schema + '.')}`);
      out[t] = r[0].Checksum === null ? null : String(r[0].Checksum);
    }
    return out;
  }

  async function freshTarget() {
    await target.query('DROP DATABASE IF EXISTS shop');
    await target.query('DROP DATABASE IF EXISTS shop_copy');
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  function load(options) {
    return runJs(target.uri, `restore.load(${JSON.stringify(dump)}, ${JSON.stringify(Object.assign({ outputFormat: 'none' }, options))})`,
      { configHome: home });
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, uuid } = await gtidSourceAndTarget());
    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE shop');
    await q('CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(100))');
    await q('CREATE TABLE shop.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT, amount DECIMAL(10,2), note TEXT)');
    const rows = [];
    for (let i = 1; i <= 40; i++) rows.push(`(${i}, 'c${i}', ${i % 3 ? "'Lyon'" : 'NULL'})`);
    await q('INSERT INTO shop.customers VALUES ' + rows.join(','));
    for (let i = 1; i <= 20; i++) await q(`INSERT INTO shop.orders (customer_id, amount, note) VALUES (${i}, ${i}.25, 'n${i}')`);
    dump = path.join(tempDir('restore-pitr-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const atJson = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8'));
    const recorded = (atJson.source && atJson.source.binlog && atJson.source.binlog.gtidExecuted) || atJson.gtidExecuted;
    expect(recorded, JSON.stringify(atJson.source)).to.be.a('string');
    dumpEnd = Number(/:1-(\d+)$/.exec(recorded.trim())[1]);
    await q('FLUSH BINARY LOGS');
    // After the dump: inserts, an update, a delete, DDL, a transaction over two tables, a large one.
    for (let i = 41; i <= 45; i++) await q(`INSERT INTO shop.customers VALUES (${i}, 'late${i}', 'Oslo')`);
    await q("UPDATE shop.orders SET amount = amount * 2, note = 'doubled' WHERE id <= 7");
    await q('DELETE FROM shop.orders WHERE id IN (3, 11)');
    await q('ALTER TABLE shop.orders ADD COLUMN status VARCHAR(10) DEFAULT \'new\'');
    await q('CREATE TABLE shop.extra (k INT PRIMARY KEY, v JSON)');
    await q('INSERT INTO shop.extra VALUES (1, \'{"a": 1}\'), (2, NULL)');
    customersBeforeBoth = String((await q('CHECKSUM TABLE shop.customers'))[0].Checksum);
    bothGtid = `${uuid}:${Number(/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')))[1]) + 1}`;
    await q("BEGIN; INSERT INTO shop.customers VALUES (46, 'both', 'Rome'); " +
      "INSERT INTO shop.orders (customer_id, amount, status) VALUES (46, 9.99, 'paid'); UPDATE shop.extra SET v = '[1,2]' WHERE k = 2; COMMIT");
    const afterFirst = Number(/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')))[1]);
    afterDump = [dumpEnd + 1, afterFirst];
    await q('FLUSH BINARY LOGS');
    expectedMidway = await checksums(source);
    midway = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    await q('SET SESSION cte_max_recursion_depth = 10000');
    await q(`INSERT INTO shop.orders (customer_id, amount, note) WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n ` +
      `WHERE i < ${BIG}) SELECT i % 40 + 1, i / 100, REPEAT('x', i % 30) FROM n`);
    await q('DELETE FROM shop.customers WHERE id = 2');
    await new Promise((r) => setTimeout(r, 1100));
    expected = await checksums(source);
    sliceBeforeDrop = await orderSlice(source);
    beforeDrop = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    await q('DROP TABLE shop.customers'); // the mistake
    for (let i = 0; i < 3; i++) await q('INSERT INTO shop.orders (customer_id, amount) VALUES (7, 1.00)');
    await q('FLUSH BINARY LOGS');
    folder = tempDir('restore-pitr-binlogs-');
    copyBinlogs(source, folder);
    for (const log of await q('SHOW BINARY LOGS')) {
      const events = await q(`SHOW BINLOG EVENTS IN '${log.Log_name}'`);
      events.forEach((e, i) => {
        if (e.Event_type === 'Query' && /^DROP TABLE `shop`\.`customers`/.test(e.Info)) dropGtid = /GTID_NEXT= '([^']+)'/.exec(events[i - 1].Info)[1];
      });
    }
    expect(dropGtid).to.be.a('string');
    expect(expected['shop.customers']).to.not.equal(null);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('until: every table as the source had it just before the DROP; the same command again applies nothing twice', async function () {
    await freshTarget();
    const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeDrop}`, '--analyze=on'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    // shop.extra, created by the replay, is a table of the restore: its rows reported, analyzed.
    expect(r.stdout).to.match(/\n\s+shop\.extra\s+2\s+counted\n/).and.include('Analyze (on): 3 table(s)')
      .and.include('table(s) it created, counted above: shop.extra');
    expect(r.stdout).to.match(/Binary logs: \d+ file\(s\) in /);
    expect(r.stdout).to.match(/replay: \d+ transaction\(s\) after the dump, up to until /);
    // replayWith left out ("auto"): the target's own applier, since it can be used here, named in the plan and the report.
    expect(r.stdout).to.include('applied by: the target\'s replication applier (channel \'restore_replay\'')
      .and.include('replayWith "auto": if the target cannot connect back, the plugin\'s sessions replay instead');
    expect(r.stdout).to.match(/Binary logs replayed: \d+ transaction\(s\) by the target's replication applier/);
    expect(await checksums(target)).to.deep.equal(expected);
    // The source's GTIDs are kept: the target holds every one up to the one before the DROP.
    const dropN = Number(dropGtid.split(':')[1]);
    const held = String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
    expect(held).to.include(`${uuid}:${dumpEnd + 1}-${dropN - 1}`);
    const m = /Binary logs replayed: (\d+) transaction\(s\)/.exec(r.stdout);
    expect(m, r.stdout).to.not.equal(null);
    expect(Number(m[1])).to.equal(dropN - 1 - dumpEnd);
    expect(r.stdout).to.include(`the last ${uuid}:${dropN - 1}, committed`);

    // Again, over what is there: the load changes nothing (existing objects ignored, no data), the
    // replay finds every GTID on the target.
    const again = load({ binlogs: folder, until: beforeDrop, ignoreExistingObjects: true, loadData: false });
    expect(again.error, again.out).to.equal(null);
    expect(again.value.replay).to.include({ applied: 0, onTarget: dropN - 1 - dumpEnd });
    expect(await checksums(target)).to.deep.equal(expected);
  });

  it('stopBefore the DROP\'s GTID: the same tables; stopAfter it: customers is gone', async function () {
    await freshTarget();
    const r = load({ binlogs: folder, stopBefore: dropGtid });
    expect(r.error, r.out).to.equal(null);
    expect(await checksums(target)).to.deep.equal(expected);
    expect(r.value.replay.last.gtid).to.equal(`${uuid}:${Number(dropGtid.split(':')[1]) - 1}`);

    await freshTarget();
    const after = load({ binlogs: folder, stopAfter: dropGtid });
    expect(after.error, after.out).to.equal(null);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop' AND table_name = 'customers'")))
      .to.equal(0);
    expect(after.value.replay.last.gtid).to.equal(dropGtid);
  });

  it('--stop-before="first drop of shop.customers": resolved to the DROP\'s GTID and time, named in the plan; a table never dropped: refused', async function () {
    await freshTarget();
    const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`, '--stop-before=first drop of shop.customers'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(new RegExp(`up to stopBefore "first drop of shop\\.customers": the DROP TABLE at ${dropGtid} \\(binlog\\.\\d+:\\d+\\), ` +
      'committed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d'));
    // Read up to the DROP, no further: the file the source wrote after it is not read.
    expect(r.stdout).to.match(/the 1 file\(s\) after binlog\.\d{6} \(binlog\.\d{6}\) are past the stop: not read/);
    expect(await checksums(target)).to.deep.equal(expected);
    const held = String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
    expect(held).to.include(`${uuid}:${dumpEnd + 1}-${Number(dropGtid.split(':')[1]) - 1}`).and.not.include(dropGtid);

    await freshTarget();
    const none = cli(target.uri, ['load', dump, `--binlogs=${folder}`, '--stop-before=first drop of shop.orders', '--output-format=json'],
      { configHome: home });
    expect(none.status, none.out).to.equal(1);
    expect(JSON.parse(none.stdout).error).to.include({ code: 'BINLOG_STOP_NOT_FOUND' });
    expect(JSON.parse(none.stdout).error.message).to.include('no statement drops or truncates shop.orders');
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);
  });

  it('includeTables: only the loaded table\'s transactions; one over loaded and not loaded tables refused, named', async function () {
    await freshTarget();
    // The plan counts what is skipped per reason: the update, delete, ALTER of orders, CREATE TABLE extra and its insert.
    const dry = load({ binlogs: folder, stopBefore: bothGtid, includeTables: ['shop.customers'], dryRun: true, outputFormat: 'text' });
    expect(dry.error, dry.out).to.equal(null);
    expect(dry.out).to.match(/skipped: \d+ already in the dump \(its gtidExecuted\), 5 only of tables the load leaves out, 0 only of schemas it does not load;/);
    // The zone times are read in, and the source's as the dump records it (the same here: both servers SYSTEM).
    expect(dry.out).to.match(/Times in the connected server's time zone, time_zone SYSTEM \(\w+\) \(the source's too, as the dump records it\)/);
    const part = load({ binlogs: folder, stopBefore: bothGtid, includeTables: ['shop.customers'] });
    expect(part.error, part.out).to.equal(null);
    expect(String((await target.query('CHECKSUM TABLE shop.customers'))[0].Checksum)).to.equal(customersBeforeBoth);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop'"))).to.equal(1);
    // The five inserts into customers; the update, delete, ALTER and the two statements of extra skipped.
    expect(part.value.replay.applied).to.equal(5);

    await freshTarget();
    const mixed = load({ binlogs: folder, until: beforeDrop, includeTables: ['shop.customers'] });
    expect(mixed.error, mixed.out).to.not.equal(null);
    expect(mixed.error.message).to.include(`transaction ${bothGtid} (`).and.include('changes tables loaded and not loaded');
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);
  });

  it('schemaMap: row events and DDL under the new name, every table equal to the source before the DROP, no schema shop created', async function () {
    await freshTarget();
    const r = load({ binlogs: folder, until: beforeDrop, schemaMap: { shop: 'shop_copy' }, replayWith: 'sessions', outputFormat: 'text' });
    expect(r.error, r.out).to.equal(null);
    expect(r.out, r.out).to.match(/renamed: row events and statements of shop -> shop_copy applied under the new names \(2 statement\(s\) naming a schema rewritten\)/);
    expect(await checksums(target, 'shop_copy')).to.deep.equal(expected);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);
    expect(r.out).to.match(new RegExp(`Binary logs replayed: ${Number(dropGtid.split(':')[1]) - 1 - dumpEnd} transaction\\(s\\) over \\d+ session\\(s\\)`));
    // The target's own applier fed by the plugin (replayWith "applier"): the same rewritten events, the same tables.
    await freshTarget();
    const a = load({ binlogs: folder, until: beforeDrop, schemaMap: { shop: 'shop_copy' }, replayWith: 'applier', outputFormat: 'text' });
    expect(a.error, a.out).to.equal(null);
    expect(a.out).to.include('by the target\'s replication applier');
    expect(await checksums(target, 'shop_copy')).to.deep.equal(expected);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);
    await freshTarget();
  });

  it('since with binlogs: refused until outsideSlice says how rows outside the slice go; "skip": the slice as the source had it', async function () {
    await freshTarget();
    const slice = { binlogs: folder, until: beforeDrop, since: { 'shop.orders.id': 10 } };
    const refused = load(slice);
    expect(refused.error, refused.out).to.not.equal(null);
    expect(refused.error.message).to.include('binlogs with since').and.include('outsideSlice: "skip"');
    const alone = load({ binlogs: folder, until: beforeDrop, outsideSlice: 'skip' });
    expect(alone.error && alone.error.message, alone.out).to.include('outsideSlice says how a replay handles rows outside a slice of latest or since');
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);

    const r = load(Object.assign({ outsideSlice: 'skip', outputFormat: 'text' }, slice));
    expect(r.error, r.out).to.equal(null);
    // The update of ids 1-7 and the delete of id 3 found no row and were skipped; id 11's delete, the
    // inserts and the ALTER applied: the slice equals the source's rows from id 10 on, nothing below it.
    expect(r.out).to.match(/outside the slice \(outsideSlice: skip\): \d+ transaction\(s\) writing shop\.orders applied with rbr_exec_mode IDEMPOTENT/);
    // replayWith "auto": the applier refuses IDEMPOTENT per transaction, so the sessions, the refusal's reason in the plan.
    expect(r.out.replace(/\s+/g, ' ')).to.include('replayWith "auto" takes these, not the target\'s applier: outsideSlice "skip" applies ' +
      'some transactions with rbr_exec_mode IDEMPOTENT, which a replication channel cannot do per transaction');
    expect(r.out).to.match(/Binary logs replayed: \d+ transaction\(s\) over \d+ session\(s\)/);
    expect(await orderSlice(target)).to.deep.equal(sliceBeforeDrop);
    expect(Number(await target.value('SELECT COUNT(*) FROM shop.orders WHERE id < 10'))).to.equal(0);
    const whole = await checksums(target);
    expect([whole['shop.customers'], whole['shop.extra']]).to.deep.equal([expected['shop.customers'], expected['shop.extra']]);
  });

  it('rolled forward: to before the mistake after a restore to earlier; going back refused; a write in between refused ' +
    '(a target whose gtid_executed holds a tagged GTID)', async function () {
    await freshTarget();
    // MySQL 8.3+ tagged GTIDs in the target's gtid_executed ("uuid:1:restore_test:1"): read like any other.
    await target.query("SET gtid_next = 'AUTOMATIC:restore_test'; CREATE DATABASE tagged_probe; SET gtid_next = 'AUTOMATIC'; DROP DATABASE tagged_probe");
    expect(String(await target.value('SELECT @@GLOBAL.gtid_executed'))).to.match(/:restore_test:1/);
    const first = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--until=${midway}`], { configHome: home });
    expect(first.status, first.out).to.equal(0);
    // The plan reads the files up to the stop only: the one after it (the DROP's) is not read, and says so.
    expect(first.stdout).to.match(/the 1 file\(s\) after binlog\.\d{6} \(binlog\.\d{6}\) are past the stop: not read/);
    expect(await checksums(target)).to.deep.equal(expectedMidway);
    // The same command with a later until: util.loadDump not run again, the replay continues from gtid_executed.
    const dropN = Number(dropGtid.split(':')[1]);
    const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeDrop}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(new RegExp(`rolling forward from ${uuid}:${afterDump[1]}, committed \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\S* to until `))
      .and.include(`Binary logs replayed: ${dropN - 1 - afterDump[1]} transaction(s) (${afterDump[1] - dumpEnd} already on the target, skipped)`);
    expect(r.stdout).to.include('util.loadDump: not run (rolling forward a replay, below)').and.not.match(/Loading DDL|util\.loadDump\s+\d/);
    expect(await checksums(target)).to.deep.equal(expected);
    const held = String(await target.value('SELECT @@GLOBAL.gtid_executed'));

    // Back to midway: refused, naming the point the target holds; nothing changed.
    const refusal = (args) => {
      const x = cli(target.uri, ['load', dump, `--binlogs=${folder}`, ...args, '--output-format=json'], { configHome: home });
      expect(x.status, x.out).to.equal(1);
      return JSON.parse(x.stdout).error;
    };
    const back = refusal([`--until=${midway}`]);
    expect(back.code).to.equal('REPLAY_PAST_STOP');
    expect(back.message).to.include(`the target holds this replay already up to ${uuid}:${dropN - 1}, committed`)
      .and.include('a replay only goes forward');
    expect(String(await target.value('SELECT @@GLOBAL.gtid_executed'))).to.equal(held);
    expect(await checksums(target)).to.deep.equal(expected);

    // A write on the target after the restore: rolling forward refused, the write named; nothing changed.
    await target.query('INSERT INTO shop.extra VALUES (99, NULL)');
    const mine = String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
    const foreign = refusal([`--stop-after=${dropGtid}`]);
    expect(foreign.code).to.equal('TARGET_CHANGED');
    const targetUuid = String(await target.value('SELECT @@server_uuid'));
    expect(foreign.message).to.include('the target ran transactions that are not of this replay: ' + targetUuid + ':');
    expect(String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '')).to.equal(mine);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop' AND table_name = 'customers'")))
      .to.equal(1);
    await freshTarget();
  });

  it('a loaded table holding rows of its own that the replay would change: refused (OWN_ROWS) before anything changes', async function () {
    await freshTarget();
    await target.query('CREATE DATABASE shop');
    await target.query('CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(100))');
    await target.query("INSERT INTO shop.customers VALUES (41, 'mine', 'Nice')");
    const r = load({ binlogs: folder, until: beforeDrop, ignoreExistingObjects: true });
    expect(r.error, r.out).to.not.equal(null);
    expect(r.error.message).to.include('Refusing to load: shop.customers already holds rows of its own').and.include('binlogs would change rows there');
    expect(await target.query('SELECT * FROM shop.customers')).to.deep.equal([{ id: 41, name: 'mine', city: 'Nice' }]);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop'"))).to.equal(1);
    await freshTarget();
  });

  it('a source with a replica: the replay (by default the target\'s applier) goes through the binary log to the replica, verified there (GTIDs, rows, shop.extra)', async function () {
    const set = await sharedReplicaSet();
    const primary = set.source;
    const replica = set.replicas[0];
    try {
      const r = cli(primary.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeDrop}`], { configHome: home });
      expect(r.status, r.out).to.equal(0);
      // replayWith left out ("auto"): the target's applier on a source; its replica gets it through the binary log (log_replica_updates).
      expect(r.stdout).to.include('applied by: the target\'s replication applier');
      expect(r.stdout).to.match(/Binary logs replayed: \d+ transaction\(s\) by the target's replication applier/);
      // The members table: the replica applied everything the target holds now (the replay included), rows equal.
      expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${replica.port}\\s+replica\\s+IO Yes, SQL Yes\\s+yes\\s+yes`));
      const held = String(await replica.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
      expect(held).to.include(`${uuid}:${dumpEnd + 1}-${Number(dropGtid.split(':')[1]) - 1}`);
      expect(await checksums(replica)).to.deep.equal(expected);
      expect(Number(await primary.value('SELECT COUNT(*) FROM performance_schema.replication_connection_configuration'))).to.equal(0);
    } finally {
      await primary.query('DROP SCHEMA IF EXISTS shop');
      await set.waitApplied();
    }
  });

  it('a gap (the file right after the dump missing) is refused before anything changes, naming the missing GTIDs', async function () {
    await freshTarget();
    const gap = tempDir('restore-pitr-gap-');
    const files = fs.readdirSync(folder).filter((n) => /^binlog\.\d{6}$/.test(n)).sort();
    // Without the index and without the files up to the one after the dump: purged, as far as the folder says.
    files.slice(2).forEach((f) => fs.copyFileSync(path.join(folder, f), path.join(gap, f)));
    const r = load({ binlogs: gap, until: beforeDrop });
    expect(r.error, r.out).to.not.equal(null);
    expect(r.error.message).to.include(`transactions ${uuid}:${afterDump[0]}-${afterDump[1]} ran on the source after the dump`);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);

    // A file missing between two that the index lists: named.
    const hole = tempDir('restore-pitr-hole-');
    fs.readdirSync(folder).filter((n) => n !== files[1]).forEach((f) => fs.copyFileSync(path.join(folder, f), path.join(hole, f)));
    const h = load({ binlogs: hole, until: beforeDrop });
    expect(h.error, h.out).to.not.equal(null);
    expect(h.error.message).to.include(`binary log file(s) ${files[1]} are missing`);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'"))).to.equal(0);
  });

  it('a transaction with a tagged GTID on the source (MySQL 8.3+): replayed under its tagged GTID; ' +
    'a dump made after it (the files\' previous GTIDs tagged) replayed', async function () {
    await freshTarget();
    await source.query("SET gtid_next = 'AUTOMATIC:restore_test'; INSERT INTO shop.orders (customer_id, amount) VALUES (8, 2.00); " +
      "SET gtid_next = 'AUTOMATIC'; FLUSH BINARY LOGS");
    const tagged = tempDir('restore-pitr-tagged-');
    copyBinlogs(source, tagged);
    const now = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    const r = cli(target.uri, ['load', dump, `--binlogs=${tagged}`, `--until=${now}`, '--replayWith=sessions'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '')).to.match(new RegExp(`${uuid}:[\\d:-]*restore_test:1(,|$)`));
    expect(await checksumTables(target, ['shop.orders', 'shop.extra'])).to.deep.equal(await checksumTables(source, ['shop.orders', 'shop.extra']));
    await freshTarget();

    // A dump after it: its gtidExecuted holds the tag, and the files after it write their previous GTIDs in the
    // tagged format (read by the plugin); the one transaction after that dump is replayed.
    const later = path.join(tempDir('restore-pitr-tagged-dump-'), 'later');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(later)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const atJson = JSON.parse(fs.readFileSync(path.join(later, '@.json'), 'utf8'));
    expect(String((atJson.source && atJson.source.binlog && atJson.source.binlog.gtidExecuted) || atJson.gtidExecuted)).to.match(/:restore_test:1\b/);
    await source.query("INSERT INTO shop.orders (customer_id, amount) VALUES (9, 3.00); FLUSH BINARY LOGS");
    const after = tempDir('restore-pitr-tagged-after-');
    copyBinlogs(source, after);
    const ok = cli(target.uri, ['load', later, `--binlogs=${after}`], { configHome: home });
    expect(ok.status, ok.out).to.equal(0);
    expect(ok.stdout).to.include('Binary logs replayed: 1 transaction(s)');
    expect(await checksumTables(target, ['shop.orders', 'shop.extra'])).to.deep.equal(await checksumTables(source, ['shop.orders', 'shop.extra']));
    await freshTarget();
  });
});
