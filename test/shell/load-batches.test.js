'use strict';
// Many tables: util.loadDump in calls of a slice each (lib/run/load-batches.js), judged by the real
// Shell 9.1 and a real server. The dump: a real util.dumpInstance dump of an account and a schema with a table, a
// trigger (inserting into a third), a procedure, a function and an event, and of a schema with a view over the first; the
// first schema's table then copied file by file into 1,700 tables (creating and dumping 1,700 tables
// takes longer than loading them). Every object and row there afterwards; a load killed in its second
// call and run again ends the same.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, tempDir, mysqlsh } = require('../support/shell');
const { killMidLoad } = require('../support/kill-load');
const { suiteServer } = require('../support/root-hooks');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { serverFingerprint } = require('../support/fingerprint');

const S = 'lb_tabs';
const V = 'lb_view';
const COPIES = 1700;
const USER = "'lb_user'@'%'";
const name = (i) => `c${String(i).padStart(4, '0')}`;

// Copies table `tmpl` of the dump into COPIES tables of the same rows: its files, the schema's
// table list and @.done.json's per-table figures.
function multiply(dir) {
  const schemaFile = path.join(dir, `${S}.json`);
  const schema = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  const done = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8'));
  const json = fs.readFileSync(path.join(dir, `${S}@tmpl.json`), 'utf8');
  const sql = fs.readFileSync(path.join(dir, `${S}@tmpl.sql`), 'utf8');
  for (let i = 0; i < COPIES; i++) {
    const t = name(i);
    fs.writeFileSync(path.join(dir, `${S}@${t}.json`), json.replace('"table": "tmpl"', `"table": "${t}"`));
    fs.writeFileSync(path.join(dir, `${S}@${t}.sql`), sql.replace(/`tmpl`/g, `\`${t}\``));
    for (const ext of ['tsv.zst', 'tsv.zst.idx']) fs.copyFileSync(path.join(dir, `${S}@tmpl@@0.${ext}`), path.join(dir, `${S}@${t}@@0.${ext}`));
    schema.tables.push(t);
    schema.basenames[t] = `${S}@${t}`;
    done.tableDataBytes[S][t] = done.tableDataBytes[S].tmpl;
    done.tableRows[S][t] = done.tableRows[S].tmpl;
    done.chunkFileBytes[`${S}@${t}@@0.tsv.zst`] = done.chunkFileBytes[`${S}@tmpl@@0.tsv.zst`];
    done.dataBytes += done.tableDataBytes[S].tmpl;
  }
  fs.writeFileSync(schemaFile, JSON.stringify(schema));
  fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify(done));
}

// What a load leaves: tables, rows in all, the objects.
async function contents(server) {
  const tables = (await server.query('SELECT TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = ?',
    [S, 'BASE TABLE'])).map((r) => r.t).sort();
  let rows = 0;
  for (let i = 0; i < tables.length; i += 400) {
    rows += Number(await server.value(`SELECT SUM(n) FROM (${tables.slice(i, i + 400).map((t) => `SELECT COUNT(*) AS n FROM \`${S}\`.\`${t}\``)
      .join(' UNION ALL ')}) x`));
  }
  const names = async (sql) => (await server.query(sql)).map((r) => r.n).sort().join(',');
  return {
    tables: tables.length, rows,
    view: await server.value(`SELECT GROUP_CONCAT(v ORDER BY id) FROM \`${V}\`.\`recent\``),
    triggers: await names(`SELECT TRIGGER_NAME AS n FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = '${S}'`),
    routines: await names(`SELECT ROUTINE_NAME AS n FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = '${S}'`),
    events: await names(`SELECT EVENT_NAME AS n FROM information_schema.EVENTS WHERE EVENT_SCHEMA = '${S}'`),
    fired: Number(await server.value(`SELECT ${S}.twice(3)`)),
    grants: (await server.query(`SHOW GRANTS FOR ${USER}`)).map((r) => Object.values(r)[0]).sort().join('; '),
  };
}

describe('restore load of many tables in util.loadDump calls of a slice each (real Shell, real MySQL)', function () {
  let server;
  let dump;
  let pristine;
  before(async function () {
    needs(this, ['shell', 'server']);
    this.timeout(120000);
    server = suiteServer();
    pristine = await serverFingerprint(server);
    await server.query(`DROP SCHEMA IF EXISTS ${S}; DROP SCHEMA IF EXISTS ${V}; CREATE SCHEMA ${S}; CREATE SCHEMA ${V};
      CREATE TABLE ${S}.tmpl (id INT PRIMARY KEY, v VARCHAR(8), KEY (v)); INSERT INTO ${S}.tmpl VALUES (1, 'a'), (2, 'b');
      CREATE TABLE ${S}.audit (id INT AUTO_INCREMENT PRIMARY KEY, what VARCHAR(8));
      CREATE TABLE ${S}.src (id INT PRIMARY KEY);
      CREATE TRIGGER ${S}.src_ai AFTER INSERT ON ${S}.src FOR EACH ROW INSERT INTO ${S}.audit (what) VALUES ('src');
      CREATE FUNCTION ${S}.twice(x INT) RETURNS INT DETERMINISTIC RETURN 2 * x;
      CREATE PROCEDURE ${S}.noop() SELECT 1;
      CREATE EVENT ${S}.nightly ON SCHEDULE EVERY 1 DAY DISABLE DO DELETE FROM ${S}.audit;
      CREATE TABLE ${V}.own (id INT PRIMARY KEY); INSERT INTO ${V}.own VALUES (7);
      CREATE VIEW ${V}.recent AS SELECT t.id, t.v FROM ${S}.tmpl t JOIN ${V}.own o ON o.id > t.id;
      CREATE USER ${USER} IDENTIFIED BY 'Lb-batch-9'; GRANT SELECT ON ${S}.tmpl TO ${USER}; GRANT SELECT ON ${V}.recent TO ${USER}`);
    dump = path.join(tempDir('restore-batches-'), 'dump');
    const d = await withShellDumper(server, () => mysqlsh([server.uri, '--js', '-e',
      `util.dumpInstance('${dump}', {includeSchemas: ['${S}', '${V}'], users: true, includeUsers: ['lb_user'], showProgress: false})`],
    { env: DUMP_ENV }));
    expect(d.status, d.out).to.equal(0);
    await server.query(`DROP SCHEMA ${S}; DROP SCHEMA ${V}; DROP USER ${USER}`);
    multiply(dump);
  });
  after(async function () {
    if (!server) return;
    await server.query(`DROP SCHEMA IF EXISTS ${S}; DROP SCHEMA IF EXISTS ${V}; DROP USER IF EXISTS ${USER}`);
    expect(await serverFingerprint(server)).to.deep.equal(pristine);
  });

  const EXPECTED = { tables: COPIES + 3, rows: 2 * (COPIES + 1), view: 'a,b', triggers: 'src_ai', routines: 'noop,twice', events: 'nightly', fired: 6,
    grants: 'GRANT SELECT ON `lb_tabs`.`tmpl` TO `lb_user`@`%`; GRANT SELECT ON `lb_view`.`recent` TO `lb_user`@`%`; GRANT USAGE ON *.* TO `lb_user`@`%`' };

  it('sliced: every table, row, view, trigger, routine, event and account there; rows as loaded across the calls; killed in its second call, the same command ends the same', async function () {
    this.timeout(180000);
    // 1,704 tables: calls of about 20·sqrt(1,704) = 826, so 3 of ≤568 for the 1,703 of the schema without views;
    // the view's schema goes whole into the last call.
    const r = cli(server.uri, ['load', dump, '--preset=fastest', '--force', '--load-users']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/util\.loadDump in 3 calls of ≤568 tables \(the Shell's scheduler is quadratic in tables: 1,704 tables/);
    expect(r.stdout).to.include('util.loadDump call 2 of 3: 568 tables');
    expect(r.stdout).to.include('util.loadDump call 3 of 3: the load\'s own options, the tables above left out');
    expect(r.stdout).to.include(`Rows in all: ${EXPECTED.rows + 1} in 1704 table(s) (1704 as loaded)`);
    expect(await contents(server)).to.deep.equal(EXPECTED);
    await server.query(`DROP SCHEMA ${S}; DROP SCHEMA ${V}; DROP USER ${USER}`);

    // The preset safe (no server change to put back), killed once its second call runs LOAD DATA; the same
    // command resumes: the done call is a cheap resume.
    const args = ['--load-users'];
    const out = await killMidLoad(server, dump, args, { after: 'util.loadDump call 2 of 3', within: 90000 });
    expect(out).to.not.include('call 3 of 3');
    const again = cli(server.uri, ['load', dump, ...args]);
    expect(again.status, again.out).to.equal(0);
    expect(again.stdout).to.include('util.loadDump call 3 of 3');
    // A resumed load: every table counted, none as loaded.
    expect(again.stdout).to.include(`Rows in all: ${EXPECTED.rows + 1} in 1704 table(s) (1704 counted)`);
    expect(await contents(server)).to.deep.equal(EXPECTED);
    await server.query(`DROP SCHEMA ${S}; DROP SCHEMA ${V}; DROP USER ${USER}`);
  });

  it('an account of the dump already on the server, on a first attempt: one call, and the plan says why (dry run)', async function () {
    this.timeout(60000);
    await server.query(`CREATE USER ${USER}`);
    try {
      const r = cli(server.uri, ['load', dump, '--preset=fastest', '--load-users', '--dry-run']);
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.include('util.loadDump in one call of 1,704 tables: account \'lb_user\'@\'%\' exists: util.loadDump checks for ' +
        'existing accounts only in its first call');
    } finally {
      await server.query(`DROP USER ${USER}`);
    }
  });
});
