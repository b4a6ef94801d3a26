# One session of a replay (plugins/restore/restore_py/binlog_replay.py runs several): a transaction
# sent as mysqlbinlog | mysql would send it, with its session state set only where it changes, and
# committed once it is done (its turn, as the logical clock allows, came before it started:
# binlog_replay.py). The session runs with autocommit off: no BEGIN round trip.
import base64 as _base64
import threading as _threading
import time as _time

from . import binlog_apply

_KNOWN = ("foreign_key_checks", "unique_checks", "sql_auto_is_null", "auto_increment_increment", "auto_increment_offset",
          "explicit_defaults_for_timestamp", "sql_require_primary_key")
_RETRY = (1205, 1213)  # lock wait timeout, deadlock: rolled back and run again alone
_CODECS = {"utf8mb4": "utf-8", "utf8mb3": "utf-8", "utf8": "utf-8", "ascii": "ascii", "latin1": "cp1252", "binary": "utf-8"}
class Retry(Exception):
    pass


class Halt(Exception):
    pass


def _quote_ident(name):
    return "`" + name.replace("`", "``") + "`"


class Worker(object):
    def __init__(self, run, session, n):
        self.run, self.s, self.n = run, session, n
        self.fde, self.schema, self.index = None, None, None
        self.turn, self.until = _threading.Condition(run.cond), None  # the commit this worker waits for (binlog_replay.py)
        self.ending = None  # the statement its transaction ends with in its turn (None: COMMIT)
        self.xa = None  # the xid of an XA transaction started and not prepared yet
        self.connection = int(session.run_sql("SELECT CONNECTION_ID()").fetch_one()[0])
        # What the session has already: a Query event's state is SET only where it differs (some of these
        # need SESSION_VARIABLES_ADMIN to be set at all).
        row = session.run_sql("SELECT " + ", ".join("@@SESSION." + k for k in _KNOWN) + ", (SELECT ID FROM information_schema.COLLATIONS "
                              "WHERE COLLATION_NAME = @@SESSION.default_collation_for_utf8mb4)").fetch_one()
        self.state = dict(zip(_KNOWN + ("default_collation_for_utf8mb4",), [None if v is None else int(v) for v in row]))
        session.run_sql("COMMIT")  # autocommit is off: no transaction left open by the reads (gtid_next is set outside one)

    def sql(self, text, args=None):
        self.run.statements[self.n] += 1
        return self.s.run_sql(text, args) if args else self.s.run_sql(text)

    def loop(self):
        run = self.run
        try:
            while True:
                item = run.queue.get()
                if item is None:
                    return
                if run.halted(item[0]):
                    continue
                self.transaction(*item)
        finally:
            with run.cond:
                run.alive -= 1
                run.cond.notify_all()

    def transaction(self, i, fde, trx):
        run = self.run
        self.index = i
        try:
            run.wait_committed(self, i, run.wait_for[i])
            if not binlog_apply.commits(trx):  # DDL commits by itself: its turn first
                run.wait_committed(self, i, i - 1)
            try:
                self.send(i, fde, trx, True)
            except Retry:  # a lock wait timeout or a deadlock on the target: run again once all before it committed
                self.rollback()
                with run.cond:
                    run.retries += 1
                run.wait_committed(self, i, i - 1)
                self.send(i, fde, trx, False)
        except Halt:
            self.rollback()
        except Exception as err:
            self.rollback()
            run.fail(i, err)
        finally:
            self.index = None

    def rollback(self):
        xid, self.xa = self.xa, None
        try:
            if xid:  # an XA transaction not prepared yet: ROLLBACK cannot end it
                for text in ("XA END " + xid, "XA ROLLBACK " + xid):
                    try:
                        self.s.run_sql(text)
                    except Exception:
                        pass
            self.s.run_sql("ROLLBACK")
            self.s.run_sql("SET SESSION gtid_next = 'AUTOMATIC'")
        except Exception:
            pass  # the session is gone: the server rolled it back

    def send(self, i, fde, trx, may_retry):
        run = self.run
        meta = run.items[i]
        if self.fde != fde:
            # A new file's FORMAT_DESCRIPTION: after a commit under a GTID, gtid_next names a GTID already
            # used and BINLOG would fail (1837); AUTOMATIC first, as mysqlbinlog ends each file.
            if self.fde is not None:
                self.sql("SET @@SESSION.gtid_next = 'AUTOMATIC'")
            self.sql("BINLOG '" + fde + "'")
            self.fde = fde
        sets = [("gtid_next", meta[3])] if meta[3] else []
        mode = "IDEMPOTENT" if len(meta) > 8 and meta[8] else "STRICT"  # outsideSlice "skip" (replay-preflight.js)
        if self.state.get("rbr_exec_mode", "STRICT") != mode:
            sets.append(("rbr_exec_mode", mode))
        committed = False
        try:
            for p in trx:
                if "binlog" in p:
                    if sets:
                        self.set(sets)
                        sets = []
                    self.sql("BINLOG '" + _base64.b64encode(p["binlog"]).decode("ascii") + "'")
                elif "query" in p:
                    text = self.text(p)
                    sets += [(k, v) for k, v in sorted(p["state"].items()) if self.state.get(k) != v]
                    sets.append(("timestamp", p["when"] + p["micros"] / 1e6 if p["micros"] else p["when"]))
                    if p["schema"] and p["schema"] != self.schema:
                        self.sql("USE " + _quote_ident(p["schema"]))
                        self.state.pop("collation_database", None)  # USE sets it to the schema's
                        self.schema = p["schema"]
                    self.set(sets)
                    sets = []
                    self.sql(text)
                    if text.startswith("XA START "):
                        self.xa = text[len("XA START "):]
                elif "begin" in p:  # an empty transaction: its GTID recorded by BEGIN; COMMIT, as mysqlbinlog sends it
                    if sets:
                        self.set(sets)
                        sets = []
                    self.sql("BEGIN")
                elif "commit" in p:
                    if sets:
                        self.set(sets)
                        sets = []
                    self.commit(i, p["commit"])
                    committed, self.xa = True, None
                else:
                    raise RuntimeError(p["unsupported"] + " (not sent by the replay)")
            if sets:
                self.set(sets)
            if not committed:  # DDL: committed by itself, in its turn
                run.committed_now(i)
        except Exception as err:
            if may_retry and getattr(err, "code", None) in _RETRY:
                raise Retry()
            raise

    def set(self, pairs):
        names = []
        for k, v in pairs:
            names.append("@@SESSION." + k + " = ?")
            if k not in ("gtid_next", "timestamp"):
                self.state[k] = v
        self.sql("SET " + ", ".join(names), [v for _, v in pairs])

    def text(self, p):
        codec = _CODECS.get(self.run.charsets.get(p["client"]), "utf-8") if p["client"] is not None else "utf-8"
        try:
            return p["query"].decode(codec)
        except UnicodeDecodeError:
            if codec == "cp1252":
                return p["query"].decode("latin-1")
            raise RuntimeError("a statement whose text is not valid in its character set (id %s)" % p["client"])

    def finish(self):
        # The statement that ends this worker's transaction: COMMIT (session.commit(): about 15% less client time
        # than run_sql("COMMIT"), measured in mysqlsh 9.1: 31 against 37 us CPU, 56 against 71 us wall), or the one
        # its source ended it with (ROLLBACK, XA PREPARE <xid>, ...). Timed (run.commit_seconds): on a target that
        # flushes each commit, the COMMITs are where a replay's time goes.
        t = _time.perf_counter()
        try:
            if self.ending is None:
                self.s.commit()
            else:
                self.s.run_sql(self.ending)
        finally:
            took = _time.perf_counter() - t
            with self.run.cond:
                self.run.commit_seconds += took

    def commit(self, i, ending=None):
        # Sent at once, whatever is still running: every transaction it may depend on (those up to
        # run.wait_for[i]) committed before it started, and those after that one are, by the source's
        # clock, not its dependencies (last_committed(i) < their sequence_number). COMMITs of separate
        # sessions overlap, and the server's group commit shares their flushes. Not once the run halts
        # for it (a failure before it, a stop): what it did is rolled back.
        run = self.run
        self.ending = ending
        if run.halted(i):
            raise Halt()
        self.run.statements[self.n] += 1
        self.finish()
        run.committed_now(i)
