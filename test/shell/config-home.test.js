'use strict';
// The plugin's state directory is <the Shell's own config home>/restore on both sides (the JS
// members and the Python companion that confines what may be written or removed): MySQL Shell's
// get_user_config_path() takes MYSQLSH_USER_CONFIG_HOME when set, else $HOME/.mysqlsh, else the
// current directory. Loads as cron or a systemd unit runs them (HOME unset), in the real mysqlsh.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP } = require('../support/real');
const { cli, copyDump, tempDir, installPlugin } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

// HOME unset for mysqlsh; its bundle cache (which ../shared/bin/mysqlsh finds through HOME) named.
function withoutHome(more) {
  const cache = process.env.MYSQLSH_BUNDLE_CACHE ||
    path.join(process.env.XDG_CACHE_HOME || path.join(process.env.HOME || '/root', '.cache'), 'mysqlsh-bundles');
  return Object.assign({ HOME: undefined, MYSQLSH_BUNDLE_CACHE: cache }, more);
}

describe('the config home without HOME, and through a symbolic link (real Shell, real MySQL)', function () {
  let server;
  before(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  it('HOME and MYSQLSH_USER_CONFIG_HOME unset: the current directory, as the Shell; a full load\'s progress file there', async function () {
    // The Shell then loads plugins from ./plugins and writes ./mysqlsh.log.
    const home = fs.realpathSync(installPlugin(tempDir('restore-cfg-')));
    const dir = copyDump(SAMPLE_SHOP);
    const r = cli(server.uri, ['load', dir, '--analyze=off', '--output-format=json'],
      { cwd: home, env: withoutHome({ MYSQLSH_USER_CONFIG_HOME: undefined }) });
    expect(r.status, r.out).to.equal(0);
    expect(fs.existsSync(path.join(home, 'mysqlsh.log')), 'the Shell\'s own config home').to.equal(true);
    const report = JSON.parse(r.stdout);
    expect(report.loadDumpOptions.progressFile.startsWith(path.join(home, 'restore', 'progress') + '/'), r.stdout).to.equal(true);
    expect(fs.readdirSync(path.join(home, 'restore', 'progress')), 'the finished load\'s progress file removed').to.deep.equal([]);
    expect(fs.existsSync(path.join(home, '.mysqlsh')), 'no second config home').to.equal(false);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
  });

  it('MYSQLSH_USER_CONFIG_HOME through a symbolic link, HOME unset: a partial load\'s view made and removed there', async function () {
    const real = installPlugin(tempDir('restore-cfg-'));
    const link = path.join(tempDir('restore-cfg-link-'), 'home');
    fs.symlinkSync(real, link);
    const dir = copyDump(SAMPLE_SHOP);
    const r = cli(server.uri, ['load', dir, '--latest=shop.orders:2', '--analyze=off'],
      { configHome: link, cwd: tempDir('restore-cwd-'), env: withoutHome() });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.include('Load view: ' + path.join(link, 'restore', 'views') + '/');
    expect(r.out).to.match(/Load view removed: /);
    expect(fs.readdirSync(path.join(real, 'restore', 'views'))).to.deep.equal([]);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.equal(1000);
  });
});
