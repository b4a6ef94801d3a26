# A QUERY event as a replay sends it: its statement, default schema, time and the session state its status
# variables record (what mysqlbinlog sets before it). Layouts are MySQL's (libbinlogevents); pure.
import struct as _struct


# Query event status variables (MySQL's Q_* codes): how many bytes each takes, or a reader.
def _lenstr(b, at):
    return at + 1 + b[at]


def _dbs(b, at):
    n = b[at]
    at += 1
    if n == 254:  # OVER_MAX_DBS_IN_EVENT_MTS
        return at
    for _ in range(n):
        at = b.index(b"\0", at) + 1
    return at


_FIXED = {0: 4, 1: 8, 3: 4, 4: 6, 7: 2, 8: 2, 9: 8, 10: 4, 13: 3, 14: 8, 15: 8, 16: 1, 17: 8, 18: 2, 19: 1, 20: 1,
          128: 3, 129: 8}
_VARIABLE = {2: lambda b, at: _lenstr(b, at) + 1, 5: _lenstr, 6: _lenstr, 11: lambda b, at: _lenstr(b, _lenstr(b, at)), 12: _dbs}


def status(body, post):
    # {session variable: value} the statement ran under (what mysqlbinlog sets before it), the
    # microseconds of its start, and the client character set id (its text is in it).
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    b, at, end = body, post, post + vars_len
    out, micros, client = {}, 0, None
    while at < end:
        code = b[at]
        at += 1
        if code in _FIXED:
            v = b[at:at + _FIXED[code]]
            nxt = at + _FIXED[code]
        elif code in _VARIABLE:
            nxt = _VARIABLE[code](b, at)
        else:
            break  # a code this reader does not know: the rest cannot be located, mysqlbinlog stops there too
        if code == 0:
            (flags,) = _struct.unpack("<I", v)
            out["foreign_key_checks"] = 0 if flags & (1 << 26) else 1
            out["unique_checks"] = 0 if flags & (1 << 27) else 1
            out["sql_auto_is_null"] = 1 if flags & (1 << 14) else 0
        elif code == 1:
            out["sql_mode"] = _struct.unpack("<Q", v)[0]
        elif code == 3:
            out["auto_increment_increment"], out["auto_increment_offset"] = _struct.unpack("<HH", v)
        elif code == 4:
            client, out["collation_connection"], out["collation_server"] = _struct.unpack("<HHH", v)
        elif code == 5:
            out["time_zone"] = bytes(b[at + 1:nxt]).decode("utf-8", "replace")
        elif code == 7:
            out["lc_time_names"] = _struct.unpack("<H", v)[0]
        elif code == 8:
            out["collation_database"] = _struct.unpack("<H", v)[0]
        elif code == 16:
            out["explicit_defaults_for_timestamp"] = v[0]
        elif code == 18:
            out["default_collation_for_utf8mb4"] = _struct.unpack("<H", v)[0]
        elif code == 19:
            out["sql_require_primary_key"] = v[0]
        elif code == 128:
            micros = int.from_bytes(v, "little")
        at = nxt
    return out, micros, client


def piece(body, post, when):
    state, micros, client = status(body, post)
    db_len = body[8]
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    at = post + vars_len
    schema = bytes(body[at:at + db_len]).decode("utf-8", "replace")
    return {"query": bytes(body[at + db_len + 1:]), "schema": schema, "when": when, "micros": micros, "state": state,
            "client": client}
