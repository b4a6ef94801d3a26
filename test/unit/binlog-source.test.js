'use strict';
// Where binlogs come from (lib/binlog/binlog-source.js): each form of WHERE named as a user writes it,
// and the password of a live server's URI never shown by the option echo.
const { expect } = require('chai');
const { parseWhere } = require('../../lib/binlog/binlog-source');
const secrets = require('../../lib/options/secrets');
const optionTable = require('../../lib/options/option-table');
const { spawnSync } = require('child_process');
const { HAVE_PYTHON, prelude } = require('../support/companion');

// The companion's list of places for the Shell's own mysqlbinlog, for one home/executable/platform.
function candidates(environ, exe, windows) {
  const script = [...prelude(), 'src = importlib.import_module("companion_under_test.binlog_source")',
    `print(json.dumps(src.mysqlbinlog_candidates(${JSON.stringify(environ)}, ${JSON.stringify(exe)}, ${windows ? 'True' : 'False'})))`].join('\n');
  const r = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe('binlogs: where the binary logs come from (lib/binlog/binlog-source.js)', function () {
  it('tells a live server, a backup host, an rsync daemon, a bucket and a local folder apart', function () {
    expect(parseWhere('rpl:p%40ss@db1:3306', {})).to.include({ kind: 'server', user: 'rpl', password: 'p@ss', host: 'db1', port: 3306,
      url: 'rpl@db1:3306' });
    expect(parseWhere('root@127.0.0.1:3307', {})).to.include({ kind: 'server', user: 'root', password: null, port: 3307 });
    expect(parseWhere('mysql://db1', {})).to.include({ kind: 'server', user: 'root', host: 'db1', port: 3306 });
    expect(parseWhere('db1:3306', {})).to.include({ kind: 'server', host: 'db1', port: 3306 });
    expect(parseWhere('backup@bk:/srv/binlogs', {})).to.include({ kind: 'ssh', url: 'backup@bk:/srv/binlogs' });
    expect(parseWhere('bk:./3306', {})).to.include({ kind: 'ssh', url: 'bk:./3306' });
    expect(parseWhere('rsync://bk:873/logs/prod', {})).to.include({ kind: 'daemon', url: 'rsync://bk:873/logs/prod' });
    expect(parseWhere('s3://logs/prod/db1/', { s3EndpointOverride: 'http://127.0.0.1:9000' })).to.include({ kind: 's3',
      url: 's3://logs/prod/db1', prefix: 'prod/db1', bucket: 'logs' });
    expect(parseWhere('s3://logs/prod', {}).s3).to.deep.equal({ s3BucketName: 'logs' });
    // restore.binlogs: a prefix with s3BucketName; restore.load: the folder stays a folder.
    expect(parseWhere('prod', { s3BucketName: 'logs' }, true)).to.include({ kind: 's3', url: 's3://logs/prod' });
    expect(parseWhere('prod', { s3BucketName: 'logs' })).to.deep.equal({ kind: 'local' });
    expect(parseWhere('/backups/binlogs', {})).to.deep.equal({ kind: 'local' });
    expect(parseWhere('binlogs', {})).to.deep.equal({ kind: 'local' });
    expect(() => parseWhere('s3://', {})).to.throw(/names no bucket/).with.property('code', 'REMOTE_ADDRESS_INVALID');
  });

  it('a password holding @ or / is a live server\'s; an address with a password or a token that is no server is refused, not shown', function () {
    expect(parseWhere('repl2:p@ss/Pw2@127.0.0.1:3306', {})).to.include({ kind: 'server', user: 'repl2', password: 'p@ss/Pw2',
      host: '127.0.0.1', port: 3306, url: 'repl2@127.0.0.1:3306' });
    expect(parseWhere('mysql://repl:p@ss@db1', {})).to.include({ kind: 'server', password: 'p@ss', host: 'db1', port: 3306 });
    for (const where of ['repl:Pw-no-port@db1', 'rsync://u:Pw-daemon@bk/logs/x', 'u:Pw-ssh@bk:/srv/binlogs',
      'https://objectstorage.example.com/p/PARtok-x/n/ns/b/bk/o/logs/']) {
      let e = null;
      try { parseWhere(where, {}); } catch (x) { e = x; }
      expect(e, where).to.not.equal(null);
      expect(e.code, where).to.equal('REMOTE_ADDRESS_INVALID');
      expect(e.message, where).to.include('(set, not shown)').and.not.match(/Pw-|PARtok/);
    }
    // The dump argument: the same refusals (rsync and ssh never get such an address on their command line).
    const { parseSource } = require('../../lib/remote/remote-source');
    expect(() => parseSource('rsync://u:Pw-daemon@bk/mod/dump')).to.throw(/RSYNC_PASSWORD/).with.property('code', 'REMOTE_ADDRESS_INVALID');
    expect(() => parseSource('u:Pw-ssh@bk:/dumps/x')).to.throw(/log in with a key/).with.property('code', 'REMOTE_ADDRESS_INVALID');
    expect(() => parseSource('https://objectstorage.example.com/p/PARtok-x/n/ns/b/bk/o/d/')).to.throw(/is a URL.*token of a pre-authenticated request/);
    expect(parseSource('backup@bk:/srv/dumps/a@b')).to.include({ kind: 'ssh', url: 'backup@bk:/srv/dumps/a@b' });
  });

  it('the option echo and every secret-free copy of the options never show the URI\'s password', function () {
    expect(secrets.shown('binlogs', 'rpl:S3cret@db1:3306')).to.equal('rpl:(set, not shown)@db1:3306');
    expect(secrets.shown('binlogs', 'mysql://rpl:S3cret@db1')).to.equal('mysql://rpl:(set, not shown)@db1');
    expect(secrets.shown('binlogs', 'backup@bk:/srv/binlogs')).to.equal('backup@bk:/srv/binlogs');
    expect(secrets.shown('binlogs', 'rsync://bk:873/logs')).to.equal('rsync://bk:873/logs');
    expect(secrets.withoutSecrets({ binlogs: 'rpl:S3cret@db1:3306' })).to.deep.equal({ binlogs: 'rpl:(set, not shown)@db1:3306' });
    const echo = optionTable.optionEcho('load', { binlogs: 'rpl:S3cret@db1:3306' }, { binlogs: 'rpl:S3cret@db1:3306' });
    expect(echo).to.include('binlogs: "rpl:(set, not shown)@db1:3306"').and.not.include('S3cret');
  });

  it('looks for mysqlbinlog where MySQL Shell 9.2+ installs it in each layout, then on PATH', function () {
    if (!HAVE_PYTHON) this.skip();
    // DEB, EL/Fedora RPM (/usr/libexec), and an RPM built where %{_libexecdir} is /usr/lib.
    expect(candidates({}, '/usr/bin/mysqlsh', false)).to.deep.equal(['/usr/libexec/mysqlsh/mysqlbinlog', '/usr/lib/mysqlsh/mysqlbinlog']);
    // The tar.gz (Linux, macOS) unpacked anywhere: the folder above bin/.
    expect(candidates({}, '/opt/mysql-shell-9.5.0-linux-glibc2.28-x86-64bit/bin/mysqlsh', false)[0])
      .to.equal('/opt/mysql-shell-9.5.0-linux-glibc2.28-x86-64bit/libexec/mysqlsh/mysqlbinlog');
    // MYSQLSH_HOME overrides the executable's place, as in the Shell.
    expect(candidates({ MYSQLSH_HOME: '/srv/shell' }, '/usr/bin/mysqlsh', false)[0]).to.equal('/srv/shell/libexec/mysqlsh/mysqlbinlog');
    // Windows: the .exe name (path joined by the host's separator; the names are what matter here).
    expect(candidates({ MYSQLSH_HOME: 'C:/MySQL Shell 9.5' }, '', true)[0]).to.match(/libexec.mysqlsh.mysqlbinlog\.exe$/);
    // An executable not in a bin/ folder: the Shell has no home then, only PATH is searched.
    expect(candidates({}, '/tmp/mysqlsh', false)).to.deep.equal([]);
    // The folder the Shell appended to PATH (its libexec) comes before any other mysqlbinlog on PATH.
    expect(candidates({ PATH: '/usr/bin:/opt/shell/libexec/mysqlsh' }, '/Applications/x/MacOS/mysqlsh', false))
      .to.deep.equal(['/opt/shell/libexec/mysqlsh/mysqlbinlog']);
    expect(candidates({ PATH: 'C:\\Windows;C:\\Program Files\\MySQL\\MySQL Shell 9.5\\libexec\\mysqlsh' }, '', true))
      .to.deep.equal(['C:\\Program Files\\MySQL\\MySQL Shell 9.5\\libexec\\mysqlsh\\mysqlbinlog.exe']);
  });
});
