# The one event-type table of the binary log layer and the one transaction-boundary parser (MySQL's
# Transaction_boundary_parser, its facts): what every reader of events (binlog.py, binlog_apply.py,
# binlog_feed.py) takes the start and end of a transaction from. Pure; binlog_events.py re-exports it.

QUERY, ROTATE, FORMAT, XID, TABLE_MAP, INCIDENT = 2, 4, 15, 16, 19, 26
INTVAR, RAND, USER_VAR, ROWS_QUERY, VIEW_CHANGE = 5, 13, 14, 29, 37
WRITE, UPDATE, DELETE, PARTIAL_UPDATE = 30, 31, 32, 39
GTID, ANONYMOUS, PREVIOUS_GTIDS, XA_PREPARE, PAYLOAD, TAGGED_GTID = 33, 34, 35, 38, 40, 42
ROWS_V1 = (23, 24, 25)
ROW_KIND = {WRITE: "insert", UPDATE: "update", DELETE: "delete", PARTIAL_UPDATE: "update"}
ROWS = (WRITE, UPDATE, DELETE, PARTIAL_UPDATE)
STMT_END_F = 1  # a rows event's flag: the last rows event of its statement

# THE event-type table: each type's name and its part in a transaction, as MySQL's
# Transaction_boundary_parser sees it: "gtid" opens one; "query" is decided by its text (query_role);
# "end" closes one (XID, XA_PREPARE); "pre" (INTVAR, RAND, USER_VAR) goes before the statement it is for;
# "statement" is inside one (or a whole one after a GTID event alone); "payload" is a whole compressed
# transaction after its GTID event; "incident" marks events the source lost; "ignore" is no part of any.
# A type not listed is "unknown" (read as a statement, and said).
TYPES = {
    1: ("START_V3", "ignore"), 2: ("QUERY", "query"), 3: ("STOP", "ignore"), 4: ("ROTATE", "ignore"),
    5: ("INTVAR", "pre"), 9: ("APPEND_BLOCK", "statement"), 11: ("DELETE_FILE", "ignore"), 13: ("RAND", "pre"),
    14: ("USER_VAR", "pre"), 15: ("FORMAT_DESCRIPTION", "ignore"), 16: ("XID", "end"),
    17: ("BEGIN_LOAD_QUERY", "statement"), 18: ("EXECUTE_LOAD_QUERY", "statement"), 19: ("TABLE_MAP", "statement"),
    23: ("WRITE_ROWS_V1", "statement"), 24: ("UPDATE_ROWS_V1", "statement"), 25: ("DELETE_ROWS_V1", "statement"),
    26: ("INCIDENT", "incident"), 27: ("HEARTBEAT", "ignore"), 28: ("IGNORABLE", "ignore"),
    29: ("ROWS_QUERY", "statement"), 30: ("WRITE_ROWS", "statement"), 31: ("UPDATE_ROWS", "statement"),
    32: ("DELETE_ROWS", "statement"), 33: ("GTID", "gtid"), 34: ("ANONYMOUS_GTID", "gtid"),
    35: ("PREVIOUS_GTIDS", "ignore"), 36: ("TRANSACTION_CONTEXT", "ignore"), 37: ("VIEW_CHANGE", "statement"),
    38: ("XA_PREPARE", "end"), 39: ("PARTIAL_UPDATE_ROWS", "statement"), 40: ("TRANSACTION_PAYLOAD", "payload"),
    41: ("HEARTBEAT_V2", "ignore"), 42: ("GTID_TAGGED", "gtid"),
}


def type_name(kind):
    return TYPES.get(kind, ("type %d" % kind, None))[0]


def query_role(text):
    # A QUERY event's part, by MySQL's rules: "begin" (BEGIN, XA START), "end" (COMMIT, ROLLBACK but not
    # ROLLBACK TO, XA ROLLBACK), "open" (a DDL ending in START TRANSACTION: CREATE TABLE ... SELECT since
    # 8.0.21, whose rows and XID follow), else "statement".
    head = text[:20].upper()
    if text == "BEGIN" or text.startswith("XA START"):
        return "begin"
    if text == "COMMIT" or (head.startswith("ROLLBACK") and not head.startswith("ROLLBACK TO ")) or head.startswith("XA ROLLBACK"):
        return "end"
    if text[-40:].rstrip().upper().endswith("START TRANSACTION"):
        return "open"
    return "statement"


class Boundary(object):
    # Where transactions begin and end (MySQL's Transaction_boundary_parser, its facts): the state is None
    # between transactions, "gtid" after a GTID event, "pre" after INTVAR / RAND / USER_VAR events,
    # "dml" inside BEGIN (or XA START, or a DDL ... START TRANSACTION) until its XID / COMMIT / ROLLBACK /
    # XA_PREPARE. A statement outside "dml" is a transaction by itself (a DDL, an XA COMMIT).
    def __init__(self):
        self.state = None

    def feed(self, kind, text=None):
        # -> (role, begins, ends): begins: the event is the first of a transaction (a GTID event, or any
        # other outside one); ends: the transaction is whole with it. text: a QUERY event's statement.
        role = TYPES.get(kind, (None, "unknown"))[1]
        before = self.state
        if role == "ignore":
            return role, False, False
        if role == "incident":
            self.state = None
            return role, False, before is not None
        if role == "gtid":
            self.state = "gtid"
            return role, True, False
        if role == "query":
            role = query_role(text or "")
            if role == "begin":
                self.state = "dml"
            elif role == "end":
                self.state = None
            elif before == "dml":
                pass
            elif role == "open":
                self.state = "dml"
            else:
                self.state = None
            return role, before is None, self.state is None
        if role == "end" or role == "payload":
            self.state = None
            return role, before is None, True
        if role == "pre":
            self.state = before if before == "dml" else "pre"
            return role, before is None, False
        # a statement event (table map, rows, rows query, view change, ...) or one of a type not known
        if before != "dml":
            self.state = None
        return role, before is None, self.state is None
