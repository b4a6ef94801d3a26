'use strict';
// A fault at one statement the plugin sends: a TCP proxy in front of the real server that speaks
// enough of the MySQL protocol to see each command packet, and answers the first COM_QUERY whose
// text matches a pattern with an error packet instead of passing it on (the server never sees
// it). Everything else goes through untouched. Clients must connect without TLS
// (ssl-mode=DISABLED), or the packets cannot be read.
const net = require('net');

const COM_QUERY = 0x03;

function errPacket(seq, code, message) {
  const body = Buffer.concat([Buffer.from([0xff, code & 0xff, code >> 8]), Buffer.from('#HY000' + message, 'utf8')]);
  const head = Buffer.from([body.length & 0xff, (body.length >> 8) & 0xff, body.length >> 16, (seq + 1) & 0xff]);
  return Buffer.concat([head, body]);
}

// target: {port}; fault: {pattern: RegExp, code, message, skip: how many matches pass first (0)}. Resolves to {port, uri(user), hits, stop()}.
async function startFaultProxy(target, fault) {
  const state = { hits: [], armed: true, skip: fault.skip || 0 };
  const sockets = new Set();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, '127.0.0.1');
    sockets.add(client);
    sockets.add(upstream);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4) {
        const len = pending[0] | (pending[1] << 8) | (pending[2] << 16);
        if (pending.length < 4 + len) break;
        const packet = pending.subarray(0, 4 + len);
        pending = pending.subarray(4 + len);
        const seq = packet[3];
        // A command starts a new exchange (sequence 0); with query attributes the text follows a
        // few length bytes, so the whole payload is searched.
        const text = seq === 0 && packet[4] === COM_QUERY ? packet.subarray(5).toString('latin1') : null;
        if (text !== null && state.armed && fault.pattern.test(text) && state.skip-- <= 0) {
          state.armed = false;
          state.hits.push(text.replace(/^[\x00-\x1f]+/, ''));
          client.write(errPacket(seq, fault.code || 1290, fault.message || 'injected fault'));
          continue;
        }
        upstream.write(packet);
      }
    });
    upstream.on('data', (d) => client.write(d));
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  return {
    port,
    hits: state.hits,
    uri: (user = 'root:') => `${user}@127.0.0.1:${port}?ssl-mode=DISABLED`,
    stop: () => new Promise((r) => { sockets.forEach((s) => s.destroy()); server.close(() => r()); }),
  };
}

module.exports = { startFaultProxy };
