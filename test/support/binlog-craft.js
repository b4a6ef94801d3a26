'use strict';
// Binary log files crafted from real ones for the tests: the events of a file, and the file with an
// INCIDENT event inserted (what a source writes where it lost events), as the server lays it out.
const zlib = require('zlib');

// A binary log's events: {pos, type, length}; header: when(4) type(1) server_id(4) length(4) next(4) flags(2).
function events(buf) {
  const out = [];
  for (let at = 4; at + 19 <= buf.length; at += buf.readUInt32LE(at + 9)) out.push({ pos: at, type: buf[at + 4], length: buf.readUInt32LE(at + 9) });
  return out;
}

// The file with an INCIDENT event (type 26: incident 1, LOST_EVENTS, and a message) inserted at `at`, every later
// event's next-position moved and its CRC32 computed again (the file has checksums).
function withIncident(buf, at) {
  const msg = Buffer.from('restore test: events lost here');
  const body = Buffer.concat([Buffer.from([1, 0, msg.length]), msg]);
  const ev = Buffer.alloc(19 + body.length + 4);
  ev.writeUInt32LE(buf.readUInt32LE(at < buf.length ? at : 4), 0); // the time of the event it precedes
  ev[4] = 26;
  ev.writeUInt32LE(buf.readUInt32LE(4 + 5), 5); // the server id of the file's first event
  ev.writeUInt32LE(ev.length, 9);
  ev.writeUInt32LE(at + ev.length, 13);
  body.copy(ev, 19);
  ev.writeUInt32LE(zlib.crc32(ev.subarray(0, ev.length - 4)), ev.length - 4);
  const rest = Buffer.from(buf.subarray(at));
  for (let p = 0; p + 19 <= rest.length; p += rest.readUInt32LE(p + 9)) {
    const len = rest.readUInt32LE(p + 9);
    rest.writeUInt32LE(rest.readUInt32LE(p + 13) + ev.length, p + 13);
    rest.writeUInt32LE(zlib.crc32(rest.subarray(p, p + len - 4)), p + len - 4);
  }
  return Buffer.concat([buf.subarray(0, at), ev, rest]);
}

module.exports = { events, withIncident };
