# The reading a replay's plan makes of one binary log file (binlog_plan.py drives it): binlog._Reader, the
# tables of a rows event named from its table map (rows not walked), the events a replay cannot send noted,
# and a transaction the dump holds passed over whole from its GTID event (transaction_length, MySQL 8.0.2+).
# Also GtidSet: a GTID set's text for membership tests, GTIDs added as read. Read only.
import bisect as _bisect
import os as _os

from . import binlog, binlog_apply
from .binlog_gtids import transaction_length
from . import binlog_events as ev


class GtidSet(object):
    # A GTID set's text ("uuid:1-5:7,uuid:tag:3") for membership tests; adds GTIDs as read (runs kept).
    def __init__(self, text=""):
        self.ranges, self.dirty = {}, set()  # "uuid" or "uuid:tag" -> sorted [[lo, hi]]; keys added out of order
        for part in (text or "").replace("\n", "").split(","):
            bits = [b.strip() for b in part.split(":") if b.strip()]
            if not bits:
                continue
            key = bits[0].lower()
            for b in bits[1:]:
                lo, _, hi = b.partition("-")
                if not lo.isdigit():
                    key = bits[0].lower() + ":" + b.lower()  # a tag: the intervals after it are its own
                    continue
                self.add(key, int(lo), int(hi or lo))

    def add(self, key, lo, hi=None):
        hi = lo if hi is None else hi
        r = self.ranges.setdefault(key, [])
        if r and r[-1][0] <= lo <= r[-1][1] + 1:
            r[-1][1] = max(r[-1][1], hi)
        else:
            r.append([lo, hi])
            if len(r) > 1 and r[-2][0] > lo:
                self.dirty.add(key)

    @staticmethod
    def split(gtid):
        key, _, n = gtid.rpartition(":")
        return key.lower(), int(n)

    def has(self, gtid):
        key, n = self.split(gtid)
        self._sort(key)
        r = self.ranges.get(key)
        if not r:
            return False
        k = _bisect.bisect_right(r, [n, float("inf")]) - 1
        return k >= 0 and r[k][0] <= n <= r[k][1]

    def _sort(self, key):
        if key in self.dirty:
            r = sorted(self.ranges[key])
            out = []
            for lo, hi in r:
                if out and lo <= out[-1][1] + 1:
                    out[-1][1] = max(out[-1][1], hi)
                else:
                    out.append([lo, hi])
            self.ranges[key] = out
            self.dirty.discard(key)

    def text(self):
        for key in list(self.dirty):
            self._sort(key)
        return ",".join(key + ":" + ":".join(str(lo) if lo == hi else "%d-%d" % (lo, hi) for lo, hi in r)
                        for key, r in self.ranges.items() if r)


def _split_position(text):
    # "binlog.000003:1234" -> (file, position), else None (a GTID: its last part is a number too, its first a UUID).
    if not text:
        return None
    head, _, n = text.strip().rpartition(":")
    if not head or not n.isdigit() or len(head.split(":")[0]) == 36 and head.count("-") >= 4:
        return None
    return head, int(n)


def _unsupported(kind):
    # An event the sessions' replay does not send (binlog_apply._pieces' rule), or None.
    if kind in (ev.TABLE_MAP, ev.QUERY, ev.XID, ev.XA_PREPARE, ev.PAYLOAD) or kind in ev.ROWS or kind in binlog_apply._SKIP:
        return None
    if ev.TYPES.get(kind, (None, None))[1] == "ignore":
        return None
    return binlog_apply._NAMES.get(kind, "an event of type %s" % ev.type_name(kind))


class _PlanReader(binlog._Reader):
    # binlog._Reader, also noting the events a replay cannot send (by position) in the open transaction; the
    # tables a rows event writes are named from its table map, its rows not walked (a plan does not count them).
    def inside(self, pos, kind, body, post, text, bound, size):
        why = _unsupported(kind)
        if why is not None and self.trx is not None:
            self.trx.setdefault("unsupported", []).append("%s at %d" % (why, pos))
        if kind == ev.TABLE_MAP:
            at = post
            schema = bytes(body[at + 1:at + 1 + body[at]]).decode("utf-8", "replace")
            at += 2 + body[at]
            name = bytes(body[at + 1:at + 1 + body[at]]).decode("utf-8", "replace")
            self.tables[int.from_bytes(body[0:6 if post == 8 else 4], "little")] = {"name": schema + "." + name}
            self._statement(pos, size, None)
        elif kind in ev.ROW_KIND:
            table = self.tables.get(int.from_bytes(body[0:6 if post >= 8 else 4], "little"))
            t = self.trx
            t["tables"].setdefault(table["name"] if table else "?", [0, 0, 0])
            if table is None:
                t["undecoded"].append("a rows event for table id %d without its table map" %
                                      int.from_bytes(body[0:6 if post >= 8 else 4], "little"))
            self._statement(pos, size, ev.rows_flags(body, post) & ev.STMT_END_F)
        else:
            binlog._Reader.inside(self, pos, kind, body, post, text, bound, size)


def _read_file(reader, path, info, state):
    # binlog._Reader.read_file, the incidents seen kept pending until the next transaction tells whether they are before the dump's point.
    class _Watch(list):
        def append(self, pos):
            list.append(self, pos)
            state["pendingIncidents"].append((self, pos))
    info["incidents"] = _Watch(info["incidents"])
    try:
        for x in _read(reader, path, info, state["file"]):
            yield x
    finally:
        info["incidents"] = list(info["incidents"])


def _read(reader, path, info, k):
    # binlog._Reader.read_file, but a transaction the dump holds (reader.skip) is passed over whole from its GTID
    # event (its transaction_length, MySQL 8.0.2+): only what tells it is the dump's is read.
    reader.info, reader.tables, reader.trx, reader.bound = info, {}, None, ev.Boundary()
    info["size"] = _os.path.getsize(path)
    name = _os.path.basename(path)
    with open(path, "rb") as f:
        try:
            jump = []  # binlog_events.events goes on from a position appended here
            for pos, kind, when, end, body, posts in ev.events(f, path, jump):
                info["events"] += 1
                info["firstEventTime"] = info["firstEventTime"] or when
                info["lastEventTime"] = when
                if kind == ev.FORMAT:
                    info["serverVersion"], info["checksum"] = body["version"], body["checksum"]
                    info["serverId"] = info["serverId"] if info.get("serverId") is not None else body["serverId"]
                    reader.crc = body["checksum"] == "crc32"
                    continue
                if kind == ev.GTID and reader.trx is None and reader.bound.state is None:
                    length = transaction_length(body)
                    if length:
                        clock = ev.gtid(body, False)
                        if reader.skip(clock["gtid"], pos, k):
                            commit = clock["originalCommit"] if clock["originalCommit"] is not None else clock["immediateCommit"]
                            reader.emit({"gtid": clock["gtid"], "file": name, "start": pos, "end": pos + length, "commit": commit,
                                         "immediateCommit": clock["immediateCommit"], "undecoded": []}, info)
                            jump.append(pos + length)
                            yield None
                            continue
                reader.posts = posts
                reader.event(pos, end, kind, when, body, posts[kind - 1] if kind - 1 < len(posts) else 0)
                yield None
        except ev.Damaged as err:
            info["error"] = {"code": "damaged", "position": err.position, "reason": err.reason}
        if reader.trx is not None:
            reader._close(None, incomplete="the file ends inside this transaction")


def note_point(d, t, here, pos):
    # A transaction the dump holds, passed over in or after the file of the dump's binlogPosition pos (here: in it),
    # noted as lib/binlog/replay-history.js checks that point: inFile (one is in that file), atPoint (one begins or
    # ends at pos), around (the first running across it), fromPoint (the first not ending before it).
    d["inFile"] = d["inFile"] or here
    d["atPoint"] = d["atPoint"] or (here and pos in (t["start"], t["end"]))
    if here and t["start"] < pos < t["end"] and d["around"] is None:
        d["around"] = t
    if (not here or t["end"] > pos) and d["fromPoint"] is None:
        d["fromPoint"] = t
