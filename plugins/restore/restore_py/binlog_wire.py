# The MySQL client/server protocol as a source speaks it to a replica (binlog_feed.py): packets,
# caching_sha2_password's scramble, OK / error / text result set packets, the GTID set a replica
# sends with COM_BINLOG_DUMP_GTID. Layouts are the protocol's (facts from its documentation).
import hashlib as _hashlib
import os as _os
import struct as _struct
import time as _time

from . import binlog_events as ev
from .binlog_rewrite import body_of, sealed

# CLIENT_LONG_PASSWORD, LONG_FLAG, CONNECT_WITH_DB, PROTOCOL_41, TRANSACTIONS, SECURE_CONNECTION,
# MULTI_STATEMENTS, MULTI_RESULTS, PLUGIN_AUTH, CONNECT_ATTRS, PLUGIN_AUTH_LENENC_CLIENT_DATA (SSL added
# by binlog_guard when the listener has a certificate): no compression, no DEPRECATE_EOF, no query attributes.
CAPS = (0x1 | 0x4 | 0x8 | 0x200 | 0x2000 | 0x8000 | 0x10000 | 0x20000 | 0x80000 | 0x100000 | 0x200000)
CLIENT_SSL = 0x800
PLUGIN = b"caching_sha2_password"


class Refused(Exception):
    """A connection the listener closes before authentication (why: the message, for the status)."""


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


_ARTIFICIAL = 0x20  # LOG_EVENT_ARTIFICIAL_F: an event the source made up, not in its files


def uuid_bytes(text):
    return bytes.fromhex(text.replace("-", ""))


def parse_gtid_set(data):
    # COM_BINLOG_DUMP_GTID's set, encoded as a PREVIOUS_GTIDS event's body: {uuid: [(start, end
    # exclusive), ...]}; None for the tagged encoding (then every planned transaction is sent and the
    # replica's applier skips those it holds).
    return ev.gtid_ranges(data) if len(data) >= 8 else {}


def holds(held, gtid):
    if held is None or not gtid:
        return False
    uuid, _, n = gtid.rpartition(":")
    n = int(n)
    return any(lo <= n < hi for lo, hi in held.get(uuid.lower(), ()))


class Conn(object):
    def __init__(self, sock):
        self.s, self.seq = sock, 0
        self.buf = b""
        self.tls = None  # the TLS version negotiated, once wrapped

    def _recv(self, n):
        # No more than asked: the bytes after a client's SSL request are its TLS handshake, the TLS layer's to read
        # (a client sends both at once; read ahead here, they were lost to it and the connection refused).
        while len(self.buf) < n:
            got = self.s.recv(n - len(self.buf))
            if not got:
                raise EOFError()
            self.buf += got
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read(self, limit=None):
        # limit: the largest logical packet taken (before authentication), else Refused.
        data = b""
        while True:
            head = self._recv(4)
            n = head[0] | head[1] << 8 | head[2] << 16
            if limit is not None and len(data) + n > limit:
                raise Refused("a packet of %d bytes before authentication (at most %d are taken)" % (len(data) + n, limit))
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

    def write_stream(self, total, parts):
        # One logical packet of `total` bytes given as parts (bytes), written as they come: a wire packet's
        # header before each 16 MB - 1, and an empty one after a payload of an exact multiple of it.
        left, room = total, 0
        for part in parts:
            part = memoryview(part)
            while len(part):
                if room == 0:
                    if left == 0:
                        raise OSError("an event longer than its %d bytes" % total)
                    room = min(left, 0xFFFFFF)
                    self.s.sendall(_struct.pack("<I", room)[:3] + bytes([self.seq]))
                    self.seq = (self.seq + 1) & 0xFF
                n = min(room, len(part))
                self.s.sendall(part[:n])
                part, room, left = part[n:], room - n, left - n
        if left != 0:
            raise OSError("an event of %d bytes ended %d bytes short" % (total, left))
        if total % 0xFFFFFF == 0:
            self.s.sendall(b"\x00\x00\x00" + bytes([self.seq]))
            self.seq = (self.seq + 1) & 0xFF

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


def read_lenenc(p, at):
    first = p[at]
    if first < 251:
        return first, at + 1
    if first == 0xFC:
        return _struct.unpack_from("<H", p, at + 1)[0], at + 3
    if first == 0xFD:
        return int.from_bytes(p[at + 1:at + 4], "little"), at + 4
    return _struct.unpack_from("<Q", p, at + 1)[0], at + 9


def heartbeat_period(text, current):
    # SET @source_heartbeat_period = N (nanoseconds): the period in seconds, else current.
    import re as _re
    m = _re.search(r"@source_heartbeat_period\s*=\s*(\d+)", text, _re.I)
    return max(0.5, int(m.group(1)) / 1e9) if m and int(m.group(1)) > 0 else current


def answer(conn, text, facts):
    # A replica's setup query: SETs are taken (OK), the SELECTs it asks a source answered from facts
    # {server_id, uuid, checksum}, any other variable NULL.
    q = " ".join(text.split()).upper()
    if q.startswith("SET ") or q.startswith("SET@"):
        conn.ok()
        return
    if q == "SELECT UNIX_TIMESTAMP()":
        conn.rows(["UNIX_TIMESTAMP()"], [[int(_time.time())]])
    elif q == "SELECT @@GLOBAL.SERVER_ID":
        conn.rows(["@@GLOBAL.SERVER_ID"], [[facts["server_id"]]])
    elif q == "SELECT @@GLOBAL.SERVER_UUID":
        conn.rows(["@@GLOBAL.SERVER_UUID"], [[facts["uuid"]]])
    elif q == "SELECT @@GLOBAL.GTID_MODE":
        conn.rows(["@@GLOBAL.GTID_MODE"], [["ON"]])
    elif q in ("SELECT @MASTER_BINLOG_CHECKSUM", "SELECT @SOURCE_BINLOG_CHECKSUM"):
        conn.rows([text.split()[-1]], [[facts["checksum"]]])
    elif q.startswith("SELECT @@GLOBAL.") or q.startswith("SELECT @"):
        conn.rows([text.split(None, 1)[1]], [[None]])  # a variable this source does not have: NULL
    elif q.startswith("SHOW VARIABLES"):
        conn.rows(["Variable_name", "Value"], [])
    else:
        conn.rows([text.split(None, 1)[-1][:64]], [[None]])


# Events a source makes up for the stream (the rest are the files' own).
def rotate(server_id, name, crc, at=None):
    # Artificial (before the first file: where the stream starts), else the end of the file sent.
    size = ev.HEADER + 8 + len(name.encode("utf-8")) + (4 if crc else 0)
    head = _struct.pack("<IBIIIH", 0 if at is None else int(_time.time()), ev.ROTATE, server_id, 0,
                        0 if at is None else at + size, _ARTIFICIAL if at is None else 0)
    return sealed(head, _struct.pack("<Q", 4) + name.encode("utf-8"), crc)

def heartbeat(server_id, name, at, crc):
    head = _struct.pack("<IBIIIH", 0, 27, server_id, 0, at, _ARTIFICIAL)  # HEARTBEAT_LOG_EVENT
    return sealed(head, name.encode("utf-8"), crc)

def format_event(server_id, raw, crc):
    # As a source sends it when the replica does not start at the file's beginning: log_pos 0. The
    # in-use flag cleared: a file being written has it set, outside its checksum (which the replica checks).
    flags = _struct.unpack_from("<H", raw, 17)[0] & ~0x1
    head = raw[:4] + raw[4:5] + _struct.pack("<I", server_id) + raw[9:13] + _struct.pack("<IH", 0, flags)
    return sealed(head, body_of(raw, crc), crc)
