# The replay engine: transactions of binary log files applied to the connected server over N
# sessions of its own (shell.open_session(): the global session's connection options), scheduled
# by the logical clock the source wrote (a transaction starts once every one it may depend on has
# committed; sequence numbers restart in each file, so a new file waits for the last one to end)
# and committed as soon as they are done, as a replica with replica_preserve_commit_order OFF does:
# a transaction commits before an earlier one only where the clock says it does not depend on it
# (its last_committed before that one's sequence_number), so the server's group commit can share
# one flush among several COMMITs, and a stop leaves only holes the clock allows (the same command
# fills them: lib/binlog/replay-record.js). Each transaction as mysqlbinlog | mysql would send it:
# SET gtid_next (combined with the session state of its statements), its row events as one BINLOG
# statement, statements as text, COMMIT; the worker sessions run with autocommit off (no BEGIN round trip).
# JS starts a run (start) and polls it (wait) for progress; the last wait joins the threads and
# closes every session.
import base64 as _base64
import bisect as _bisect
import json as _json
import threading as _threading
import time as _time

from . import binlog_apply, binlog_stream, binlog_worker

_RUNS = {}
_IDS = [0]
QUEUE_BYTES = 16 << 20  # what the reader may hold ahead of the workers (a transaction above binlog_apply.LAZY counts little: read when sent)
LOW = 10000  # JS is asked for more (wait returns) once fewer than this are handed over and not committed


class Clock(object):
    # For each transaction added, the index of the last one that must have committed before it starts
    # (-1: none): the last earlier one of its file whose sequence number is at most its
    # last_committed, else the last one of the previous file; without a clock, the one before it.
    # Those below forget()'s index have committed: their sequence numbers go (a wait below it is met anyway).
    def __init__(self):
        self.n, self.file, self.first, self.seqs = 0, None, 0, []

    def add(self, t):
        i, self.n = self.n, self.n + 1
        if t[0] != self.file:
            self.file, self.first, self.seqs = t[0], i, []
        lc, seq = t[4], t[5]
        self.seqs.append(seq if seq is not None else float("inf"))
        return i - 1 if lc is None or seq is None else self.first + _bisect.bisect_right(self.seqs, lc, 0, len(self.seqs) - 1) - 1

    def forget(self, upto):
        drop = min(upto, self.n - 1) - self.first
        if drop > 0:
            del self.seqs[:drop]
            self.first += drop


def wait_indexes(items):
    clock = Clock()
    return [clock.add(t) for t in items]


class _Waits(object):  # run.wait_for[i]: the wait index kept with transaction i
    def __init__(self, items):
        self.items = items

    def __getitem__(self, i):
        return self.items[i][-1]


class _Run(object):
    def __init__(self, spec, sessions, charsets):
        # (file, start, end, gtid, lastCommitted, sequenceNumber, time, texts ({"position": statement} or None:
        # schemaMap's rewritten statements), idempotent (outsideSlice "skip": rbr_exec_mode IDEMPOTENT), its wait index)
        self.items = binlog_stream.Window(spec["transactions"], spec.get("more"), Clock())
        self.dir = spec["dir"]
        self.rewrite = spec.get("rewrite")  # {schemaMap} or None: with each transaction's texts, binlog_apply.replay_event's
        self.wait_for = _Waits(self.items)
        # One lock; the run's condition (a failure, a stop, a worker ending: every waiter) and one per
        # worker (woken only when the commit it waits for is reached: a commit wakes one thread, not all).
        self.cond = _threading.Condition(_threading.Lock())
        # committed: every transaction up to it has committed; ahead: those committed past it (the clock let them).
        self.committed, self.ahead, self.bytes, self.failed, self.stopped, self.retries = -1, set(), 0, None, False, 0
        self.commit_seconds = 0.0  # inside the COMMITs (binlog_worker.Worker.finish), summed over the sessions
        self.queue = binlog_stream.Queue(max(64, 16 * len(sessions)), QUEUE_BYTES)
        self.sessions, self.charsets = sessions, charsets
        self.statements = [0] * len(sessions)
        self.alive = len(sessions)
        self.started, self.cpu = _time.time(), _time.process_time()
        self.threads = [_threading.Thread(target=self.read, daemon=True)]
        self.workers = [binlog_worker.Worker(self, s, n) for n, s in enumerate(sessions)]
        self.threads += [_threading.Thread(target=w.loop, daemon=True) for w in self.workers]
        for t in self.threads:
            t.start()

    def halted(self, i):
        return self.stopped or (self.failed is not None and i >= self.failed["index"])

    def wait_committed(self, worker, i, target, timeout=None):
        # Blocks until every transaction up to `target` has committed (True), the run halts for
        # transaction i (Halt), or timeout (False).
        if self.committed >= target:
            return True
        end = None if timeout is None else _time.time() + timeout
        with self.cond:
            try:
                while self.committed < target:
                    if self.halted(i):
                        raise binlog_worker.Halt()
                    left = None if end is None else end - _time.time()
                    if left is not None and left <= 0:
                        return False
                    worker.until = target
                    worker.turn.wait(left if left is not None else 1.0)
            finally:
                worker.until = None
        return True

    def wake_all(self):
        # Under self.cond: a failure or a stop concerns every waiter.
        self.cond.notify_all()
        for w in self.workers:
            w.turn.notify()

    def committed_now(self, i):
        # Transaction i committed: the run's prefix moves on over it and those committed ahead of it,
        # and the workers waiting for that prefix are woken.
        with self.cond:
            self.ahead.add(i)
            while self.committed + 1 in self.ahead:
                self.ahead.discard(self.committed + 1)
                self.committed += 1
                self.bytes += self.items[self.committed][2] - self.items[self.committed][1]
            self.items.drop(self.committed)
            for w in self.workers:
                if w.until is not None and w.until <= self.committed:
                    w.turn.notify()

    def fail(self, i, err):
        meta = self.items[i]
        with self.cond:
            if self.failed is None or i < self.failed["index"]:
                self.failed = {"index": i, "gtid": meta[3], "file": meta[0], "position": meta[1],
                               "code": getattr(err, "code", None), "message": getattr(err, "msg", None) or str(err)}
            self.wake_all()

    def spec_of(self, meta):
        if not self.rewrite:
            return None
        return {"schemaMap": self.rewrite.get("schemaMap"), "texts": meta[7] if len(meta) > 7 else None}

    def read(self):
        # The transactions' pieces, file by file, in order, into the queue (bounded: the read runs ahead of
        # the workers by at most its size); then one end mark per worker.
        f, name, fde, i = None, None, None, -1
        try:
            while True:
                i += 1
                meta = self.items.get(i, lambda: self.halted(i))
                if meta is None or self.halted(i):
                    break
                if meta[0] != name:
                    if f:
                        f.close()
                    name = meta[0]
                    f = open(self.dir + "/" + name, "rb")
                    raw, posts, crc = binlog_apply.open_file(f, name)
                    fde = _base64.b64encode(raw).decode("ascii")
                trx = binlog_apply.transaction(f, self.dir + "/" + name, meta[1], meta[2], posts, crc, self.spec_of(meta))
                self.queue.put((i, fde, trx), binlog_stream.held(trx))
        except Exception as err:
            self.fail(i, err)
        finally:
            if f:
                f.close()
            for _ in self.workers:
                self.queue.put(None)

    def snapshot(self):
        c = self.committed
        last = None
        if c >= 0:
            m = self.items[c]
            last = {"gtid": m[3], "file": m[0], "end": m[2], "time": m[6]}
        return {"done": self.alive == 0, "applied": c + 1, "ahead": len(self.ahead), "bytes": self.bytes, "last": last, "failed": self.failed,
                "retries": self.retries, "statements": sum(self.statements), "seconds": _time.time() - self.started,
                "cpuSeconds": _time.process_time() - self.cpu, "commitSeconds": self.commit_seconds}


def start(spec_json):
    # spec {dir, workers, unlogged (sql_log_bin = 0), rewrite (for binlog_apply.replay_event), transactions:
    # [[file, start, end, gtid | null, lastCommitted, sequenceNumber, commit time, texts, idempotent]] in the source's
    # order, more (the rest follow by add(); wait returns early when it wants them)}. Returns the run's id for wait().
    import mysqlsh
    spec = _json.loads(spec_json)
    sessions = []
    try:
        for _ in range(max(1, int(spec.get("workers") or 1))):
            sessions.append(mysqlsh.globals.shell.open_session())
        charsets = {int(r[0]): r[1] for r in sessions[0].run_sql(
            "SELECT ID, CHARACTER_SET_NAME FROM information_schema.COLLATIONS").fetch_all()}
        for s in sessions:
            s.run_sql("SET SESSION autocommit = 0")
            if spec.get("unlogged"):  # the load's skipBinlog: its GTIDs are still recorded (gtid_executed)
                s.run_sql("SET SESSION sql_log_bin = 0")
    except Exception:
        for s in sessions:
            s.close()
        raise
    _IDS[0] += 1
    _RUNS[_IDS[0]] = _Run(spec, sessions, charsets)
    return _IDS[0]


def add(run_id, spec_json):
    # The next of a run's transactions, as start's: spec {transactions, more (false: these are the last)}.
    spec = _json.loads(spec_json)
    _RUNS[run_id].items.add(spec["transactions"], spec.get("more"))


def wait(run_id, seconds, stop=False):
    # Waits up to `seconds` for the run to end. JSON text {done, applied (every one up to `last`), ahead (committed
    # past it, as the clock allows: after a failure or a stop), bytes, last: {gtid, file, end,
    # time} | null, failed: {index, gtid, file, position, code, message} | null, retries, statements,
    # seconds, cpuSeconds (this process's, every thread), commitSeconds (inside the COMMITs, summed over the sessions)}; stop: every transaction not committed yet is rolled back. Once done: threads joined,
    # sessions closed, the run forgotten.
    run = _RUNS[run_id]
    end = _time.time() + max(0.0, seconds)
    with run.cond:
        if stop:
            run.stopped = True
            run.wake_all()
        while run.alive > 0 and _time.time() < end and (run.items.complete or len(run.items) - run.committed > LOW):
            run.cond.wait(min(0.25, end - _time.time()))
        out = run.snapshot()
    if out["done"]:
        for t in run.threads:
            t.join()
        for s in run.sessions:
            try:
                s.close()
            except Exception:
                pass
        del _RUNS[run_id]
    return _json.dumps(out)
