# What a replay sends to the server for transactions of one binary log file, as mysqlbinlog would:
# the file's FORMAT_DESCRIPTION event and each transaction's table maps and row events as base64
# (for BINLOG '...'), its statements as text with their schema, time and session state (the Query
# event's status variables). Read only.
import base64 as _base64
import json as _json
import struct as _struct

from . import binlog_events as ev
from . import binlog_rewrite as rw
from .errors import Refusal

# Not sent (as mysqlbinlog sends none of them): GTID events (set as gtid_next, 'uuid:tag:n' for a tagged one), ROWS_QUERY (a comment),
# VIEW_CHANGE (Group Replication's view, logged as an empty transaction under its own GTID: BEGIN; COMMIT).
_SKIP = (ev.GTID, ev.ANONYMOUS, ev.TAGGED_GTID, ev.ROWS_QUERY, ev.VIEW_CHANGE)
# Statement-based events (binlog_format STATEMENT or MIXED): refused, named with their position (the replay
# up to them, stopBefore, then mysqlbinlog | mysql). What the plugin checks and changes is row events: the
# tables a transaction writes (filters, row ownership, the plan's counts), schemaMap's rewrite, outsideSlice's
# rbr_exec_mode; a statement's text names none of it for sure, and re-run on the target it may change other
# rows than it did on the source. The scope is ROW logging, where none of these events is written.
_NAMES = {ev.INTVAR: "an INTVAR event (statement-based: INSERT_ID / LAST_INSERT_ID)", ev.RAND: "a RAND event (statement-based)",
          ev.USER_VAR: "a USER_VAR event (statement-based)"}


def replay_event(kind, raw, position, spec, crc, posts):
    # THE place where a raw TABLE_MAP or QUERY event (header, body and CRC as in the file) is changed
    # before it is sent: every piece a replay sends passes here. spec {schemaMap, texts: {"position":
    # statement}} or None: a load under other schema names (binlog_rewrite.py).
    return rw.rewrite_event(kind, raw, position, spec, crc, posts)


def _event(f, pos):
    f.seek(pos)
    head = f.read(ev.HEADER)
    if len(head) < ev.HEADER:
        raise Refusal("read-failed", f.name, "no event at position %d" % pos)
    when, kind, _, size, _, _ = _struct.unpack("<IBIIIH", head)
    return when, kind, head + f.read(size - ev.HEADER)


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


def _query_piece(body, post, when, spec):
    state, micros, client = status(body, post)
    db_len = body[8]
    (vars_len,) = _struct.unpack_from("<H", body, 11)
    at = post + vars_len
    schema = bytes(body[at:at + db_len]).decode("utf-8", "replace")
    return {"query": bytes(body[at + db_len + 1:]), "schema": schema, "when": when, "micros": micros, "state": state,
            "client": client}


def read_transaction(f, start, end, posts, crc, check_only=False, spec=None):
    # The pieces of one transaction [start, end), as mysqlbinlog | mysql sends it: {binlog: bytes} (ONE
    # statement's table maps and rows events, up to the rows event flagged STMT_END_F: never cut inside, a
    # rows event applied without its table map crashes the server) | {query: bytes, schema, when, micros,
    # state, client} | {begin: True} (only in an empty transaction: BEGIN; COMMIT) | {commit: None or the
    # statement that ends it in its turn: ROLLBACK, XA PREPARE <xid>, XA COMMIT <xid> ONE PHASE} |
    # {unsupported: why}. A compressed transaction (TRANSACTION_PAYLOAD) is its inner events, sealed with
    # a CRC32 as the file's events are. check_only: only the unsupported pieces. The transaction is read
    # with one read and its events cut from it (no seek and read per event).
    trx, rows = [], []
    f.seek(start)
    buf = f.read(end - start)
    if len(buf) < end - start:
        raise Refusal("read-failed", f.name, "no event at position %d" % (start + len(buf)))
    view = memoryview(buf)
    unpack = _struct.unpack_from

    def flush():
        if rows:
            trx.append({"binlog": b"".join(rows)})
            del rows[:]

    def one(kind, when, raw, pos, inner):
        # raw: the event's bytes (an inner one's without a CRC32)
        if kind == ev.TABLE_MAP or kind in ev.ROWS:
            if check_only:
                return
            if inner and crc:
                raw = rw.sealed(bytes(raw[:ev.HEADER]), bytes(raw[ev.HEADER:]), True)
            if spec and kind == ev.TABLE_MAP:
                raw = replay_event(kind, bytes(raw), pos, spec, crc, posts)
            rows.append(raw)
            if kind != ev.TABLE_MAP and ev.rows_flags(raw[ev.HEADER:], posts[kind - 1]) & ev.STMT_END_F:
                flush()
            return
        flush()
        if kind in _SKIP or ev.TYPES.get(kind, (None, None))[1] == "ignore":
            return
        if kind == ev.QUERY:
            # BEGIN and COMMIT (most of them) told by their text alone, before the status variables are read
            b = ev.HEADER + posts[kind - 1]
            text = bytes(raw[b + unpack("<H", raw, ev.HEADER + 11)[0] + raw[ev.HEADER + 8] + 1:len(raw) - (4 if crc and not inner else 0)])
            if text == b"BEGIN" or text == b"COMMIT":
                trx.append({"begin": True} if text == b"BEGIN" else {"commit": None})
                return
            raw = bytes(raw)
            if inner and crc:
                raw = rw.sealed(raw[:ev.HEADER], raw[ev.HEADER:], True)
            raw = replay_event(kind, raw, pos, spec, crc, posts)
            piece = _query_piece(rw.body_of(raw, crc), posts[kind - 1], when, spec)
            text = piece["query"]
            role = ev.query_role(text[:32].decode("utf-8", "replace"))  # COMMIT, ROLLBACK, XA ROLLBACK: by their first words
            if role == "end" and text[:2].upper() != b"XA":  # ROLLBACK: the source rolled back (non-transactional changes kept)
                trx.append({"commit": "ROLLBACK"})
            elif not check_only:
                trx.append(piece)
        elif kind == ev.XID:
            trx.append({"commit": None})
        elif kind == ev.XA_PREPARE:
            body = rw.body_of(bytes(raw), crc and not inner)
            trx.append({"commit": ev.xa_text(body)})
        elif kind == ev.PAYLOAD and not inner:
            body = rw.body_of(bytes(raw), crc)
            compression, data, why = ev.payload(body, posts[kind - 1])
            if data is None:
                trx.append({"unsupported": "a compressed transaction at %d: %s" % (pos, why)})
                return
            for kind2, _, _, raw2 in ev.inner_events(data, posts):
                one(kind2, when, raw2, pos, True)
        else:
            trx.append({"unsupported": "%s at %d" % (_NAMES.get(kind, "an event of type %s" % ev.type_name(kind)), pos)})

    at = 0
    while at < len(buf):
        if len(buf) - at < ev.HEADER:
            raise Refusal("read-failed", f.name, "no event at position %d" % (start + at))
        when, kind, _, length = unpack("<IBII", buf, at)
        if length < ev.HEADER or at + length > len(buf):
            raise Refusal("read-failed", f.name, "no event at position %d" % (start + at))
        one(kind, when, view[at:at + length], start + at, False)
        at += length
    flush()
    # BEGIN is sent only where nothing else opens the transaction: an empty one (an errant GTID's fix, a
    # filtered replica's skipped transaction, a Group Replication view change), BEGIN; COMMIT.
    if not trx and not check_only:  # nothing sent (a view change alone after its GTID): still its GTID, empty
        return [{"begin": True}, {"commit": None}]
    out = []
    for k, p in enumerate(trx):
        if "begin" in p and not (k + 1 < len(trx) and trx[k + 1].get("commit", 0) is None):
            continue
        out.append(p)
    return [p for p in out if "unsupported" in p] if check_only else out


def open_file(f, path):
    # (FORMAT_DESCRIPTION event bytes, post-header lengths, checksums on) of an open file.
    if f.read(4) != ev.MAGIC:
        raise Refusal("not-a-binlog", path, "not a binary log file (it does not begin with the binary log magic bytes)")
    _, kind, fde = _event(f, 4)
    if kind != ev.FORMAT:
        raise Refusal("not-a-binlog", path, "its first event is not a FORMAT_DESCRIPTION event")
    _, _, posts, crc = ev._post_lengths(fde[ev.HEADER:])
    return fde, posts, crc


def _b64(data):
    return _base64.b64encode(data).decode("ascii")


def pieces(path, ranges_json, check_only=False, rewrite_json=None):
    # ranges [[start, end], ...] of whole transactions. JSON text {format: base64, transactions:
    # [[piece, ...]]}, a piece {binlog: base64} | {query, schema, when} | {commit: true} |
    # {unsupported: why}; check_only: only the unsupported pieces (a preflight's pass, no bytes kept).
    # rewrite_json: JSON text {schemaMap: {old: new}, texts: {"position": statement}} (schemaMap,
    # binlog_rewrite.py): table maps and default schemas renamed, the statements at those positions replaced.
    ranges = _json.loads(ranges_json)
    rewrite = _json.loads(rewrite_json) if rewrite_json else None
    out = {"format": None, "transactions": []}
    with open(path, "rb") as f:
        fde, posts, crc = open_file(f, path)
        out["format"] = _b64(fde)
        for start, end in ranges:
            trx = []
            for p in read_transaction(f, start, end, posts, crc, check_only, rewrite):
                if "binlog" in p:
                    p = {"binlog": _b64(p["binlog"])}
                elif "query" in p:
                    p = dict(p, query=p["query"].decode("utf-8", "replace"))
                trx.append(p)
            out["transactions"].append(trx)
    return _json.dumps(out)
