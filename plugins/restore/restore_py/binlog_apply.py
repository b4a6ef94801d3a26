# What a replay sends to the server for transactions of one binary log file, as mysqlbinlog would:
# the file's FORMAT_DESCRIPTION event and each transaction's table maps and row events as base64
# (for BINLOG '...'), its statements as text with their schema and time. Read only.
import base64 as _base64
import json as _json
import struct as _struct

from . import binlog_events as ev
from . import binlog_rewrite as rw
from .errors import Refusal

_ROWS = (ev.WRITE, ev.UPDATE, ev.DELETE, ev.PARTIAL_UPDATE)
_SKIP = (ev.GTID, ev.ANONYMOUS, 29)  # GTID (set as gtid_next), ROWS_QUERY (a comment)
_NAMES = {5: "an INTVAR event (statement-based)", 13: "a RAND event (statement-based)", 14: "a USER_VAR event (statement-based)",
          ev.XA_PREPARE: "an XA PREPARE event", ev.PAYLOAD: "a compressed transaction (TRANSACTION_PAYLOAD)"}
_CHUNK = 4 << 20  # bytes of events per BINLOG statement: well under max_allowed_packet


def _event(f, pos):
    f.seek(pos)
    head = f.read(ev.HEADER)
    if len(head) < ev.HEADER:
        raise Refusal("read-failed", f.name, "no event at position %d" % pos)
    when, kind, _, size, _, _ = _struct.unpack("<IBIIIH", head)
    return when, kind, head + f.read(size - ev.HEADER)


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
        if f.read(4) != ev.MAGIC:
            raise Refusal("not-a-binlog", path, "not a binary log file (it does not begin with the binary log magic bytes)")
        _, kind, fde = _event(f, 4)
        if kind != ev.FORMAT:
            raise Refusal("not-a-binlog", path, "its first event is not a FORMAT_DESCRIPTION event")
        _, _, posts, crc = ev._post_lengths(fde[ev.HEADER:])
        out["format"] = _base64.b64encode(fde).decode("ascii")
        for start, end in ranges:
            trx, rows, pos = [], [], start

            def flush():
                if rows:
                    trx.append({"binlog": _base64.b64encode(b"".join(rows)).decode("ascii")})
                    del rows[:]

            while pos < end:
                at = pos
                when, kind, raw = _event(f, pos)
                pos += len(raw)
                if kind in _SKIP:
                    continue
                if kind == ev.TABLE_MAP or kind in _ROWS:
                    if check_only:
                        continue
                    if kind == ev.TABLE_MAP:
                        raw = rw.rewrite_event(kind, raw, at, rewrite, crc, posts)
                    rows.append(raw)
                    if kind != ev.TABLE_MAP and sum(len(r) for r in rows) > _CHUNK:
                        flush()
                    continue
                flush()
                if kind == ev.QUERY and check_only:
                    continue
                if kind == ev.QUERY:
                    raw = rw.rewrite_event(kind, raw, at, rewrite, crc, posts)
                    body = raw[ev.HEADER:len(raw) - 4] if crc else raw[ev.HEADER:]
                    schema, text = ev.query(body, posts[kind - 1])
                    trx.append({"query": text, "schema": schema, "when": when})
                elif kind == ev.XID:
                    if not check_only:
                        trx.append({"commit": True})
                else:
                    trx.append({"unsupported": "%s at %d" % (_NAMES.get(kind, "an event of type %d" % kind), at)})
            flush()
            out["transactions"].append(trx)
    return _json.dumps(out)
