'use strict';
// A real S3-compatible server on loopback for the bucket tests: SeaweedFS (`weed server -s3`, built
// from the Go module proxy) with one identity, or moto's standalone server (PyPI) with one IAM user:
// both check request signatures, so wrong keys are refused as by AWS. The test side fills and prepares buckets with its own signed requests
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

// moto's standalone server where SeaweedFS is not built: $RESTORE_TEST_MOTO, the pinned one
// scripts/install-s3-server.sh puts in a virtual environment, else moto_server on PATH (an older
// moto, 5.2.1, refuses the Shell 9.1's signature of a listing under "nightly/2026-11-22/").
const MOTO_VENV = path.join(os.homedir(), '.cache', 'restore-test', 'moto');
function motoProgram() {
  const candidates = [process.env.RESTORE_TEST_MOTO, path.join(MOTO_VENV, 'bin', 'moto_server'),
    ...String(process.env.PATH || '').split(':').map((d) => path.join(d, 'moto_server'))];
  return candidates.find((p) => p && fs.existsSync(p)) || null;
}

function s3Missing() {
  return weedProgram() || motoProgram() ? null
    : 'they need an S3-compatible server: scripts/install-s3-server.sh (moto from PyPI; --seaweedfs builds SeaweedFS)';
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

function sign(keys, method, host, pathname, query, headers, body) {
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
  let key = Buffer.from('AWS4' + keys.secret);
  for (const part of [day, REGION, 's3', 'aws4_request']) key = crypto.createHmac('sha256', key).update(part).digest();
  const sig = crypto.createHmac('sha256', key).update(toSign).digest('hex');
  lower.authorization = `AWS4-HMAC-SHA256 Credential=${keys.access}/${scope}, SignedHeaders=${names.join(';')}, Signature=${sig}`;
  return { headers: lower, query: q };
}

// A signed request to the server itself → {status, body (Buffer)}.
const WEED_KEYS = { access: ACCESS_KEY, secret: SECRET_KEY };
function s3Request(port, method, pathname, query = {}, body = '', keys = WEED_KEYS) {
  const host = `127.0.0.1:${port}`;
  const s = sign(keys, method, host, pathname, query, body ? { 'content-length': Buffer.byteLength(body) } : {}, body);
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
  return handle(s3, 'SeaweedFS', WEED_KEYS, stop);
}

// moto checks request signatures once INITIAL_NO_AUTH_ACTION_COUNT requests went through: the
// first three make an IAM user allowed everything and its keys, which every later request needs.
function motoIam(port, params) {
  const body = new URLSearchParams({ ...params, Version: '2010-05-08' }).toString();
  return new Promise((ok, fail) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: {
      'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body),
      authorization: 'AWS4-HMAC-SHA256 Credential=SETUP/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0' } }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => (res.statusCode === 200 ? ok(text) : fail(new Error(`moto IAM ${params.Action}: HTTP ${res.statusCode} ${text}`))));
    });
    req.on('error', fail);
    req.end(body);
  });
}

async function startMoto(program) {
  const port = await freePort();
  const child = spawn(program, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore',
    env: { ...process.env, INITIAL_NO_AUTH_ACTION_COUNT: '3' } });
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  const stop = async () => {
    if (exited === null) {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('exit', r));
    }
  };
  await waitFor(() => new Promise((ok, fail) => {
    if (exited !== null) return fail(new Error('exited'));
    const s = net.connect(port, '127.0.0.1', () => { s.destroy(); ok(true); });
    s.on('error', () => ok(false));
  }), 30000, 'moto_server');
  await motoIam(port, { Action: 'CreateUser', UserName: 'restore-test' });
  await motoIam(port, { Action: 'PutUserPolicy', UserName: 'restore-test', PolicyName: 'all', PolicyDocument:
    JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }) });
  const made = await motoIam(port, { Action: 'CreateAccessKey', UserName: 'restore-test' });
  const keys = { access: /<AccessKeyId>([^<]+)/.exec(made)[1], secret: /<SecretAccessKey>([^<]+)/.exec(made)[1] };
  return handle(port, 'moto', keys, stop);
}

function handle(s3, kind, keys, stop) {
  return {
    kind,
    port: s3,
    endpoint: `http://127.0.0.1:${s3}`,
    env: { AWS_ACCESS_KEY_ID: keys.access, AWS_SECRET_ACCESS_KEY: keys.secret },
    async createBucket(name) {
      const r = await s3Request(s3, 'PUT', `/${name}`, {}, '', keys);
      if (r.status !== 200) throw new Error(`creating bucket ${name}: HTTP ${r.status} ${r.body}`);
      // A new bucket can take a moment to be writable everywhere.
      await waitFor(async () => (await s3Request(s3, 'GET', `/${name}`, { 'list-type': '2' }, '', keys)).status === 200, 20000, `bucket ${name}`);
    },
    async getObject(bucket, key) {
      const r = await s3Request(s3, 'GET', `/${bucket}/${key}`, {}, '', keys);
      if (r.status !== 200) throw new Error(`GET ${bucket}/${key}: HTTP ${r.status}`);
      return r.body;
    },
    async putObject(bucket, key, body) {
      const r = await s3Request(s3, 'PUT', `/${bucket}/${key}`, {}, body, keys);
      if (r.status !== 200) throw new Error(`PUT ${bucket}/${key}: HTTP ${r.status} ${r.body}`);
    },
    async deleteObject(bucket, key) {
      const r = await s3Request(s3, 'DELETE', `/${bucket}/${key}`, {}, '', keys);
      if (r.status !== 204 && r.status !== 200) throw new Error(`DELETE ${bucket}/${key}: HTTP ${r.status}`);
    },
    async listKeys(bucket, prefix) {
      const r = await s3Request(s3, 'GET', `/${bucket}`, { 'list-type': '2', prefix, 'max-keys': '1000' }, '', keys);
      return [...String(r.body).matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => m[1].replace(/&amp;/g, '&'));
    },
    stop,
  };
}

module.exports = { startS3Server, s3Missing, weedProgram, ACCESS_KEY, SECRET_KEY };
