'use strict';
// A recording HTTP proxy in front of an S3-compatible server: every request the plugin sends to
// the bucket passes through it unchanged (Host header included, so request signatures still
// match) and is recorded as {method, path, query, status, bytes}. Tests count the GETs and fail on
// any request that could write: PUT, DELETE, or a POST (S3 lists with GET: no POST is a listing).
const http = require('http');

// target: {host, port} → {endpoint, requests, writes(), reset(), stop()}
async function startRecordingProxy(target) {
  const requests = [];
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://proxy');
    const entry = { method: req.method, path: decodeURIComponent(url.pathname), query: url.search, status: null, bytes: 0 };
    requests.push(entry);
    const up = http.request({ host: target.host, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (r) => {
        entry.status = r.statusCode;
        res.writeHead(r.statusCode, r.headers);
        r.on('data', (d) => { entry.bytes += d.length; });
        r.pipe(res);
      });
    up.on('error', (e) => { entry.status = 502; res.writeHead(502); res.end(String(e.message)); });
    req.pipe(up);
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const port = server.address().port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    writes: () => requests.filter((r) => r.method !== 'GET' && r.method !== 'HEAD'),
    reset: () => { requests.length = 0; },
    stop: () => new Promise((ok) => { sockets.forEach((s) => s.destroy()); server.close(() => ok()); }),
  };
}

module.exports = { startRecordingProxy };
