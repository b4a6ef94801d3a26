# A binary log reader: files read one event at a time, grouped into transactions (GTID, file,
# start and end positions, commit time, logical clock, rows per table, statements). Read only.
# What lib/ gets is facts, never advice: which statements are dangerous is decided in lib/.
import json as _json
import os as _os

from . import binlog_events as ev
from . import binlog_stream as stream
from .errors import Refusal, os_refusal


def _new_file(path):
    return {"path": path, "size": None, "serverVersion": None, "serverId": None, "checksum": None, "previousGtids": None,
            "events": 0, "transactions": 0, "firstEventTime": None, "lastEventTime": None,
            "firstGtid": None, "lastGtid": None, "firstCommit": None, "lastCommit": None,
            "next": None, "error": None, "undecoded": {}, "timesFromHeaders": 0, "incidents": []}


# Statements inside BEGIN that are no statement-based change: XA's and savepoints' own.
_CONTROL = ("XA END", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO")


class _Reader(object):
    # Transactions as they end (binlog_events.Boundary decides where), handed to `emit`; the table maps of
    # the current transaction by id.
    def __init__(self, emit):
        self.emit, self.tables, self.trx, self.info = emit, {}, None, None
        self.bound, self.crc, self.stmt, self.stmt_at = ev.Boundary(), False, 0, None

    def _open(self, pos, when, clock):
        if self.trx is not None:
            self._close(pos, incomplete="a new transaction began before this one ended")
        self.stmt = 0
        # sizes: binlog, the longest BINLOG '...' statement the sessions' replay sends for it (one statement's
        # table maps and rows events), and where it begins; query, its longest Query event (a statement the
        # sessions send as text); event, its longest event (what an applier receives: a compressed one whole).
        self.trx = dict(clock, file=_os.path.basename(self.info["path"]), start=pos, end=None, eventTime=when,
                        tables={}, statements=[], undecoded=[], unsized=[], compression=None, incomplete=None, incident=None,
                        sizes={"binlog": 0, "binlogAt": None, "query": 0, "queryAt": None, "event": 0, "eventAt": None})

    def _close(self, end, incomplete=None):
        t, self.trx, self.tables = self.trx, None, {}
        t["end"], t["incomplete"] = end, incomplete
        if t["immediateCommit"] is None:  # before 8.0.1, or a tagged GTID: the event's own second, and said so
            t["immediateCommit"] = t["eventTime"] * 1000000
            self.info["timesFromHeaders"] += 1
        # The time every stop and report uses: the source's commit (original_commit_timestamp), which a replica's
        # own logs carry beside theirs (immediate_commit_timestamp: the replica's clock, when it applied it).
        t["commit"] = t["originalCommit"] if t["originalCommit"] is not None else t["immediateCommit"]
        self.emit(t, self.info)

    def _no_clock(self):
        return {"gtid": None, "lastCommitted": None, "sequenceNumber": None, "immediateCommit": None,
                "originalCommit": None}

    def event(self, pos, end, kind, when, body, post):
        text = ev.query(body, post) if kind == ev.QUERY else None
        role, begins, ends = self.bound.feed(kind, text[1] if text else None)
        if role == "ignore":
            if kind == ev.PREVIOUS_GTIDS:
                self.info["previousGtids"] = ev.gtid_set(body)
                if self.info["previousGtids"] is None:
                    self._undecoded("PREVIOUS_GTIDS in the tagged GTID format")
            elif kind == ev.ROTATE:
                self.info["next"] = bytes(body[8:]).decode("utf-8", "replace")
            return
        if role == "incident":
            self.info["incidents"].append(pos)
            self._undecoded("an INCIDENT event at %d: the server lost events there (replicas stop at it)" % pos)
            if self.trx is not None and ends:  # its own GTID (so that a replica can skip it): that transaction
                self.trx["incident"] = pos
                self._close(end)
            return
        if begins or self.trx is None:
            if kind in (ev.GTID, ev.ANONYMOUS):
                self._open(pos, when, ev.gtid(body, kind == ev.ANONYMOUS))
            elif kind == ev.TAGGED_GTID:
                clock = ev.tagged_gtid(body)
                self._open(pos, when, clock or self._no_clock())
                if clock is None:
                    self.trx["undecoded"].append("a tagged GTID event of a format this reader does not know (its GTID is not read)")
            else:
                self._open(pos, when, self._no_clock())
        sizes = self.trx["sizes"]
        if end - pos > sizes["event"]:
            sizes["event"], sizes["eventAt"] = end - pos, pos
        if role != "gtid":
            self.inside(pos, kind, body, post, text, self.bound, end - pos)
        if ends and self.trx is not None:
            self._close(end)

    def inside(self, pos, kind, body, post, text, bound, size):
        # One event of the open transaction (bound: the parser it was fed to; size: its bytes in a BINLOG statement).
        t = self.trx
        if kind == ev.QUERY:
            schema, text = text
            if size > t["sizes"]["query"]:
                t["sizes"]["query"], t["sizes"]["queryAt"] = size, pos
            role = ev.query_role(text)
            if role in ("statement", "open") or text.upper().startswith("XA ROLLBACK"):
                if role == "statement" and bound.state == "dml":
                    if text.upper().startswith(_CONTROL):
                        return
                    # a statement inside a transaction: statement-based logging, rows not known
                    why = "a statement logged as text (binlog_format STATEMENT or MIXED): its rows are not counted"
                    if why not in t["undecoded"]:
                        t["undecoded"].append(why)
                t["statements"].append({"schema": schema, "text": text, "position": pos})
        elif kind == ev.TABLE_MAP:
            table_id, table = ev.table_map(body, post)
            self.tables[table_id] = table
            self._statement(pos, size, False)
        elif kind in ev.ROW_KIND:
            name, rows, why = ev.rows(body, post, self.tables, kind)
            counts = t["tables"].setdefault(name or "?", [0, 0, 0])
            if rows is None and name is None:
                t["undecoded"].append(why)  # no table map before it: not a statement the server can apply
            elif rows is None and why not in t["unsized"]:
                t["unsized"].append(why)  # rows not counted (partial JSON, a type not sized): sent as they are
            else:
                counts[("insert", "update", "delete").index(ev.ROW_KIND[kind])] += rows
            self._statement(pos, size, ev.rows_flags(body, post) & ev.STMT_END_F)
        elif kind in ev.ROWS_V1:
            t["undecoded"].append("a version 1 rows event (MySQL 5.1 to 5.5): rows not sized")
        elif kind == ev.PAYLOAD:
            if body is None:  # a large one (ev.events): decompressed as it is read, never whole in memory
                try:
                    t["compression"], inner = stream.inner_stream(self.info["path"], pos, size, self.crc, self.posts)
                    self._inner(pos, inner)
                except stream.Undecodable as err:
                    t["compression"] = err.args[0]
                    t["undecoded"].append("a compressed transaction: " + err.args[1])
                return
            compression, data, why = ev.payload(body, post)
            t["compression"] = compression
            if data is None:
                t["undecoded"].append("a compressed transaction: " + why)
                return
            self._inner(pos, ev.inner_events(data, self.posts))

    def _statement(self, pos, size, ends):
        # One statement's table maps and rows events (up to the one flagged STMT_END_F), sized as the BINLOG
        # statement the sessions' replay sends for them: the transaction's largest kept.
        if not self.stmt:
            self.stmt_at = pos
        self.stmt += size
        if ends:
            sizes = self.trx["sizes"]
            n = ev.binlog_size(self.stmt)
            if n > sizes["binlog"]:
                sizes["binlog"], sizes["binlogAt"] = n, self.stmt_at
            self.stmt = 0

    def _inner(self, pos, events):
        # A compressed transaction's events, as the file's own.
        inner = ev.Boundary()
        for kind2, body2, post2, raw in events:
            text2 = ev.query(body2, post2) if kind2 == ev.QUERY else None
            inner.feed(kind2, text2[1] if text2 else None)
            # sent to the sessions as a file's event: with a CRC32 when the file has them
            self.inside(pos, kind2, body2, post2, text2, inner, len(raw) + (4 if self.crc else 0))

    def _undecoded(self, what):
        self.info["undecoded"][what] = self.info["undecoded"].get(what, 0) + 1

    def read_file(self, path, info):
        self.info, self.tables, self.trx, self.bound = info, {}, None, ev.Boundary()
        info["size"] = _os.path.getsize(path)
        with open(path, "rb") as f:
            try:
                for pos, kind, when, end, body, posts in ev.events(f, path):
                    info["events"] += 1
                    info["firstEventTime"] = info["firstEventTime"] or when
                    info["lastEventTime"] = when
                    if kind == ev.FORMAT:
                        info["serverVersion"], info["checksum"] = body["version"], body["checksum"]
                        info["serverId"] = info["serverId"] if info["serverId"] is not None else body["serverId"]
                        self.crc = body["checksum"] == "crc32"
                        continue
                    self.posts = posts
                    self.event(pos, end, kind, when, body, posts[kind - 1] if kind - 1 < len(posts) else 0)
            except ev.Damaged as err:
                info["error"] = {"code": "damaged", "position": err.position, "reason": err.reason}
            if self.trx is not None:
                self._close(None, incomplete="the file ends inside this transaction")


def _matches(t, spec):
    when = t["commit"]
    return (spec.get("since") is None or when >= spec["since"]) and (spec.get("until") is None or when < spec["until"])


def _notable(t, many):
    return bool(t["statements"] or t["undecoded"] or t["unsized"] or t["incomplete"]) or any(
        c[1] >= many or c[2] >= many for c in t["tables"].values())


def read(paths_json, spec_json):
    # paths in replay order; spec {since, until: microseconds UTC or null, keep: "all" | "notable",
    # manyRows}. JSON text {files, tables: {name: [transactions, inserted, updated, deleted]},
    # transactions: [...], counted, first, last}: tables and counted cover every transaction in
    # [since, until); transactions lists them all, or only the notable ones (statements, rows of
    # updates or deletes >= manyRows, anything not decoded).
    paths, spec = _json.loads(paths_json), _json.loads(spec_json)
    many, keep_all = spec.get("manyRows") or 1000, spec.get("keep") == "all"
    out = {"files": [], "tables": {}, "transactions": [], "counted": 0, "first": None, "last": None}

    def emit(t, info):
        info["transactions"] += 1
        info["firstGtid"] = info["firstGtid"] or t["gtid"]
        info["lastGtid"] = t["gtid"] or info["lastGtid"]
        info["firstCommit"] = info["firstCommit"] or t["commit"]
        info["lastCommit"] = t["commit"]
        if not _matches(t, spec):
            return
        out["counted"] += 1
        out["first"] = out["first"] or t
        out["last"] = t
        for name, c in t["tables"].items():
            agg = out["tables"].setdefault(name, [0, 0, 0, 0])
            agg[0] += 1
            for i in range(3):
                agg[i + 1] += c[i]
        if keep_all or _notable(t, many):
            out["transactions"].append(t)

    reader = _Reader(emit)
    for path in paths:
        info = _new_file(path)
        out["files"].append(info)
        try:
            reader.read_file(path, info)
        except Refusal as err:
            info["error"] = {"code": err.code, "position": None, "reason": err.reason}
        except OSError as err:
            info["error"] = {"code": "os-error", "position": None, "reason": os_refusal("os-error", path, "cannot read it", err).reason}
    for key in ("first", "last"):
        if out[key] is not None:
            out[key] = {k: out[key][k] for k in ("gtid", "file", "start", "end", "immediateCommit", "commit")}
    return _json.dumps(out)
