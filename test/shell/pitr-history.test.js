'use strict';
// restore.load with binlogs, refused in the preflight when the files cannot be replayed onto this dump
// (issue 53, item 2; lib/binlog/replay-history.js): the binary logs of another server holding the same
// schema, the dumped server's own of a history begun again (GTIDs alike, positions not), an until before the dump's own point, an INCIDENT event (crafted into a real file; mysqlbinlog
// reads it) between the dump and the stop, a dump made with consistent: false, a transaction above the
// group's size limit. Each: rc 1, the refusal's text, the target unchanged (no schema, gtid_executed).
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { gtidSourceAndTarget, startServer, checksumTables } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs } = require('../support/real');
const { suiteServer } = require('../support/root-hooks');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { sharedGroup } = require('../support/topology');
const { events, withIncident } = require('../support/binlog-craft');

const SCHEMA = 'hist';
const LIMIT = 20000; // the group's transaction size limit in the last test: the big transaction is above it

describe('restore load --binlogs: files that cannot be replayed onto the dump, refused before anything changes (real Shell, real servers)', function () {
  this.timeout(300000);
  let source, other, rep, target, home, dump, loose, files, later, foreign, early, uuid, bigGtid; // eslint-disable-line one-var

  const copyLogs = (server, names) => {
    const dir = tempDir('restore-hist-logs-');
    fs.readdirSync(server.datadir).filter((n) => /^binlog\.\d{6}$/.test(n) && (!names || names.includes(n)))
      .forEach((n) => fs.copyFileSync(path.join(server.datadir, n), path.join(dir, n)));
    return dir;
  };
  const state = async (server) => ({ gtids: String(await server.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, ''),
    schema: Number(await server.value(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '${SCHEMA}'`)) });
  // The load refused in its preflight: rc 1, the JSON error, the server as it was.
  async function refused(server, dumpDir, args) {
    const before = await state(server);
    const r = cli(server.uri, ['load', dumpDir, ...args, '--output-format=json'], { configHome: home });
    if (process.env.SHOW_REFUSALS) console.log(`$ mysqlsh ... -- restore load <dump> ${args.join(" ")}\n${JSON.parse(r.stdout).error.message}\n`);
    expect(r.status, r.out).to.equal(1);
    const e = JSON.parse(r.stdout).error;
    expect(e.message, r.out).to.include('Nothing was changed.');
    expect(await state(server)).to.deep.equal(before);
    expect(before.schema).to.equal(0);
    return e;
  }
  const dumpOf = async (name, options) => {
    const dir = path.join(tempDir('restore-hist-dump-'), name);
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(dir)}, ` +
      `${JSON.stringify(Object.assign({ showProgress: false }, options))}); null`, { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    return dir;
  };

  before(async function () {
    needs(this, ['server', 'shell']);
    // rep: made a replica of source in its own test (server_id 3: the others keep the default).
    [{ source, target: other, uuid }, rep] = await Promise.all([gtidSourceAndTarget(),
      startServer({ opts: '--gtid-mode=ON --enforce-gtid-consistency=ON --server-id=3' })]);
    target = suiteServer();
    await target.query(`DROP DATABASE IF EXISTS ${SCHEMA}`);
    home = installPlugin(tempDir('restore-cfg-'));
    const ddl = [`CREATE DATABASE ${SCHEMA}`, `CREATE TABLE ${SCHEMA}.t (id INT PRIMARY KEY, v VARCHAR(200))`];
    for (const s of ddl) await source.query(s);
    for (let i = 1; i <= 10; i++) await source.query(`INSERT INTO ${SCHEMA}.t VALUES (${i}, 'r${i}')`);
    early = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 11; i <= 13; i++) await source.query(`INSERT INTO ${SCHEMA}.t VALUES (${i}, 'late${i}')`); // in the dump, after early
    dump = await dumpOf('nightly');
    loose = await dumpOf('loose', { consistent: false });
    await source.query('FLUSH BINARY LOGS');
    for (let i = 1; i <= 3; i++) await source.query(`UPDATE ${SCHEMA}.t SET v = 'after${i}' WHERE id = ${i}`);
    await source.query('SET SESSION cte_max_recursion_depth = 1000');
    await source.query(`INSERT INTO ${SCHEMA}.t WITH RECURSIVE n(i) AS (SELECT 100 UNION ALL SELECT i + 1 FROM n WHERE i < 399) ` +
      "SELECT i, REPEAT('x', 150) FROM n");
    bigGtid = `${uuid}:${/:1-(\d+)$/.exec(String(await source.value('SELECT @@GLOBAL.gtid_executed')))[1]}`;
    await source.query('FLUSH BINARY LOGS');
    files = copyLogs(source);
    const names = fs.readdirSync(files).sort();
    later = copyLogs(source, names.slice(1)); // from the file after the dump on: the dump's transactions in none
    // Another server holding the same schema and rows: its own server_uuid, empty previous GTIDs, 5 updates.
    for (const s of ddl) await other.query(s);
    await other.query(`INSERT INTO ${SCHEMA}.t VALUES ${Array.from({ length: 13 }, (_, i) => `(${i + 1}, 'r${i + 1}')`).join(',')}`);
    for (let i = 1; i <= 5; i++) await other.query(`UPDATE ${SCHEMA}.t SET v = 'other${i}' WHERE id = ${i}`);
    await other.query('FLUSH BINARY LOGS');
    foreign = copyLogs(other);
  });

  after(async function () {
    await Promise.all([source, other, rep].filter(Boolean).map((s) => s.stop()));
    if (target) await target.query(`DROP DATABASE IF EXISTS ${SCHEMA}`);
  });

  it('the binary logs of another server holding the same schema: refused, naming the file, what is missing and what to do', async function () {
    const e = await refused(target, dump, [`--binlogs=${foreign}`]);
    expect(e.code).to.equal('BINLOG_OTHER_HISTORY');
    const otherUuid = String(await other.value('SELECT @@server_uuid'));
    expect(e.message).to.match(new RegExp(`the files of binlog\\.000001( … binlog\\.\\d+)? are not the history of the dumped server: the dump holds ${uuid}:1-\\d+`))
      .and.include(`they carry ${otherUuid}:1-`).and.include('another server\'s').and.include('SHOW BINARY LOGS');
  });

  it('a dump of a replica holding a local write of its own: replayed from its source\'s files and from its own, equal to the source', async function () {
    await source.query(`SET SESSION sql_log_bin = 0; CREATE USER 'hist_repl'@'%' IDENTIFIED BY 'hist-pw'; ` +
      "GRANT REPLICATION SLAVE ON *.* TO 'hist_repl'@'%'; SET SESSION sql_log_bin = 1");
    await rep.query(`CHANGE REPLICATION SOURCE TO SOURCE_HOST = '127.0.0.1', SOURCE_PORT = ${source.port}, SOURCE_USER = 'hist_repl', ` +
      "SOURCE_PASSWORD = 'hist-pw', SOURCE_AUTO_POSITION = 1, GET_SOURCE_PUBLIC_KEY = 1; START REPLICA");
    const caughtUp = async () => {
      const want = String(await source.value('SELECT @@GLOBAL.gtid_executed')).replace(/\s/g, '');
      expect(Number(await rep.value('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, 60) AS w', [want]))).to.equal(0);
    };
    await caughtUp();
    await rep.query('CREATE DATABASE rep_local'); // an errant transaction: the replica's own GTID, in no file of the source
    const repUuid = String(await rep.value('SELECT @@server_uuid'));
    const fromRep = path.join(tempDir('restore-hist-rep-'), 'replica');
    const d = await withShellDumper(rep, () => runJs(rep.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(fromRep)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    for (let i = 4; i <= 6; i++) await source.query(`UPDATE ${SCHEMA}.t SET v = 'rep${i}' WHERE id = ${i}`);
    await source.query('FLUSH BINARY LOGS');
    await caughtUp();
    await rep.query('FLUSH BINARY LOGS');
    const expected = await checksumTables(source, [`${SCHEMA}.t`]);
    // Onto `other` (its files copied already), made a fresh target before each load.
    for (const [name, logs] of [['its source\'s', copyLogs(source)], ['its own', copyLogs(rep)]]) {
      await other.query(`DROP DATABASE IF EXISTS ${SCHEMA}; RESET BINARY LOGS AND GTIDS`);
      const r = cli(other.uri, ['load', fromRep, `--binlogs=${logs}`], { configHome: home });
      expect(r.status, `${name}: ${r.out}`).to.equal(0);
      expect(r.stdout).to.include('Binary logs replayed: 3 transaction(s)');
      if (name !== 'its own') expect(r.stdout.replace(/\s+/g, ' ')).to.include(`the dump's ${repUuid}:1 (the dumped server's own transactions`);
      expect(await checksumTables(other, [`${SCHEMA}.t`]), name).to.deep.equal(expected);
    }
  });

  it('until before the dump\'s own point: refused, naming the dump\'s transaction committed after it and both times; the files ' +
    'from after the dump only: refused, the files cannot tell', async function () {
    const e = await refused(target, dump, [`--binlogs=${files}`, `--until=${early}`]);
    expect(e.code).to.equal('OPTION_INVALID');
    const stamp = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{6}';
    expect(e.message).to.match(new RegExp(`until ${early.replace(/\./g, '\\.')} is before the dump's own point: transaction ${uuid}:\\d+ ` +
      `\\(binlog\\.000001:\\d+\\), committed ${stamp}, is in the dump \\(its gtidExecuted\\)`)).and.match(/times in SYSTEM \(UTC\)|times in \S+/);
    const e2 = await refused(target, dump, [`--binlogs=${later}`, `--until=${early}`]);
    expect(e2.code).to.equal('OPTION_INVALID');
    expect(e2.message).to.match(new RegExp(`until ${early.replace(/\./g, '\\.')} is before the first file here, binlog\\.000002, began \\(${stamp}`))
      .and.include('these files cannot tell');
  });

  it('an INCIDENT event between the dump and the stop: refused naming file:position, the stop before it offered; that stop replays', async function () {
    const dir = tempDir('restore-hist-incident-');
    fs.readdirSync(files).forEach((n) => fs.copyFileSync(path.join(files, n), path.join(dir, n)));
    const file = path.join(dir, 'binlog.000002');
    const buf = fs.readFileSync(file);
    // After the first transaction of the file (its XID event), before the second.
    const xids = events(buf).filter((x) => x.type === 16);
    const at = xids[0].pos + xids[0].length;
    fs.writeFileSync(file, withIncident(buf, at));
    const bin = path.join(path.dirname(source.client.trim().split(/\s+/)[0]), 'mysqlbinlog');
    const read = spawnSync(bin, ['--base64-output=DECODE-ROWS', '-v', file], { encoding: 'utf8' });
    expect(read.status, read.stderr).to.equal(0);
    // mysqlbinlog names it and breaks its output there on purpose.
    expect(read.stdout).to.include('# Incident: LOST_EVENTS').and.include('RELOAD DATABASE; # Shall generate syntax error');
    const next = events(fs.readFileSync(file)).find((x) => x.pos > at && x.type === 33); // the next transaction's GTID event
    const e = await refused(target, dump, [`--binlogs=${dir}`]);
    expect(e.code).to.equal('BINLOG_INCIDENT');
    expect(e.message).to.include(`an INCIDENT event at binlog.000002:${at} (the source lost events there`)
      .and.include(`stopBefore: "binlog.000002:${next.pos}"`);
    // The stop offered: the transaction before the INCIDENT replayed, nothing after it.
    const r = cli(target.uri, ['load', dump, `--binlogs=${dir}`, `--stop-before=binlog.000002:${next.pos}`], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include('Binary logs replayed: 1 transaction(s)');
    expect(await target.query(`SELECT id, v FROM ${SCHEMA}.t WHERE id <= 2 ORDER BY id`)).to.deep.equal([{ id: 1, v: 'after1' }, { id: 2, v: 'r2' }]);
    await target.query(`DROP DATABASE ${SCHEMA}`);
  });

  it('a dump made with consistent: false (or gtidExecutedInconsistent): refused in the preflight, before util.loadDump', async function () {
    const e = await refused(target, loose, [`--binlogs=${files}`]);
    expect(e.code).to.equal('DUMP_INCONSISTENT');
    expect(e.message).to.include('the dump was made with consistent: false').and.include('Use a dump made with consistent: true');
    // What the Shell writes when it could not hold writes while it read gtidExecuted: refused the same way.
    const shaky = path.join(tempDir('restore-hist-shaky-'), 'shaky');
    fs.cpSync(dump, shaky, { recursive: true });
    const root = JSON.parse(fs.readFileSync(path.join(shaky, '@.json'), 'utf8'));
    fs.writeFileSync(path.join(shaky, '@.json'), JSON.stringify(Object.assign(root, { gtidExecutedInconsistent: true })));
    const e2 = await refused(target, shaky, [`--binlogs=${files}`]);
    expect(e2.code).to.equal('DUMP_INCONSISTENT');
    expect(e2.message).to.include('gtidExecutedInconsistent: true').and.include('could skip transactions or apply them twice');
  });

  it('the dumped server\'s own files of a history begun again (RESET BINARY LOGS AND GTIDS, GTIDs numbered alike): refused at the dump\'s binlogFile:binlogPosition', async function () {
    // On `other`: a dump, then the history begun again with the same GTIDs and more, written differently.
    await other.query(`DROP DATABASE IF EXISTS ${SCHEMA}; RESET BINARY LOGS AND GTIDS; CREATE DATABASE ${SCHEMA}; ` +
      `CREATE TABLE ${SCHEMA}.t (id INT PRIMARY KEY, v VARCHAR(200))`);
    for (let i = 1; i <= 4; i++) await other.query(`INSERT INTO ${SCHEMA}.t VALUES (${i}, 'r${i}')`);
    const dir = path.join(tempDir('restore-hist-dump-'), 'before-reset');
    const d = await withShellDumper(other, () => runJs(other.uri, `util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(dir)}, {showProgress: false}); null`,
      { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const at = JSON.parse(fs.readFileSync(path.join(dir, '@.json'), 'utf8'));
    await other.query(`DROP DATABASE ${SCHEMA}; RESET BINARY LOGS AND GTIDS; CREATE DATABASE ${SCHEMA}; ` +
      `CREATE TABLE ${SCHEMA}.t (id INT PRIMARY KEY, v VARCHAR(200))`);
    for (let i = 1; i <= 8; i++) await other.query(`INSERT INTO ${SCHEMA}.t VALUES (${i}, '${'again'.repeat(i)}')`);
    await other.query('FLUSH BINARY LOGS');
    // The GTIDs agree (the files carry the dump's and more); the position does not.
    const e = await refused(target, dir, [`--binlogs=${copyLogs(other)}`]);
    expect(e.code).to.equal('BINLOG_DUMP_POINT');
    expect(e.message).to.include(`the dump ends at ${at.binlogFile}:${at.binlogPosition} (its binlogFile:binlogPosition) with the transactions ` +
      `of its gtidExecuted, and in ${at.binlogFile} here, written by the dumped server (server_id 1`).and.include('RESET BINARY LOGS AND GTIDS');
    await other.query(`DROP DATABASE ${SCHEMA}`);
  });

  it('a group primary: a transaction above group_replication_transaction_size_limit refused, named with its size', async function () {
    const group = await sharedGroup();
    const primary = await group.primary();
    const limits = [];
    for (const m of group.members) limits.push(Number(await m.value('SELECT @@GLOBAL.group_replication_transaction_size_limit')));
    try {
      for (const m of group.members) await m.query(`SET GLOBAL group_replication_transaction_size_limit = ${LIMIT}`);
      const e = await refused(primary, dump, [`--binlogs=${files}`]);
      expect(e.code).to.equal('BINLOG_TOO_LARGE');
      expect(e.message).to.match(new RegExp(`transaction ${bigGtid} \\(binlog\\.000002:\\d+\\) is \\d+ bytes in the binary log, above this group's ` +
        `group_replication_transaction_size_limit \\(${LIMIT} bytes\\)`)).and.include(`stopBefore: "${bigGtid}"`);
      expect(e.data.size).to.be.above(LIMIT);
    } finally {
      for (const [i, m] of group.members.entries()) await m.query(`SET GLOBAL group_replication_transaction_size_limit = ${limits[i]}`);
      await primary.query(`DROP SCHEMA IF EXISTS ${SCHEMA}`); // left only by a load that was not refused
      await group.waitApplied();
    }
  });

  // Last: it writes more on the source. Weeks of binary logs before a dump cost nothing: not read.
  it('a dump taken in a later file: the files before it (only what the dump holds) are not read, said in the plan; the replay equals the source', async function () {
    await source.query('FLUSH BINARY LOGS');
    await source.query(`UPDATE ${SCHEMA}.t SET v = 'late' WHERE id = 5`);
    const newer = await dumpOf('newer');
    await source.query(`UPDATE ${SCHEMA}.t SET v = 'after newer' WHERE id = 6`);
    await source.query('FLUSH BINARY LOGS');
    const all = copyLogs(source);
    const names = fs.readdirSync(all).sort();
    const at = JSON.parse(fs.readFileSync(path.join(newer, '@.json'), 'utf8')).binlogFile;
    const skipped = names.indexOf(at);
    expect(skipped, names.join(' ')).to.be.above(1);
    const r = cli(target.uri, ['load', newer, `--binlogs=${all}`], { configHome: home });
    try {
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.include(`the ${skipped} file(s) before ${at} (${names[0]} … ${names[skipped - 1]}) hold only transactions the dump ` +
        `holds (${at}'s previous GTIDs are all in its gtidExecuted): not read`);
      expect(await checksumTables(target, [`${SCHEMA}.t`])).to.deep.equal(await checksumTables(source, [`${SCHEMA}.t`]));
    } finally {
      await target.query(`DROP DATABASE IF EXISTS ${SCHEMA}`);
      await target.query('RESET BINARY LOGS AND GTIDS');
    }
  });
});
