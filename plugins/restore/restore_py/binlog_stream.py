# What keeps a replay's memory bounded whatever a transaction's size (issue 54: a 1 GB transaction costs mysqlsh
# what a small one does): its events read and sent in pieces (the feed: chunks, send_large). Read only.
import struct as _struct
import zlib as _zlib

from . import binlog_events as ev

CHUNK = 1 << 20  # the feed reads and sends at most this many bytes of whole events at a time
LARGE = 4 << 20  # an event above this is sent as it is read (send_large), never held whole
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
