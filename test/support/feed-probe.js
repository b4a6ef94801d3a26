'use strict';
// A client that is not the replica, knocking on the plugin's replication listener (binlog_feed.py):
// what it answers before authentication. Each probe opens its own connection and returns
// {hello, packets (the payloads after the greeting), closed, tls (the version negotiated, if any)}.
const net = require('net');
const tls = require('tls');

// PROTOCOL_41 | SECURE_CONNECTION | PLUGIN_AUTH | PLUGIN_AUTH_LENENC_CLIENT_DATA | LONG_PASSWORD | LONG_FLAG (+ SSL)
const CAPS = 0x1 | 0x4 | 0x200 | 0x8000 | 0x80000 | 0x200000;
const SSL = 0x800;

function packet(seq, payload) {
  const head = Buffer.alloc(4);
  head.writeUIntLE(payload.length, 0, 3);
  head[3] = seq;
  return Buffer.concat([head, payload]);
}

function fixed(caps) {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(caps >>> 0, 0);
  b.writeUInt32LE(16 * 1024 * 1024, 4);
  b[8] = 255;
  return b;
}

// A handshake response: user and a 32-byte scramble (wrong: random) for caching_sha2_password.
function response(caps, user, answer) {
  return Buffer.concat([fixed(caps), Buffer.from(user + '\0'), Buffer.from([answer.length]), answer, Buffer.from('caching_sha2_password\0')]);
}

// Reads packets off a stream; resolves with what came once the peer closes or `ms` pass.
function reader(stream) {
  let buf = Buffer.alloc(0);
  const packets = [];
  let closed = false;
  let wake = null;
  const take = () => {
    while (buf.length >= 4) {
      const n = buf.readUIntLE(0, 3);
      if (buf.length < 4 + n) break;
      packets.push(buf.subarray(4, 4 + n));
      buf = buf.subarray(4 + n);
    }
    if (wake) wake();
  };
  stream.on('data', (d) => { buf = Buffer.concat([buf, d]); take(); });
  const end = () => { closed = true; if (wake) wake(); };
  stream.on('close', end);
  stream.on('error', end);
  return {
    packets,
    get closed() { return closed; },
    // Waits until n packets came, or the peer closed, or ms passed.
    until: (n, ms) => new Promise((resolve) => {
      const t = setTimeout(() => { wake = null; resolve(); }, ms);
      wake = () => { if (packets.length >= n || closed) { clearTimeout(t); wake = null; resolve(); } };
      wake();
    }),
  };
}

async function greeted(port, host) {
  const sock = net.connect(port, host);
  const r = reader(sock);
  await r.until(1, 5000);
  if (!r.packets.length) throw new Error(`no greeting from the listener at ${host}:${port}`);
  return { sock, r };
}

// kind: 'oversized' (a 64 KB handshake response), 'plain' (no TLS asked, a wrong scramble), 'wrong' (over TLS, a wrong scramble).
async function probe(port, host, kind, user) {
  const { sock, r } = await greeted(port, host);
  const hello = r.packets.shift();
  if (kind === 'oversized') {
    // A well-formed handshake response padded to 64 KB: read whole, it would be answered (1045 or 3159).
    const head = response(CAPS, user, Buffer.alloc(32, 0x5a));
    sock.write(packet(1, Buffer.concat([head, Buffer.alloc(64 * 1024 - head.length, 0x41)])));
    await r.until(1, 5000);
    sock.destroy();
    return { hello, packets: r.packets, closed: r.closed };
  }
  const answer = Buffer.alloc(32, 0x5a);
  if (kind === 'plain') {
    sock.write(packet(1, response(CAPS, user, answer)));
    await r.until(1, 5000);
    sock.destroy();
    return { hello, packets: r.packets, closed: r.closed };
  }
  sock.write(packet(1, fixed(CAPS | SSL)));
  sock.removeAllListeners('data');
  const t = tls.connect({ socket: sock, rejectUnauthorized: false, minVersion: 'TLSv1.2' });
  await new Promise((resolve, reject) => { t.once('secureConnect', resolve); t.once('error', reject); });
  const version = t.getProtocol();
  const tr = reader(t);
  t.write(packet(2, response(CAPS | SSL, user, answer)));
  await tr.until(1, 5000);
  t.destroy();
  return { hello, packets: tr.packets, closed: tr.closed, tls: version };
}

// An error packet's code, or null.
function errorCode(p) {
  return p && p[0] === 0xff ? p.readUInt16LE(1) : null;
}

module.exports = { probe, errorCode };
