'use strict';
// A "backup host" on the loopback address for the remote-dump tests and the demo: the real sshd
// with a throwaway host key and client key, and the real rsync daemon, each on a free port of
// 127.0.0.1 with its own configuration in a temporary directory. Stopped by the test (stop()),
// and, should a run die, when the Node process exits.
const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const SSHD = '/usr/sbin/sshd';
const started = new Set();

function has(cmd) { return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0; }

// null when everything is here; else what is missing, as a sentence.
function remoteMissing() {
  const lacking = ['rsync', 'ssh', 'ssh-keygen'].filter((c) => !has(c));
  if (!fs.existsSync(SSHD)) lacking.push('sshd (openssh-server)');
  if (process.getuid && process.getuid() !== 0) lacking.push('root (sshd runs as root here)');
  return lacking.length ? `the backup-host tests need ${lacking.join(', ')}` : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(check, ms, what, log) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check()) return;
    await sleep(200);
  }
  throw new Error(`${what} did not come up within ${ms / 1000} s: ${fs.existsSync(log) ? fs.readFileSync(log, 'utf8').slice(-2000) : ''}`);
}

function stopper(child, dir) {
  const entry = { child, dir };
  started.add(entry);
  return async function stop() {
    if (!started.has(entry)) return;
    started.delete(entry);
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(killed);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}

// sshd on 127.0.0.1:port, root logs in with a throwaway key → {host, user, port, rsh, env, stop()}.
async function startSshHost() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-sshd-'));
  const port = await freePort();
  const keygen = (file) => {
    const r = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  };
  keygen(path.join(dir, 'host_key'));
  keygen(path.join(dir, 'client_key'));
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  fs.mkdirSync('/run/sshd', { recursive: true, mode: 0o755 }); // privilege separation directory
  const log = path.join(dir, 'sshd.log');
  fs.writeFileSync(path.join(dir, 'sshd_config'), [
    `ListenAddress 127.0.0.1`, `Port ${port}`, `HostKey ${dir}/host_key`, `AuthorizedKeysFile ${dir}/authorized_keys`,
    'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'UsePAM no', 'StrictModes no',
    'PermitRootLogin prohibit-password', `PidFile ${dir}/sshd.pid`, 'LogLevel ERROR', '',
  ].join('\n'));
  const child = spawn(SSHD, ['-D', '-f', path.join(dir, 'sshd_config'), '-E', log], { stdio: 'ignore' });
  const stop = stopper(child, dir);
  const rsh = `ssh -p ${port} -i ${dir}/client_key -o StrictHostKeyChecking=no -o UserKnownHostsFile=${dir}/known_hosts ` +
    '-o BatchMode=yes -o LogLevel=ERROR';
  const login = () => spawnSync('sh', ['-c', `${rsh} root@127.0.0.1 true`], { stdio: 'ignore', timeout: 10000 }).status === 0;
  try {
    await waitFor(login, 20000, 'sshd', log);
  } catch (e) {
    await stop();
    throw e;
  }
  return { host: '127.0.0.1', user: 'root', port, rsh, env: { RSYNC_RSH: rsh }, stop };
}

// The rsync daemon on 127.0.0.1:port serving modules {name: directory} read-only → {port, url(), stop()}.
async function startRsyncDaemon(modules) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-rsyncd-'));
  const port = await freePort();
  const log = path.join(dir, 'rsyncd.log');
  const conf = ['use chroot = no', 'uid = root', 'gid = root', `pid file = ${dir}/rsyncd.pid`, `log file = ${log}`, ''];
  for (const [name, p] of Object.entries(modules)) conf.push(`[${name}]`, `path = ${p}`, 'read only = yes', '');
  fs.writeFileSync(path.join(dir, 'rsyncd.conf'), conf.join('\n'));
  const child = spawn('rsync', ['--daemon', '--no-detach', `--config=${dir}/rsyncd.conf`, `--port=${port}`, '--address=127.0.0.1'],
    { stdio: 'ignore' });
  const stop = stopper(child, dir);
  const answers = () => spawnSync('rsync', ['--list-only', `rsync://127.0.0.1:${port}/`], { stdio: 'ignore', timeout: 10000 }).status === 0;
  try {
    await waitFor(answers, 20000, 'the rsync daemon', log);
  } catch (e) {
    await stop();
    throw e;
  }
  return { port, url: (module, sub) => `rsync://127.0.0.1:${port}/${module}${sub ? '/' + sub : ''}`, stop };
}

// Last resort: nothing started here outlives the test process.
process.once('exit', () => {
  for (const { child, dir } of started) {
    try { child.kill('SIGKILL'); } catch (e) { /* gone */ }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

module.exports = { remoteMissing, freePort, startSshHost, startRsyncDaemon };
