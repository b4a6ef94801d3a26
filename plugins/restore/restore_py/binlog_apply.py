# What a replay sends to the server for transactions of one binary log file, as mysqlbinlog would:
# the file's FORMAT_DESCRIPTION event and each transaction's table maps and row events as base64
# (for BINLOG '...'), its statements as text with their schema, time and session state (the Query
# event's status variables). Read only.
import base64 as _base64
import json as _json
import struct as _struct

from . import binlog_events as ev
from . import binlog_query
from . import binlog_rewrite as rw
from . import binlog_stream as stream
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


LAZY = 4 << 20  # a transaction above this many bytes is read when sent, one statement's events at a time


def _whole(f, start, end):
    # The events of [start, end) as (type, time, bytes, position), read with one read and cut from it.
    f.seek(start)
    buf = f.read(end - start)
    if len(buf) < end - start:
        raise Refusal("read-failed", f.name, "no event at position %d" % (start + len(buf)))
    view, at = memoryview(buf), 0
    while at < len(buf):
        if len(buf) - at < ev.HEADER:
            raise Refusal("read-failed", f.name, "no event at position %d" % (start + at))
        when, kind, _, length = _struct.unpack_from("<IBII", buf, at)
        if length < ev.HEADER or at + length > len(buf):
            raise Refusal("read-failed", f.name, "no event at position %d" % (start + at))
        yield kind, when, view[at:at + length], start + at
        at += length


def _one_by_one(f, start, end, heads=False):
    # The same, one event read at a time (a transaction above LAZY: its memory is one event's; a TRANSACTION_PAYLOAD
    # event a stream.Span); heads: the headers only (bytes None).
    pos = start
    while pos < end:
        f.seek(pos)
        head = f.read(ev.HEADER)
        when, kind, _, length = _struct.unpack_from("<IBII", head) if len(head) == ev.HEADER else (0, 0, 0, 0)
        if length < ev.HEADER or pos + length > end:
            raise Refusal("read-failed", f.name, "no event at position %d" % pos)
        yield kind, when, None if heads else stream.Span(f.name, length) if kind == ev.PAYLOAD else head + f.read(length - ev.HEADER), pos
        pos += length


def _pieces(events, posts, crc, check_only, spec):
    # The pieces of one transaction's events, as mysqlbinlog | mysql sends them: {binlog: bytes} (ONE
    # statement's table maps and rows events, up to the rows event flagged STMT_END_F: never cut inside, a
    # rows event applied without its table map crashes the server) | {query: bytes, schema, when, micros,
    # state, client} | {begin: True} (only in an empty transaction: BEGIN; COMMIT) | {commit: None or the
    # statement that ends it in its turn: ROLLBACK, XA PREPARE <xid>, XA COMMIT <xid> ONE PHASE} |
    # {unsupported: why}. A compressed transaction (TRANSACTION_PAYLOAD) is its inner events, sealed with
    # a CRC32 as the file's events are. check_only: only the unsupported pieces.
    rows, unpack = [], _struct.unpack_from

    def flush():
        if not rows:
            return []
        out = [{"binlog": b"".join(rows)}]
        del rows[:]
        return out

    def one(kind, when, raw, pos, inner):
        # raw: the event's bytes (an inner one's without a CRC32; a payload's maybe a stream.Span); the pieces it completes
        if kind == ev.TABLE_MAP or kind in ev.ROWS:
            if check_only:
                return
            if inner and crc:
                raw = rw.sealed(bytes(raw[:ev.HEADER]), bytes(raw[ev.HEADER:]), True)
            if spec and kind == ev.TABLE_MAP:
                raw = replay_event(kind, bytes(raw), pos, spec, crc, posts)
            rows.append(raw)
            if kind != ev.TABLE_MAP and ev.rows_flags(raw[ev.HEADER:], posts[kind - 1]) & ev.STMT_END_F:
                yield from flush()
            return
        yield from flush()
        if kind in _SKIP or ev.TYPES.get(kind, (None, None))[1] == "ignore":
            return
        if kind == ev.QUERY:
            # BEGIN and COMMIT (most of them) told by their text alone, before the status variables are read
            b = ev.HEADER + posts[kind - 1]
            text = bytes(raw[b + unpack("<H", raw, ev.HEADER + 11)[0] + raw[ev.HEADER + 8] + 1:len(raw) - (4 if crc and not inner else 0)])
            if text == b"BEGIN" or text == b"COMMIT":
                yield {"begin": True} if text == b"BEGIN" else {"commit": None}
                return
            raw = bytes(raw)
            if inner and crc:
                raw = rw.sealed(raw[:ev.HEADER], raw[ev.HEADER:], True)
            raw = replay_event(kind, raw, pos, spec, crc, posts)
            piece = binlog_query.piece(rw.body_of(raw, crc), posts[kind - 1], when)
            text = piece["query"]
            role = ev.query_role(text[:32].decode("utf-8", "replace"))  # COMMIT, ROLLBACK, XA ROLLBACK: by their first words
            if role == "end" and text[:2].upper() != b"XA":  # ROLLBACK: the source rolled back (non-transactional changes kept)
                yield {"commit": "ROLLBACK"}
            elif not check_only:
                yield piece
        elif kind == ev.XID:
            yield {"commit": None}
        elif kind == ev.XA_PREPARE:
            yield {"commit": ev.xa_text(rw.body_of(bytes(raw), crc and not inner))}
        elif kind == ev.PAYLOAD and not inner:
            try:
                for kind2, _, _, raw2 in stream.payload_events(raw, pos, crc, posts):
                    yield from one(kind2, when, raw2, pos, True)
            except stream.Undecodable as err:
                yield {"unsupported": "a compressed transaction at %d: %s" % (pos, err.args[1])}
        else:
            yield {"unsupported": "%s at %d" % (_NAMES.get(kind, "an event of type %s" % ev.type_name(kind)), pos)}

    # BEGIN is sent only where nothing else opens the transaction: an empty one (an errant GTID's fix, a
    # filtered replica's skipped transaction, a Group Replication view change), BEGIN; COMMIT.
    sent, begin = 0, None
    for kind, when, raw, pos in events:
        for p in one(kind, when, raw, pos, False):
            if begin is not None:
                if p.get("commit", 0) is None and not check_only:
                    sent += 1
                    yield begin
                begin = None
            if "begin" in p:
                begin = p
            elif not check_only or "unsupported" in p:
                sent += 1
                yield p
    for p in flush():
        if not check_only:
            sent += 1
            yield p
    if not sent and not check_only:  # nothing sent (a view change alone after its GTID): still its GTID, empty
        yield {"begin": True}
        yield {"commit": None}


def read_transaction(f, start, end, posts, crc, check_only=False, spec=None):
    # The pieces of one transaction [start, end) (_pieces), in a list.
    return list(_pieces(_whole(f, start, end), posts, crc, check_only, spec))


class Lazy(object):
    # A transaction above LAZY bytes: its pieces read as they are sent, from a handle of its own (every time
    # it is sent: a retry reads it again), so that what is held is one statement's events, never the whole
    # transaction (a 1 GB transaction would be held twice, queued behind others). commits: whether it ends
    # with a commit piece (the worker waits for its turn before a DDL, which commits by itself).
    def __init__(self, path, start, end, posts, crc, spec):
        self.args = (path, start, end, posts, crc, spec)
        last = None
        with open(path, "rb") as f:
            for last in _one_by_one(f, start, end, heads=True):
                pass
            kind = last[0] if last else None
            if kind == ev.QUERY:  # COMMIT, ROLLBACK: a commit piece; a DDL, XA COMMIT: none
                when, _, raw = _event(f, last[3])
                self.commits = any("commit" in p for p in _pieces(iter([(kind, when, raw, last[3])]), posts, crc, False, spec))
            else:
                self.commits = kind in (ev.XID, ev.XA_PREPARE, ev.PAYLOAD)

    def __iter__(self):
        path, start, end, posts, crc, spec = self.args
        with open(path, "rb") as f:
            for p in _pieces(_one_by_one(f, start, end), posts, crc, False, spec):
                yield p


def transaction(f, path, start, end, posts, crc, spec=None):
    # What the replay queues for one transaction: its pieces, or a Lazy one above LAZY bytes.
    if end - start > LAZY or stream.inflates(f, start, end, LAZY):
        return Lazy(path, start, end, posts, crc, spec)
    return read_transaction(f, start, end, posts, crc, spec=spec)


def commits(trx):
    return trx.commits if isinstance(trx, Lazy) else any("commit" in p for p in trx)


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
    # {unsupported: why}; check_only: only the unsupported pieces (a preflight's pass, no bytes kept: a
    # transaction above LAZY read one event at a time).
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
            big = end - start > LAZY or stream.inflates(f, start, end, LAZY)  # never whole in memory
            events = _one_by_one(f, start, end) if big else _whole(f, start, end)
            for p in _pieces(events, posts, crc, check_only, rewrite):
                if "binlog" in p:
                    p = {"binlog": _b64(p["binlog"])}
                elif "query" in p:
                    p = dict(p, query=p["query"].decode("utf-8", "replace"))
                trx.append(p)
            out["transactions"].append(trx)
    return _json.dumps(out)
