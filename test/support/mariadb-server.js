'use strict';
// A throwaway MariaDB for the tests: its own datadir, socket and free port, local_infile on.
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const net = require('net');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

async function startMariaDb({ extraArgs = [] } = {}) {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-mariadb-'));
  const datadir = path.join(base, 'data');
  const socket = path.join(base, 'mysqld.sock');
  const port = await freePort();
  execFileSync('mariadb-install-db', ['--no-defaults', `--datadir=${datadir}`, '--user=root',
    '--auth-root-authentication-method=normal', '--skip-test-db'], { stdio: 'pipe' });
  const log = path.join(base, 'error.log');
  const child = spawn('mariadbd', ['--no-defaults', `--datadir=${datadir}`, `--socket=${socket}`,
    `--port=${port}`, '--bind-address=127.0.0.1', '--user=root', '--local-infile=1',
    `--log-error=${log}`, `--pid-file=${path.join(base, 'mysqld.pid')}`, '--skip-name-resolve',
    '--innodb-buffer-pool-size=128M', '--innodb-log-file-size=64M', '--character-set-server=utf8mb4',
    '--collation-server=utf8mb4_general_ci', '--performance-schema=OFF', ...extraArgs],
  { stdio: 'ignore', detached: false });
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  for (let i = 0; i < 300; i++) {
    if (exited !== null) throw new Error(`mariadbd exited with ${exited}: ${safeRead(log)}`);
    if (fs.existsSync(socket)) {
      try {
        execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e',
          "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1'; GRANT ALL ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;"],
        { stdio: 'pipe' });
        break;
      } catch (e) { /* not ready yet */ }
    }
    await sleep(100);
    if (i === 299) throw new Error(`mariadbd did not start: ${safeRead(log)}`);
  }
  return {
    port, socket, base,
    uri: `root@127.0.0.1:${port}`,
    sql(statement) {
      return execFileSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-N', '-B', '-e', statement],
        { encoding: 'utf8' });
    },
    async stop() {
      if (exited === null) {
        child.kill('SIGTERM');
        for (let i = 0; i < 100 && exited === null; i++) await sleep(100);
        if (exited === null) child.kill('SIGKILL');
      }
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
}

function safeRead(f) { try { return fs.readFileSync(f, 'utf8').slice(-2000); } catch (e) { return ''; } }

module.exports = { startMariaDb };
