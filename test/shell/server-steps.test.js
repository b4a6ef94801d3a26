'use strict';
// The server steps of restore.load in the real mysqlsh on a real MySQL: analyze with histograms
// (kept out of the binary log under skipBinlog), the restart advice, the thread choice, the redo
// log members and status, a user preset, dropExisting.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
let shopCopyDir = null; // the sample dump, copied once: never given to the Shell in place
const shopCopy = () => (shopCopyDir && require('fs').existsSync(shopCopyDir) ? shopCopyDir : (shopCopyDir = require('../support/shell').copyDump(SAMPLE_SHOP)));
const { cli, installPlugin, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { serverFingerprint } = require('../support/fingerprint');
const { makeBigDump, BIG_SCHEMA } = require('../support/big-dump');

async function binlogPosition(server) {
  const rows = await server.query('SHOW BINARY LOG STATUS');
  return { file: rows[0].File, pos: Number(rows[0].Position) };
}

describe('restore load server steps (real Shell, real MySQL)', function () {
  let server;
  let big;
  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    big = await makeBigDump(server);
  });
  afterEach(async function () {
    if (server) await server.query(`DROP SCHEMA IF EXISTS ${BIG_SCHEMA}; DROP SCHEMA IF EXISTS shop`);
  });

  it('fastest with the redo log off: a larger index-build buffer in the loader sessions; no redo capacity change; ' +
    'keepSettings leaves it alone; with the redo log kept on, the redo capacity grows', async function () {
    const before = await serverFingerprint(server);
    const r = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.match(/^ {4}innodb_ddl_buffer_size \(session\) +1048576 +\d+ +index builds after the data/m);
    expect(r.stdout).to.match(/"sessionInitSql":\["SET SESSION innodb_ddl_buffer_size = \d+"\]/);
    expect(r.stdout).to.not.match(/^ {4}innodb_redo_log_capacity/m); // does nothing while the redo log is off
    expect(await serverFingerprint(server)).to.deep.equal(before);
    await server.query('DROP SCHEMA shop');
    // A setting's name mistyped would keep nothing (sync_binlog changed after all): refused, with the name meant.
    const typo = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force', '--keep-settings=sync_binlg', '--dry-run']);
    expect(typo.status, typo.out).to.equal(1);
    expect(typo.stderr).to.include('keepSettings: sync_binlg is not a setting restore tuning changes, so it would keep nothing. ' +
      'Did you mean \'sync_binlog\'? The settings tune may change: local_infile, innodb_flush_log_at_trx_commit, sync_binlog, ');
    const kept = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force', '--keep-settings=innodb_ddl_buffer_size,sync_binlog']);
    expect(kept.status, kept.out).to.equal(0);
    // Only the plan's echo of the options names them (keepSettings: [...]).
    expect(kept.stdout).to.not.match(/^(?! {2}restore\.load options:).*innodb_ddl_buffer_size|^ {4}sync_binlog/m);
    expect(kept.stdout).to.match(/^ {2}restore\.load options: .*keepSettings: \["innodb_ddl_buffer_size","sync_binlog"\]/m);
    // A table of the load's schema that the load does not create (dropExisting drops only the dump's): a crash with
    // the redo log off would lose it too, so the redo log stays on (before: turned off, "load again" said to repair it).
    await server.query('CREATE TABLE shop.keepme (id INT PRIMARY KEY); INSERT INTO shop.keepme VALUES (7)');
    const mine = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force', '--drop-existing', '--dry-run']);
    expect(mine.status, mine.out).to.equal(0);
    expect(mine.stdout).to.include('InnoDB redo log: ON now: left alone (kept ON although the preset turns it off: the schema(s) of this load ' +
      'hold 1 table(s) or view(s) it does not load (shop.keepme)');
    // Another schema on the server: the redo log stays on, so the redo capacity grows.
    await server.query('DROP SCHEMA shop');
    await server.query('CREATE SCHEMA keepme');
    try {
      const on = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force']);
      expect(on.status, on.out).to.equal(0);
      expect(on.stdout).to.match(/^ {4}innodb_redo_log_capacity /m);
    } finally {
      await server.query('DROP SCHEMA keepme');
    }
    expect(await serverFingerprint(server)).to.deep.equal(before);
  });

  it('fastest + analyze histogram: histograms built, nothing of the load in the binary log, no skip-log-bin advice, threads explained',
    async function () {
      expect(Number(await server.value('SELECT @@GLOBAL.log_bin'))).to.equal(1);
      const before = await serverFingerprint(server);
      const at = await binlogPosition(server);
      const r = cli(server.uri, ['load', big.dir, '--preset=fastest', '--analyze=histogram', '--force']);
      expect(r.status, r.out).to.equal(0);
      const hist = await server.query('SELECT COLUMN_NAME AS c FROM information_schema.COLUMN_STATISTICS ' +
        'WHERE SCHEMA_NAME = ? AND TABLE_NAME = ? ORDER BY 1', [BIG_SCHEMA, 'orders']);
      expect(hist.map((h) => h.c)).to.deep.equal(['amount', 'status']);
      const events = await server.query(`SHOW BINLOG EVENTS IN '${at.file}' FROM ${at.pos}`);
      const info = events.map((e) => e.Info).join('\n');
      expect(info).to.not.match(/ANALYZE/i);
      expect(info).to.not.include(BIG_SCHEMA);
      // The preset sets skipBinlog: advising a restart without the binary log would be pointless.
      expect(r.stdout).to.not.include('skip-log-bin');
      const m = r.stdout.match(/^ {2}Threads: (\d+) = the largest of the Shell's default \(4\), the client's CPUs \((\d+)\) and the server's innodb_read_io_threads \((\d+)\)/m);
      expect(m, r.stdout).to.not.equal(null);
      expect(Number(m[1])).to.equal(Math.max(4, Number(m[2]), Number(m[3])));
      expect(r.stdout).to.include(`"threads":${m[1]}`);
      expect(await serverFingerprint(server)).to.deep.equal(before);
    });

  it('tune without skipBinlog: the restart advice still names skip-log-bin (dry run)', function () {
    const r = cli(server.uri, ['load', big.dir, '--tune=true', '--dry-run=true']);
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include('skip-log-bin');
    expect(r.stdout).to.include('Dry run: nothing was dropped, changed or loaded.');
  });

  it('disableRedoLog, status, enableRedoLog: the redo log as the server reports it', async function () {
    expect(await server.redoLog()).to.equal('ON');
    const off = cli(server.uri, ['disableRedoLog', '--force=true']);
    try {
      expect(off.status, off.out).to.equal(0);
      expect(await server.redoLog()).to.equal('OFF');
      const st = cli(server.uri, ['status']);
      expect(st.status, st.out).to.equal(0);
      expect(st.stdout).to.match(/InnoDB redo log:\s+OFF/);
      expect(st.stdout).to.match(/left behind:\s+InnoDB redo log disabled by restore\.disableRedoLog/);
    } finally {
      const on = cli(server.uri, ['enableRedoLog']);
      expect(on.status, on.out).to.equal(0);
    }
    expect(await server.redoLog()).to.equal('ON');
    const st = cli(server.uri, ['status']);
    expect(st.stdout).to.match(/InnoDB redo log:\s+ON/);
    expect(st.stdout).to.not.include('left behind');
  });

  it('a user preset from <config home>/restore/presets.json, then dropExisting replaces only what the dump holds', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    // restore.analyze before the load: what it names that the server does not have is said, not a bare "Analyzed 0".
    const early = cli(server.uri, ['analyze', `--dump-dir=${shopCopy()}`], { configHome: home });
    expect(early.status, early.out).to.equal(0);
    expect(early.stdout).to.include('WARNING: 6 of the 6 table(s) of the dump are not on this server, not analyzed: shop.orders, shop.`order items`, ')
      .and.include('Analyzed 0 table(s) in 0 statement(s).');
    const typo = cli(server.uri, ['analyze', '--include-schemas=shpo', '--include-tables=shop.orders'], { configHome: home });
    expect(typo.status, typo.out).to.equal(0);
    expect(typo.stdout).to.include('WARNING: includeSchemas: shpo is not a schema on this server: nothing analyzed there.\n' +
      'WARNING: includeTables: shop.orders is not a base table on this server: not analyzed.\n');
    fs.mkdirSync(path.join(home, 'restore'), { recursive: true });
    const file = path.join(home, 'restore', 'presets.json');
    fs.writeFileSync(file, JSON.stringify({ nightly: { extends: 'safe', threads: 3, analyze: 'on' } }));
    const r = cli(server.uri, ['load', shopCopy(), '--preset=nightly'], { configHome: home });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include(`(preset nightly from ${file})`);
    expect(r.stdout).to.include('"threads":3');
    expect(r.stdout).to.match(/Analyze after the load: on/);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
    const analyzed = cli(server.uri, ['analyze', `--dump-dir=${shopCopy()}`], { configHome: home });
    expect(analyzed.stdout, analyzed.out).to.equal('Analyzed 6 table(s) in 1 statement(s).\n');

    // The same load again without dropExisting: refused before anything changes (util.loadDump would stop
    // at "Duplicate objects found" after writing its progress file, and a third run would then resume past
    // that check, adding the keyless audit_log's rows twice). Twice: the refusal leaves nothing to resume.
    const pristine = await serverFingerprint(server);
    for (let i = 0; i < 2; i++) {
      const twice = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--output-format=json'], { configHome: home });
      expect(twice.status, twice.out).to.equal(1);
      const error = JSON.parse(twice.stdout).error;
      expect(error.code, twice.out).to.equal('OBJECTS_EXIST');
      expect(error.message).to.match(/^Refusing to load: 6 object\(s\) the load creates exist on this server already \(table shop\.audit_log, /)
        .and.include('dropExisting: true (--drop-existing').and.include('Nothing was changed.');
      expect(twice.out).to.not.match(/restore_js\/|\sat \//);
      expect(fs.existsSync(path.join(home, 'restore', 'progress')) ? fs.readdirSync(path.join(home, 'restore', 'progress')) : [])
        .to.deep.equal([]);
    }
    expect(await serverFingerprint(server)).to.deep.equal(pristine);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.audit_log'))).to.equal(2000);

    await server.query(`CREATE TABLE shop.stray SELECT * FROM shop.customers LIMIT 1; UPDATE shop.stray SET id = 99999, email = 'stray@example.com';
      INSERT INTO shop.customers SELECT * FROM shop.stray; DROP TABLE shop.stray;
      CREATE TABLE shop.keepme (id INT PRIMARY KEY); INSERT INTO shop.keepme VALUES (7);`);
    const again = cli(server.uri, ['load', shopCopy(), '--drop-existing=true', '--force']);
    expect(again.status, again.out).to.equal(0);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers WHERE id = 99999'))).to.equal(0);
    expect((await server.query('SELECT id FROM shop.keepme')).map((x) => Number(x.id))).to.deep.equal([7]);
  });

  it('a progressFile or viewDir whose folder is missing is refused before any step; a partial import stopped in the server ' +
    'steps keeps its view and says no progress file is there to resume from', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    const before = await serverFingerprint(server);
    // Before: refused only when the record beside it was written, after the settings and the redo log had changed.
    const missing = path.join(tempDir('restore-pf-'), 'nodir', 'p.json');
    const r = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force', `--progress-file=${missing}`], { configHome: home });
    expect(r.status, r.out).to.equal(1);
    expect(r.stderr).to.include(`Refusing progressFile ${missing}: its folder ${path.dirname(missing)} does not exist. Nothing was changed.`);
    expect(r.out).to.not.include('Phases:');
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    // A viewDir in a missing folder: before, refused only by the prepare step, after the plan was confirmed.
    const view = cli(server.uri, ['load', shopCopy(), '--preset=fastest', '--force', '--latest=1', `--view-dir=${path.dirname(missing)}/v`],
      { configHome: home });
    expect(view.status, view.out).to.equal(1);
    expect(view.stderr).to.include(`viewDir ${path.dirname(missing)}/v: its folder ${path.dirname(missing)} does not exist. Nothing was changed.`);
    expect(view.out).to.not.include('Phases:');
    // An account that may not SET GLOBAL, loading with force: the server steps fail after the view was made.
    await server.query("CREATE USER s7lim@'127.0.0.1' IDENTIFIED BY 'pw'; GRANT SELECT, INSERT, CREATE, DROP, ALTER, INDEX, " +
      "CREATE VIEW, INNODB_REDO_LOG_ENABLE ON *.* TO s7lim@'127.0.0.1'");
    try {
      const lim = cli(`s7lim:pw@127.0.0.1:${server.port}`, ['load', shopCopy(), '--preset=fastest', '--force', '--latest=1'],
        { configHome: home });
      expect(lim.status, lim.out).to.equal(1);
      expect(lim.stderr).to.match(/failed in the server steps phase: .*SYSTEM_VARIABLES_ADMIN.* No server setting was changed\./);
      const kept = /Load view kept: (\S+) \(util\.loadDump did not start from it: no progress file\): run the same restore\.load again;/
        .exec(lim.stdout);
      expect(kept, lim.out).to.not.equal(null);
      expect(fs.readdirSync(kept[1]).filter((n) => /progress/.test(n))).to.deep.equal([]);
    } finally {
      await server.query("DROP USER s7lim@'127.0.0.1'");
    }
    expect(await serverFingerprint(server)).to.deep.equal(before);
  });
});
