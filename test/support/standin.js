'use strict';
// Test entry points to the mysqlsh stand-in: run code in-process (runShell) or the command line
// in a child process (runCli), with the plugin installed in a private config home.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { createShell } = require('../mysqlsh/shell-runtime');
const { errorText, errorCode } = require('../mysqlsh/shell-errors');
const { toPlain } = require('../mysqlsh/values');

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'test', 'mysqlsh', 'cli.js');

// A config home whose plugins/restore links to the working tree's plugin (as install.sh --link).
function pluginConfigHome() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-cfg-'));
  fs.mkdirSync(path.join(home, 'plugins'));
  fs.symlinkSync(path.join(ROOT, 'plugins', 'restore'), path.join(home, 'plugins', 'restore'));
  return home;
}

let sharedHome = null;
function defaultConfigHome() {
  if (!sharedHome) sharedHome = pluginConfigHome();
  return sharedHome;
}

// Runs JS in a fresh stand-in (plugins loaded, global session to `uri` unless null).
// Returns {value, stdout, stderr, error}; value is the last expression as plain JS.
function runShell({ code, uri = process.env.MYSQL_TEST_URI, version, profileName, personality, failAt, cwd, env,
  configHome, trace, interactive, promptAnswers, file } = {}) {
  let stdout = '';
  let stderr = '';
  const sh = createShell({
    uri: uri || undefined, version, profileName, personality, failAt, cwd, trace, interactive, promptAnswers,
    env: { ...(env || {}), MYSQLSH_USER_CONFIG_HOME: configHome || defaultConfigHome() },
    configHome: configHome || defaultConfigHome(),
    stdout: (t) => { stdout += t; },
    stderr: (t) => { stderr += t; },
  });
  let value;
  let error = null;
  try {
    value = toPlain(sh.runJs(code, file));
  } catch (e) {
    const payload = e && e.cause ? e.cause : e;
    error = { message: errorText(e), code: errorCode(e), type: payload && payload.type };
  } finally {
    sh.close();
  }
  return { value, stdout, stderr, error };
}

// Runs `node test/mysqlsh/cli.js …args` → {status, stdout, stderr}.
function runCli(args, { env, cwd, configHome } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: cwd || ROOT,
    env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: configHome || defaultConfigHome(), ...(env || {}) },
    encoding: 'utf8',
    timeout: 600000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

module.exports = { runShell, runCli, pluginConfigHome, ROOT };
