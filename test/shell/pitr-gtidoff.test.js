'use strict';
// restore.load with binlogs from a source with GTIDs OFF (issue 43, item 5): the dump records only
// binlogFile:binlogPosition; the replay starts at the first transaction there, stops by time (or at a
// file:position), and gives each transaction a GTID of a UUID derived from the source and that position,
// numbered in the source's order, said in the plan: a replay killed mid-way continues with the same
// command, nothing applied twice, every table equal (CHECKSUM TABLE) to the source before the mistake.
// The source is a server with GTIDs off (binary log on); the target the suite's server (GTIDs on).
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const mysql = require('mysql2/promise');
const { startServer, checksumTables } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { killShellWhen } = require('../support/kill-shell');
const { needs } = require('../support/real');
const { suiteServer } = require('../support/root-hooks');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { sharedGroup } = require('../support/topology');

const TABLES = ['gtoff.t', 'gtoff.u'];
const ROWS = 1200; // transactions after the dump: enough for a kill to land mid-way

describe('restore load --binlogs: a source with GTIDs off, by file:position (real Shell, real servers)', function () {
  this.timeout(180000);
  let source, target, home, dump, folder, at, expected, beforeMistake, mistakeAt, uuid, planned, sourceUuid; // eslint-disable-line one-var

  const checksums = (server) => checksumTables(server, TABLES);

  // How many transactions intervals such as ':1-5:7' name.
  const count = (h) => h.split(':').slice(1).reduce((n, r) => { const [a, b] = r.split('-').map(Number); return n + (b || a) - a + 1; }, 0);

  // The derived UUID's intervals the target holds ('' when none).
  async function held() {
    const all = String(await target.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
    const m = new RegExp(`${uuid}((?::\\d+(?:-\\d+)?)+)`).exec(all);
    return m ? m[1] : '';
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    target = suiteServer();
    expect(String(await target.value('SELECT @@GLOBAL.gtid_mode'))).to.equal('ON');
    source = await startServer({ opts: '--gtid-mode=OFF --enforce-gtid-consistency=OFF' });
    expect(Number(await source.value('SELECT @@GLOBAL.log_bin'))).to.equal(1);
    sourceUuid = String(await source.value('SELECT @@GLOBAL.server_uuid'));
    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await target.query('DROP DATABASE IF EXISTS gtoff');
    await q('CREATE DATABASE gtoff');
    await q('CREATE TABLE gtoff.t (id INT PRIMARY KEY, v VARCHAR(40))');
    await q('CREATE TABLE gtoff.u (id INT PRIMARY KEY AUTO_INCREMENT, n INT)');
    await q(`INSERT INTO gtoff.t VALUES ${Array.from({ length: 100 }, (_, i) => `(${i}, 'r${i}')`).join(',')}`);
    dump = path.join(tempDir('restore-gtoff-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['gtoff'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const root = JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8'));
    const src = root.source && root.source.binlog ? root.source.binlog : root;
    at = { file: src.file || src.binlogFile, position: src.position !== undefined ? src.position : src.binlogPosition };
    expect(src.gtidExecuted || '', JSON.stringify(src)).to.equal('');
    expect(at.file).to.match(/\.\d{6}$/);
    // After the dump: ROWS one-statement transactions (inserts, updates, deletes), an ALTER, one over both tables.
    const c = await mysql.createConnection({ host: '127.0.0.1', port: source.port, user: 'root', password: '', multipleStatements: true });
    const stmts = [];
    for (let i = 0; i < ROWS; i++) {
      stmts.push(i % 5 === 0 ? `UPDATE gtoff.t SET v = 'u${i}' WHERE id = ${i % 100}` : i % 7 === 0 ? `DELETE FROM gtoff.t WHERE id = ${1000 + i - 7}`
        : `INSERT INTO gtoff.t VALUES (${1000 + i}, 'i${i}')`);
    }
    for (let k = 0; k < stmts.length; k += 200) await c.query(stmts.slice(k, k + 200).join('; '));
    await c.query('ALTER TABLE gtoff.t ADD COLUMN w INT DEFAULT 7');
    await c.query("START TRANSACTION; INSERT INTO gtoff.u (n) VALUES (1), (2); UPDATE gtoff.t SET v = 'both' WHERE id = 3; COMMIT");
    await new Promise((r) => setTimeout(r, 50));
    expected = await checksums(source);
    beforeMistake = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    const [status] = await c.query('SHOW BINARY LOG STATUS');
    mistakeAt = `${status[0].File}:${status[0].Position}`;
    // The transactions from the dump's position to the mistake, as the source's server lists them (a
    // statement that changed no row wrote none).
    planned = 0;
    for (const log of await c.query('SHOW BINARY LOGS').then((x) => x[0])) {
      if (log.Log_name < at.file) continue;
      const [events] = await c.query(`SHOW BINLOG EVENTS IN '${log.Log_name}'`);
      planned += events.filter((e) => e.Event_type === 'Anonymous_Gtid' && (e.Log_name > at.file || e.Pos >= at.position) &&
        `${e.Log_name}:${e.Pos}` !== mistakeAt && (e.Log_name < status[0].File || e.Pos < status[0].Position)).length;
    }
    expect(planned).to.be.above(ROWS / 2);
    await c.query('DELETE FROM gtoff.t WHERE id < 50'); // the mistake
    await c.query('INSERT INTO gtoff.u (n) VALUES (3)');
    await c.end();
    await q('FLUSH BINARY LOGS');
    // The files from the one the dump ends in (no index file: ordered by their names).
    folder = tempDir('restore-gtoff-binlogs-');
    const stem = at.file.replace(/\.\d{6}$/, '');
    for (const f of fs.readdirSync(source.datadir).filter((n) => n.startsWith(stem + '.') && /\.\d{6}$/.test(n) && n >= at.file)) {
      fs.copyFileSync(path.join(source.datadir, f), path.join(folder, f));
    }
  });

  after(async function () {
    if (target) await target.query('DROP DATABASE IF EXISTS gtoff');
    if (source) await source.stop();
  });

  it('the plan says the dump\'s file:position and the GTIDs the replay gives; a GTID stop refused, a file:position one taken; a target with GTIDs off refused', async function () {
    const r = runJs(target.uri, [
      `var plan = restore.load(${JSON.stringify(dump)}, {binlogs: ${JSON.stringify(folder)}, until: ${JSON.stringify(beforeMistake)}, dryRun: true, outputFormat: 'text'});`,
      'var refused = null;',
      `try { restore.load(${JSON.stringify(dump)}, {binlogs: ${JSON.stringify(folder)}, stopBefore: '3e11fa47-71ca-11e1-9e33-c80aa9429562:5', dryRun: true, outputFormat: 'none'}); }`,
      'catch (e) { refused = e.message; }',
      `var byPos = restore.load(${JSON.stringify(dump)}, {binlogs: ${JSON.stringify(folder)}, stopBefore: ${JSON.stringify(mistakeAt)}, dryRun: true, outputFormat: 'none'});`,
      '({refused: refused, byPos: byPos.replay || null})',
    ].join('\n'), { configHome: home });
    expect(r.error, r.out).to.equal(null);
    const m = new RegExp(`GTIDs: the dump records none \\(gtid_mode OFF at the source\\): transactions replayed from the source \\(server_uuid ${sourceUuid}\\) ${at.file.replace('.', '\\.')}:${at.position} ` +
      'onward get GTIDs ([0-9a-f-]{36}):1-(\\d+) \\(n: the n-th transaction').exec(r.out.replace(/\s+/g, ' '));
    expect(m, r.out).to.not.equal(null);
    uuid = m[1];
    expect(uuid[14], 'a name-based UUID (RFC 9562 version 8)').to.equal('8');
    expect(Number(m[2])).to.equal(planned);
    expect(r.out).to.match(new RegExp(`replay: ${planned} transaction\\(s\\) after the dump, up to until`));
    expect(r.out).to.match(/skipped: \d+ before the dump's position/);
    expect(r.value.refused).to.include('is a GTID, and the dump records none (GTIDs off on the source)').and.include('file:position');
    expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'gtoff'"))).to.equal(0);
    // A target with GTIDs off (the source itself): refused in the preflight, saying why gtid_mode ON is needed.
    const off = cli(source.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeMistake}`, '--dry-run'], { configHome: home });
    expect(off.status, off.out).to.equal(1);
    expect(off.out.replace(/\s+/g, ' ')).to.include('the target\'s gtid_mode is OFF').and.include('continue a stopped replay without applying anything twice');
  });

  it('until, killed mid-way: the same command continues, nothing applied twice, every table as the source had it before the mistake', async function () {
    expect(uuid, 'the plan test ran').to.be.a('string');
    const args = [target.uri, '--', 'restore', 'load', dump, `--binlogs=${folder}`, `--until=${beforeMistake}`, '--threads=4', '--replayWith=sessions'];
    const k = await killShellWhen(args, { configHome: home }, async () => {
      const h = await held();
      return count(h) >= 150 ? h : null;
    });
    expect(k.atKill, k.out).to.not.equal(null);
    expect(k.signal, k.out).to.equal('SIGKILL');
    // COMMITs overlap where the source's clock let its transactions run together: the replay's beginning, with
    // at most holes the clock allows (the next command refuses any other), short of the end.
    const done = count(await held());
    expect(done).to.be.below(planned);

    // Continued by the target's own applier (replayWith "applier"): the plugin's listener sends the anonymous
    // transactions under their derived GTIDs, and the applier goes on from what the sessions left.
    const again = cli(target.uri, args.slice(3, -1).concat(['--replayWith=applier']), { configHome: home });
    expect(again.status, again.out).to.equal(0);
    expect(again.stdout).to.include('by the target\'s replication applier');
    const r = /Binary logs replayed: (\d+) transaction\(s\) \((\d+) already on the target, skipped\)/.exec(again.stdout);
    expect(r, again.stdout).to.not.equal(null);
    expect([Number(r[1]), Number(r[2])]).to.deep.equal([planned - done, done]);
    expect(await held()).to.equal(`:1-${planned}`);
    expect(await checksums(target)).to.deep.equal(expected);

    // Once more: nothing to apply, the same tables.
    const third = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeMistake}`, '--ignore-existing-objects', '--load-data=false'],
      { configHome: home });
    expect(third.status, third.out).to.equal(0);
    expect(third.stdout).to.include(`Binary logs replayed: 0 transaction(s) (${planned} already on the target, skipped)`);
    expect(await checksums(target)).to.deep.equal(expected);

    // Rolled forward past the mistake (stopAfter its file:position): the next derived GTID, util.loadDump not run again;
    // gtoff.t as the source has it now (nothing wrote it after the mistake), gtoff.u as before the insert that followed.
    const forward = cli(target.uri, ['load', dump, `--binlogs=${folder}`, `--stop-after=${mistakeAt}`], { configHome: home });
    expect(forward.status, forward.out).to.equal(0);
    expect(forward.stdout.replace(/\s+/g, ' ')).to.include(`rolling forward from ${uuid}:${planned}, committed`)
      .and.include(`to stopAfter ${mistakeAt}`);
    expect(forward.stdout).to.include(`Binary logs replayed: 1 transaction(s) (${planned} already on the target, skipped)`);
    expect(await held()).to.equal(`:1-${planned + 1}`);
    expect(await checksums(target)).to.deep.equal({ 'gtoff.t': (await checksums(source))['gtoff.t'], 'gtoff.u': expected['gtoff.u'] });
  });

  it('onto a Group Replication primary: every member holds the derived GTIDs and the tables as the source had them', async function () {
    expect(uuid, 'the plan test ran').to.be.a('string');
    const group = await sharedGroup();
    const primary = await group.primary();
    try {
      const r = cli(primary.uri, ['load', dump, `--binlogs=${folder}`, `--until=${beforeMistake}`], { configHome: home });
      expect(r.status, r.out).to.equal(0);
      // replayWith left out ("auto"): the target's applier on a single-primary group's primary; the group gets it through the binary log.
      expect(r.stdout).to.include(`Binary logs replayed: ${planned} transaction(s) by the target's replication applier`);
      // The members table: each secondary ONLINE, applied everything, rows equal (the members step's own verification).
      for (const s of await group.secondaries()) {
        expect(r.stdout).to.match(new RegExp(`127\\.0\\.0\\.1:${s.port}\\s+group secondary\\s+ONLINE\\s+yes\\s+yes`));
      }
      await group.waitApplied();
      for (const m of group.members) {
        const all = String(await m.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
        expect(all, `member ${m.port}`).to.include(`${uuid}:1-${planned}`);
        expect(await checksums(m), `member ${m.port}`).to.deep.equal(expected);
      }
    } finally {
      await primary.query('DROP SCHEMA IF EXISTS gtoff');
      await group.waitApplied();
    }
  });
});
