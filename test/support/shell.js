'use strict';
// Drives the real MySQL Shell the ways users do: `mysqlsh URI -- restore …` one-liners, and
// `mysqlsh URI --js -f script` for code whose value a test reads. The plugin is installed the way
// the README says (install.sh) into a throwaway MYSQLSH_USER_CONFIG_HOME. mysqlsh never gets a
// stdin (it would wait for a password or spin without a terminal).
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync, spawn } = require('child_process');
const { ROOT, MYSQLSH } = require('./real');

const tempRoots = [];
function tempDir(prefix = 'restore-test-') {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempRoots.push(d);
  return d;
}

function cleanTemp() {
  while (tempRoots.length) fs.rmSync(tempRoots.pop(), { recursive: true, force: true });
}

// A config home with the plugin installed by install.sh.
function installPlugin(home = tempDir('restore-cfg-')) {
  const r = spawnSync('sh', [path.join(ROOT, 'install.sh')], {
    env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: home }, encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`install.sh failed: ${r.stderr}`);
  return home;
}

let sharedHome = null;
function defaultHome() {
  if (!sharedHome || !fs.existsSync(sharedHome)) sharedHome = installPlugin(fs.mkdtempSync(path.join(os.tmpdir(), 'restore-cfg-')));
  return sharedHome;
}

function shellEnv({ configHome, env, bundle } = {}) {
  const e = { ...process.env, MYSQLSH_USER_CONFIG_HOME: configHome || defaultHome(), MYSQLSH_TERM_COLOR_MODE: 'nocolor', ...(env || {}) };
  if (bundle) e.MYSQLSH_BUNDLE = bundle;
  delete e.MYSQLSH_ALLOW_NEWER_SERVER; // only the dump tests set it, explicitly
  Object.assign(e, env || {});
  return e;
}

// The committed sample dumps are never given to the Shell in place (a load would write its progress
// file there, a test could damage them): tests pass a copy (copyDump).
const COMMITTED = path.join(ROOT, 'sample-dumps');
function refuseCommitted(args) {
  const text = args.map((a) => (fs.existsSync(a) && /\.js$/.test(a) ? fs.readFileSync(a, 'utf8') : String(a))).join('\n');
  if (text.indexOf(COMMITTED) >= 0) {
    throw new Error('A test gave mysqlsh the committed sample dumps (' + COMMITTED + '): pass copyDump(SAMPLE_SHOP) instead.');
  }
}

// Runs mysqlsh with these arguments → {status, stdout, stderr, out (both)}.
function mysqlsh(args, opts = {}) {
  refuseCommitted(args);
  const r = spawnSync(MYSQLSH, args, {
    cwd: opts.cwd || ROOT, env: shellEnv(opts), encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    timeout: opts.timeout || 600000, maxBuffer: 256 * 1024 * 1024,
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}

// `mysqlsh [uri] -- restore <args…>`: the command line a DBA types.
function cli(uri, args, opts = {}) {
  return mysqlsh([...(uri ? [uri] : []), '--', 'restore', ...args], opts);
}

const MARK = '@@RESTORE-TEST-RESULT@@';
// Wraps test code so that its value (or error) comes back as JSON after a marker line. Values
// from the Shell (dictionaries, arrays) are copied into plain JS first.
function wrap(code) {
  return `function __plain(v) {
  if (v === null || v === undefined || typeof v !== 'object') return v === undefined ? null : v;
  if (typeof v.byteLength === 'number') return {byteLength: v.byteLength};
  if (Array.isArray(v) || (typeof v.length === 'number' && !('getField' in v))) {
    var a = []; for (var i = 0; i < v.length; i++) a.push(__plain(v[i])); return a;
  }
  var o = {}; Object.keys(v).forEach(function (k) { o[k] = __plain(v[k]); }); return o;
}
var __result;
try { __result = {value: __plain(eval(${JSON.stringify(code)}))}; }
catch (e) {
  var c = (e && e.cause) || e || {};
  __result = {error: {message: String((e && e.message) || c.message || e), code: c.code || (e && e.code) || null, type: c.type || null}};
}
println('${MARK}' + JSON.stringify(__result));
`;
}

function parseResult(r) {
  const at = r.stdout.lastIndexOf(MARK);
  if (at < 0) return { ...r, value: undefined, error: { message: `no result (exit ${r.status}): ${r.out.slice(-2000)}` }, printed: r.stdout };
  const res = JSON.parse(r.stdout.slice(at + MARK.length).split('\n')[0]);
  return { ...r, value: res.value, error: res.error || null, printed: r.stdout.slice(0, at) };
}

// Runs JS in the real mysqlsh (connected to `uri` unless null) → {value, error, printed, …}.
function runJs(uri, code, opts = {}) {
  const dir = tempDir('restore-js-');
  const file = path.join(dir, 'test.js');
  fs.writeFileSync(file, wrap(code));
  return parseResult(mysqlsh([...(uri ? [uri] : []), '--js', '-f', file], opts));
}

// Starts mysqlsh in the background (for kill tests) → child process.
function spawnShell(args, opts = {}) {
  refuseCommitted(args);
  return spawn(MYSQLSH, args, { cwd: opts.cwd || ROOT, env: shellEnv(opts), stdio: ['ignore', 'pipe', 'pipe'] });
}

// A writable copy of a dump (real dumps are read-only and shared).
function copyDump(src, name) {
  const dest = path.join(tempDir('restore-dump-'), name || path.basename(src));
  fs.cpSync(src, dest, { recursive: true });
  fs.chmodSync(dest, 0o755);
  for (const f of fs.readdirSync(dest)) fs.chmodSync(path.join(dest, f), 0o644);
  return dest;
}

module.exports = { tempDir, cleanTemp, installPlugin, defaultHome, shellEnv, mysqlsh, cli, runJs, spawnShell, copyDump, MARK };
