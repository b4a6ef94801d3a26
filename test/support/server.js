'use strict';
// A throwaway real MySQL server (../shared/bin/with-mysql) kept alive while a test needs it.
// with-mysql runs a small holder that reports the server's address and waits for its stdin to
// close; closing it (or this process dying) stops the server and removes its data directory.
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const readline = require('readline');
const mysql = require('mysql2/promise');
const { WITH_MYSQL } = require('./real');

const HOLDER = `process.stdout.write(JSON.stringify({port: process.env.MYSQL_PORT, uri: process.env.MYSQL_URI,
  client: process.env.MYSQL_CLIENT, datadir: process.env.MYSQL_DATADIR}) + '\\n');
process.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;

// tz: the server's system time zone (TZ of mysqld, e.g. 'America/New_York'; its session time_zone SYSTEM).
async function startServer({ opts = '', tz = null } = {}) {
  const child = spawn(WITH_MYSQL, [process.execPath, '-e', HOLDER], {
    stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, MYSQLD_OPTS: opts, ...(tz ? { TZ: tz } : {}) },
  });
  const info = await new Promise((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout });
    rl.once('line', (l) => { rl.close(); resolve(JSON.parse(l)); });
    child.once('exit', (code) => reject(new Error(`with-mysql exited (${code}) before the server was up`)));
  });
  const server = new Server(child, info, opts);
  await server.connect();
  return server;
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

  async stop() {
    if (this.conn) await this.conn.end().catch(() => {});
    // Shut mysqld down here, whichever process runs it: with-mysql signals the process it started,
    // which with the bundled server is a loader wrapper (mysqld outlived it, orphaned, after every
    // run), and it knows nothing of a mysqld started by restart().
    spawnSync('sh', ['-c', `${this.client} -e 'SHUTDOWN'`], { stdio: 'ignore' });
    await waitFor(() => !this.alive() && !this.pidFile(), 60000).catch(() => {}); // mysqld removes it last
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
  const [source, target] = await Promise.all([startServer({ opts: GTIDS }), startServer({ opts: GTIDS })]);
  return { source, target, uuid: String(await source.value('SELECT @@server_uuid')) };
}

module.exports = { startServer, checksumTables, gtidSourceAndTarget };
