# The replay's other engine (restore.load replayWith "applier"): the target's own replication applier applies the transactions, fed by this
# listener over the replication protocol. It answers as a source would: a handshake advertising caching_sha2_password (verified with the
# per-run password: fast authentication, no RSA) over TLS (binlog_guard.py: plain only over loopback, where lib/ asks so), the replica's
# setup queries, COM_REGISTER_SLAVE, then COM_BINLOG_DUMP_GTID: the transactions the plan chose (handed over in batches: add) that the
# replica's GTID set lacks, each file's FORMAT_DESCRIPTION after a rotate, events as the files have them (a statement naming a schema in its
# text rewritten by binlog_apply.replay_event, the rest mapped by the channel's filter; anonymous ones given their derived GTID, the server
# id changed where it is the target's own; CRC32 recomputed where changed), 1 MB at a time (binlog_stream.py: never a whole transaction);
# past the last only the next one's GTID event (the UNTIL); then idle until lib/ (replay-applier.js) stops it.
import json as _json
import os as _os
import socket as _socket
import struct as _struct
import threading as _threading
import time as _time

from . import binlog_apply
from . import binlog_events as ev
from . import binlog_guard as guard
from . import binlog_stream as stream
from . import binlog_wire as w

_FEEDS = {}
_IDS = [0]


class Feed(object):
    def __init__(self, spec):
        self.items = stream.Window(spec["transactions"], spec.get("more"))  # (file, start, end, gtid, texts, head), in batches
        self.dir = spec["dir"]
        self.rewrite = spec.get("rewrite")
        self.version = spec.get("version") or "8.4.0"
        self.target_id = int(spec.get("targetServerId") or 0)
        self.server_id = (self.target_id % 4000000000) + 1000000  # never the target's own
        self.uuid = spec.get("uuid")
        self.user = spec.get("user") or "mysqlsh_restore"
        self.password = _os.urandom(16).hex()  # 32 characters: the most SOURCE_PASSWORD takes
        self.lock, self.cpu = _threading.Lock(), _time.process_time()
        self.sent, self.bytes, self.connections, self.queries, self.failed, self.sent_last, self.stopped = 0, 0, 0, [], None, -1, False
        self.period = 30.0  # seconds between heartbeats once everything is sent (SET @source_heartbeat_period)
        self.crc = True  # the first file's checksums: what the replica is told they are
        if self.items:
            with open(self.dir + "/" + self.items[0][0], "rb") as f:
                self.crc = binlog_apply.open_file(f, self.items[0][0])[2]
        guard.secure(self, spec)  # self.tls (an ssl context, or None), tls_why, tls_version, refused
        self.sock = _socket.socket(_socket.AF_INET6 if ":" in spec["address"] else _socket.AF_INET, _socket.SOCK_STREAM)
        self.sock.setsockopt(_socket.SOL_SOCKET, _socket.SO_REUSEADDR, 1)
        self.sock.bind((spec["address"], 0))
        self.sock.listen(4)
        self.sock.settimeout(0.5)
        self.port = self.sock.getsockname()[1]
        self.clients = []
        self.thread = _threading.Thread(target=self.accept, daemon=True)
        self.thread.start()

    def accept(self):
        while not self.stopped:
            try:
                c, _ = self.sock.accept()
            except _socket.timeout:
                continue
            except OSError:
                return
            c.settimeout(10)  # until authenticated: a client that says nothing is not waited for
            conn = w.Conn(c)
            with self.lock:
                self.connections += 1
                self.clients.append(conn)
            _threading.Thread(target=self.serve, args=(conn,), daemon=True).start()

    def note(self, text):
        with self.lock:
            if len(self.queries) < 200:
                self.queries.append(text)

    def serve(self, conn):
        try:
            if not guard.admit(conn, self):
                return
            while not self.stopped:
                conn.seq = 0
                p = conn.read()
                cmd = p[0]
                if cmd == 0x03:
                    text = p[1:].decode("utf-8", "replace")
                    self.note(text)
                    self.period = w.heartbeat_period(text, self.period)
                    w.answer(conn, text, {"server_id": self.server_id, "uuid": self.uuid, "checksum": "CRC32" if self.crc else "NONE"})
                elif cmd == 0x15 or cmd == 0x0E:  # COM_REGISTER_SLAVE, COM_PING
                    conn.ok()
                elif cmd == 0x1E:
                    self.dump(conn, p)
                    return
                elif cmd == 0x01:  # COM_QUIT
                    return
                else:
                    self.note("command %d" % cmd)
                    conn.error(1047, "Unknown command")
        except (EOFError, OSError):
            pass
        except Exception as err:  # a defect here: said by the status, the channel's own error says the rest
            with self.lock:
                self.failed = "%s: %s" % (type(err).__name__, err)
        finally:
            try:
                conn.s.close()
            except OSError:
                pass

    def dump(self, conn, p):
        # COM_BINLOG_DUMP_GTID: flags(2) server_id(4) name_len(4) name pos(8) [data_size(4) data].
        n = _struct.unpack_from("<I", p, 7)[0]
        at = 11 + n + 8
        held = {}
        if len(p) >= at + 4:
            size = _struct.unpack_from("<I", p, at)[0]
            held = w.parse_gtid_set(p[at + 4:at + 4 + size])
        conn.seq = 1
        name, f, fde, posts, crc, end = None, None, None, None, False, None
        try:
            for i in range(self.items.base, 1 << 62):  # from the first the target has not committed (add's applied)
                meta = self.items.get(i, lambda: self.stopped)
                if meta is None:
                    break
                if w.holds(held, meta[3]):
                    self.mark(i, 0)
                    continue
                if meta[0] != name:
                    if f:
                        f.close()
                        self.send(conn, w.rotate(self.server_id, meta[0], crc, end))  # the switch as a source sends it
                    name = meta[0]
                    f = open(self.dir + "/" + name, "rb")
                    fde, posts, crc = binlog_apply.open_file(f, name)
                    if end is None:
                        self.send(conn, w.rotate(self.server_id, name, crc))
                    self.send(conn, w.format_event(self.server_id, fde, crc))
                size = 0
                for at, data in stream.chunks(f, meta[1], meta[2], len(meta) > 5 and meta[5]):  # never a whole transaction held
                    if data is None:
                        size += stream.send_large(conn, f, at, crc, self.target_id, self.server_id)
                    else:
                        self.send(conn, *self.events(data, meta, posts, crc, at))
                        size += len(data)
                self.mark(i, size)
                end = meta[1] + size
        finally:
            if f:
                f.close()
        # All planned is sent: the connection stays open until the channel is stopped, with heartbeats at the replica's
        # period (else it reconnects after replica_net_timeout): the last file and the end of its last event.
        beat = _time.time()
        while not self.stopped:
            _time.sleep(0.2)
            if name is not None and _time.time() - beat >= self.period:
                self.send(conn, w.heartbeat(self.server_id, name, end or 4, crc))
                beat = _time.time()

    def mark(self, i, size):
        with self.lock:
            self.sent_last = i
            self.sent += 1 if size else 0
            self.bytes += size

    def send(self, conn, *events):
        conn.write(*[b"\x00" + e for e in events])

    def events(self, data, meta, posts, crc, base):  # data: whole events, the first at base
        out, at, spec = [], 0, None
        if self.rewrite:
            spec = {"schemaMap": self.rewrite.get("schemaMap"), "texts": meta[4]}
        while at < len(data):
            kind = data[at + 4]
            (length, ) = _struct.unpack_from("<I", data, at + 9)
            raw = data[at:at + length]
            pos = base + at
            at += length
            if spec and kind in (ev.TABLE_MAP, ev.QUERY):
                raw = binlog_apply.replay_event(kind, raw, pos, spec, crc, posts)
            head, body = raw[:ev.HEADER], None
            if kind == ev.ANONYMOUS and meta[3]:
                # The derived GTID (lib/run/replay-preflight.js positionGtids): the same layout, another type.
                uuid, _, number = meta[3].rpartition(":")
                body = bytearray(w.body_of(raw, crc))
                body[1:17] = w.uuid_bytes(uuid)
                body[17:25] = _struct.pack("<q", int(number))
                head = head[:4] + bytes([ev.GTID]) + head[5:]
            if _struct.unpack_from("<I", raw, 5)[0] == self.target_id:
                # The target ignores events of its own server id: they are given the feed's.
                head = head[:5] + _struct.pack("<I", self.server_id) + head[9:]
                body = w.body_of(raw, crc) if body is None else body
            if body is not None:
                raw = w.sealed(head, bytes(body), crc)
            out.append(raw)
        return out

    def status(self):
        with self.lock:
            return {"sent": self.sent, "sentLast": self.sent_last, "bytes": self.bytes, "connections": self.connections, "refused": self.refused,
                    "tls": self.tls_version, "failed": self.failed, "queries": list(self.queries), "cpuSeconds": _time.process_time() - self.cpu}

    def stop(self):
        self.stopped = True
        # shutdown wakes the accept() waiting in the thread (close alone leaves it to its 0.5 s timeout)
        for end in (lambda: self.sock.shutdown(_socket.SHUT_RDWR), self.sock.close):
            try:
                end()
            except OSError:
                pass
        with self.lock:
            for c in self.clients:
                try:
                    c.s.shutdown(_socket.SHUT_RDWR)
                    c.s.close()
                except OSError:
                    pass
        self.thread.join(5)


def start(spec_json):
    # spec {dir, address (to listen on), version (the handshake's), targetServerId, uuid (the feed's server_uuid), user, rewrite, transactions:
    # [[file, start, end, gtid, texts, head]], more (the rest follow: add)} (head: the transaction past the stop, its GTID event alone, for the
    # replica's UNTIL; an anonymous one: its GTID derived from the dump's position). tls: "required" | "if-possible" | absent (binlog_guard.secure).
    # JSON text {id, port, user, password, tls (whether it serves over TLS only), tlsWhy (why not)}: the password is per run, random.
    feed = Feed(_json.loads(spec_json))
    _IDS[0] += 1
    _FEEDS[_IDS[0]] = feed
    return _json.dumps({"id": _IDS[0], "port": feed.port, "user": feed.user, "password": feed.password,
                        "tls": feed.tls is not None, "tlsWhy": feed.tls_why})


def add(feed_id, spec_json):
    # The next transactions, as start's: spec {transactions, more, applied (the target committed those below it: dropped)}.
    spec = _json.loads(spec_json)
    _FEEDS[feed_id].items.drop(int(spec.get("applied") or 0))
    _FEEDS[feed_id].items.add(spec["transactions"], spec.get("more"))


def status(feed_id):
    return _json.dumps(_FEEDS[feed_id].status())


def stop(feed_id):
    feed = _FEEDS.pop(feed_id, None)
    if feed is None:
        return _json.dumps(None)
    out = feed.status()
    feed.stop()
    return _json.dumps(out)
