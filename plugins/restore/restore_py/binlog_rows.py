# Row counts of a rows event (WRITE/UPDATE/DELETE_ROWS v2): each row's length follows from the
# table's column types and metadata (TABLE_MAP). A type whose length this module does not know is
# an error naming it, never a guess.
import struct as _struct

# Metadata bytes each column type carries in a TABLE_MAP event.
_META = {4: 1, 5: 1, 15: 2, 16: 2, 17: 1, 18: 1, 19: 1, 242: 1, 245: 1, 246: 2, 247: 2, 248: 2,
         249: 1, 250: 1, 251: 1, 252: 1, 253: 2, 254: 2, 255: 1}
# Fixed lengths: TINY, SHORT, LONG, FLOAT, DOUBLE, NULL, TIMESTAMP, LONGLONG, INT24, DATE, TIME,
# DATETIME, YEAR, NEWDATE.
_FIXED = {1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 6: 0, 7: 4, 8: 8, 9: 3, 10: 3, 11: 3, 12: 8, 13: 1, 14: 3}
_DIG2BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)


class Unsized(Exception):
    pass


def packed(buf, at):
    # A length-encoded integer: (value, position after it).
    first = buf[at]
    if first < 251:
        return first, at + 1
    width = {252: 2, 253: 3, 254: 8}.get(first)
    if width is None:
        raise Unsized("a length-encoded integer of first byte %d" % first)
    return int.from_bytes(buf[at + 1:at + 1 + width], "little"), at + 1 + width


def column_meta(types, meta):
    # One metadata value per column (None where the type has none).
    out, at = [], 0
    for t in types:
        n = _META.get(t, 0)
        out.append(bytes(meta[at:at + n]) if n else None)
        at += n
    return out


def _decimal_bytes(precision, scale):
    intg = precision - scale
    return (intg // 9) * 4 + _DIG2BYTES[intg % 9] + (scale // 9) * 4 + _DIG2BYTES[scale % 9]


def _prefixed(buf, at, width):
    return width + int.from_bytes(buf[at:at + width], "little")


def value_length(t, m, buf, at):
    # The bytes one non-NULL value of column type t (metadata m) takes at buf[at:].
    if t in _FIXED:
        return _FIXED[t]
    if t in (17, 18, 19):  # TIMESTAMP2, DATETIME2, TIME2: fractional seconds in (fsp + 1) // 2 bytes
        return {17: 4, 18: 5, 19: 3}[t] + (m[0] + 1) // 2
    if t in (15, 253):  # VARCHAR, VAR_STRING: metadata is the maximum length in bytes
        return _prefixed(buf, at, 1 if _struct.unpack("<H", m)[0] < 256 else 2)
    if t == 16:  # BIT: metadata (bits % 8, whole bytes)
        return m[1] + (1 if m[0] else 0)
    if t == 246:  # NEWDECIMAL: metadata (precision, scale)
        return _decimal_bytes(m[0], m[1])
    if t in (242, 245, 249, 250, 251, 252, 255):  # VECTOR, JSON, blobs, GEOMETRY: metadata is the length's width
        return _prefixed(buf, at, m[0])
    if t == 254:  # STRING: ENUM and SET hide here, their real type in the metadata's first byte
        real = m[0] | 0x30 if m[0] & 0x30 != 0x30 else m[0]
        if real in (247, 248):
            return m[1]
        if real == 254:
            limit = (((m[0] & 0x30) ^ 0x30) << 4) | m[1]
            return _prefixed(buf, at, 2 if limit > 255 else 1)
        raise Unsized("a column of type 254 with real type %d" % real)
    raise Unsized("a column of type %d" % t)


def _bits(buf, at, n):
    return [bool(buf[at + i // 8] & (1 << (i % 8))) for i in range(n)]


def _image(buf, at, columns, present, types, metas):
    # One row image: a NULL bitmap over the present columns, then their non-NULL values.
    used = [i for i in range(columns) if present[i]]
    nulls = _bits(buf, at, len(used))
    at += (len(used) + 7) // 8
    for k, i in enumerate(used):
        if not nulls[k]:
            at += value_length(types[i], metas[i], buf, at)
    return at


def count_rows(body, end, table, update):
    # body: a rows event's body after its post-header. Returns the number of rows; raises Unsized.
    types, metas = table["types"], table["metas"]
    columns, at = packed(body, 0)
    if columns != len(types):
        raise Unsized("the rows event has %d columns where the table map has %d" % (columns, len(types)))
    width = (columns + 7) // 8
    before = _bits(body, at, columns)
    at += width
    after = before
    if update:
        after = _bits(body, at, columns)
        at += width
    rows = 0
    while at < end:
        at = _image(body, at, columns, before, types, metas)
        if update:
            at = _image(body, at, columns, after, types, metas)
        rows += 1
    if at != end:
        raise Unsized("the rows did not end at the event's end")
    return rows
