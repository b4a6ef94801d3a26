'use strict';
// A recording HTTP proxy in front of an S3-compatible server: every request the plugin (or the
// Shell) sends to the bucket passes through it unchanged (Host header included, so request
// signatures still match) and is recorded as one JSON line {method, path, query, status, bytes}.
// Tests count the GETs and fail on any request that could write: PUT, DELETE, or a POST (S3 lists
// with GET: no POST is a listing). It runs as its own process: the tests run mysqlsh with
// spawnSync, which blocks their event loop.
const fs = require('fs');
const http = require('http');
const os = require('os');
const path = require('path');
const { spawn } = require('child_process');

// cutListings: every listing page comes back marked truncated, with no token to go on (what a
// listing limited by a policy can look like); the body is rewritten, nothing else.
function serve(targetPort, logFile, cutListings) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://proxy');
    const entry = { method: req.method, path: decodeURIComponent(url.pathname), query: url.search, status: null, bytes: 0 };
    const record = () => fs.appendFileSync(logFile, JSON.stringify(entry) + '\n');
    const up = http.request({ host: '127.0.0.1', port: targetPort, method: req.method, path: req.url, headers: req.headers }, (r) => {
      entry.status = r.statusCode;
      if (cutListings && /list-type=2/.test(url.search) && r.statusCode === 200) {
        const parts = [];
        r.on('data', (d) => parts.push(d));
        r.on('end', () => {
          const body = Buffer.from(Buffer.concat(parts).toString('utf8').replace(/<IsTruncated>false<\/IsTruncated>/, '<IsTruncated>true</IsTruncated>')
            .replace(/<NextContinuationToken>[^<]*<\/NextContinuationToken>/, ''));
          entry.bytes = body.length;
          record();
          const headers = { ...r.headers, 'content-length': String(body.length) };
          res.writeHead(r.statusCode, headers);
          res.end(body);
        });
        return;
      }
      res.writeHead(r.statusCode, r.headers);
      r.on('data', (d) => { entry.bytes += d.length; });
      r.on('end', record);
      r.pipe(res);
    });
    up.on('error', (e) => { entry.status = 502; record(); res.writeHead(502); res.end(String(e.message)); });
    req.pipe(up);
  });
  server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\n'));
}

// target: {port, cutListings} → {endpoint, requests (read when asked), writes(), reset(), stop()}
async function startRecordingProxy(target) {
  const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'restore-proxy-')), 'requests.jsonl');
  fs.writeFileSync(logFile, '');
  const child = spawn(process.execPath, [__filename, String(target.port), logFile, target.cutListings ? 'cut' : ''], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((ok, fail) => {
    child.stdout.once('data', (d) => ok(Number(String(d).trim())));
    child.on('exit', (code) => fail(new Error(`the recording proxy exited (${code})`)));
  });
  let from = 0;
  const read = () => fs.readFileSync(logFile, 'utf8').slice(from).split('\n').filter(Boolean).map((l) => JSON.parse(l));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get requests() { return read(); },
    writes: () => read().filter((r) => r.method !== 'GET' && r.method !== 'HEAD'),
    reset: () => { from = fs.readFileSync(logFile, 'utf8').length; },
    stop: () => new Promise((ok) => {
      child.removeAllListeners('exit');
      child.on('exit', () => { fs.rmSync(path.dirname(logFile), { recursive: true, force: true }); ok(); });
      child.kill('SIGTERM');
    }),
  };
}

if (require.main === module) serve(Number(process.argv[2]), process.argv[3], process.argv[4] === 'cut');

module.exports = { startRecordingProxy };
