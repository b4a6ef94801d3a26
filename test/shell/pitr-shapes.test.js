'use strict';
// restore.load with binlogs on the shapes production binary logs hold (issue 53): one statement whose
// row events pass 4 MB (the sessions sent it cut in two BINLOG statements, the second without its table
// map, and the target mysqld died of signal 11), an empty transaction (an errant GTID's fix), CREATE
// TABLE … SELECT, XA committed in one phase, XA PREPARE then XA COMMIT / XA ROLLBACK, ANALYZE TABLE, a
// compressed transaction, a tagged GTID. Each road ends equal to the source (CHECKSUM TABLE, the source's
// GTIDs); a statement above the target's max_allowed_packet is refused before anything changes.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { gtidSourceAndTarget, checksumTables, copyBinlogs } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');

const TABLES = ['shp.t', 'shp.big', 'shp.c'];

// A GTID set's GTIDs of one UUID ("u:1-3:7:tg:1" → ['1', '2', '3', '7', 'tg:1']).
function numbers(set, uuid) {
  const out = [];
  for (const part of String(set || '').replace(/\s/g, '').split(',')) {
    if (!part.startsWith(`${uuid}:`)) continue;
    let tag = '';
    for (const r of part.slice(uuid.length + 1).split(':')) {
      if (!/^\d/.test(r)) { tag = `${r}:`; continue; }
      const [a, b] = r.split('-').map(Number);
      for (let n = a; n <= (b || a); n++) out.push(tag + n);
    }
  }
  return out;
}

describe('restore load --binlogs: the shapes of production binary logs (real Shell, real servers)', function () {
  this.timeout(300000);
  let source, target, home, dump, folder, uuid, expected, expectedGtids; // eslint-disable-line one-var

  const load = (extra) => cli(target.uri, ['load', dump, `--binlogs=${folder}`].concat(extra), { configHome: home });

  async function freshTarget() {
    fs.rmSync(path.join(home, 'restore', 'progress'), { recursive: true, force: true });
    await target.query('DROP DATABASE IF EXISTS shp');
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  async function sourceGtidsOn(server) {
    return numbers(await server.value('SELECT @@GLOBAL.gtid_executed'), uuid);
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    ({ source, target, uuid } = await gtidSourceAndTarget());
    home = installPlugin(tempDir('restore-cfg-'));
    const q = (sql) => source.query(sql);
    await q('CREATE DATABASE shp');
    await q('CREATE TABLE shp.t (id INT PRIMARY KEY, v INT)');
    await q('CREATE TABLE shp.big (id INT PRIMARY KEY, pad VARCHAR(1000))');
    await q('INSERT INTO shp.t VALUES (1, 1), (2, 2)');
    dump = path.join(tempDir('restore-pitrshp-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['shp'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    const inDump = numbers(JSON.parse(fs.readFileSync(path.join(dump, '@.json'), 'utf8')).gtidExecuted, uuid);
    await q('FLUSH BINARY LOGS');
    // One statement of 5,000 rows of 1 KB: about 5 MB of row events (rows events of 8 KB each, one table map).
    await q('SET SESSION cte_max_recursion_depth = 10000');
    await q("INSERT INTO shp.big WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000) SELECT i, REPEAT(CHAR(65 + i % 26), 1000) FROM n");
    await q(`SET gtid_next = '${uuid}:1000'`); // an empty transaction, as an errant GTID is fixed
    await q('BEGIN');
    await q('COMMIT');
    await q("SET gtid_next = 'AUTOMATIC'");
    await q('CREATE TABLE shp.c AS SELECT * FROM shp.t'); // atomic since 8.0.21: BEGIN, CREATE … START TRANSACTION, rows, XID
    await q("XA START 'c'");
    await q('INSERT INTO shp.t VALUES (5, 5)');
    await q("XA END 'c'");
    await q("XA COMMIT 'c' ONE PHASE");
    for (const [xid, id, end] of [['a', 3, "XA COMMIT 'a'"], ['b', 4, "XA ROLLBACK 'b'"]]) {
      await q(`XA START '${xid}'`);
      await q(`INSERT INTO shp.t VALUES (${id + 10}, ${id})`);
      await q(`XA END '${xid}'`);
      await q(`XA PREPARE '${xid}'`);
      await q(end);
    }
    await q('ANALYZE TABLE shp.t');
    await q('SET SESSION binlog_transaction_compression = ON');
    await q('UPDATE shp.t SET v = v * 10');
    await q('SET SESSION binlog_transaction_compression = OFF');
    await q("SET gtid_next = 'AUTOMATIC:tg'"); // a tagged GTID (MySQL 8.3+)
    await q('INSERT INTO shp.t VALUES (6, 6)');
    await q("SET gtid_next = 'AUTOMATIC'");
    await q('UPDATE shp.big SET pad = CONCAT(\'z\', SUBSTRING(pad, 2)) WHERE id <= 10');
    await q('FLUSH BINARY LOGS');
    expected = await checksumTables(source, TABLES);
    expectedGtids = (await sourceGtidsOn(source)).filter((n) => inDump.indexOf(n) < 0);
    folder = tempDir('restore-pitrshp-binlogs-');
    copyBinlogs(source, folder);
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  for (const road of ['sessions', 'applier']) {
    it(`replayWith "${road}": every shape equal to the source (CHECKSUM TABLE, the source's GTIDs), the target alive`, async function () {
      await freshTarget();
      const r = load([`--replayWith=${road}`]);
      expect(r.status, r.out).to.equal(0);
      expect(Number(await target.value('SELECT 1'))).to.equal(1);
      expect(await checksumTables(target, TABLES)).to.deep.equal(expected);
      expect(await sourceGtidsOn(target)).to.deep.equal(expectedGtids);
      expect(Number(await target.value('SELECT COUNT(*) FROM performance_schema.replication_connection_configuration'))).to.equal(0);
    });
  }

  it('a BINLOG statement above the target\'s max_allowed_packet: refused in the preflight, naming file:position and its size; nothing changed', async function () {
    await freshTarget();
    const was = Number(await target.value('SELECT @@GLOBAL.max_allowed_packet'));
    await target.query('SET GLOBAL max_allowed_packet = 4194304');
    try {
      const r = load(['--replayWith=sessions']);
      expect(r.status, r.out).to.equal(1);
      const text = r.out.replace(/\s+/g, ' ');
      expect(text).to.match(/one statement whose row events the replay's sessions send as one BINLOG statement of \d{7} bytes/);
      expect(text).to.match(/at binlog\.\d{6}:\d+, above the target's max_allowed_packet \(4194304 bytes\)/);
      expect(text).to.include('Nothing was changed.');
      expect(Number(await target.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shp'"))).to.equal(0);
      expect(await sourceGtidsOn(target)).to.deep.equal([]);
    } finally {
      await target.query(`SET GLOBAL max_allowed_packet = ${was}`);
    }
  });
});
