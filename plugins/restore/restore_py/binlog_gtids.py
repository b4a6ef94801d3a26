# GTIDs as binary log events carry them: GTID / ANONYMOUS_GTID (fixed layout), GTID_TAGGED (MySQL 8.3+,
# the serialization library's format), PREVIOUS_GTIDS' sets. Layouts are MySQL's (libbinlogevents); pure.
import struct as _struct

from . import binlog_rows


def _uuid(b):
    h = b.hex()
    return "%s-%s-%s-%s-%s" % (h[0:8], h[8:12], h[12:16], h[16:20], h[20:32])


def gtid_ranges(body, tagged=False):
    # A GTID set as PREVIOUS_GTIDS (and COM_BINLOG_DUMP_GTID) encode it: {uuid: [(start, end exclusive), ...]};
    # None for a format this reader does not know. tagged: the MySQL 8.3+ format too (first and eighth bytes 1,
    # the count in the six between; each uuid followed by its tag, length << 1 in one byte then its letters,
    # empty for untagged GTIDs: read off the 9.7 server's files), a tag's GTIDs under "uuid:tag".
    (n,) = _struct.unpack_from("<Q", body, 0)
    is_tagged = n >> 56 != 0
    if is_tagged:
        if not tagged or body[0] != 1 or body[7] != 1:
            return None
        n = int.from_bytes(body[1:7], "little")
    at, out = 8, {}
    for _ in range(n):
        uuid = _uuid(body[at:at + 16])
        at += 16
        if is_tagged:
            size = body[at]
            if size & 1 or size >> 1 > 32:
                return None  # a length of more than one byte: no tag is that long
            tag = bytes(body[at + 1:at + 1 + (size >> 1)]).decode("ascii")
            at += 1 + (size >> 1)
            uuid = uuid + ":" + tag if tag else uuid
        (k,) = _struct.unpack_from("<Q", body, at)
        at += 8
        ranges = out.setdefault(uuid, [])
        for _ in range(k):
            ranges.append(_struct.unpack_from("<qq", body, at))
            at += 16
    return out


def gtid_set(body):
    # PREVIOUS_GTIDS: uuid:start-end,... (a tag's: uuid:tag:start-end); None for a format this reader does not know.
    ranges = gtid_ranges(body, tagged=True)
    if ranges is None:
        return None
    return ",".join(uuid + ":" + ":".join(str(lo) if hi == lo + 1 else "%d-%d" % (lo, hi - 1) for lo, hi in r)
                    for uuid, r in ranges.items())


def gtid(body, anonymous):
    # GTID / ANONYMOUS_GTID: the GTID, the logical clock and the commit timestamps (microseconds UTC).
    out = {"gtid": None if anonymous else "%s:%d" % (_uuid(body[1:17]), _struct.unpack_from("<q", body, 17)[0]),
           "lastCommitted": None, "sequenceNumber": None, "immediateCommit": None, "originalCommit": None}
    if len(body) >= 42 and body[25] == 2:
        out["lastCommitted"], out["sequenceNumber"] = _struct.unpack_from("<qq", body, 26)
    if len(body) >= 49:
        immediate = int.from_bytes(body[42:49], "little")
        out["immediateCommit"] = immediate & ((1 << 55) - 1)
        out["originalCommit"] = (int.from_bytes(body[49:56], "little") if immediate >> 55 else immediate)
    return out


def transaction_length(body):
    # A GTID / ANONYMOUS_GTID event's transaction_length, in bytes (MySQL 8.0.2+: a length-encoded integer after
    # the commit timestamps), or None where the event has none.
    if len(body) < 49:
        return None
    try:
        n, _ = binlog_rows.packed(body, 49 + (7 if int.from_bytes(body[42:49], "little") >> 55 else 0))
        return n or None
    except (IndexError, binlog_rows.Unsized):
        return None


def _varlen(b, at):
    # MySQL's serialization library: as many more bytes as the first byte has trailing 1 bits, the value
    # little-endian above those bits (8 more bytes: the value whole after a 0xff).
    first, n = b[at], 0
    while n < 8 and first >> n & 1:
        n += 1
    if n == 8:
        return int.from_bytes(b[at + 1:at + 9], "little"), at + 9
    return int.from_bytes(b[at:at + n + 1], "little") >> (n + 1), at + n + 1


def _zigzag(v):
    return -(v >> 1) - 1 if v & 1 else v >> 1


def tagged_gtid(body):
    # GTID_TAGGED (MySQL 8.3+): a serialization library message (version 2: its size, the last field that
    # may not be ignored, then field id / value pairs: 1 uuid as 16 numbers, 2 gno, 3 tag, 4 last_committed,
    # 5 sequence_number, 6 and 7 the commit timestamps); the same facts as gtid(), None where not readable.
    if body[0] != 2:
        return None
    size, at = _varlen(body, 1)
    _, at = _varlen(body, at)
    end, f = min(size, len(body)), {}
    while at < end:
        fid, at = _varlen(body, at)
        if fid == 1:
            uuid = bytearray()
            for _ in range(16):
                v, at = _varlen(body, at)
                uuid.append(v)
            f[1] = bytes(uuid)
        elif fid == 3:
            n, at = _varlen(body, at)
            f[3] = bytes(body[at:at + n]).decode("ascii", "replace")
            at += n
        elif fid <= 11:
            v, at = _varlen(body, at)
            f[fid] = _zigzag(v) if fid in (2, 4, 5) else v
        else:
            break  # a field this reader does not know: its length is not known either
    if 1 not in f or 2 not in f or 3 not in f:
        return None
    immediate = f.get(6)
    return {"gtid": "%s:%s:%d" % (_uuid(f[1]), f[3], f[2]), "lastCommitted": f.get(4), "sequenceNumber": f.get(5),
            "immediateCommit": immediate, "originalCommit": f.get(7, immediate)}
