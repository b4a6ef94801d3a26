'use strict';
// A real S3-compatible server on loopback for the bucket tests: SeaweedFS (`weed server -s3`, built
// from the Go module proxy by .ci/run) with one identity (access and secret key), so wrong keys are
// refused as by AWS. The test side fills and prepares buckets with its own signed requests
// (bucket creation, reading and deleting an object), straight to the server, never through the
// recording proxy the plugin talks to.
const crypto = require('crypto');
const fs = require('fs');
const http = require('http');
const net = require('net');
const os = require('os');
const path = require('path');
const { spawn, spawnSync } = require('child_process');

const ACCESS_KEY = 'RESTORETESTKEY';
const SECRET_KEY = 'restore-test-secret-key-0123456789';
const REGION = 'us-east-1';

// The weed program: $RESTORE_TEST_WEED, weed on PATH, or where `go install` puts it.
function weedProgram() {
  const candidates = [process.env.RESTORE_TEST_WEED, ...String(process.env.PATH || '').split(':').map((d) => path.join(d, 'weed')),
    path.join(process.env.GOBIN || path.join(process.env.GOPATH || path.join(os.homedir(), 'go'), 'bin'), 'weed')];
  return candidates.find((p) => p && fs.existsSync(p)) || null;
}

// moto's standalone server, only where SeaweedFS is not built: $RESTORE_TEST_MOTO or moto_server on PATH.
// It takes any keys (the test of wrong keys is skipped then).
function motoProgram() {
  const candidates = [process.env.RESTORE_TEST_MOTO, ...String(process.env.PATH || '').split(':').map((d) => path.join(d, 'moto_server'))];
  return candidates.find((p) => p && fs.existsSync(p)) || null;
}

function s3Missing() {
  return weedProgram() || motoProgram() ? null
    : 'they need SeaweedFS\'s weed program (scripts/install-s3-server.sh builds it; or set RESTORE_TEST_WEED)';
}

async function freePort() {
  for (;;) {
    const port = await new Promise((ok, fail) => {
      const s = net.createServer();
      s.on('error', fail);
      s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => ok(p)); });
    });
    // weed also listens on port + 10000 (gRPC)
    if (port < 55000 && await new Promise((ok) => {
      const s = net.createServer();
      s.on('error', () => ok(false));
      s.listen(port + 10000, '127.0.0.1', () => s.close(() => ok(true)));
    })) return port;
  }
}

function sign(method, host, pathname, query, headers, body) {
  const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const day = now.slice(0, 8);
  const hash = crypto.createHash('sha256').update(body || '').digest('hex');
  const h = { ...headers, host, 'x-amz-date': now, 'x-amz-content-sha256': hash };
  const names = Object.keys(h).map((k) => k.toLowerCase()).sort();
  const lower = {};
  Object.keys(h).forEach((k) => { lower[k.toLowerCase()] = String(h[k]).trim(); });
  const enc = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const q = Object.keys(query).sort().map((k) => `${enc(k)}=${enc(query[k])}`).join('&');
  const canonical = [method, pathname.split('/').map(enc).join('/'), q, names.map((n) => `${n}:${lower[n]}\n`).join(''),
    names.join(';'), hash].join('\n');
  const scope = `${day}/${REGION}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', now, scope, crypto.createHash('sha256').update(canonical).digest('hex')].join('\n');
  let key = Buffer.from('AWS4' + SECRET_KEY);
  for (const part of [day, REGION, 's3', 'aws4_request']) key = crypto.createHmac('sha256', key).update(part).digest();
  const sig = crypto.createHmac('sha256', key).update(toSign).digest('hex');
  lower.authorization = `AWS4-HMAC-SHA256 Credential=${ACCESS_KEY}/${scope}, SignedHeaders=${names.join(';')}, Signature=${sig}`;
  return { headers: lower, query: q };
}

// A signed request to the server itself → {status, body (Buffer)}.
function s3Request(port, method, pathname, query = {}, body = '') {
  const host = `127.0.0.1:${port}`;
  const s = sign(method, host, pathname, query, body ? { 'content-length': Buffer.byteLength(body) } : {}, body);
  const enc = pathname.split('/').map((p) => encodeURIComponent(p)).join('/');
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: enc + (s.query ? '?' + s.query : ''), headers: s.headers }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => ok({ status: res.statusCode, body: Buffer.concat(parts) }));
    });
    req.on('error', fail);
    req.end(body || undefined);
  });
}

async function waitFor(fn, ms, what) {
  const until = Date.now() + ms;
  for (;;) {
    try { if (await fn()) return; } catch (e) { /* not yet */ }
    if (Date.now() > until) throw new Error(`${what} did not come up within ${ms / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// → {port, endpoint, env (the keys for mysqlsh), createBucket(name), getObject(bucket, key), deleteObject(bucket, key), stop()}
async function startS3Server() {
  const weed = weedProgram();
  if (!weed && motoProgram()) return startMoto(motoProgram());
  if (!weed) throw new Error(s3Missing());
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-s3-'));
  const config = path.join(dir, 's3.json');
  fs.writeFileSync(config, JSON.stringify({ identities: [{ name: 'restore-test', credentials: [{ accessKey: ACCESS_KEY, secretKey: SECRET_KEY }],
    actions: ['Admin', 'Read', 'List', 'Tagging', 'Write'] }] }));
  const [master, volume, filer, s3] = [await freePort(), await freePort(), await freePort(), await freePort()];
  fs.mkdirSync(path.join(dir, 'data'));
  const log = fs.openSync(path.join(dir, 'weed.log'), 'a');
  const child = spawn(weed, ['server', `-dir=${path.join(dir, 'data')}`, '-ip=127.0.0.1', '-ip.bind=127.0.0.1',
    `-master.port=${master}`, '-master.volumeSizeLimitMB=64', `-volume.port=${volume}`, '-volume.max=8',
    '-filer', `-filer.port=${filer}`, '-s3', `-s3.port=${s3}`, `-s3.config=${config}`],
  { stdio: ['ignore', log, log], detached: false });
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      await new Promise((r) => { const t = setTimeout(() => { child.kill('SIGKILL'); r(); }, 5000); child.on('exit', () => { clearTimeout(t); r(); }); });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (exited !== null) throw new Error('exited');
      return (await s3Request(s3, 'GET', '/')).status === 200;
    }, 60000, `SeaweedFS (log: ${path.join(dir, 'weed.log')})`);
  } catch (e) {
    const tail = fs.readFileSync(path.join(dir, 'weed.log'), 'utf8').slice(-2000);
    await stop();
    throw new Error(`${e.message}: ${tail}`);
  }
  return handle(s3, 'SeaweedFS', true, stop);
}

async function startMoto(program) {
  const port = await freePort();
  const child = spawn(program, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
  };
  await waitFor(async () => {
    if (exited !== null) throw new Error('exited');
    return (await s3Request(port, 'GET', '/')).status === 200;
  }, 30000, 'moto_server');
  return handle(port, 'moto', false, stop);
}

function handle(s3, kind, checksKeys, stop) {
  return {
    kind,
    checksKeys,
    port: s3,
    endpoint: `http://127.0.0.1:${s3}`,
    env: { AWS_ACCESS_KEY_ID: ACCESS_KEY, AWS_SECRET_ACCESS_KEY: SECRET_KEY },
    accessKey: ACCESS_KEY,
    async createBucket(name) {
      const r = await s3Request(s3, 'PUT', `/${name}`);
      if (r.status !== 200) throw new Error(`creating bucket ${name}: HTTP ${r.status} ${r.body}`);
      // A new bucket can take a moment to be writable everywhere.
      await waitFor(async () => (await s3Request(s3, 'GET', `/${name}`, { 'list-type': '2' })).status === 200, 20000, `bucket ${name}`);
    },
    async getObject(bucket, key) {
      const r = await s3Request(s3, 'GET', `/${bucket}/${key}`);
      if (r.status !== 200) throw new Error(`GET ${bucket}/${key}: HTTP ${r.status}`);
      return r.body;
    },
    async deleteObject(bucket, key) {
      const r = await s3Request(s3, 'DELETE', `/${bucket}/${key}`);
      if (r.status !== 204 && r.status !== 200) throw new Error(`DELETE ${bucket}/${key}: HTTP ${r.status}`);
    },
    async listKeys(bucket, prefix) {
      const r = await s3Request(s3, 'GET', `/${bucket}`, { 'list-type': '2', prefix, 'max-keys': '1000' });
      return [...String(r.body).matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    },
    stop,
  };
}

module.exports = { startS3Server, s3Missing, weedProgram, ACCESS_KEY, SECRET_KEY };
