'use strict';
// Issue 20, 5: the state file is the only record that the redo log is off and which settings to
// put back. A save that cannot land (here: the file size limit of the process, as a full disk
// would) must leave the earlier state whole and change nothing more on the server.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { needs, MYSQLSH } = require('../support/real');
const { cli, shellEnv, installPlugin, tempDir } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

const LIMIT = 1024; // bytes: `ulimit -f 1`

// `mysqlsh … -- restore <args>` with writes beyond LIMIT bytes failing (EFBIG), its log not written.
function limitedCli(uri, args, home) {
  const r = spawnSync('bash', ['-c', 'ulimit -f 1 && exec "$0" "$@"', MYSQLSH, '--log-file=/dev/null', uri, '--', 'restore',
    ...args], { env: shellEnv({ configHome: home }), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 120000 });
  return { status: r.status, out: r.stdout + r.stderr };
}

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
