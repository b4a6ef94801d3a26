# The events of a binary log file (format v4), read one at a time (never the whole file), each
# checked against its CRC32 when the file has them, and decoded into the few facts the reader
# keeps. Layouts are MySQL's (libbinlogevents); only reading, nothing is written.
import shutil as _shutil
import struct as _struct
import subprocess as _subprocess
import zlib as _zlib

from . import binlog_rows
from .errors import Refusal

MAGIC = b"\xfebin"
ENCRYPTED = b"\xfdbin"  # binlog_encryption: a file header, then encrypted events
HEADER = 19
from .binlog_types import (QUERY, ROTATE, FORMAT, XID, TABLE_MAP, INCIDENT, INTVAR, RAND, USER_VAR, ROWS_QUERY,  # noqa: F401
                           VIEW_CHANGE, WRITE, UPDATE, DELETE, PARTIAL_UPDATE, GTID, ANONYMOUS, PREVIOUS_GTIDS, XA_PREPARE,
                           PAYLOAD, TAGGED_GTID, ROWS_V1, ROW_KIND, ROWS, STMT_END_F, TYPES, type_name, query_role, Boundary)


def rows_flags(body, post):
    # A rows event's flags (after its table id): STMT_END_F marks its statement's last one.
    return _struct.unpack_from("<H", body, 6 if post >= 8 else 4)[0]


def xa_text(body):
    # XA_PREPARE event: one_phase (1), formatID (4), gtrid length (4), bqual length (4), the data. The
    # statement mysqlbinlog writes for it: XA PREPARE <xid>, or XA COMMIT <xid> ONE PHASE.
    one_phase = body[0]
    fmt, glen, blen = _struct.unpack_from("<iII", body, 1)
    data = bytes(body[13:13 + glen + blen])
    xid = "X'%s',X'%s',%d" % (data[:glen].hex(), data[glen:].hex(), fmt)
    return ("XA COMMIT %s ONE PHASE" if one_phase else "XA PREPARE %s") % xid


class Damaged(Exception):
    # A file that stops being a binary log at `position`.
    def __init__(self, position, reason):
        Exception.__init__(self, reason)
        self.position, self.reason = position, reason


from .binlog_gtids import gtid_ranges, gtid_set, gtid, tagged_gtid  # noqa: F401  (re-exported: one module of events)


def query(body, post):
    # QUERY: the default schema and the statement text.
    db_len = body[8]
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    at = post + vars_len
    schema = bytes(body[at:at + db_len]).decode("utf-8", "replace")
    return schema, bytes(body[at + db_len + 1:]).decode("utf-8", "replace")


def table_map(body, post):
    table_id = int.from_bytes(body[0:6 if post == 8 else 4], "little")
    at = post
    schema = bytes(body[at + 1:at + 1 + body[at]]).decode("utf-8", "replace")
    at += 2 + body[at]
    name = bytes(body[at + 1:at + 1 + body[at]]).decode("utf-8", "replace")
    at += 2 + body[at]
    columns, at = binlog_rows.packed(body, at)
    types = list(body[at:at + columns])
    meta_len, at = binlog_rows.packed(body, at + columns)
    return table_id, {"name": schema + "." + name, "types": types,
                      "metas": binlog_rows.column_meta(types, body[at:at + meta_len])}


def rows(body, post, tables, kind):
    # (table name or None, rows or None, why not sized or None)
    table_id = int.from_bytes(body[0:6 if post >= 8 else 4], "little")
    table = tables.get(table_id)
    if table is None:
        return None, None, "a rows event for table id %d without its table map" % table_id
    extra = _struct.unpack_from("<H", body, post - 2)[0] if post == 10 else 0
    at = post + max(extra - 2, 0)
    if kind == PARTIAL_UPDATE:
        return table["name"], None, "partial JSON updates (binlog_row_value_options=PARTIAL_JSON): rows not counted"
    try:
        return table["name"], binlog_rows.count_rows(body[at:], len(body) - at, table, kind == UPDATE), None
    except (binlog_rows.Unsized, IndexError, _struct.error) as err:
        return table["name"], None, "rows not sized: %s" % err


def payload_fields(body):
    # TRANSACTION_PAYLOAD's header fields: ({1: payload size, 2: compression type, 3: uncompressed size}, where its data begins).
    at, fields = 0, {}
    while at < len(body):
        kind, at = binlog_rows.packed(body, at)
        if kind == 0:
            break
        length, at = binlog_rows.packed(body, at)
        fields[kind] = int.from_bytes(body[at:at + length], "little")
        at += length
    return fields, at


def payload(body, post):
    # TRANSACTION_PAYLOAD: (compression, the events it holds as bytes, or None and why).
    fields, at = payload_fields(body)
    data = bytes(body[at:])
    compression = fields.get(2, 0)
    if compression == 255:
        return "none", data, None
    if compression != 0:
        return "type %d" % compression, None, "compression type %d is not known" % compression
    program = _shutil.which("zstd")
    if program is None:
        return "zstd", None, "the zstd program is not on PATH to decompress it"
    p = _subprocess.run([program, "-dcq"], input=data, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE)
    if p.returncode != 0:
        return "zstd", None, "zstd could not decompress it (%s)" % p.stderr.decode("utf-8", "replace").strip()
    return "zstd", p.stdout, None


def _post_lengths(body):
    # FORMAT_DESCRIPTION: (server version, header length, post-header lengths by type, checksum on).
    version = bytes(body[2:52]).split(b"\0")[0].decode("ascii", "replace")
    header = body[56]
    alg = body[len(body) - 5]  # the checksum algorithm byte, then 4 checksum bytes (always reserved)
    lengths = list(body[57:len(body) - 5])
    return version, header, lengths, alg == 1


LARGE = 4 << 20  # a TRANSACTION_PAYLOAD event above this is never read whole


def _check_large(f, pos, head, size, crc):
    # Reads the rest of the event at pos, 1 MB at a time, checking its CRC32 as it goes.
    check, left = _zlib.crc32(head), size - HEADER - (4 if crc else 0)
    while left > 0:
        part = f.read(min(left, 1 << 20))
        if not part:
            raise Damaged(pos, "the file ends inside an event (%d bytes short)" % left)
        check = _zlib.crc32(part, check)
        left -= len(part)
    if crc:
        tail = f.read(4)
        if len(tail) < 4:
            raise Damaged(pos, "the file ends inside an event (%d bytes short)" % (4 - len(tail)))
        if check & 0xFFFFFFFF != _struct.unpack("<I", tail)[0]:
            raise Damaged(pos, "the event's CRC32 checksum does not match")


def events(f, path, jump=None):
    # Yields (position, type, timestamp, end position, body, post-header lengths by type) for each
    # event of an open file, the body without the CRC32 footer; the FORMAT_DESCRIPTION event sets how the rest is read.
    # jump: a list; a position the consumer appends to it is where the reading goes on (a transaction passed over).
    magic = f.read(4)
    if magic == ENCRYPTED:
        raise Refusal("not-a-binlog", path, "an encrypted binary log (binlog_encryption=ON): not read; the server that "
                      "wrote it can (mysqlbinlog --read-from-remote-server)")
    if magic != MAGIC:
        raise Refusal("not-a-binlog", path, "not a binary log file (it does not begin with the binary log magic bytes)")
    pos, crc, posts = 4, False, None
    while True:
        head = f.read(HEADER)
        if not head:
            return
        if len(head) < HEADER:
            raise Damaged(pos, "the file ends inside an event header")
        when, kind, server_id, size, end, _ = _struct.unpack("<IBIIIH", head)
        if size < HEADER:
            raise Damaged(pos, "an event of %d bytes" % size)
        if kind == PAYLOAD and size > LARGE:
            # A large compressed transaction: checked as it is read, its body left in the file (None; inner_stream)
            _check_large(f, pos, head, size, crc)
            yield pos, kind, when, pos + size, None, posts or []
            pos += size
            continue
        body = f.read(size - HEADER)
        if len(body) < size - HEADER:
            raise Damaged(pos, "the file ends inside an event (%d of %d bytes)" % (HEADER + len(body), size))
        if kind == FORMAT:
            version, header, lengths, crc = _post_lengths(body)
            posts = lengths
            # serverId: the server that wrote the file (its FORMAT_DESCRIPTION's header; a replica's own, not its source's).
            yield pos, kind, when, pos + size, {"version": version, "checksum": "crc32" if crc else "none", "serverId": server_id}, posts
            pos += size
            continue
        if crc:
            if _zlib.crc32(head + body[:-4]) != _struct.unpack_from("<I", body, len(body) - 4)[0]:
                raise Damaged(pos, "the event's CRC32 checksum does not match")
            body = body[:-4]
        yield pos, kind, when, pos + size, body, posts or []
        if jump:
            pos = jump.pop()
            f.seek(pos)
        else:
            pos += size


def inner_events(data, posts):
    # The events a TRANSACTION_PAYLOAD holds (without checksums: the payload has its own): (type, body,
    # post-header length, raw event bytes).
    at = 0
    while at + HEADER <= len(data):
        _, kind, _, size, _, _ = _struct.unpack_from("<IBIIIH", data, at)
        if size < HEADER:
            return
        yield kind, data[at + HEADER:at + size], posts[kind - 1] if kind - 1 < len(posts) else 0, data[at:at + size]
        at += size


def binlog_size(events_bytes):
    # The length of the statement BINLOG '<base64>' that carries these bytes of events.
    return len("BINLOG ''") + 4 * ((events_bytes + 2) // 3)
