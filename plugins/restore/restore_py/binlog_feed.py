# The replay's other engine (restore.load replayWith "applier"): the target's own replication applier
# applies the transactions, fed by this listener over the replication protocol. It answers as a source
# would: a handshake advertising caching_sha2_password (verified with the per-run password: fast
# authentication, no TLS, no RSA), the replica's setup queries, COM_REGISTER_SLAVE, then
# COM_BINLOG_DUMP_GTID: the transactions the plan chose that the replica's GTID set lacks, each file's
# FORMAT_DESCRIPTION after a rotate, events as the files have them (schemaMap's rewritten ones through
# binlog_apply.replay_event, anonymous ones given their derived GTID, the server id changed where it is
# the target's own), CRC32 recomputed where an event changed. Nothing past the plan's last transaction
# is ever sent; the connection then stays open until the plugin stops the channel. lib/ drives the
# channel (lib/binlog/replay-applier.js) and polls this for what was sent.
import hashlib as _hashlib
import json as _json
import os as _os
import socket as _socket
import struct as _struct
import threading as _threading
import time as _time
import zlib as _zlib

from . import binlog_apply
from . import binlog_events as ev

_CAPS = (0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x10000 | 0x20000 | 0x80000 | 0x100000 | 0x200000)
_PLUGIN = b"caching_sha2_password"
_FEEDS = {}
_IDS = [0]
_ARTIFICIAL = 0x20


def _sha(b):
    return _hashlib.sha256(b).digest()


def scramble(password, nonce):
    # What a caching_sha2_password client sends: XOR(SHA256(pw), SHA256(SHA256(SHA256(pw)) + nonce)).
    if not password:
        return b""
    p1 = _sha(password)
    p2 = _sha(_sha(p1) + nonce)
    return bytes(a ^ b for a, b in zip(p1, p2))


def _lenenc(n):
    if n < 251:
        return bytes([n])
    if n < 1 << 16:
        return b"\xfc" + _struct.pack("<H", n)
    if n < 1 << 24:
        return b"\xfd" + _struct.pack("<I", n)[:3]
    return b"\xfe" + _struct.pack("<Q", n)


def _lenstr(b):
    return _lenenc(len(b)) + b


def _sealed(head, body, crc):
    size = ev.HEADER + len(body) + (4 if crc else 0)
    head = head[:9] + _struct.pack("<I", size) + head[13:ev.HEADER]
    out = head + body
    return out + _struct.pack("<I", _zlib.crc32(out) & 0xFFFFFFFF) if crc else out


def _uuid_bytes(text):
    return bytes.fromhex(text.replace("-", ""))


def parse_gtid_set(data):
    # COM_BINLOG_DUMP_GTID's set (untagged encoding): {uuid: [[start, end exclusive], ...]}; None for an
    # encoding not read here (the tagged one): then every planned transaction is sent and the
    # replica's applier skips those it holds.
    if len(data) < 8:
        return {}
    (n,) = _struct.unpack_from("<Q", data, 0)
    if n >> 56:
        return None
    at, out = 8, {}
    for _ in range(n):
        h = data[at:at + 16].hex()
        uuid = "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])
        (k,) = _struct.unpack_from("<Q", data, at + 16)
        at += 24
        out.setdefault(uuid, [])
        for _ in range(k):
            out[uuid].append(_struct.unpack_from("<qq", data, at))
            at += 16
    return out


def _holds(held, gtid):
    if held is None or not gtid:
        return False
    uuid, _, n = gtid.rpartition(":")
    n = int(n)
    return any(lo <= n < hi for lo, hi in held.get(uuid.lower(), ()))


class _Conn(object):
    def __init__(self, sock):
        self.s, self.seq = sock, 0
        self.buf = b""

    def _recv(self, n):
        while len(self.buf) < n:
            got = self.s.recv(65536)
            if not got:
                raise EOFError()
            self.buf += got
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self):
        data = b""
        while True:
            head = self._recv(4)
            n = head[0] | head[1] << 8 | head[2] << 16
            self.seq = (head[3] + 1) & 0xFF
            data += self._recv(n)
            if n < 0xFFFFFF:
                return data

    def pack(self, payload):
        # One logical packet as wire packets (split at 16 MB - 1, as the protocol says).
        out = []
        at = 0
        while True:
            part = payload[at:at + 0xFFFFFF]
            out.append(_struct.pack("<I", len(part))[:3] + bytes([self.seq]) + part)
            self.seq = (self.seq + 1) & 0xFF
            at += len(part)
            if len(part) < 0xFFFFFF:
                return b"".join(out)

    def write(self, *payloads):
        self.s.sendall(b"".join(self.pack(p) for p in payloads))

    def ok(self):
        self.write(b"\x00\x00\x00\x02\x00\x00\x00")

    def error(self, code, text):
        self.write(b"\xff" + _struct.pack("<H", code) + b"#HY000" + text.encode("utf-8"))

    def rows(self, names, rows):
        # A text result set (EOF packets: CLIENT_DEPRECATE_EOF is not advertised).
        eof = b"\xfe\x00\x00\x02\x00"
        out = [_lenenc(len(names))]
        for name in names:
            n = name.encode("utf-8")
            out.append(_lenstr(b"def") + _lenstr(b"") + _lenstr(b"") + _lenstr(b"") + _lenstr(n) + _lenstr(n) +
                       b"\x0c" + _struct.pack("<HIBHB", 255, 1024, 0xFD, 0, 0) + b"\x00\x00")
        out.append(eof)
        for r in rows:
            out.append(b"".join(b"\xfb" if v is None else _lenstr(str(v).encode("utf-8")) for v in r))
        out.append(eof)
        self.write(*out)


class Feed(object):
    def __init__(self, spec):
        self.items = spec["transactions"]  # [file, start, end, gtid, texts, derived (the gtid replaces an anonymous one)]
        self.dir = spec["dir"]
        self.rewrite = spec.get("rewrite")
        self.version = spec.get("version") or "8.4.0"
        self.target_id = int(spec.get("targetServerId") or 0)
        self.server_id = (self.target_id % 4000000000) + 1000000  # never the target's own
        self.uuid = spec.get("uuid")
        self.user = spec.get("user") or "mysqlsh_restore"
        self.password = _os.urandom(16).hex()  # 32 characters: the most SOURCE_PASSWORD takes
        self.lock = _threading.Lock()
        self.sent, self.bytes, self.connections, self.queries, self.failed = 0, 0, 0, [], None
        self.sent_last = -1
        self.stopped = False
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
            c.settimeout(None)
            with self.lock:
                self.connections += 1
                self.clients.append(c)
            _threading.Thread(target=self.serve, args=(c,), daemon=True).start()

    def note(self, text):
        with self.lock:
            if len(self.queries) < 200:
                self.queries.append(text)

    def serve(self, sock):
        conn = _Conn(sock)
        try:
            if not self.handshake(conn):
                return
            while not self.stopped:
                conn.seq = 0
                p = conn.read()
                cmd = p[0]
                if cmd == 0x03:
                    self.query(conn, p[1:].decode("utf-8", "replace"))
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
                sock.close()
            except OSError:
                pass

    def handshake(self, conn):
        nonce = bytes((b % 94) + 33 for b in _os.urandom(20))  # printable, no NUL: as servers send it
        hello = (b"\x0a" + self.version.encode("ascii") + b"\x00" + _struct.pack("<I", 1) + nonce[:8] + b"\x00" +
                 _struct.pack("<H", _CAPS & 0xFFFF) + b"\xff" + _struct.pack("<H", 2) + _struct.pack("<H", _CAPS >> 16) +
                 bytes([21]) + b"\x00" * 10 + nonce[8:] + b"\x00" + _PLUGIN + b"\x00")
        conn.seq = 0
        conn.write(hello)
        p = conn.read()
        (caps,) = _struct.unpack_from("<I", p, 0)
        at = 32
        end = p.index(b"\x00", at)
        user = p[at:end].decode("utf-8", "replace")
        at = end + 1
        if caps & 0x200000:
            n, at = _read_lenenc(p, at)
        else:
            n, at = p[at], at + 1
        answer = p[at:at + n]
        at += n
        if caps & 0x8 and at < len(p):
            at = p.index(b"\x00", at) + 1
        plugin = _PLUGIN
        if caps & 0x80000 and at < len(p):
            plugin = p[at:p.index(b"\x00", at)] if b"\x00" in p[at:] else p[at:]
        if plugin != _PLUGIN:  # another plugin: switch it to caching_sha2_password with a new nonce
            conn.write(b"\xfe" + _PLUGIN + b"\x00" + nonce + b"\x00")
            answer = conn.read()
        if user != self.user or answer != scramble(self.password.encode("ascii"), nonce):
            self.note("refused user %s" % user)
            conn.error(1045, "Access denied for user '%s'" % user)
            return False
        conn.write(b"\x01\x03")  # AuthMoreData: fast authentication succeeded
        conn.ok()
        return True

    def query(self, conn, text):
        self.note(text)
        q = " ".join(text.split()).upper()
        if q.startswith("SET ") or q.startswith("SET@"):
            conn.ok()
            return
        if q == "SELECT UNIX_TIMESTAMP()":
            conn.rows(["UNIX_TIMESTAMP()"], [[int(_time.time())]])
        elif q == "SELECT @@GLOBAL.SERVER_ID":
            conn.rows(["@@GLOBAL.SERVER_ID"], [[self.server_id]])
        elif q == "SELECT @@GLOBAL.SERVER_UUID":
            conn.rows(["@@GLOBAL.SERVER_UUID"], [[self.uuid]])
        elif q == "SELECT @@GLOBAL.GTID_MODE":
            conn.rows(["@@GLOBAL.GTID_MODE"], [["ON"]])
        elif q in ("SELECT @MASTER_BINLOG_CHECKSUM", "SELECT @SOURCE_BINLOG_CHECKSUM"):
            conn.rows([text.split()[-1]], [["CRC32"]])
        elif q.startswith("SELECT @@GLOBAL.") or q.startswith("SELECT @"):
            conn.rows([text.split(None, 1)[1]], [[None]])  # a variable this source does not have: NULL
        elif q.startswith("SHOW VARIABLES"):
            conn.rows(["Variable_name", "Value"], [])
        else:
            conn.rows([text.split(None, 1)[-1][:64]], [[None]])

    def dump(self, conn, p):
        # COM_BINLOG_DUMP_GTID: flags(2) server_id(4) name_len(4) name pos(8) [data_size(4) data].
        n = _struct.unpack_from("<I", p, 7)[0]
        at = 11 + n + 8
        held = {}
        if len(p) >= at + 4:
            size = _struct.unpack_from("<I", p, at)[0]
            held = parse_gtid_set(p[at + 4:at + 4 + size])
        conn.seq = 1
        name, f, fde, posts, crc, end = None, None, None, None, False, None
        try:
            for i, meta in enumerate(self.items):
                if self.stopped:
                    return
                if _holds(held, meta[3]):
                    self.mark(i, 0)
                    continue
                if meta[0] != name:
                    if f:
                        f.close()
                        self.send(conn, self.rotate(meta[0], crc, end))  # the switch as a source sends it
                    name = meta[0]
                    f = open(self.dir + "/" + name, "rb")
                    fde, posts, crc = binlog_apply.open_file(f, name)
                    if end is None:
                        self.send(conn, self.rotate(name, crc))
                    self.send(conn, self.fde(fde, crc))
                f.seek(meta[1])
                data = f.read(meta[2] - meta[1])
                out = self.events(data, meta, posts, crc)
                self.send(conn, *out)
                self.mark(i, meta[2] - meta[1])
                end = meta[2]
        finally:
            if f:
                f.close()
        # Everything planned is sent: the connection stays open, idle, until the channel is stopped.
        while not self.stopped:
            _time.sleep(0.2)

    def mark(self, i, size):
        with self.lock:
            self.sent_last = i
            self.sent += 1 if size else 0
            self.bytes += size

    def send(self, conn, *events):
        conn.write(*[b"\x00" + e for e in events])

    def rotate(self, name, crc, at=None):
        # Artificial (before the first file: where the stream starts), else the end of the file sent.
        size = ev.HEADER + 8 + len(name.encode("utf-8")) + (4 if crc else 0)
        head = _struct.pack("<IBIIIH", 0 if at is None else int(_time.time()), ev.ROTATE, self.server_id, 0,
                            0 if at is None else at + size, _ARTIFICIAL if at is None else 0)
        return _sealed(head, _struct.pack("<Q", 4) + name.encode("utf-8"), crc)

    def fde(self, raw, crc):
        # As a source sends it when the replica does not start at the file's beginning: log_pos 0. The
        # in-use flag cleared: a file being written has it set, outside its checksum (which the replica checks).
        flags = _struct.unpack_from("<H", raw, 17)[0] & ~0x1
        head = raw[:4] + raw[4:5] + _struct.pack("<I", self.server_id) + raw[9:13] + _struct.pack("<IH", 0, flags)
        body = raw[ev.HEADER:len(raw) - 4] if crc else raw[ev.HEADER:]
        return _sealed(head, body, crc)

    def events(self, data, meta, posts, crc):
        out, at, spec = [], 0, None
        if self.rewrite:
            spec = {"schemaMap": self.rewrite.get("schemaMap"), "texts": meta[4]}
        while at < len(data):
            kind = data[at + 4]
            (length, ) = _struct.unpack_from("<I", data, at + 9)
            raw = data[at:at + length]
            pos = meta[1] + at
            at += length
            if spec and kind in (ev.TABLE_MAP, ev.QUERY):
                raw = binlog_apply.replay_event(kind, raw, pos, spec, crc, posts)
            changed = False
            if kind == ev.ANONYMOUS and meta[5]:
                # The derived GTID (lib/run/replay-preflight.js positionGtids): the same layout, another type.
                uuid, _, number = meta[3].rpartition(":")
                body = bytearray(raw[ev.HEADER:len(raw) - 4] if crc else raw[ev.HEADER:])
                body[1:17] = _uuid_bytes(uuid)
                body[17:25] = _struct.pack("<q", int(number))
                raw = raw[:4] + bytes([ev.GTID]) + raw[5:ev.HEADER] + bytes(body) + (b"\0\0\0\0" if crc else b"")
                changed = True
            if _struct.unpack_from("<I", raw, 5)[0] == self.target_id:
                # The target ignores events of its own server id: they are given the feed's.
                raw = raw[:5] + _struct.pack("<I", self.server_id) + raw[9:]
                changed = True
            if changed:
                body = raw[ev.HEADER:len(raw) - 4] if crc else raw[ev.HEADER:]
                raw = _sealed(raw[:ev.HEADER], body, crc)
            out.append(raw)
        return out

    def status(self):
        with self.lock:
            return {"sent": self.sent, "sentLast": self.sent_last, "bytes": self.bytes, "connections": self.connections,
                    "failed": self.failed, "queries": list(self.queries)}

    def stop(self):
        self.stopped = True
        try:
            self.sock.close()
        except OSError:
            pass
        with self.lock:
            for c in self.clients:
                try:
                    c.shutdown(_socket.SHUT_RDWR)
                    c.close()
                except OSError:
                    pass
        self.thread.join(5)


def _read_lenenc(p, at):
    first = p[at]
    if first < 251:
        return first, at + 1
    if first == 0xFC:
        return _struct.unpack_from("<H", p, at + 1)[0], at + 3
    if first == 0xFD:
        return int.from_bytes(p[at + 1:at + 4], "little"), at + 4
    return _struct.unpack_from("<Q", p, at + 1)[0], at + 9


def start(spec_json):
    # spec {dir, address (to listen on), version (the handshake's), targetServerId, uuid (the feed's
    # server_uuid), user, rewrite, transactions: [[file, start, end, gtid, texts, derived]]}.
    # JSON text {id, port, user, password}: the password is per run, random.
    feed = Feed(_json.loads(spec_json))
    _IDS[0] += 1
    _FEEDS[_IDS[0]] = feed
    return _json.dumps({"id": _IDS[0], "port": feed.port, "user": feed.user, "password": feed.password})


def status(feed_id):
    return _json.dumps(_FEEDS[feed_id].status())


def stop(feed_id):
    feed = _FEEDS.pop(feed_id, None)
    if feed is None:
        return _json.dumps(None)
    out = feed.status()
    feed.stop()
    return _json.dumps(out)
