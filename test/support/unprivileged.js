'use strict';
// The real mysqlsh run as an unprivileged user (nobody, through setpriv), so that file modes mean
// what they mean for a DBA: as root, chmod 000 does not stop a read nor 555 a write. And a file
// system that is full, from a tmpfs with few inodes mounted in a private mount namespace
// (unshare -rm): nothing outside the command sees it. Both are real kernel mechanisms.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { MYSQLSH } = require('./real');
const { tempDir, installPlugin, copyDump, mysqlsh, shellEnv } = require('./shell');

const NOBODY = 65534;

function works(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return r.status === 0;
}

// Whether this machine can run the mechanisms (root, setpriv, unshare with user namespaces).
const CAN = {
  nobody: process.getuid && process.getuid() === 0 && works('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', 'true']),
  tmpfs: works('unshare', ['-rm', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt']),
};

// A directory every user may enter (mkdtemp makes 0700 ones).
function openDir(prefix) {
  const d = tempDir(prefix);
  fs.chmodSync(d, 0o755);
  return d;
}

function chownTree(p, uid) {
  spawnSync('chown', ['-R', `${uid}:${uid}`, p]);
}

// The unpacked Shell bundles where nobody can read them: the cache under root's home is not.
// Hard links when on the same file system (no copy), else a copy.
let bundles = null;
function bundleCache() {
  if (bundles) return bundles;
  mysqlsh(['--version']); // unpacks the bundle into the usual cache if it is not there yet
  const cache = process.env.MYSQLSH_BUNDLE_CACHE ||
    path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mysqlsh-bundles');
  bundles = path.join(openDir('restore-bundles-'), 'cache');
  if (spawnSync('cp', ['-al', cache, bundles]).status !== 0) {
    fs.rmSync(bundles, { recursive: true, force: true });
    if (spawnSync('cp', ['-a', cache, bundles]).status !== 0) throw new Error(`cannot copy ${cache}`);
  }
  return bundles;
}

// A sandbox owned by nobody: a config home with the plugin and a copy of the dump.
function nobodySandbox(srcDump) {
  const home = installPlugin(openDir('restore-cfg-'));
  const dump = copyDump(srcDump);
  fs.chmodSync(path.dirname(dump), 0o755);
  chownTree(home, NOBODY);
  chownTree(dump, NOBODY);
  return { home, dump, stateDir: path.join(home, 'restore') };
}

// `mysqlsh [uri] -- restore <args…>` as nobody → {status, out, …}.
function cliAsNobody(sb, uri, args) {
  const env = { ...shellEnv({ configHome: sb.home }), HOME: sb.home, MYSQLSH_BUNDLE_CACHE: bundleCache() };
  const r = spawnSync('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', MYSQLSH,
    ...(uri ? [uri] : []), '--', 'restore', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}

// Runs `mysqlsh [uri] -- restore <args…>` in a private mount namespace where `dir` is a fresh
// tmpfs holding a copy of `src` and room for `spare` more files (inodes) only.
function cliOnFullDisk({ src, dir, spare, uri, args, configHome }) {
  const count = (d) => fs.readdirSync(d, { withFileTypes: true }).reduce((n, e) => n + 1 +
    (e.isDirectory() ? count(path.join(d, e.name)) : 0), 0);
  const files = count(src);
  const script = 'set -e; mount -t tmpfs -o "size=16m,nr_inodes=$N" tmpfs "$D"; cp -a "$S"/. "$D"/; ' +
    'exec "$M" "$@"';
  const env = { ...shellEnv({ configHome }), N: String(files + 1 + spare), D: dir, S: src, M: MYSQLSH };
  const r = spawnSync('unshare', ['-rm', 'sh', '-c', script, 'sh', ...(uri ? [uri] : []), '--', 'restore', ...args],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, out: r.stdout + r.stderr };
}

module.exports = { CAN, NOBODY, nobodySandbox, cliAsNobody, cliOnFullDisk, openDir };
