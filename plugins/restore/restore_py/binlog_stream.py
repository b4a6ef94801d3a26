# What keeps a replay's memory bounded whatever a transaction's size (issue 54: a 1 GB transaction costs mysqlsh
# what a small one does): its events read and sent in pieces (the feed: chunks, send_large), a compressed one's
# events decompressed as they are read (inner_stream: zstd fed from the file), and the sessions' read-ahead
# queue bounded by bytes (Queue, held), the transactions handed over in batches (Window). Read only.
import collections as _collections
import shutil as _shutil
import struct as _struct
import subprocess as _subprocess
import threading as _threading
import zlib as _zlib

from . import binlog_events as ev
from .binlog_rewrite import body_of

CHUNK = 1 << 20  # the feed reads and sends at most this many bytes of whole events at a time
LARGE = ev.LARGE  # an event above this is sent as it is read (send_large), never held whole
READ = 1 << 20


def chunks(f, start, end, head=False):
    # The events of [start, end) as (position, bytes of whole events up to CHUNK), or (position, None) for one
    # event above LARGE that is sent unchanged but for its server id (the rest go through the feed's events());
    # head: the first event only (the transaction past the stop: its GTID event alone).
    f.seek(start)
    pos, held, size = start, [], 0
    while pos < end:
        top = f.read(ev.HEADER)
        (length, ) = _struct.unpack_from("<I", top, 9) if len(top) == ev.HEADER else (0, )
        if length < ev.HEADER or pos + length > end:
            raise OSError("%s: no event of a planned transaction at %d" % (f.name, pos))
        if length > LARGE and top[4] not in (ev.TABLE_MAP, ev.QUERY, ev.ANONYMOUS):
            if held:
                yield pos - size, b"".join(held)
                held, size = [], 0
            yield pos, None
            f.seek(pos + length)
        else:
            held.append(top + f.read(length - ev.HEADER))
            size += length
            if size >= CHUNK:
                yield pos + length - size, b"".join(held)
                held, size = [], 0
        pos += length
        if head:
            break
    if held:
        yield pos - size, b"".join(held)


def send_large(conn, f, pos, crc, target_id, server_id):
    # The event at pos (above LARGE: a compressed transaction, a row of big BLOBs) written to conn as it is read,
    # READ bytes at a time; its server id changed where it is the target's (then its CRC32 computed as it goes).
    # Returns its length.
    f.seek(pos)
    head = f.read(ev.HEADER)
    (length, ) = _struct.unpack_from("<I", head, 9)
    own = _struct.unpack_from("<I", head, 5)[0] == target_id
    if own:
        head = head[:5] + _struct.pack("<I", server_id) + head[9:]
    state = {"left": length - ev.HEADER - (4 if crc else 0), "check": _zlib.crc32(head)}

    def parts():
        yield b"\x00" + head
        while state["left"] > 0:
            part = f.read(min(state["left"], READ))
            if not part:
                raise OSError("%s ends inside the event at %d" % (f.name, pos))
            state["left"] -= len(part)
            if own and crc:
                state["check"] = _zlib.crc32(part, state["check"])
            yield part
        if crc:
            tail = f.read(4)
            yield _struct.pack("<I", state["check"] & 0xFFFFFFFF) if own else tail
    conn.write_stream(length + 1, parts())
    return length


class Undecodable(Exception):
    pass  # (compression, why): a compressed transaction that cannot be read


def inner_stream(path, pos, length, crc, posts):
    # (compression, the events of the TRANSACTION_PAYLOAD event at pos (length bytes) of the file at path, as
    # ev.inner_events gives them, decompressed as they are read): what is held is one inner event, never the
    # transaction. Undecodable: at once (an unknown compression, no zstd program), or at the end (zstd failed).
    with open(path, "rb") as f:
        f.seek(pos + ev.HEADER)
        fields, at = ev.payload_fields(f.read(min(64, length - ev.HEADER)))
    compression = fields.get(2, 0)
    if compression not in (0, 255):
        raise Undecodable("type %d" % compression, "compression type %d is not known" % compression)
    program = _shutil.which("zstd") if compression == 0 else None
    if compression == 0 and program is None:
        raise Undecodable("zstd", "the zstd program is not on PATH to decompress it")
    start = pos + ev.HEADER + at
    return "zstd" if program else "none", _events(path, start, pos + length - (4 if crc else 0), program, posts)


def _events(path, start, end, program, posts):
    f = open(path, "rb")
    f.seek(start)
    proc, out, writer = None, f, None
    if program:  # zstd, fed from the file by a thread, its output read here one event at a time
        proc = _subprocess.Popen([program, "-dcq"], stdin=_subprocess.PIPE, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE)
        out = proc.stdout

        def feed():
            left = end - start
            try:
                while left > 0:
                    part = f.read(min(left, READ))
                    if not part:
                        break
                    proc.stdin.write(part)
                    left -= len(part)
            except (OSError, ValueError):
                pass  # zstd stopped reading: its exit says why
            finally:
                try:
                    proc.stdin.close()
                except OSError:
                    pass
        writer = _threading.Thread(target=feed, daemon=True)
        writer.start()
    done, left, why = False, None if proc else end - start, ""
    try:
        while left is None or left > 0:
            head = out.read(ev.HEADER)
            if not head:
                break
            size = _struct.unpack_from("<I", head, 9)[0] if len(head) == ev.HEADER else 0
            body = out.read(size - ev.HEADER) if size >= ev.HEADER else b""
            if size < ev.HEADER or len(body) < size - ev.HEADER:
                raise Undecodable("zstd" if proc else "none", "its events end inside an event")
            if left is not None:
                left -= size
            yield head[4], body, posts[head[4] - 1] if head[4] - 1 < len(posts) else 0, head + body
        done = True
    finally:
        if proc:
            if not done:
                proc.kill()
            proc.stdout.close()
            writer.join()
            why = proc.stderr.read().decode("utf-8", "replace").strip()
            proc.stderr.close()
            proc.wait()
        f.close()
    if proc and proc.returncode != 0:
        raise Undecodable("zstd", "zstd could not decompress it (%s)" % why)


def payload_events(raw, pos, crc, posts):
    # The events of a TRANSACTION_PAYLOAD event, raw (its bytes) or a Span (left in its file: inner_stream).
    if isinstance(raw, Span):
        return inner_stream(raw.path, pos, raw.length, crc, posts)[1]
    compression, data, why = ev.payload(body_of(bytes(raw), crc), posts[ev.PAYLOAD - 1])
    if data is None:
        raise Undecodable(compression, why)
    return ev.inner_events(data, posts)


class Span(object):
    # A compressed transaction's TRANSACTION_PAYLOAD event left in its file (read by inner_stream as it is sent).
    def __init__(self, path, length):
        self.path, self.length = path, length


def inflates(f, start, end, limit):
    # Whether a compressed transaction's events, decompressed, pass limit bytes (its TRANSACTION_PAYLOAD comes
    # right after its GTID event): then it is read as it is sent, like a large one.
    f.seek(start)
    top = f.read(ev.HEADER)
    at = start + (_struct.unpack_from("<I", top, 9)[0] if len(top) == ev.HEADER else end)
    if at + ev.HEADER >= end:
        return False
    f.seek(at)
    top = f.read(ev.HEADER + 64)
    return len(top) > ev.HEADER and top[4] == ev.PAYLOAD and ev.payload_fields(top[ev.HEADER:])[0].get(3, 0) > limit


def held(trx):
    # The bytes a queued transaction holds: its pieces' (a compressed one's decompressed); one read as sent: little.
    if not isinstance(trx, list):
        return 256
    return sum(256 + len(p.get("binlog") or p.get("query") or b"") for p in trx)


class Queue(object):
    # The sessions' transactions read ahead of the workers, bounded by a count and by bytes (put waits while
    # either is full; one item is always taken, whatever its size).
    def __init__(self, count, size):
        self.count, self.size, self.items, self.bytes = count, size, _collections.deque(), 0
        self.cond = _threading.Condition(_threading.Lock())

    def put(self, item, size=0):
        with self.cond:
            while self.items and (len(self.items) >= self.count or self.bytes + size > self.size):
                self.cond.wait()
            self.items.append((item, size))
            self.bytes += size
            self.cond.notify_all()

    def get(self):
        with self.cond:
            while not self.items:
                self.cond.wait()
            item, size = self.items.popleft()
            self.bytes -= size
            self.cond.notify_all()
            return item


class Window(object):
    # A run's transactions as JS hands them over in batches (add), tuples by their index in the run; those below base
    # dropped once done with (drop): a run holds what it has not applied, whatever the count. clock: binlog_replay.Clock.
    def __init__(self, rows, more, clock=None):
        self.rows, self.base, self.complete, self.clock = [], 0, False, clock
        self.cond = _threading.Condition(_threading.Lock())
        self.add(rows, more)

    def add(self, rows, more):
        with self.cond:
            for r in rows:  # a replay's: [file, start, end, gtid, lastCommitted, sequenceNumber, time, texts, idempotent]
                self.rows.append(tuple(r) + (self.clock.add(r),) if self.clock else tuple(r))
            self.complete = not more
            self.cond.notify_all()

    def __getitem__(self, i):
        with self.cond:
            return self.rows[i - self.base]

    def __len__(self):  # how many were handed over
        return self.base + len(self.rows)

    def drop(self, upto):  # every one below upto is done with (a few thousand at a time)
        with self.cond:
            if upto - self.base >= 4096:
                del self.rows[:upto - self.base]
                self.base = upto
                self.clock and self.clock.forget(upto)

    def get(self, i, halted):  # transaction i once handed over, or None: the run's end (or halted())
        with self.cond:
            while i >= self.base + len(self.rows) and not self.complete and not halted():
                self.cond.wait(0.25)
            return self.rows[i - self.base] if self.base <= i < self.base + len(self.rows) else None
