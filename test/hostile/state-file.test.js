'use strict';
// Issue 20, 5: the state file is the only record that the redo log is off and which settings to
// put back. A save that cannot land (here: the file size limit of the process, as a full disk
// would) must leave the earlier state whole and change nothing more on the server.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { needs, MYSQLSH, SAMPLE_SHOP } = require('../support/real');
const { serverFingerprint } = require('../support/fingerprint');
const { cli, shellEnv, installPlugin, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

const LIMIT = 1024; // bytes: `ulimit -f 1`

// `mysqlsh … -- restore <args>` with writes beyond LIMIT bytes failing (EFBIG), its log not written.
function limitedCli(uri, args, home) {
  const r = spawnSync('bash', ['-c', 'ulimit -f 1 && exec "$0" "$@"', MYSQLSH, '--log-file=/dev/null', uri, '--', 'restore',
    ...args], { env: shellEnv({ configHome: home }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('hostile 26/1: something other than a state file at its path (real Shell, real MySQL)', function () {
  let server;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (server && (await server.redoLog()) === 'OFF') await server.query('ALTER INSTANCE ENABLE INNODB REDO_LOG');
  });

  it('a directory, a dangling link, a file in place of the state folder: status, revert and a fastest load say so; nothing changes', async function () {
    const uuid = String(await server.value('SELECT @@server_uuid'));
    const dump = copyDump(SAMPLE_SHOP);
    const setups = [
      ['a directory', (file) => fs.mkdirSync(file, { recursive: true }), /cannot be read: it is a directory/],
      ['a dangling link', (file) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.symlinkSync('/nonexistent/x', file); },
        /cannot be read: No such file or directory/],
    ];
    const fp = await serverFingerprint(server);
    for (const [what, make, why] of setups) {
      const home = installPlugin(tempDir('restore-cfg-'));
      const file = path.join(home, 'restore', 'state', `${uuid}.json`);
      make(file);
      for (const args of [['status'], ['revert'], ['load', dump, '--preset=fastest', '--force']]) {
        const r = cli(server.uri, args, { configHome: home });
        expect(r.status, `${what}: ${args[0]}\n${r.out}`).to.equal(1);
        expect(r.out, what).to.include(`The restore state file ${file} cannot be read`).and.match(why);
        expect(r.out, what).to.not.match(/Traceback|null|undefined|restore_js\/|\/lib\//);
      }
      expect(await server.redoLog(), what).to.equal('ON');
    }
    // The state folder cannot be made: a file stands where it goes.
    const home = installPlugin(tempDir('restore-cfg-'));
    fs.mkdirSync(path.join(home, 'restore'), { recursive: true });
    fs.writeFileSync(path.join(home, 'restore', 'state'), 'not a folder');
    const r = cli(server.uri, ['load', dump, '--preset=fastest', '--force'], { configHome: home });
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.include(`The restore state folder ${path.join(home, 'restore', 'state')} cannot be written`)
      .and.include('Nothing was changed');
    expect(r.out).to.not.match(/Traceback|null|undefined/);
    expect(await server.redoLog()).to.equal('ON');
    expect(await serverFingerprint(server)).to.deep.equal(fp);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
  });
});

describe('hostile: the state file survives a save that fails (real Shell, real MySQL)', function () {
  let server;
  let original = null;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (!server) return;
    if ((await server.redoLog()) === 'OFF') await server.query('ALTER INSTANCE ENABLE INNODB REDO_LOG');
    if (original !== null) await server.query(`SET GLOBAL innodb_io_capacity = ${original}`);
  });

  it('a full disk while saving leaves the earlier state whole: nothing changes, revert puts the setting back', async function () {
    const home = installPlugin(tempDir('restore-cfg-'));
    original = Number(await server.value('SELECT @@GLOBAL.innodb_io_capacity'));
    const uuid = String(await server.value('SELECT @@server_uuid'));
    // What a restore that died left: one setting changed, recorded with its original value.
    await server.query(`SET GLOBAL innodb_io_capacity = ${original + 100}`);
    const state = { format: 1, serverUuid: uuid, server: 'test', createdAt: '2026-11-24T00:00:00.000Z',
      updatedAt: '2026-11-24T00:00:00.000Z', redoLog: null,
      settings: [{ name: 'innodb_io_capacity', original, value: original + 100, by: 'restore.load' }],
      owner: { connectionId: 2147483000, clientHost: 'gone', serverStartedAt: 0 } };
    let text = JSON.stringify(state, null, 2) + '\n';
    state.settings[0].by += ' ' + 'x'.repeat(LIMIT - 40 - text.length); // just under the limit; a redo log entry is more
    text = JSON.stringify(state, null, 2) + '\n';
    const file = path.join(home, 'restore', 'state', `${uuid}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);

    const r = limitedCli(server.uri, ['disable-redo-log', '--force'], home);
    expect(r.status, r.out).to.equal(1);
    expect(r.out).to.include(`Cannot save the restore state file ${file}`).and.include('Nothing was changed');
    expect(r.out).to.not.match(/restore_js\/|\/lib\/|\sat \/|Traceback/);
    expect(fs.readFileSync(file, 'utf8'), 'the earlier state, whole').to.equal(text);
    expect(fs.readdirSync(path.dirname(file))).to.deep.equal([`${uuid}.json`]);
    expect(await server.redoLog(), 'nothing more changed').to.equal('ON');

    const revert = cli(server.uri, ['revert'], { configHome: home });
    expect(revert.status, revert.out).to.equal(0);
    expect(Number(await server.value('SELECT @@GLOBAL.innodb_io_capacity'))).to.equal(original);
    expect(fs.existsSync(file)).to.equal(false);
    original = null;
  });
});
