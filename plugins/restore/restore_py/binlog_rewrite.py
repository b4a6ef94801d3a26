# Events of a replay rewritten for a load under other schema names (restore.load's schemaMap):
# pure functions over one event's bytes (header, body, CRC32 footer when the file has checksums).
# A TABLE_MAP event names its table's schema (the rows events after it name only the table id):
# that name is replaced, the event's length in its header set again, the CRC32 recomputed. A QUERY
# event's default schema (its db field) likewise, and its statement replaced by the text lib/ gives for
# that position: lib/ decides how a statement is rewritten (lib/run/replay-rename.js), never this file.
# rewrite_event is the one call a replay makes per event.
import struct as _struct
import zlib as _zlib

_HEADER = 19


def _renamed(name, schema_map):
    to = schema_map.get(name) if schema_map else None
    return None if to is None or to == name else to


def body_of(raw, has_crc):
    # An event's body: after its header, before its CRC32 when the file has them.
    return raw[_HEADER:len(raw) - 4] if has_crc else raw[_HEADER:]


def sealed(raw, body, has_crc):
    # An event from raw's header (its first 19 bytes) with the new length, the body, and the CRC32 over
    # both when the file has them: every event the plugin changes or makes is sealed here.
    size = _HEADER + len(body) + (4 if has_crc else 0)
    head = raw[:9] + _struct.pack("<I", size) + raw[13:_HEADER]
    if has_crc:
        return head + body + _struct.pack("<I", _zlib.crc32(head + body) & 0xFFFFFFFF)
    return head + body


def _name_bytes(name):
    # A schema name is at most 64 characters of utf8mb3 (192 bytes): its length fits the event's one byte.
    return name.encode("utf-8")


def rewrite_table_map(raw, schema_map, has_crc, post_len=8):
    # raw: a whole TABLE_MAP event. Its schema name (a length byte, the name, a NUL, after the
    # post-header) mapped; the same bytes when the map does not rename it.
    raw = bytes(raw)
    body = body_of(raw, has_crc)
    n = body[post_len]
    old = body[post_len + 1:post_len + 1 + n].decode("utf-8", "replace")
    to = _renamed(old, schema_map)
    if to is None:
        return raw
    new = _name_bytes(to)
    body = body[:post_len] + bytes([len(new)]) + new + body[post_len + 1 + n:]
    return sealed(raw, body, has_crc)


def query_schema(body, post_len=13):
    # A QUERY event's body (no header, no CRC): its default schema.
    n = body[8]
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    at = post_len + vars_len
    return bytes(body[at:at + n]).decode("utf-8", "replace")


def rewrite_query(raw, schema_map, has_crc, post_len=13, text=None):
    # raw: a whole QUERY event. Its default schema (db length byte in the post-header, the name and
    # a NUL after the status variables) mapped; the statement replaced by `text` when given.
    raw = bytes(raw)
    body = body_of(raw, has_crc)
    n = body[8]
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    at = post_len + vars_len
    to = _renamed(body[at:at + n].decode("utf-8", "replace"), schema_map)
    if to is None and text is None:
        return raw
    new = _name_bytes(to) if to is not None else body[at:at + n]
    statement = text.encode("utf-8") if text is not None else body[at + n + 1:]
    body = body[:8] + bytes([len(new)]) + body[9:at] + new + b"\0" + statement
    return sealed(raw, body, has_crc)


def rewrite_event(kind, raw, position, spec, has_crc, posts):
    # A TABLE_MAP or QUERY event at `position` of its file under spec {schemaMap: {old: new}, texts:
    # {"position": statement}} (None: nothing to rewrite); any other event as it is. posts: the
    # FORMAT_DESCRIPTION's post-header lengths by event type.
    if not spec:
        return raw
    if kind == 19:  # TABLE_MAP
        return rewrite_table_map(raw, spec.get("schemaMap"), has_crc, posts[kind - 1])
    if kind == 2:  # QUERY
        return rewrite_query(raw, spec.get("schemaMap"), has_crc, posts[kind - 1], (spec.get("texts") or {}).get(str(position)))
    return raw

