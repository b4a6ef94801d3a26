# What a replay's plan needs from the binary log files, read once and only as far as the replay goes: from the first file given (lib/ starts
# at the dump's file) to the first transaction at or after the stop that the dump does not hold (until: committed at or after it; stopBefore
# / stopAfter: a GTID or file:position), no further file opened. A transaction the dump holds (its GTID in the dump's gtidExecuted, or
# before its binlogFile:binlogPosition when the GTID is not read) crosses to JS as counts and GTIDs only; every other one as one short array
# (what the schedule, the filters and the size checks need), its statements and anything unusual beside it. Also: the events a replay cannot
# send (the check binlog_apply.pieces makes), found in the same pass. Read only.
import json as _json
import os as _os

from . import binlog
from .binlog_planread import GtidSet, _PlanReader, note_point, _read_file, _split_position
from .errors import Refusal, os_refusal

# A transaction of at least this many bytes keeps where its largest pieces begin (the size refusal names it); a smaller one's: its start.
_AT_FROM = 16384

class _Stop(Exception):
    pass

_PLANS = {}
_IDS = [0]


def plan_start(paths_json, spec_json):
    # plan(), read in batches (plan_next): what crosses to JS at once is one batch, never every transaction. JSON text {id}.
    _IDS[0] += 1
    gen = _plan(_json.loads(paths_json), _json.loads(spec_json))
    next(gen)
    _PLANS[_IDS[0]] = gen
    return _json.dumps({"id": _IDS[0]})


def plan_next(plan_id, n, finish=False):
    # The next transactions of a plan_start (up to about n: the events of one more transaction may end others), as plan()'s: {transactions,
    # tables and sets (those new since the last batch), done}; the last batch (done: true) with the rest of plan()'s fields, the plan then
    # forgotten. finish: lib/ found its stop by name (toEnd: a batch ends at each transaction with statements) in what it has: the read ends.
    gen = _PLANS[plan_id]
    try:
        out = gen.send(-1 if finish else max(1, int(n)))
    except BaseException:
        del _PLANS[plan_id]
        raise
    if out["done"]:
        del _PLANS[plan_id]
    return _json.dumps(out, separators=(",", ":"))


def plan(paths_json, spec_json):
    # Every batch at once (a test's, a small folder's).
    gen = _plan(_json.loads(paths_json), _json.loads(spec_json))
    next(gen)
    out, rows, tables, sets = None, [], [], []
    while out is None or not out["done"]:
        out = gen.send(1 << 30)
        rows += out["transactions"]
        tables += out["tables"]
        sets += out["sets"]
    out.update(transactions=rows, tables=tables, sets=sets)
    return _json.dumps(out, separators=(",", ":"))


def _plan(paths, spec):
    # paths: the files in replay order (lib/ starts them at the dump's file). spec {dumpGtids (text) | null,
    # dumpFile, dumpPosition (GTIDs off, or a GTID not read), until (microseconds UTC) | null, stopBefore,
    # stopAfter (a GTID or file:position) | null, toEnd (a stop by name: read on until plan_next's finish)}.
    # JSON text {files (binlog.read's per file, the unread ones left out), unread (paths not opened),
    # tables: [name], sets: [[table index]], transactions: [[file index, start, end, gtid, lastCommitted,
    # sequenceNumber, commit, set index, binlog size, query size, event size, extra | 0]] (extra {statements,
    # undecoded, unsized, incomplete, unsupported, compression, sizes, inDump}), inDump {count, gtids, last:
    # the one committed last {gtid, file, start, end, commit}; inFile, atPoint, around, fromPoint: note_point's}, gtidsRead (every transaction's read, the
    # stop's past it excepted: gtidsBeforeStop too), tagless, stopped: {file, position} where what is past
    # the stop begins, or null, last: the last transaction read}.
    dump = GtidSet(spec["dumpGtids"]) if spec.get("dumpGtids") else None
    names = [_os.path.basename(p) for p in paths]
    dump_at = (names.index(spec["dumpFile"]), spec["dumpPosition"]) if spec.get("dumpFile") in names and \
        isinstance(spec.get("dumpPosition"), int) else None
    until, to_end = spec.get("until"), bool(spec.get("toEnd"))
    before_at = _split_position(spec.get("stopBefore"))
    after_at = _split_position(spec.get("stopAfter"))
    before_gtid = None if before_at or not spec.get("stopBefore") else spec["stopBefore"].strip().lower()
    after_gtid = None if after_at or not spec.get("stopAfter") else spec["stopAfter"].strip().lower()
    out = {"files": [], "unread": [], "tables": [], "sets": [], "transactions": [], "tagless": False, "stopped": None, "last": None,
           "inDump": {"count": 0, "gtids": "", "last": None, "inFile": False, "atPoint": False,
                      "around": None, "fromPoint": None}}
    table_ids, set_ids = {}, {}
    read, before_stop, in_dump_gtids = GtidSet(), GtidSet(), GtidSet()
    state = {"file": 0, "pendingIncidents": [], "seen": False, "rows": [], "limit": 0, "tables": 0, "sets": 0, "cut": False}

    def in_dump(t, k):
        if dump is not None and t["gtid"]:
            return dump.has(t["gtid"])
        return dump_at is not None and (k < dump_at[0] or (k == dump_at[0] and t["start"] < dump_at[1]))

    def matches(t, k, at, gtid):
        return (at is not None and names[k] == at[0] and t["start"] == at[1]) or (gtid is not None and (t["gtid"] or "").lower() == gtid)

    def brief(t):
        return {"gtid": t["gtid"], "file": t["file"], "start": t["start"], "end": t["end"], "commit": t["commit"]}

    def emit(t, info):
        k = state["file"]
        info["transactions"] += 1
        info["firstGtid"] = info["firstGtid"] or t["gtid"]
        info["lastGtid"] = t["gtid"] or info["lastGtid"]
        info["firstCommit"] = info["firstCommit"] or t["commit"]
        info["lastCommit"] = t["commit"]
        out["last"] = t
        if t["gtid"]:
            key, n = GtidSet.split(t["gtid"])
            read.add(key, n)
        elif t["undecoded"]:
            out["tagless"] = True
        mine = in_dump(t, k)
        # An INCIDENT before a transaction of the dump is before the dump's point: no matter (lib/ checks the rest).
        for where, pos in state["pendingIncidents"]:
            if mine:
                where.remove(pos)
        state["pendingIncidents"] = []
        hit_before = matches(t, k, before_at, before_gtid)
        hit_after = matches(t, k, after_at, after_gtid)
        if mine and dump is not None and not hit_before and not hit_after:
            # Held by the dump: counted, its GTID kept as read; the one committed last kept (until before the dump's point).
            d = out["inDump"]
            d["count"] += 1
            if t["gtid"]:
                in_dump_gtids.add(*GtidSet.split(t["gtid"]))
            if d["last"] is None or (t["commit"] is not None and t["commit"] > d["last"]["commit"]):
                d["last"] = brief(t)
            if dump_at is not None and k >= dump_at[0]:
                note_point(d, brief(t), k == dump_at[0], dump_at[1])
            if t["gtid"]:
                before_stop.add(*GtidSet.split(t["gtid"]))
            return
        past = not mine and not to_end and (state["seen"] or hit_before or (until is not None and t["commit"] >= until))
        if mine and (hit_before or hit_after):
            state["seen"] = True  # a stop the dump holds: refused by lib/, from the first transaction after the dump on
        state["rows"].append(_compact(t, k, mine, table_ids, set_ids, out))
        state["cut"] = to_end and bool(t.get("statements"))  # a stop by name: lib/ looks for its DROP at each statement
        if past:
            out["stopped"] = {"file": t["file"], "position": t["start"]}
            raise _Stop()
        if t["gtid"]:
            before_stop.add(*GtidSet.split(t["gtid"]))
        if hit_after and not mine and not to_end:
            out["stopped"] = {"file": t["file"], "position": t["end"]}
            raise _Stop()

    def skip(gtid, start, k):
        # A transaction the dump holds and no stop names: skipped whole, unread (emit counts it).
        return dump is not None and dump.has(gtid) and not (before_at and names[k] == before_at[0] and start == before_at[1]) \
            and not (after_at and names[k] == after_at[0] and start == after_at[1]) and gtid.lower() not in (before_gtid, after_gtid)

    def batch(done):
        got = {"transactions": state["rows"], "tables": out["tables"][state["tables"]:], "sets": out["sets"][state["sets"]:],
               "done": done}
        state["rows"], state["tables"], state["sets"] = [], len(out["tables"]), len(out["sets"])
        return got

    reader = _PlanReader(emit)
    reader.skip = skip
    state["limit"] = yield None
    stopped = False
    for k, path in enumerate(paths):
        if stopped:
            out["unread"].append(path)
            continue
        state["file"] = k
        info = binlog._new_file(path)
        out["files"].append(info)
        try:
            for _ in _read_file(reader, path, info, state):
                if len(state["rows"]) >= state["limit"] or state["cut"]:
                    state["limit"], state["cut"] = (yield batch(False)), False
                    if state["limit"] < 0:
                        out["stopped"] = {"file": out["last"]["file"], "position": out["last"]["end"]}
                        raise _Stop()
        except _Stop:
            stopped = True
        except Refusal as err:
            info["error"] = {"code": err.code, "position": None, "reason": err.reason}
        except OSError as err:
            info["error"] = {"code": "os-error", "position": None, "reason": os_refusal("os-error", path, "cannot read it", err).reason}
    out["gtidsRead"], out["gtidsBeforeStop"] = read.text(), before_stop.text()
    out["inDump"]["gtids"] = in_dump_gtids.text()
    if out["last"] is not None:
        out["last"] = {k: out["last"].get(k) for k in ("gtid", "file", "start", "end", "immediateCommit", "commit")}
    last = batch(True)
    out.update(last)
    yield out

def _compact(t, k, mine, table_ids, set_ids, out):
    names = []
    for name in t["tables"]:
        i = table_ids.get(name)
        if i is None:
            i = table_ids[name] = len(out["tables"])
            out["tables"].append(name)
        names.append(i)
    key = tuple(names)
    s = set_ids.get(key)
    if s is None:
        s = set_ids[key] = len(out["sets"])
        out["sets"].append(names)
    sizes = t["sizes"]
    extra = {}
    for field in ("statements", "undecoded", "unsized", "unsupported"):
        if t.get(field):
            extra[field] = t[field]
    for field in ("incomplete", "compression", "incident"):
        if t.get(field):
            extra[field] = t[field]
    if mine:
        extra["inDump"] = True
    if max(sizes["binlog"], sizes["query"], sizes["event"]) >= _AT_FROM:
        extra["sizes"] = sizes
    return [k, t["start"], t["end"], t["gtid"], t["lastCommitted"], t["sequenceNumber"], t["commit"], s,
            sizes["binlog"], sizes["query"], sizes["event"], extra or 0]


def past(paths_json, spec_json):
    # The transactions past a replay's stop the target holds: spec {position (where the first file's part past the
    # stop begins), held (a GTID set's text: the target's GTIDs the replay up to the stop does not explain), numbered,
    # uuid (a dump without GTIDs: transactions without one are uuid:numbered+1, +2… as the replay numbers them)}.
    # JSON text {count, last: {gtid, commit} | null}: the last of them in the files' order.
    paths, spec = _json.loads(paths_json), _json.loads(spec_json)
    held = GtidSet(spec["held"])
    state = {"n": spec.get("numbered") or 0, "count": 0, "last": None, "first": True}
    start = spec.get("position") or 0

    def emit(t, _info):
        if state["first"] and t["start"] < start:
            return
        gtid = t["gtid"]
        if spec.get("uuid"):
            state["n"] += 1
            gtid = gtid or "%s:%d" % (spec["uuid"], state["n"])
        if gtid and held.has(gtid):
            state["count"] += 1
            state["last"] = {"gtid": gtid, "commit": t["commit"]}

    reader = binlog._Reader(emit)
    for k, path in enumerate(paths):
        state["first"] = k == 0
        try:
            reader.read_file(path, binlog._new_file(path))
        except (Refusal, OSError):
            pass
    return _json.dumps({"count": state["count"], "last": state["last"]})
