'use strict';
// The async side of SyncBridge: real MySQL protocol connections (mysql2) and the Python
// companion process. One connection per mysqlsh session, so session state (USE, SET SESSION,
// sql_log_bin) behaves as in the Shell.
const { parentPort, workerData } = require('worker_threads');
const mysql = require('mysql2');
const { spawn } = require('child_process');
const fs = require('fs');
const readline = require('readline');
const { PassThrough } = require('stream');

const { flag, port } = workerData;
const connections = new Map();
let nextConnection = 1;
let python = null;

function reply(msg) {
  port.postMessage(msg);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

// LOAD DATA LOCAL INFILE reads through this: zstd/gzip chunks are decompressed on the fly.
function infileStream(file) {
  // A zero-length chunk reads as no data in the Shell; the zstd CLI calls it an error.
  if (fs.statSync(file).size === 0) return fs.createReadStream(file);
  if (file.endsWith('.zst')) {
    // Ends only when zstd has exited, so a decompression error fails the stream, not a short read.
    const p = spawn('zstd', ['-dc', '-q', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = new PassThrough();
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.stdout.pipe(out, { end: false });
    p.on('close', (code) => {
      if (code !== 0) out.destroy(new Error(`zstd.read: ${err.trim() || `zstd exited with ${code}`}`));
      else out.end();
    });
    return out;
  }
  if (file.endsWith('.gz')) return fs.createReadStream(file).pipe(require('zlib').createGunzip());
  return fs.createReadStream(file);
}

function typeCast(field, next) {
  if (field.type === 'JSON') return field.string();
  if (field.type === 'BIT') {
    const b = field.buffer();
    if (b === null) return null;
    let v = 0;
    for (const byte of b) v = v * 256 + byte;
    return v;
  }
  return next();
}

function parseUri(uri) {
  const u = new URL(uri.includes('://') ? uri : `mysql://${uri}`);
  return {
    host: u.hostname || '127.0.0.1',
    port: u.port ? Number(u.port) : 3306,
    user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password || ''),
    database: u.pathname && u.pathname.length > 1 ? decodeURIComponent(u.pathname.slice(1)) : undefined,
  };
}

const ops = {
  async 'sql.open'({ uri }) {
    const c = mysql.createConnection({
      ...parseUri(uri),
      flags: ['+LOCAL_FILES'],
      infileStreamFactory: infileStream,
      rowsAsArray: true,
      supportBigNumbers: true,
      dateStrings: false,
      typeCast,
      multipleStatements: false,
      charset: 'utf8mb4',
    });
    await new Promise((res, rej) => c.connect((e) => (e ? rej(e) : res())));
    c.on('error', () => {});
    const id = nextConnection++;
    connections.set(id, c);
    return { id, threadId: c.threadId };
  },
  async 'sql.query'({ id, sql }) {
    const c = connections.get(id);
    if (!c) throw Object.assign(new Error('Not connected.'), { code: 0 });
    return new Promise((res, rej) => {
      c.query({ sql, rowsAsArray: true }, (e, rows, fields) => {
        if (e) return rej(e);
        if (Array.isArray(rows) && fields) {
          res({ columns: fields.map((f) => ({ name: f.name, type: f.columnType, table: f.table })), rows });
        } else {
          res({ columns: [], rows: [], affected: rows.affectedRows, insertId: rows.insertId,
            warningCount: rows.warningStatus || 0, info: rows.info || '' });
        }
      });
    });
  },
  async 'sql.close'({ id }) {
    const c = connections.get(id);
    connections.delete(id);
    if (c) await new Promise((res) => c.end(() => res()));
    return true;
  },
  async 'py.start'({ argv, env }) {
    if (python) return true;
    const p = spawn('python3', argv, { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
    const lines = readline.createInterface({ input: p.stdout });
    const waiting = [];
    lines.on('line', (l) => { const w = waiting.shift(); if (w) w(l); });
    p.on('exit', () => { python = null; let w; while ((w = waiting.shift())) w(JSON.stringify({ error: { message: 'Python companion exited' } })); });
    python = { p, waiting };
    const hello = JSON.parse(await new Promise((res) => waiting.push(res)));
    if (hello.error) throw Object.assign(new Error(hello.error.message), hello.error);
    return hello.result;
  },
  async 'py.call'(req) {
    if (!python) throw new Error('Python companion is not running');
    const answer = new Promise((res) => python.waiting.push(res));
    python.p.stdin.write(JSON.stringify(req) + '\n');
    const msg = JSON.parse(await answer);
    if (msg.error) throw Object.assign(new Error(msg.error.message), msg.error);
    return msg.result;
  },
  async shutdown() {
    for (const c of connections.values()) c.destroy();
    connections.clear();
    if (python) python.p.kill();
    return true;
  },
};

parentPort.on('message', async ({ op, args }) => {
  try {
    if (!ops[op]) throw new Error(`unknown bridge op ${op}`);
    reply({ result: await ops[op](args) });
  } catch (e) {
    reply({ error: { message: e.sqlMessage || e.message, code: e.errno || e.code || 0, sqlState: e.sqlState, type: e.type } });
  }
});
