'use strict';
// binlogs from elsewhere than a local folder (issue 43 item 1): a backup host over ssh, an rsync daemon,
// a bucket prefix and the live source itself (mysqlbinlog --read-from-remote-server --raw). Each lands
// in the plugin's cache, only the files needed (from the dump's binlogFile to the first file past the
// target), the source untouched; the replay restores every table as the source had it just before the
// mistake (CHECKSUM TABLE). What an unreachable server, a wrong password and a missing mysqlbinlog say.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { startServer, checksumTables } = require('../support/server');
const { cli, runJs, tempDir, installPlugin } = require('../support/shell');
const { needs, skipBecause } = require('../support/real');
const { DUMP_ENV, withShellDumper } = require('../support/shell-dumper');
const { hashSandbox, diffSandbox, UNCHANGED } = require('../support/sandbox-hash');
const { remoteMissing, startSshHost, startRsyncDaemon } = require('../support/remote-host');
const { startS3Server, s3Missing } = require('../support/s3-server');
const { MYSQLSH } = require('../support/real');
const { HAVE_TMUX, terminal, waitForPrompt, waitForText, answerTo } = require('../support/terminal');

const GTIDS = '--gtid-mode=ON --enforce-gtid-consistency=ON';
const TABLES = ['shop.customers', 'shop.orders'];
const PASSWORD = 'Rpl-s3cret-9';

describe('restore load --binlogs from a backup host, a bucket and the live source (real Shell, real servers)', function () {
  this.timeout(240000);
  let source;
  let target;
  let home;
  let dump;
  let folder; // the source's binary logs, copied: the backup host's folder
  let files; // their names, in order
  let beforeDrop;
  let dropGtid;
  let expected;
  let bundleBin; // the MySQL bundle's bin/ (mysqlbinlog)
  let sinceHome; // a config home of its own (an empty cache) for the previews with since

  // restore.binlogs WHERE --since=beforeDrop: binlog.000003 holds the DELETE before since and the DROP after it;
  // binlog.000001-000002 hold nothing at or after since and are not fetched (the cache holds none of them).
  function previewSince(where, args, env) {
    const p = cli(null, ['binlogs', where, `--since=${beforeDrop}`, ...args], { configHome: sinceHome, env });
    expect(p.status, p.out).to.equal(0);
    const line = p.stdout.split('\n').filter((l) => l.startsWith('Fetched from')).join('');
    expect(fetchedOf(line)).to.deep.equal({ files: files.length - 2, of: files.length, first: files[2], last: files[files.length - 1],
      transferred: files.length - 2 });
    expect(line).to.include('; 2 file(s) before since not fetched');
    const cache = / already in the cache (.*?) \(\d/.exec(line)[1];
    expect(fs.readdirSync(cache).filter((n) => /^binlog\.\d+$/.test(n)).sort()).to.deep.equal(files.slice(2));
    expect(p.stdout).to.match(new RegExp(`${dropGtid}  binlog\\.000003:\\d+  DROP TABLE`));
    return line;
  }

  const checksums = (server) => checksumTables(server, TABLES);

  async function freshTarget() {
    await target.query('DROP DATABASE IF EXISTS shop');
    await target.query('RESET BINARY LOGS AND GTIDS');
  }

  // The fetched line of the plan: "from <where> <how>: N of its M file(s) (a … b), …".
  function fetchedOf(text) {
    const m = / (\d+) of its (\d+) file\(s\) \(([^ )]+)(?: … ([^ )]+))?\), [^,]+, (\d+) transferred now/.exec(text);
    expect(m, text).to.not.equal(null);
    return { files: Number(m[1]), of: Number(m[2]), first: m[3], last: m[4] || m[3], transferred: Number(m[5]) };
  }

  before(async function () {
    needs(this, ['server', 'shell']);
    [source, target] = await Promise.all([startServer({ opts: GTIDS }), startServer({ opts: GTIDS })]);
    home = installPlugin(tempDir('restore-cfg-'));
    sinceHome = installPlugin(tempDir('restore-cfg-'));
    bundleBin = path.dirname(source.client.trim().split(/\s+/)[0]);
    const q = (sql) => source.query(sql);
    await q(`CREATE USER rpl@'%' IDENTIFIED BY '${PASSWORD}'`);
    await q("GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO rpl@'%'");
    await q('CREATE DATABASE shop');
    await q('CREATE TABLE shop.customers (id INT PRIMARY KEY, name VARCHAR(40))');
    await q('CREATE TABLE shop.orders (id INT PRIMARY KEY AUTO_INCREMENT, customer_id INT, amount DECIMAL(10,2))');
    await q("INSERT INTO shop.customers VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES (1, 1.5), (2, 2.5)');
    dump = path.join(tempDir('restore-binsrc-'), 'nightly');
    const d = await withShellDumper(source, () => runJs(source.uri, `util.dumpSchemas(['shop'], ${JSON.stringify(dump)}, ` +
      '{showProgress: false}); null', { configHome: home, env: DUMP_ENV }));
    expect(d.error, d.out).to.equal(null);
    await q('FLUSH BINARY LOGS');
    await q("INSERT INTO shop.customers VALUES (4, 'late')");
    await q('UPDATE shop.orders SET amount = amount * 2');
    await q('FLUSH BINARY LOGS');
    await q('DELETE FROM shop.customers WHERE id = 2');
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES (4, 9.99)');
    await new Promise((r) => setTimeout(r, 1100));
    expected = await checksums(source);
    beforeDrop = String(await source.value('SELECT CAST(NOW(6) AS CHAR)'));
    await new Promise((r) => setTimeout(r, 20));
    await q('DROP TABLE shop.customers'); // the mistake
    await q('FLUSH BINARY LOGS');
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES (7, 1.00)');
    await q('FLUSH BINARY LOGS');
    await q('INSERT INTO shop.orders (customer_id, amount) VALUES (8, 1.00)');
    await q('FLUSH BINARY LOGS');
    folder = tempDir('restore-binsrc-logs-');
    files = fs.readdirSync(source.datadir).filter((n) => /^binlog\.\d{6}$/.test(n)).sort();
    for (const f of files.concat(['binlog.index'])) fs.copyFileSync(path.join(source.datadir, f), path.join(folder, f));
    for (const log of await q('SHOW BINARY LOGS')) {
      const events = await q(`SHOW BINLOG EVENTS IN '${log.Log_name}'`);
      events.forEach((e, i) => {
        if (e.Event_type === 'Query' && /^DROP TABLE `shop`\.`customers`/.test(e.Info)) dropGtid = /GTID_NEXT= '([^']+)'/.exec(events[i - 1].Info)[1];
      });
    }
    expect(dropGtid).to.be.a('string');
  });

  after(async function () {
    await Promise.all([source, target].filter(Boolean).map((s) => s.stop()));
  });

  it('over ssh and from an rsync daemon: only the files from the dump\'s to the first past the target; the backup untouched', async function () {
    const why = remoteMissing();
    if (why) return skipBecause(this, why);
    const ssh = await startSshHost();
    const daemon = await startRsyncDaemon({ logs: folder });
    try {
      const untouched = hashSandbox([folder]);
      // since: ssh reads the first bytes of a few files (halving) to tell where since begins; a daemon serves
      // whole files only: read from the last back to the first one that began before since.
      expect(previewSince(`root@127.0.0.1:${folder}`, [`--rsh=${ssh.rsh}`])).to.match(/not fetched, told by [1-3] read\(s\) of a file's first bytes/);
      expect(previewSince(daemon.url('logs'), [])).to.not.include('told by');
      await freshTarget();
      // binlog.000001 holds the dump's end; binlog.000003 the DROP; binlog.000004 begins past until.
      const r = cli(target.uri, ['load', dump, `--binlogs=root@127.0.0.1:${folder}`, `--until=${beforeDrop}`, `--rsh=${ssh.rsh}`],
        { configHome: home });
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.include(`from root@127.0.0.1:${folder} over ssh: `);
      expect(fetchedOf(r.stdout)).to.deep.equal({ files: 4, of: files.length, first: files[0], last: files[3], transferred: 4 });
      expect(await checksums(target)).to.deep.equal(expected);

      // The preview from the rsync daemon: the DROP found, with its GTID.
      const p = cli(null, ['binlogs', daemon.url('logs'), `--until=${beforeDrop}`], { configHome: home });
      expect(p.status, p.out).to.equal(0);
      expect(p.stdout).to.include(`Fetched from ${daemon.url('logs')} from the rsync daemon: 4 of its ${files.length} file(s)`);
      expect(p.stdout).to.not.include(dropGtid); // before until: the DROP is not in the window
      const all = cli(null, ['binlogs', daemon.url('logs')], { configHome: home });
      expect(all.status, all.out).to.equal(0);
      expect(all.stdout).to.match(new RegExp(`${dropGtid}  binlog\\.\\d+:\\d+  DROP TABLE`));
      // Every file now; the four the run before fetched are in the cache already.
      expect(fetchedOf(all.stdout)).to.include({ files: files.length, of: files.length, transferred: files.length - 4 });
      const missing = cli(null, ['binlogs', `root@127.0.0.1:${folder}/nothing-here`, '--output-format=json'], { configHome: home, env: ssh.env });
      expect(missing.status).to.equal(1);
      expect(JSON.parse(missing.stdout).error).to.include({ code: 'RSYNC_FAILED' });
      expect(JSON.parse(missing.stdout).error.message).to.include('check the path on the backup host');
      expect(diffSandbox(untouched, hashSandbox([folder]))).to.deep.equal(UNCHANGED);
    } finally {
      await Promise.all([ssh.stop(), daemon.stop()]);
    }
  });

  it('a bucket prefix (s3://bucket/prefix, GETs only): stopBefore the DROP', async function () {
    const why = s3Missing();
    if (why) return skipBecause(this, why);
    const s3 = await startS3Server();
    try {
      await s3.createBucket('logs');
      for (const f of files.concat(['binlog.index'])) await s3.putObject('logs', `prod/${f}`, fs.readFileSync(path.join(folder, f)));
      expect(previewSince('s3://logs/prod', [`--s3-endpoint-override=${s3.endpoint}`], s3.env)).to.match(/told by [1-3] read\(s\)/);
      await freshTarget();
      const r = cli(target.uri, ['load', dump, '--binlogs=s3://logs/prod', `--stop-before=${dropGtid}`,
        `--s3-endpoint-override=${s3.endpoint}`], { configHome: home, env: s3.env });
      expect(r.status, r.out).to.equal(0);
      expect(r.stdout).to.include('from s3://logs/prod from the bucket: ');
      // binlog.000004's previous GTIDs hold the DROP: the last fetched.
      expect(fetchedOf(r.stdout)).to.include({ files: 4, first: files[0], last: files[3] });
      expect(await checksums(target)).to.deep.equal(expected);
      // A dump whose binlogFile is later than where it ends (a dump of a replica names its own files): the files
      // before it are fetched back to one whose previous GTIDs are all in the dump.
      const other = path.join(tempDir('restore-binsrc-'), 'other');
      fs.cpSync(dump, other, { recursive: true });
      const atJson = JSON.parse(fs.readFileSync(path.join(other, '@.json'), 'utf8'));
      if (atJson.source && atJson.source.binlog) atJson.source.binlog.file = files[2];
      else atJson.binlogFile = files[2];
      // As a replica's dump records it: its own server_id (its position is not held against the source's files).
      if (atJson.source && atJson.source.sysvars) atJson.source.sysvars.server_id = '2';
      fs.writeFileSync(path.join(other, '@.json'), JSON.stringify(atJson));
      await freshTarget();
      const back = cli(target.uri, ['load', other, '--binlogs=s3://logs/prod', `--stop-before=${dropGtid}`,
        `--s3-endpoint-override=${s3.endpoint}`], { configHome: home, env: s3.env });
      expect(back.status, back.out).to.equal(0);
      expect(fetchedOf(back.stdout)).to.include({ files: 3, first: files[1], last: files[3] });
      expect(await checksums(target)).to.deep.equal(expected);
      const nothing = cli(null, ['binlogs', 's3://logs/none', `--s3-endpoint-override=${s3.endpoint}`, '--output-format=json'],
        { configHome: home, env: s3.env });
      expect(nothing.status).to.equal(1);
      expect(JSON.parse(nothing.stdout).error.code).to.equal('BINLOG_SOURCE_EMPTY');
    } finally {
      await s3.stop();
    }
  });

  it('the live source (mysqlbinlog --read-from-remote-server --raw): the same tables; its password never shown', async function () {
    await freshTarget();
    const env = { PATH: `${bundleBin}:${process.env.PATH}` };
    const uri = `rpl:${PASSWORD}@127.0.0.1:${source.port}`;
    const r = cli(target.uri, ['load', dump, `--binlogs=${uri}`, `--until=${beforeDrop}`], { configHome: home, env });
    expect(r.status, r.out).to.equal(0);
    expect(r.stdout).to.include(`from rpl@127.0.0.1:${source.port} from the live server`);
    expect(fetchedOf(r.stdout)).to.include({ files: 4, first: files[0], last: files[3] });
    expect(await checksums(target)).to.deep.equal(expected);
    expect(r.out.split("\n").filter((l) => l.includes(PASSWORD))).to.deep.equal([]);
    expect(previewSince(uri, [], env)).to.not.include(PASSWORD);

    const refused = (where, extra) => {
      const x = cli(null, ['binlogs', where, '--output-format=json'], { configHome: home, env: { ...env, ...(extra || {}) } });
      expect(x.status, x.out).to.equal(1);
      expect(x.out).to.not.include(PASSWORD);
      return JSON.parse(x.stdout).error;
    };
    expect(refused(`rpl:wrong@127.0.0.1:${source.port}`).code).to.equal('BINLOG_SOURCE_AUTH');
    expect(refused(`rpl:${PASSWORD}@127.0.0.1:1`).code).to.equal('BINLOG_SOURCE_UNREACHABLE');
    const noProgram = refused(uri, { PATH: '/usr/bin:/bin' });
    expect(noProgram.code).to.equal('BINLOG_PROGRAM_MISSING');
    expect(noProgram.message).to.include('libexec/mysqlsh/mysqlbinlog').and.include('mysql-client');

    // At the prompt, without a password in the URI: mysqlsh asks for it, and shows nothing of it.
    if (!HAVE_TMUX) return undefined;
    const term = terminal(`env PATH=${env.PATH} MYSQLSH_USER_CONFIG_HOME=${home} MYSQLSH_TERM_COLOR_MODE=nocolor ${MYSQLSH} --js`);
    try {
      waitForPrompt(term, 1);
      term.type(`restore.binlogs('rpl@127.0.0.1:${source.port}', {until: '${beforeDrop}'})`);
      waitForText(term, /Password for rpl@127\.0\.0\.1:\d+ \(to read its binary logs\): *$/m);
      term.type(PASSWORD);
      const preview = answerTo(waitForPrompt(term, 2), 1);
      expect(preview).to.include(`Fetched from rpl@127.0.0.1:${source.port} from the live server`);
      // The closed files the load read are in the cache (the same server_uuid): none read again.
      expect(fetchedOf(preview.replace(/\n/g, ''))).to.include({ files: 4, transferred: 0 });
      expect(preview).to.match(/Transactions committed before .*: \d+/);
      expect(preview).to.not.include(PASSWORD);
      term.type('\\quit');
    } finally {
      term.kill();
    }
    return undefined;
  });
});
