'use strict';
// restore.load with binlogs and replayWith "applier" (issue 43 item 4): the target's own replication
// applier applies the replay, fed by the plugin over the replication protocol. It must give what the
// plugin's sessions give (CHECKSUM TABLE, gtid_executed: transactions of schemas not loaded skipped
// alike), apply nothing twice on a rerun, leave no channel behind (also after a killed mysqlsh: the
// same command removes what it left; after Ctrl-C, restore.revert() and the same call), and never print the
// channel's password. replayWith left out ("auto") takes it; a target that cannot connect back falls back to the sessions.
// Issue 54: the rows travel over TLS (plain only over loopback, without openssl); strangers are refused before
// authentication; a killed run's channel and password are removed by the next load's preflight.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');
const mysql = require('mysql2/promise');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { killShellWhen } = require('../support/kill-shell');
const { probe, errorCode } = require('../support/feed-probe');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

const TABLES = ['app.a', 'app.b', 'app.made'];
const CLIENTS = 4;
const PER_CLIENT = 150;

describe('restore load --binlogs --replayWith=applier: the target\'s own applier (real Shell, real servers)', function () {
  this.timeout(300000);
  let source, target, home, dump, folder, uuid, dropGtid, beforeDrop, expected; // eslint-disable-line one-var

  const checksums = (server) => checksumTables(server, TABLES);

  async function freshTarget() {
    fs.rmSync(path.join(home, 'restore', 'progress'), { recursive: true, force: true });
    await target.query('DROP DATABASE IF EXISTS app');
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  async function channels() {
    return Number(await target.value('SELECT COUNT(*) FROM performance_schema.replication_connection_configuration'));
  }

  async function gtidExecuted() {
    return String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
  }

  // The target restarted in a network namespace of its own (unshare -n: its 127.0.0.1 is not this machine's), reached
  // over its Unix socket (the plugin then listens on 127.0.0.1): what a container the target cannot reach the client
  // from looks like. Its connection back to the plugin's listener is refused. fn(uri) runs there; then restarted as before.
  async function unreachableTarget(fn) {
    const sock = path.join(path.dirname(target.datadir), 's.sock');
    await target.shutdown();
    const args = ['--no-defaults', '--user=root', `--datadir=${target.datadir}`, `--socket=${sock}`, `--port=${target.port}`,
      '--bind-address=127.0.0.1', '--mysqlx=OFF', '--local-infile=1', '--secure-file-priv=', '--innodb-buffer-pool-size=256M', ...target.opts.split(/\s+/).filter(Boolean)];
    spawn('unshare', ['-rn', 'sh', '-c', 'ip link set lo up && exec "$0" "$@"', target.mysqld(), ...args], { stdio: 'ignore', detached: true }).unref();
    const open = () => mysql.createConnection({ socketPath: sock, user: 'root', password: '', multipleStatements: true });
    for (let i = 0; ; i++) {
      try { target.conn = await open(); break; } catch (e) {
        if (i > 240) throw e;
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      return await fn(`root:@(${sock})`);
    } finally {
      await target.query('SHUTDOWN').catch(() => {});
      await target.conn.end().catch(() => {});
      for (let i = 0; i < 240 && fs.existsSync(sock); i++) await new Promise((r) => setTimeout(r, 250));
      await target.start();
    }
  }

  const load = (extra) => cli(target.uri, ['load', dump, `--binlogs=${folder}`].concat(extra), { configHome: home });

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, uuid } = await gtidSourceAndTarget());
    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE app');
    await q('CREATE DATABASE side'); // not dumped: its transactions are skipped by both roads
    await q('CREATE TABLE side.s (id INT PRIMARY KEY)');
    for (const t of ['a', 'b']) {
      await q(`CREATE TABLE app.${t} (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, v VARCHAR(40), UNIQUE KEY uk (k))`);
      await q(`INSERT INTO app.${t} (k, v) VALUES ${Array.from({ length: 100 }, (_, i) => `(${i * 10}, 'r${i}')`).join(',')}`);
    }
    dump = path.join(tempDir('restore-pitrapp-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['app'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await q('FLUSH BINARY LOGS');
    await q('CREATE TABLE app.made (id INT PRIMARY KEY, note VARCHAR(20))');
    await q("INSERT INTO app.made VALUES (1, 'one'), (2, 'two')");
    const conns = await Promise.all(Array.from({ length: CLIENTS }, () => mysql.createConnection({ host: '127.0.0.1',
      port: source.port, user: 'root', password: '', database: 'app', multipleStatements: true })));
    await Promise.all(conns.map(async (conn, n) => {
      for (let i = 0; i < PER_CLIENT; i++) {
        if (i === PER_CLIENT / 2 && n === 0) await conn.query('FLUSH BINARY LOGS'); // a second file mid-way
        const t = (n + i) % 2 ? 'a' : 'b';
        const key = (n * PER_CLIENT + i) % 100;
        const sql = i % 10 === 3 ? `INSERT INTO side.s VALUES (${n * PER_CLIENT + i})`
          : i % 3 ? `UPDATE ${t} SET v = 'u${n}-${i}' WHERE k = ${key * 10}` : `INSERT INTO ${t} (k, v) VALUES (${100000 + n * PER_CLIENT + i}, 'i${n}')`;
        for (;;) {
          try { await conn.query(`START TRANSACTION; ${sql}; COMMIT`); break; } catch (e) {
            if (e.errno !== 1213 && e.errno !== 1205) throw e;
            await conn.query('ROLLBACK');
          }
        }
      }
    }));
    await Promise.all(conns.map((x) => x.end()));
    // One compressed transaction (a TRANSACTION_PAYLOAD event): its TABLE_MAP events are inside the payload, which only
    // the target's server decompresses; schemaMap's rename of them is the channel filter's (issue 53 item 4).
    await q("SET SESSION binlog_transaction_compression = ON; UPDATE app.a SET v = CONCAT('z', v) WHERE k < 300; " +
      'SET SESSION binlog_transaction_compression = OFF');
    await new Promise((r) => setTimeout(r, 1100));
    expected = await checksums(source);
    beforeDrop = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    dropGtid = `${uuid}:${Number(/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')))[1]) + 1}`;
    await q('DROP TABLE app.b'); // the mistake
    await q("INSERT INTO app.a (k, v) VALUES (-1, 'after')");
    await q('FLUSH BINARY LOGS');
    folder = tempDir('restore-pitrapp-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('stopBefore, replayWith left out ("auto"): the applier, the same tables and gtid_executed as the sessions give; a rerun applies 0; no channel left; no password printed', async function () {
    await freshTarget();
    const s = load([`--stopBefore=${dropGtid}`, '--replayWith=sessions']);
    expect(s.status, s.out).to.equal(0);
    const bySessions = { sums: await checksums(target), gtids: await gtidExecuted() };
    expect(bySessions.sums).to.deep.equal(expected);
    await freshTarget();
    const a = load([`--stopBefore=${dropGtid}`]);
    expect(a.status, a.out).to.equal(0);
    expect(a.stdout).to.include('applied by: the target\'s replication applier (channel \'restore_replay\'')
      .and.include('replayWith "auto": if the target cannot connect back');
    // Over TLS (issue 54): the plan says so, and the summary names the version the listener negotiated with the replica.
    expect(a.stdout).to.include('over TLS, SOURCE_SSL = 1, with a key and certificate made for this run');
    expect(a.stdout).to.match(/Binary logs replayed: \d+ transaction\(s\) by the target's replication applier \(\d+ worker\(s\), over TLSv1\.[23]\)/);
    expect(fs.readdirSync(path.join(home, 'restore', 'tls'))).to.deep.equal([]); // the run's key and certificate: gone
    expect(await checksums(target)).to.deep.equal(bySessions.sums);
    expect(await gtidExecuted()).to.equal(bySessions.gtids); // side's transactions skipped alike
    expect(await channels()).to.equal(0);
    expect(a.out).to.not.match(/[0-9a-f]{32}/); // the per-run password: 32 hex characters
    expect(a.out).to.not.match(/SOURCE_PASSWORD/i);
    // Again over what is there: the load changes nothing, the replay finds every GTID on the target.
    const again = load([`--stopBefore=${dropGtid}`, '--replayWith=applier', '--ignoreExistingObjects=true', '--loadData=false']);
    expect(again.status, again.out).to.equal(0);
    expect(again.stdout).to.match(/Binary logs replayed: 0 transaction\(s\) \(\d+ already on the target, skipped\)/);
    expect(await channels()).to.equal(0);
  });

  // Issue 53 item 4: the server does the stop and the rename. The feed sends the DROP's GTID event (the first
  // transaction past the stop) and the events with their schema as the files have it; the target's applier stops
  // before the DROP by its UNTIL, and its channel filter maps app to app_copy. The rows are the sessions' (the first test: the source's).
  it('schemaMap and stopBefore: the target\'s applier stops by itself before the DROP (UNTIL SQL_BEFORE_GTIDS, only its GTID event sent), its channel filter REPLICATE_REWRITE_DB renames; every table as the source had it', async function () {
    await freshTarget();
    await target.query('DROP DATABASE IF EXISTS app_copy');
    try {
      const a = load([`--stopBefore=${dropGtid}`, '--replayWith=applier', '--schemaMap=app:app_copy']);
      expect(a.status, a.out).to.equal(0);
      const out = a.stdout.replace(/\s+/g, ' ');
      expect(out).to.include(`it stops by itself before ${dropGtid}, the first transaction past the stop (START REPLICA UNTIL SQL_BEFORE_GTIDS)`)
        .and.include('the channel\'s filter renames the schemas (REPLICATE_REWRITE_DB app -> app_copy)');
      // Said from the server's own status before the channel went: SHOW REPLICA STATUS, performance_schema.replication_applier_filters.
      expect(out).to.include(`Replay: the target's applier stopped by itself before ${dropGtid} (Until_Condition SQL_BEFORE_GTIDS), whose GTID event it received`);
      const used = /the channel's filter REPLICATE_REWRITE_DB \(app,app_copy\) was used (\d+) time\(s\)/.exec(out);
      expect(used, out).to.not.equal(null);
      expect(Number(used[1])).to.be.above(PER_CLIENT); // each transaction's TABLE_MAP (and statements' default schema) mapped by the server
      const sums = await checksumTables(target, TABLES.map((t) => t.replace(/^app\./, 'app_copy.')));
      expect(Object.values(sums)).to.deep.equal(TABLES.map((t) => expected[t]));
      expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'app'"))).to.equal(0);
      expect(Number(await target.value(`SELECT GTID_SUBSET('${dropGtid}', @@GLOBAL.gtid_executed)`))).to.equal(0); // the DROP: received, not applied
      expect(await channels()).to.equal(0);
    } finally {
      await target.query('DROP DATABASE IF EXISTS app_copy');
    }
  });

  it('without the openssl program (a fresh Debian): the applier over loopback only, not encrypted, said in the plan', async function () {
    await freshTarget();
    const bin = tempDir('restore-path-'); // every program of this PATH but openssl
    for (const dir of process.env.PATH.split(':').filter((d) => fs.existsSync(d))) {
      for (const tool of fs.readdirSync(dir)) {
        if (tool !== 'openssl' && !fs.existsSync(path.join(bin, tool))) fs.symlinkSync(path.join(dir, tool), path.join(bin, tool));
      }
    }
    const a = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--stopBefore=${dropGtid}`], { configHome: home, env: { PATH: bin } });
    expect(a.status, a.out).to.equal(0);
    expect(a.stdout).to.include('fed by the plugin from 127.0.0.1 (the target connects back there, not encrypted: over loopback, the rows do not ' +
      'leave this machine (the openssl program is not on PATH to make the listener\'s certificate)');
    expect(a.stdout).to.match(/Binary logs replayed: \d+ transaction\(s\) by the target's replication applier \(\d+ worker\(s\)\)/);
    expect(await checksums(target)).to.deep.equal(expected);
    expect(await channels()).to.equal(0);
  });

  it('until, preset fastest with 2 threads: every table as the source had it just before the DROP; 2 applier workers, put back', async function () {
    await freshTarget();
    const a = load([`--until=${beforeDrop}`, '--replayWith=applier', '--preset=fastest', '--threads=2']);
    expect(a.status, a.out).to.equal(0);
    expect(a.stdout).to.include('replica_parallel_workers 2 (the load\'s threads, put back after)');
    expect(a.stdout).to.match(/by the target's replication applier \(2 worker\(s\), over TLSv1\.[23]\)/);
    // until as a time, 2 workers: the server's own stop before the DROP, the first transaction at or after it.
    expect(a.stdout).to.include(`Replay: the target's applier stopped by itself before ${dropGtid} (Until_Condition SQL_BEFORE_GTIDS)`);
    expect(await checksums(target)).to.deep.equal(expected);
    expect(await channels()).to.equal(0);
    expect(Number(await target.value('SELECT @@GLOBAL.replica_parallel_workers'))).to.equal(4);
  });

  it('auto, a target that cannot connect back to the plugin: the sessions replay instead, the target\'s error quoted; explicit "applier" refused', async function () {
    await freshTarget();
    await unreachableTarget(async (uri) => {
      const applier = cli(uri, ['load', dump, `--binlogs=${folder}`, `--stopBefore=${dropGtid}`, '--replayWith=applier', '--output-format=json'], { configHome: home });
      expect(applier.status, applier.out).to.equal(1);
      expect(JSON.parse(applier.stdout).error.data, applier.out).to.include({ phase: 'replay' });
      expect(JSON.parse(applier.stdout).error.data.cause).to.include({ code: 'REPLAY_APPLIER_REFUSED' });
      expect(JSON.parse(applier.stdout).error.message).to.match(/could not connect back to the plugin at 127\.0\.0\.1:\d+ \(its replication connection says: MySQL error 2003/)
        .and.include('nothing was applied');
      expect(await channels()).to.equal(0);
      expect(await gtidExecuted()).to.not.include(uuid); // the load's own GTIDs only: no replayed transaction
      // The same command without replayWith: the load resumes (nothing left), the replay falls back.
      const a = cli(uri, ['load', dump, `--binlogs=${folder}`, `--stopBefore=${dropGtid}`], { configHome: home });
      expect(a.status, a.out).to.equal(0);
      expect(a.stdout).to.include('applied by: the target\'s replication applier');
      expect(a.out.replace(/\s+/g, ' ')).to.match(/replayWith "auto": the target could not connect back to the plugin at 127\.0\.0\.1:\d+ \(its replication connection says: MySQL error 2003: .*\); nothing was applied and the channel was removed, so the plugin's sessions replay instead/);
      expect(a.stdout).to.match(/Binary logs replayed: \d+ transaction\(s\) over \d+ session\(s\) \(replayWith "auto": the target's applier could not be used: the target could not connect back/);
      expect(await checksums(target)).to.deep.equal(expected);
      expect(await channels()).to.equal(0);
    });
  });

  it('Ctrl-C (SIGINT) in restore.load() during the applier\'s replay: the next load names what is left; restore.revert() puts it back (the channel removed) and the same call ends it, every table equal', async function () {
    await freshTarget();
    const options = { binlogs: folder, stopBefore: dropGtid, replayWith: 'applier', preset: 'fastest', threads: 2 };
    const call = `restore.load(${JSON.stringify(dump)}, ${JSON.stringify(options)})`;
    // So that Ctrl-C lands mid-replay, the replay is held back: once the dump's rows are loaded, a transaction of the
    // test locks every row (and the gaps) of app.a and app.b, which the applier waits for; it ends 1.5 s after Ctrl-C.
    const locker = await mysql.createConnection({ host: '127.0.0.1', port: target.port, user: 'root', password: '' });
    let locked = false;
    const k = await killShellWhen([target.uri, '--js', '-e', call], { configHome: home }, async () => {
      if (!locked) {
        const n = await target.value('SELECT (SELECT COUNT(*) FROM app.a) + (SELECT COUNT(*) FROM app.b)').catch(() => 0);
        if (Number(n) < 200) return null;
        await locker.query('START TRANSACTION');
        await locker.query('SELECT COUNT(*) FROM app.a FOR UPDATE');
        await locker.query('SELECT COUNT(*) FROM app.b FOR UPDATE');
        locked = true;
      }
      if (!((await channels()) > 0)) return null;
      setTimeout(() => locker.query('ROLLBACK').catch(() => {}), 1500);
      return true;
    }, 90000, 'SIGINT');
    await locker.end();
    expect(k.atKill, k.out).to.not.equal(null);
    // MySQL Shell 9.1 ends the script at once ("Script execution interrupted by user"): no finally of the plugin runs,
    // so what the load changed stays, recorded in the restore state file, as after a kill.
    expect(k.out).to.include('Script execution interrupted by user');
    const refused = runJs(target.uri, call, { configHome: home });
    expect(refused.error && refused.error.message, refused.out).to.include('An earlier restore left changes on this server that were never put back')
      .and.include('replica_parallel_workers set to 2 by restore.load (original value 4)').and.include('Run restore.revert() first');
    expect(await channels()).to.equal(1);
    const rv = runJs(target.uri, 'restore.revert()', { configHome: home });
    expect(rv.error, rv.out).to.equal(null);
    expect(rv.out).to.include('Replication channel \'restore_replay\' left by an interrupted replay: stopped and removed (with its password).');
    expect(await channels()).to.equal(0);
    expect(Number(await target.value("SELECT COUNT(*) FROM mysql.slave_master_info WHERE Channel_name = 'restore_replay'"))).to.equal(0);
    expect(Number(await target.value('SELECT @@GLOBAL.replica_parallel_workers'))).to.equal(4);
    expect(String(await target.value("SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_redo_log_enabled'")))
      .to.equal('ON');
    const again = runJs(target.uri, call, { configHome: home });
    expect(again.error, again.out).to.equal(null);
    expect(await checksums(target)).to.deep.equal(expected);
    expect(await channels()).to.equal(0);
    expect(Number(await target.value('SELECT @@GLOBAL.replica_parallel_workers'))).to.equal(4);
  });

  it('over TLS only: a stranger\'s oversized packet, plain or wrong handshake refused, the replica unaffected; a killed mysqlsh leaves its channel and password, the same command removes them first and ends the replay', async function () {
    await freshTarget();
    const args = [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, `--stopBefore=${dropGtid}`, '--replayWith=applier'];
    // The replay held back (as in the Ctrl-C test) so that the channel is connected while the listener is knocked on.
    const locker = await mysql.createConnection({ host: '127.0.0.1', port: target.port, user: 'root', password: '' });
    let locked = false;
    let seen = null;
    const k = await killShellWhen(args, { configHome: home }, async () => {
      if (!locked) {
        const n = await target.value('SELECT (SELECT COUNT(*) FROM app.a) + (SELECT COUNT(*) FROM app.b)').catch(() => 0);
        if (Number(n) < 200) return null;
        await locker.query('START TRANSACTION');
        await locker.query('SELECT COUNT(*) FROM app.a FOR UPDATE');
        await locker.query('SELECT COUNT(*) FROM app.b FOR UPDATE');
        locked = true;
      }
      const [rows] = await target.conn.query("SELECT c.HOST AS host, c.PORT AS port, c.SSL_ALLOWED AS sslAllowed, s.SERVICE_STATE AS io, s.RECEIVED_TRANSACTION_SET AS rx " +
        'FROM performance_schema.replication_connection_configuration c JOIN performance_schema.replication_connection_status s USING (CHANNEL_NAME) ' +
        "WHERE CHANNEL_NAME = 'restore_replay'");
      if (!rows.length || rows[0].io !== 'ON' || !rows[0].rx) return null;
      const at = rows[0];
      const probes = {};
      for (const kind of ['oversized', 'plain', 'wrong']) probes[kind] = await probe(at.port, at.host, kind, 'mysqlsh_restore');
      const [after] = await target.conn.query('SELECT SERVICE_STATE AS io, LAST_ERROR_NUMBER AS err FROM performance_schema.replication_connection_status ' +
        "WHERE CHANNEL_NAME = 'restore_replay'");
      seen = { at, probes, after: after[0] };
      return true;
    });
    await locker.query('ROLLBACK').catch(() => {});
    await locker.end();
    expect(k.atKill, k.out).to.not.equal(null);
    expect(k.signal, k.out).to.equal('SIGKILL');
    expect(seen.at.sslAllowed).to.equal('YES'); // the channel: SOURCE_SSL = 1
    // Before authentication: a 64 KB packet closes the connection unanswered; a client that asks no TLS is refused
    // (3159); over TLS, a wrong scramble is refused (1045). The replica's own connection stays up, without error.
    expect(seen.probes.oversized).to.include({ closed: true });
    expect(seen.probes.oversized.packets).to.deep.equal([]);
    expect(seen.probes.plain.packets.map(errorCode)).to.deep.equal([3159]);
    expect(seen.probes.wrong.tls).to.match(/^TLSv1\.[23]$/);
    expect(seen.probes.wrong.packets.map(errorCode)).to.deep.equal([1045]);
    expect(seen.after).to.deep.equal({ io: 'ON', err: 0 });
    // What a killed run leaves: the channel, its password in mysql.slave_master_info.
    expect(await channels()).to.equal(1);
    const kept = "SELECT COUNT(*) FROM mysql.slave_master_info WHERE Channel_name = 'restore_replay'";
    expect(Number(await target.value(kept))).to.equal(1);
    // A dry run (as any refused load) changes nothing: the plan says the channel goes first, and it stays.
    const dry = cli(target.uri, args.slice(3).concat(['--dry-run']), { configHome: home });
    expect(dry.status, dry.out).to.equal(0);
    const planned = 'Replication channel \'restore_replay\' left by an interrupted replay: stopped and removed (with its password) first.';
    expect(dry.stdout).to.include(planned);
    expect(Number(await target.value(kept))).to.equal(1);
    const again = cli(target.uri, args.slice(3), { configHome: home });
    expect(again.status, again.out).to.equal(0);
    const line = 'Replication channel \'restore_replay\' left by an interrupted replay: stopped and removed (with its password).';
    expect(again.stdout.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('Replication channel'))).to.deep.equal([planned, line]);
    expect(again.stdout.indexOf(line)).to.be.above(again.stdout.indexOf('restore.load plan for'));
    expect(again.out).to.not.match(/[0-9a-f]{32}/);
    expect(await checksums(target)).to.deep.equal(expected);
    expect(await channels()).to.equal(0);
    expect(Number(await target.value(kept))).to.equal(0);
  });
});
