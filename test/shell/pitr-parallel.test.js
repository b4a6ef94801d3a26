'use strict';
// restore.load with binlogs, the parallel replay (issue 43, items 4 and 5): a source written by
// concurrent clients (so the logical clock it writes lets transactions run side by side), DDL that
// only succeeds under the session state its Query event records (sql_mode, time_zone,
// foreign_key_checks); replayed over 4 sessions and over 1, each ending with every table equal
// (CHECKSUM TABLE) to the source; a replay killed mid-way (its COMMITs overlapping where the source's
// clock allows, so it may leave holes the clock allows) continues with the same command, nothing applied twice.
const { expect } = require('chai');
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const mysql = require('mysql2/promise');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { killShellWhen } = require('../support/kill-shell');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

const TABLES = ['par.a', 'par.b', 'par.c', 'par.zeros', 'par.tz', 'par.child'];
const CLIENTS = 6;
const PER_CLIENT = 400;

describe('restore load --binlogs: the parallel replay (real Shell, real servers)', function () {
  this.timeout(300000);
  // The servers, the plugin's config home, the dump, the copied binary logs, the source's server_uuid.
  let source, target, home, dump, folder, uuid; // eslint-disable-line one-var
  let endN; // the source's last GTID number
  let expected, tzDefault; // CHECKSUM TABLE of each table and the TIMESTAMP column's default, on the source at the end

  const checksums = (server) => checksumTables(server, TABLES);

  async function freshTarget() {
    // A failed load keeps util.loadDump's progress file (the same command resumes it): a fresh target starts without.
    fs.rmSync(path.join(home, 'restore', 'progress'), { recursive: true, force: true });
    await target.query('DROP DATABASE IF EXISTS par');
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  // The source's transactions the target holds (its own GTIDs aside): their numbers, how many, the first and last.
  async function sourceGtids() {
    const held = String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
    const m = new RegExp(`${uuid}((?::\\d+(?:-\\d+)?)+)`).exec(held);
    const nums = new Set();
    for (const r of m ? m[1].split(':').slice(1) : []) {
      const [a, b] = r.split('-').map(Number);
      for (let n = a; n <= (b || a); n++) nums.add(n);
    }
    const sorted = [...nums].sort((x, y) => x - y);
    return { text: m ? m[0] : '', nums, count: nums.size, first: sorted[0] || 0, last: sorted[sorted.length - 1] || 0 };
  }

  // The source's logical clock, read by mysqlbinlog from its files: GTID number -> {file, lc, seq}.
  function sourceClock() {
    const bin = path.join(path.dirname(source.client.trim().split(/\s+/)[0]), 'mysqlbinlog');
    const out = new Map();
    for (const f of fs.readdirSync(folder).filter((n) => /^binlog\.\d{6}$/.test(n)).sort()) {
      const r = spawnSync(bin, [path.join(folder, f)], { encoding: 'latin1', maxBuffer: 1 << 28 });
      for (const x of r.stdout.matchAll(/last_committed=(\d+)\s+sequence_number=(\d+)[\s\S]*?GTID_NEXT= '[^:]+:(\d+)'/g)) {
        out.set(Number(x[3]), { file: f, lc: Number(x[1]), seq: Number(x[2]) });
      }
    }
    return out;
  }

  // Every source transaction the target lacks before its last held one is a hole the clock allows: each held one
  // after it is of the same file and does not depend on it (its last_committed before the missing one's
  // sequence_number). Returns the holes' count.
  function expectClockAllows(got, from) {
    const clock = sourceClock();
    let holes = 0;
    for (let m = from; m < got.last; m++) {
      if (got.nums.has(m)) continue;
      holes++;
      for (let h = m + 1; h <= got.last; h++) {
        if (!got.nums.has(h)) continue;
        const a = clock.get(h), b = clock.get(m); // eslint-disable-line one-var
        expect(a.file === b.file && a.lc < b.seq, `${uuid}:${h} held without ${uuid}:${m}, which it depends on (${JSON.stringify([a, b])})`)
          .to.equal(true);
      }
    }
    return holes;
  }

  // The source's transactions in the order the target's binary log holds them (their GTID numbers).
  async function targetOrder() {
    const bin = path.join(path.dirname(source.client.trim().split(/\s+/)[0]), 'mysqlbinlog');
    const logs = (await target.query('SHOW BINARY LOGS')).map((x) => path.join(target.datadir, x.Log_name));
    const r = spawnSync(bin, logs, { encoding: 'latin1', maxBuffer: 1 << 28 });
    return [...r.stdout.matchAll(new RegExp(`GTID_NEXT= '${uuid}:(\\d+)'`, 'g'))].map((x) => Number(x[1]));
  }

  // A source and a target with GTIDs, the plugin installed in a config home of this file's own.
  async function servers() {
    return Object.assign(await gtidSourceAndTarget(), { home: installPlugin(tempDir('restore-cfg-')) });
  }

  // Starts `mysqlsh args…` and kills it (SIGKILL) once 300 of the source's transactions are on the target;
  // returns the source's GTIDs the target then holds, checked to be short of the end with only holes the clock allows.
  async function killMidway(args) {
    const k = await killShellWhen(args, { configHome: home }, async () => {
      const got = await sourceGtids();
      return got.count >= 300 ? got : null;
    });
    expect(k.atKill, k.out).to.not.equal(null);
    expect(k.signal, k.out).to.equal('SIGKILL');
    // COMMITs overlap where the source's clock let its transactions run together: a hole only where it allows.
    const stopped = await sourceGtids();
    stopped.holes = expectClockAllows(stopped, stopped.first);
    expect(stopped.last).to.be.below(endN);
    return stopped;
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, home, uuid } = await servers());
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE par');
    for (const t of ['a', 'b', 'c']) {
      await q(`CREATE TABLE par.${t} (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, v VARCHAR(40), UNIQUE KEY uk (k))`);
      await q(`INSERT INTO par.${t} (k, v) VALUES ${Array.from({ length: 200 }, (_, i) => `(${i * 10}, 'r${i}')`).join(',')}`);
    }
    dump = path.join(tempDir('restore-pitrpar-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['par'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await q('FLUSH BINARY LOGS');
    // DDL that runs only under its own session state: a replay that does not set it fails or differs.
    const c = await mysql.createConnection({ host: '127.0.0.1', port: source.port, user: 'root', password: '', multipleStatements: true });
    await c.query("SET SESSION sql_mode = ''; CREATE TABLE par.zeros (id INT PRIMARY KEY, d DATE NOT NULL DEFAULT '0000-00-00'); " +
      'INSERT INTO par.zeros (id) VALUES (1)');
    await c.query("SET SESSION sql_mode = DEFAULT, SESSION time_zone = '+05:00'; " +
      "CREATE TABLE par.tz (id INT PRIMARY KEY, ts TIMESTAMP NOT NULL DEFAULT '2020-01-01 00:00:00'); INSERT INTO par.tz (id) VALUES (1)");
    await c.query("SET SESSION time_zone = SYSTEM, SESSION foreign_key_checks = 0; CREATE TABLE par.child (id INT PRIMARY KEY, " +
      'p INT, FOREIGN KEY (p) REFERENCES par.parent_later (id)); INSERT INTO par.child VALUES (1, 7)');
    await c.end();
    // Concurrent clients: updates, inserts, delete + insert of a unique key, two tables at once.
    const conns = await Promise.all(Array.from({ length: CLIENTS }, () => mysql.createConnection({ host: '127.0.0.1',
      port: source.port, user: 'root', password: '', database: 'par', multipleStatements: true })));
    await Promise.all(conns.map(async (conn, n) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        const x = (n * 7919 + i * 104729) % 100;
        const t = ['a', 'b', 'c'][(n + i) % 3];
        const key = (n * PER_CLIENT + i) % 200;
        const sql = x < 40 ? `UPDATE ${t} SET v = CONCAT('u${n}-', ${i}) WHERE k = ${key * 10}`
          : x < 70 ? `INSERT INTO ${t} (k, v) VALUES (${100000 + n * PER_CLIENT + i}, 'i${n}')`
            : x < 85 ? `DELETE FROM ${t} WHERE k = ${key * 10}; INSERT INTO ${t} (k, v) VALUES (${key * 10}, 'd${n}-${i}')`
              : `UPDATE ${t} SET v = 'x${i}' WHERE k = ${key * 10}; UPDATE c SET v = 'y${n}' WHERE k = ${((key + 1) % 200) * 10}`;
        for (;;) {
          try { await conn.query(`START TRANSACTION; ${sql}; COMMIT`); break; } catch (e) {
            if (e.errno !== 1213 && e.errno !== 1205) throw e;
            await conn.query('ROLLBACK');
          }
        }
      }
    }));
    await Promise.all(conns.map((x) => x.end()));
    await q('FLUSH BINARY LOGS');
    expected = await checksums(source);
    tzDefault = String(await source.value("SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'par' AND TABLE_NAME = 'tz' AND COLUMN_NAME = 'ts'"));
    endN = Number(/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')).trim())[1]);
    folder = tempDir('restore-pitrpar-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('4 sessions and 1 session: every table equal to the source, the DDL made under its own sql_mode, time zone and foreign_key_checks', async function () {
    for (const threads of [4, 1]) {
      await freshTarget();
      const r = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--threads=${threads}`, '--replayWith=sessions'], { configHome: home });
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.include(`how: ${threads} session(s) of the plugin's own, transactions scheduled by the source's logical clock`);
      expect(r.stdout).to.match(new RegExp(`Binary logs replayed: \\d+ transaction\\(s\\) over ${threads} session\\(s\\)`));
      expect(await checksums(target), `threads ${threads}`).to.deep.equal(expected);
      expect(String(await target.value("SELECT COLUMN_DEFAULT FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'par' AND " +
        "TABLE_NAME = 'tz' AND COLUMN_NAME = 'ts'"))).to.equal(tzDefault);
      const got = await sourceGtids();
      expect([got.last, got.count], got.text).to.deep.equal([endN, endN - got.first + 1]);
      // Committed before an earlier one of the source only where the source's clock let them run together.
      const order = await targetOrder();
      expect(order.length).to.equal(got.count);
      const clock = sourceClock();
      for (let p = 0; p < order.length; p++) {
        for (let q = p + 1; q < order.length; q++) {
          if (order[q] > order[p]) continue;
          const a = clock.get(order[p]), b = clock.get(order[q]); // eslint-disable-line one-var
          expect(a.file === b.file && a.lc < b.seq, `${uuid}:${order[p]} committed before ${uuid}:${order[q]}, which it depends on`).to.equal(true);
        }
      }
      // Every worker session closed: only the test's own connection is left.
      expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'root' AND ID <> CONNECTION_ID()")))
        .to.equal(0);
    }
  });

  it('a transaction failing on the target: REPLAY_FAILED names its GTID and file:position; every one before it applied, none after that depends on it', async function () {
    // A replay killed mid-way, then the target made to differ from the source (the rows of par.a
    // deleted, unlogged): the same command (a resume: the rows loaded are the plugin's, as its record
    // says) fails at the next update or delete of one of them.
    await freshTarget();
    const args = [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, '--threads=4', '--replayWith=sessions'];
    const stopped = await killMidway(args);
    await target.query('SET SESSION sql_log_bin = 0');
    await target.query('DELETE FROM par.a');
    await target.query('SET SESSION sql_log_bin = 1');
    const r = cli(target.uri, args.slice(3), { configHome: home });
    expect(r.status, r.out).to.equal(1);
    const m = new RegExp(`The replay failed at transaction ${uuid}:(\\d+) \\(binlog\\.\\d{6}:\\d+\\): MySQL error \\d+`).exec(r.out.replace(/\s+/g, ' '));
    expect(m, r.out).to.not.equal(null);
    const failed = Number(m[1]);
    // Not one the killed run applied; it may be a hole that run left below its last (the clock let later ones commit).
    expect(stopped.nums.has(failed), stopped.text).to.equal(false);
    expect(failed).to.be.above(stopped.first);
    const held = await sourceGtids();
    // Every one before it, not it; after it, only those its failure did not stop that the clock let commit without it.
    for (let n = held.first; n < failed; n++) expect(held.nums.has(n), `${uuid}:${n} (${held.text})`).to.equal(true);
    expect(held.nums.has(failed), held.text).to.equal(false);
    expectClockAllows(held, failed);
    // This run's transactions before it: the ones the killed run left, up to it (every one of them applied, above).
    const before = [...held.nums].filter((n) => n < failed && !stopped.nums.has(n)).length;
    expect(r.out.replace(/\s+/g, ' ')).to.include(`${before} transaction(s) were applied before it`);
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = 'root' AND ID <> CONNECTION_ID()")))
      .to.equal(0);
  });

  it('killed mid-way (SIGKILL of mysqlsh): the same command continues, nothing applied twice, every table equal', async function () {
    await freshTarget();
    const args = [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, '--threads=4', '--replayWith=sessions'];
    const stopped = await killMidway(args);
    const again = cli(target.uri, args.slice(3), { configHome: home });
    expect(again.status, again.out).to.equal(0);
    const m = /Binary logs replayed: (\d+) transaction\(s\) \((\d+) already on the target, skipped\)/.exec(again.stdout);
    expect(m, again.stdout).to.not.equal(null);
    expect(Number(m[2])).to.equal(stopped.count);
    expect(Number(m[1]) + Number(m[2])).to.equal(endN - stopped.first + 1);
    expect(await checksums(target)).to.deep.equal(expected);
    const got = await sourceGtids();
    expect([got.last, got.count], got.text).to.deep.equal([endN, endN - got.first + 1]);
  });
});
