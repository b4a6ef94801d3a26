'use strict';
// A throwaway real MySQL server kept alive while a test needs it, as ../shared/bin/with-mysql makes
// one (same mysqld, options, root without a password, layout: DIR/data, DIR/server.log, DIR/s.sock).
// A small holder process waits for its stdin to close; closing it (or this process dying) stops
// the server and removes its directory.
// With the bundled server (../shared/mysql/mysql-*.tar.zst) the data directory is a copy of one
// made by `mysqld --initialize-insecure` once per server version (kept in the temp folder):
// initializing took 3-6 s a server and a run starts about 25. The copy has no auto.cnf, so each
// server makes its own server_uuid. RESTORE_TEST_WITH_MYSQL=1 (or no bundle: the Debian root)
// starts every server through with-mysql instead, initialized afresh.
const { spawn, spawnSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const readline = require('readline');
const mysql = require('mysql2/promise');
const { SHARED, WITH_MYSQL } = require('./real');

const HOLDER = `process.stdout.write(JSON.stringify({port: process.env.MYSQL_PORT, uri: process.env.MYSQL_URI,
  client: process.env.MYSQL_CLIENT, datadir: process.env.MYSQL_DATADIR}) + '\\n');
process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;

// tz: the server's system time zone (TZ of mysqld, e.g. 'America/New_York'; its session time_zone SYSTEM).
async function startServer({ opts = '', tz = null } = {}) {
  const home = bundleHome();
  const server = home ? await startCopy(home, opts, tz) : await startWithMysql(opts, tz);
  live.add(server);
  await server.connect();
  return server;
}

// Servers started and not stopped yet: the root hooks stop what a test left (a failed before hook
// that lost its servers), since a server still running keeps mocha from ever exiting.
const live = new Set();
async function stopLeftovers() {
  const left = [...live];
  await Promise.all(left.map((s) => s.stop().catch(() => {})));
  return left.length;
}

// The bundled server's folder, as with-mysql finds and unpacks it (null: no bundle, or with-mysql asked for).
let bundle;
function bundleHome() {
  if (bundle !== undefined) return bundle;
  bundle = null;
  if (process.env.RESTORE_TEST_WITH_MYSQL) return bundle;
  const dir = path.join(SHARED, 'mysql');
  const file = process.env.MYSQL_BUNDLE || (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^mysql-.*\.tar\.zst$/.test(f))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true })).map((f) => path.join(dir, f)).pop() : null);
  if (!file || !fs.existsSync(file)) return bundle;
  const cache = process.env.MYSQL_BUNDLE_CACHE || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'mysql-bundles');
  const home = path.join(cache, path.basename(file, '.tar.zst'));
  const ready = () => { try { fs.accessSync(path.join(home, 'bin', 'mysqld'), fs.constants.X_OK); return true; } catch (e) { return false; } };
  if (!ready()) spawnSync(WITH_MYSQL, ['true'], { stdio: 'ignore' }); // unpacks the bundle (once per machine)
  if (ready()) bundle = home;
  return bundle;
}

// The initialized data directory for this server version, made once (atomically: two test
// processes may ask at once) → its path.
let template = null;
function initializedDatadir(mysqld) {
  if (template) return template;
  template = (async () => {
    const version = spawnSync(mysqld, ['--version'], { encoding: 'utf8' }).stdout || '';
    const init = ['--no-defaults', '--initialize-insecure', '--user=root'];
    const key = crypto.createHash('sha1').update([fs.realpathSync(mysqld), version, ...init].join('\n')).digest('hex').slice(0, 12);
    const dir = path.join(os.tmpdir(), `restore-test-datadir-${key}`);
    if (fs.existsSync(path.join(dir, 'mysql.ibd'))) return dir;
    const tmp = fs.mkdtempSync(`${dir}.new-`);
    try {
      const r = await exited(spawn(mysqld, [...init, `--datadir=${tmp}/data`],
        { stdio: ['ignore', 'ignore', 'pipe'] }));
      if (r.code !== 0) throw new Error(`mysqld --initialize-insecure failed: ${r.stderr}`);
      fs.rmSync(path.join(tmp, 'data', 'auto.cnf')); // each copy makes its own server_uuid
      try { fs.renameSync(path.join(tmp, 'data'), dir); } catch (e) { if (!fs.existsSync(path.join(dir, 'mysql.ibd'))) throw e; }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    return dir;
  })();
  template.catch(() => { template = null; });
  return template;
}

function exited(child) {
  let stderr = '';
  if (child.stderr) child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

// Runs mysqld "$@" with its log in $base/server.log, prints its pid, and when stdin closes stops it
// and removes $base (what with-mysql does around its command).
const HOLD = 'base=$1; shift; "$@" >"$base/server.log" 2>&1 & pid=$!; echo $pid; exec 2>/dev/null; cat >/dev/null; ' +
  'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$base"';

// mysqld gives up at once when the machine's asynchronous I/O contexts (fs.aio-max-nr, shared by
// every mysqld running on it) are used up for a moment: it is started again, a few times.
const AIO_BUSY = /io_setup\(\) failed with EAGAIN/;

async function startCopy(home, opts, tz) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCopyOnce(home, opts, tz);
    } catch (e) {
      if (!AIO_BUSY.test(e.message) || attempt >= 6) throw e;
      await new Promise((r) => setTimeout(r, 2000 * attempt));
    }
  }
}

async function startCopyOnce(home, opts, tz) {
  const mysqld = path.join(home, 'bin', 'mysqld');
  const from = await initializedDatadir(mysqld);
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'mysql.'));
  const datadir = path.join(base, 'data');
  const cp = await exited(spawn('cp', ['-a', '--sparse=always', from, datadir], { stdio: ['ignore', 'ignore', 'pipe'] }));
  if (cp.code !== 0) { fs.rmSync(base, { recursive: true, force: true }); throw new Error(`copying ${from}: ${cp.stderr}`); }
  const port = await freePort();
  const child = spawn('bash', ['-c', HOLD, 'hold', base, mysqld, '--no-defaults', '--user=root', `--datadir=${datadir}`,
    `--socket=${path.join(base, 's.sock')}`, `--port=${port}`, '--bind-address=127.0.0.1', '--mysqlx=OFF', '--local-infile=1',
    '--secure-file-priv=', '--innodb-buffer-pool-size=256M', ...opts.split(/\s+/).filter(Boolean)],
  { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...(tz ? { TZ: tz } : {}) } });
  const pid = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.once('line', (l) => { rl.close(); resolve(Number(l)); });
    child.once('exit', (code) => reject(new Error(`the server holder exited (${code}) before mysqld started`)));
  });
  const server = new Server(child, { port, uri: `root:@127.0.0.1:${port}`, datadir,
    client: `${path.join(home, 'bin', 'mysql')} --no-defaults -uroot -h127.0.0.1 -P${port}` }, opts);
  server.copied = true;
  // Up when it answers (as with-mysql waits: up to 120 s), or failed when mysqld has exited.
  const until = Date.now() + 120000;
  for (;;) {
    const conn = await mysql.createConnection({ host: '127.0.0.1', port, user: 'root', password: '' }).catch(() => null);
    if (conn) { await conn.end().catch(() => {}); break; }
    let running = true;
    try { process.kill(pid, 0); } catch (e) { running = false; }
    if (!running || Date.now() > until) {
      const log = fs.existsSync(path.join(base, 'server.log')) ? fs.readFileSync(path.join(base, 'server.log'), 'utf8') : '';
      const done = new Promise((r) => child.once('exit', r));
      child.stdin.end();
      await done;
      throw new Error(`mysqld ${running ? 'did not answer within 120 s' : 'exited'} (options: ${opts || 'none'}); its log:\n${log.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return server;
}

async function startWithMysql(opts, tz) {
  const child = spawn(WITH_MYSQL, [process.execPath, '-e', HOLDER], {
    stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, MYSQLD_OPTS: opts, ...(tz ? { TZ: tz } : {}) },
  });
  const info = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.once('line', (l) => { rl.close(); resolve(JSON.parse(l)); });
    child.once('exit', (code) => reject(new Error(`with-mysql exited (${code}) before the server was up`)));
  });
  return new Server(child, info, opts);
}

class Server {
  constructor(child, info, opts) {
    this.child = child;
    this.port = Number(info.port);
    this.uri = info.uri; // root:@127.0.0.1:PORT (the empty password spelled out: no prompt)
    this.client = info.client;
    this.datadir = info.datadir;
    this.opts = opts;
  }

  async connect() {
    this.conn = await mysql.createConnection({ host: '127.0.0.1', port: this.port, user: 'root', password: '',
      multipleStatements: true, supportBigNumbers: true, bigNumberStrings: true });
  }

  // Rows as plain objects.
  async query(sql, args) {
    const [rows] = await this.conn.query(sql, args);
    return rows;
  }

  async value(sql, args) {
    const rows = await this.query(sql, args);
    const row = rows[0];
    return row ? row[Object.keys(row)[0]] : undefined;
  }

  async variables(names) {
    const out = {};
    for (const n of names) out[n] = await this.value(`SELECT @@GLOBAL.${n} AS v`).catch(() => null);
    return out;
  }

  async redoLog() {
    return this.value("SELECT VARIABLE_VALUE FROM performance_schema.global_status WHERE VARIABLE_NAME = 'Innodb_redo_log_enabled'");
  }

  mysqld() {
    return path.join(path.dirname(this.client.trim().split(/\s+/)[0]), 'mysqld');
  }

  async shutdown() {
    await this.conn.query('SHUTDOWN').catch(() => {});
    await this.conn.end().catch(() => {});
    await waitFor(() => !this.alive(), 60000);
  }

  // Stops mysqld cleanly and starts it again on the same data directory and port.
  async restart() {
    await this.shutdown();
    await this.start();
  }

  // A new data directory made with these options (some, like lower_case_table_names, can only be
  // set when it is initialized), then mysqld started with them: a server as a DBA may have one.
  async reinitialize(opts) {
    await this.shutdown();
    await waitFor(() => !this.pidFile(), 60000);
    fs.rmSync(this.datadir, { recursive: true, force: true });
    const r = spawnSync(this.mysqld(), ['--no-defaults', '--initialize-insecure', '--user=root', `--datadir=${this.datadir}`,
      ...opts], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mysqld --initialize-insecure ${opts.join(' ')} failed: ${r.stderr}`);
    this.opts = [this.opts, ...opts].filter(Boolean).join(' ');
    await this.start();
  }

  async start() {
    const bin = this.mysqld();
    const p = spawn(bin, ['--no-defaults', '--user=root', `--datadir=${this.datadir}`,
      `--socket=${path.join(path.dirname(this.datadir), 's.sock')}`, `--port=${this.port}`, '--bind-address=127.0.0.1',
      '--mysqlx=OFF', '--local-infile=1', '--secure-file-priv=', '--innodb-buffer-pool-size=256M',
      ...this.opts.split(/\s+/).filter(Boolean)], { stdio: 'ignore', detached: true });
    p.unref();
    await waitFor(() => this.alive(), 120000);
    await this.connect();
  }

  pidFile() {
    return fs.existsSync(this.datadir) && fs.readdirSync(this.datadir).some((f) => f.endsWith('.pid'));
  }

  alive() {
    return spawnSync('sh', ['-c', `${this.client} -e 'select 1'`], { stdio: 'ignore' }).status === 0;
  }

  // mysqld's process id, from the pid file it writes in its data directory (null: none there).
  pid() {
    if (!fs.existsSync(this.datadir)) return null;
    const f = fs.readdirSync(this.datadir).find((n) => n.endsWith('.pid'));
    const pid = f ? Number(fs.readFileSync(path.join(this.datadir, f), 'utf8').trim()) : NaN;
    return pid > 0 ? pid : null;
  }

  async stop() {
    live.delete(this);
    if (this.conn) await this.conn.end().catch(() => {});
    // Stop mysqld here, whichever process runs it: with-mysql signals the process it started,
    // which with the bundled server is a loader wrapper (mysqld outlived it, orphaned, after every
    // run), and it knows nothing of a mysqld started by restart(). A copied server is thrown away
    // with its data directory, so it is killed: a clean shutdown took about 2 s a server.
    const pid = this.copied ? this.pid() : null;
    const running = () => { try { process.kill(pid, 0); return true; } catch (e) { return false; } };
    if (pid && running()) {
      process.kill(pid, 'SIGKILL');
      await waitFor(() => !running(), 60000).catch(() => {});
    } else {
      spawnSync('sh', ['-c', `${this.client} -e 'SHUTDOWN'`], { stdio: 'ignore' });
      await waitFor(() => !this.alive() && !this.pidFile(), 60000).catch(() => {}); // mysqld removes it last
    }
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.stdin.end();
    await exited;
  }
}

async function waitFor(cond, ms) {
  const until = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting for the server');
    await new Promise((r) => setTimeout(r, 250));
  }
}

// CHECKSUM TABLE of each of tables (names as SQL text, e.g. 'shop.orders'): {table: checksum text}.
async function checksumTables(server, tables) {
  const out = {};
  for (const t of tables) out[t] = String((await server.query(`CHECKSUM TABLE ${t}`))[0].Checksum);
  return out;
}

const GTIDS = '--gtid-mode=ON --enforce-gtid-consistency=ON';

// A replay's servers: a source and a target with GTIDs → {source, target, uuid (the source's server_uuid)}.
async function gtidSourceAndTarget() {
  // If one fails, the other is stopped: a server left running keeps mocha from ever exiting.
  const started = await Promise.allSettled([startServer({ opts: GTIDS }), startServer({ opts: GTIDS })]);
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.filter((r) => r.status === 'fulfilled').map((r) => r.value.stop()));
    throw failed.reason;
  }
  const [source, target] = started.map((r) => r.value);
  return { source, target, uuid: String(await source.value('SELECT @@server_uuid')) };
}

// A server's binary log files and their index copied into folder: the backup a replay reads.
function copyBinlogs(server, folder) {
  for (const f of fs.readdirSync(server.datadir).filter((n) => /^binlog\.(\d{6}|index)$/.test(n))) {
    fs.copyFileSync(path.join(server.datadir, f), path.join(folder, f));
  }
}

module.exports = { startServer, checksumTables, gtidSourceAndTarget, stopLeftovers, copyBinlogs };
