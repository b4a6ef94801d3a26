# Everything the companion puts on the `restore` object, in one place:
#  1. restore._internal.<name>: the companion's functions, for ../restore_js/host.js. Each answers
#     [value, None], or [None, failure] when it refused or failed (errors.py): a structured
#     answer, never an exception whose text would have to be read.
#  2. restore.<member>: the public members (restore.inspect, restore.load, ...), thin functions
#     around restore._internal.run(), whose definitions (help, parameters) are the JS members' own:
#     an error raised here reads like the Shell's own ("ERROR: RuntimeError: <message>"), where
#     mysqlsh appends a JS file and line to any error a JS member throws.
# Large batches cross as one JSON string each way: a string is one value to marshal, where a list
# of 100,000 dictionaries would be 300,000.
import importlib as _importlib
import json as _json
import os as _os

from . import confine, reads, runs, view, writes
from .errors import failure


def _later(module, name):
    # The binary log, bucket, rsync and decompression modules (and what they import: http.client,
    # ssl, subprocess, concurrent.futures...) load at their first call: a load of a local dump
    # needs none of them, and their imports were a tenth of a second of every mysqlsh start.
    def call(*args):
        return getattr(_importlib.import_module("." + module, __package__), name)(*args)
    return call


def _client_info():
    return {"cpuCount": _os.cpu_count() or 1, "pid": _os.getpid(), "host": _os.uname().nodename,
            "configHome": confine.CONFIG_HOME}


def _p(name, type_, brief, **more):
    return dict({"name": name, "type": type_, "brief": brief}, **more)


_PATH = _p("path", "string", "The directory.")
_VIEW = _p("path", "string", "The load view.")
_N = _p("n", "integer", "How many bytes to read from each.")
# Files named as runs of numbers, in one directory (confine.run_plain_names).
_RUNS = [_p("path", "string", "Directory holding the files."),
         _p("runsJson", "string", "JSON text [[prefix, from, to, suffix] | [name], ...].")]
_CONTENTS = _p("contents", "array", "The distinct contents (string or bytes).")
_S3 = _p("optionsJson", "string", "JSON text: util.loadDump's s3* options.")

# name, function, brief, parameters.
FUNCTIONS = [
    ("list", reads.list_dir, "Lists a directory as JSON text: {names, sizes, dirs, errors} (columns).", [
        _p("path", "string", "Directory to list."),
        _p("options", "dictionary", "Listing options.", required=False, options=[
            _p("noSizeFor", "array", "File name endings whose size is not needed (null instead)."),
            _p("omitMatching", "string", "A regular expression: names it finds are left out, only counted."),
            _p("countEnding", "string", "Of the names left out, how many have this ending (omittedEnding)."),
            _p("joined", "bool", "Answer [names joined by '/', float64 sizes (NaN: null), JSON text {dirs, errors, omitted, "
               "omittedEnding}] instead.")])]),
    ("stat", reads.stat, "Sizes of given files as JSON text: {sizes, dirs, errors} (columns, as list).", [
        _p("pathsJson", "string", "JSON text [path, ...].")]),
    ("statRuns", runs.stat_runs, "Sizes of files named as runs: [float64 sizes, JSON text {dirs, errors}].", _RUNS),
    ("surveyRuns", runs.survey_runs, "Sizes and first bytes of files named as runs: [float64 sizes, int32 lengths "
     "(-1: not read), bytes, JSON text {dirs, errors}].", _RUNS + [_N]),
    ("readRuns", runs.read_runs, "First bytes of files named as runs: [bytes, int32 lengths (-1: missing)].",
     _RUNS + [_N]),
    ("readHeads", reads.read_heads, "Reads the first bytes of many files; null for a missing file.", [
        _p("paths", "array", "Files to read."), _N]),
    ("readRanges", reads.read_ranges, "Reads bytes at given offsets of many files; null for a missing file.", [
        _p("requestsJson", "string", "JSON text [[path, offset, length], ...].")]),
    ("decompressedSizes", _later("verify", "decompressed_sizes"),
     "Decompresses files in full, nothing kept: JSON text {sizes: [[bytes, error], ...]}.", [
         _p("requestsJson", "string", "JSON text [[path, compression], ...] (zstd or gzip)."),
         _p("threads", "integer", "How many files at once.")]),
    ("decodeHeads", _later("verify", "decode_heads"), "Decodes pieces of data files: [[bytes or None], JSON text [error or None]].", [
        _p("compressionsJson", "string", "JSON text [zstd | gzip | none, ...]."),
        _p("contents", "array", "The pieces (bytes).")]),
    ("remoteHeads", _later("rsync", "remote_heads"), "First bytes of files on an ssh host: [bytes or None, ...].", [
        _p("rshJson", "string", "JSON text: the remote shell's argv, e.g. [\"ssh\", \"-p\", \"2222\"]."),
        _p("target", "string", "[user@]host."),
        _p("pathsJson", "string", "JSON text [path or null, ...] on that host."),
        _p("n", "integer", "How many bytes of each.")]),
    ("writeFiles", writes.write_files, "Writes new files (overwrite only inside the state directory).", [
        _p("pathsJson", "string", "JSON text [[path, content index], ...]."), _CONTENTS,
        _p("options", "dictionary", "Write options.", required=False, options=[
            _p("overwrite", "bool", "Replace existing files (state directory only).")])]),
    ("writeRuns", writes.write_runs, "Writes new files of one content named as runs; existing names are skipped.",
     _RUNS + [_p("contents", "array", "One content (string or bytes): what every file holds.")]),
    ("makeDirs", writes.make_dirs, "Creates a directory inside the state directory, or one new directory elsewhere.", [
        _p("path", "string", "Directory to create."),
        _p("options", "dictionary", "Options.", required=False, options=[
            _p("fresh", "bool", "Outside the state directory: one new directory.")])]),
    ("remove", writes.remove, "Removes files inside the state directory.", [_p("paths", "array", "Files to remove.")]),
    ("canWrite", writes.can_write, "Whether new files can be created in a directory.", [_PATH]),
    ("viewCreate", view.create, "Creates a load view: a new directory holding its marker file.", [
        _p("path", "string", "The new directory."), _p("markText", "string", "The marker file's content.")]),
    ("viewAdd", view.add, "Adds new links and files to a load view; returns how many were made.", [
        _VIEW, _p("entriesJson", "string", "JSON text [[name, link target or content index], ...]."), _CONTENTS]),
    ("viewStubs", view.stubs, "Adds entries of one small content to a load view (links to one file in it).", [
        _VIEW, _p("runsJson", "string", "JSON text [[prefix, from, to, suffix], ...]: names prefix+n+suffix."),
        _p("contents", "array", "[their content] (string or bytes).")]),
    ("viewAppend", view.append, "Adds text at the end of a file of a load view; returns its bytes.", [
        _VIEW, _p("name", "string", "A file the view holds."), _p("text", "string", "The text to add.")]),
    ("viewAppendFrom", view.append_from, "Adds pieces of a file, as they are or with a substitution, to a file of a load view.", [
        _VIEW, _p("name", "string", "A file the view holds."),
        _p("specJson", "string", "JSON text {source, bytes, ops, pattern, text}.")]),
    ("viewRemove", view.remove, "Removes a load view the plugin made; returns how many entries it held.", [_VIEW]),
    ("rsync", _later("rsync", "rsync"), "Runs rsync (never with deletions): JSON text {status, stdout, stderr}.", [
        _p("argsJson", "string", "JSON text [argument, ...]."),
        _p("timeout", "integer", "Seconds; 0 for none.", required=False),
        _p("inputText", "string", "Text for rsync's standard input.", required=False)]),
    # A dump in an S3-compatible bucket (GET requests only); s3: util.loadDump's s3* options.
    ("bucketList", _later("bucket", "list_prefix"), "Lists objects under a prefix: JSON text {names, sizes, prefixes, requests}.", [
        _S3, _p("prefix", "string", "The key prefix."),
        _p("delimiter", "string", "\"/\" for one level, \"\" for everything.")]),
    ("bucketFetch", _later("bucket", "fetch"), "Fetches objects into a cache the plugin made: JSON text {fetched, kept, bytes, requests}.", [
        _S3, _p("specJson", "string", "JSON text {items: [[key, file name, size]], dir, threads, refresh}.")]),
    ("bucketHeads", _later("bucket", "heads"), "First bytes of objects (ranged GETs): [bytes or None, ...].", [
        _S3, _p("specJson", "string", "JSON text {keys: [key or null, ...], n}.")]),
    ("binlogRead", _later("binlog", "read"), "Reads binary log files into transactions: JSON text {files, tables, transactions, counted, first, last}.", [
        _p("pathsJson", "string", "JSON text [path, ...]: the files in order."),
        _p("specJson", "string", "JSON text {since, until (microseconds UTC), keep: all | notable, manyRows}.")]),
    ("binlogPlan", _later("binlog_plan", "plan_start"), "Starts reading binary log files for a replay's plan, to its stop: JSON text {id}.", [
        _p("pathsJson", "string", "JSON text [path, ...]: the files in order, from the dump's."),
        _p("specJson", "string", "JSON text {dumpGtids, dumpFile, dumpPosition, until, stopBefore, stopAfter, toEnd}.")]),
    ("binlogPlanNext", _later("binlog_plan", "plan_next"), "The next transactions of a plan's read: JSON text {transactions, tables, sets, done} (done: with files, unread, inDump, gtidsRead, stopped, last).", [
        _p("id", "integer", "What binlogPlan answered."),
        _p("n", "integer", "About how many transactions."),
        _p("finish", "bool", "The stop by name is found: the read ends after what was given.", required=False)]),
    ("binlogPast", _later("binlog_plan", "past"), "The transactions past a replay's stop a target holds: JSON text {count, last}.", [
        _p("pathsJson", "string", "JSON text [path, ...]: the stop's file and those after it."),
        _p("specJson", "string", "JSON text {position, held, numbered, uuid}.")]),
    ("binlogPieces", _later("binlog_apply", "pieces"), "What a replay sends for transactions of one binary log file: JSON text {format, transactions}.", [
        _p("path", "string", "The binary log file."),
        _p("rangesJson", "string", "JSON text [[start, end], ...]: whole transactions."),
        _p("checkOnly", "bool", "Only the events a replay cannot send (no bytes).", required=False),
        _p("rewriteJson", "string", "JSON text {schemaMap, texts: {position: statement}}: a load under other names.", required=False)]),
    ("binlogHead", _later("binlog_source", "head"), "A binary log file's previous GTIDs and first transaction: JSON text {previousGtids, firstGtid, firstCommit, size, error}.", [
        _p("path", "string", "The binary log file.")]),
    ("binlogServerFetch", _later("binlog_source", "server_fetch"), "Reads binary log files from a live server (mysqlbinlog --raw) into a cache: JSON text {program, files}.", [
        _p("specJson", "string", "JSON text {host, port, user, names, dir}."),
        _p("password", "string", "The account's password (to mysqlbinlog through a pipe).")]),
    ("binlogApplyStart", _later("binlog_replay", "start"), "Starts a replay over sessions of its own (the global session's options): the run's id.", [
        _p("specJson", "string", "JSON text {dir, workers, transactions: [[file, start, end, gtid, lastCommitted, sequenceNumber, time, texts, idempotent]], more}.")]),
    ("binlogApplyAdd", _later("binlog_replay", "add"), "Hands a replay the next of its transactions (after binlogApplyStart's first batch).", [
        _p("id", "integer", "The run's id."), _p("specJson", "string", "JSON text {transactions (as binlogApplyStart's), more}.")]),
    ("binlogApplyWait", _later("binlog_replay", "wait"), "Waits for a replay: JSON text {done, applied, bytes, last, failed, retries, statements, seconds}.", [
        _p("id", "integer", "The run's id."), _p("seconds", "float", "How long to wait at most."),
        _p("stop", "bool", "Roll back what is not committed and end.", required=False)]),
    ("binlogFeedStart", _later("binlog_feed", "start"), "Starts a listener the target replicates a replay from: JSON text {id, port, user, password}.", [
        _p("specJson", "string", "JSON text {dir, address, version, targetServerId, uuid, rewrite, transactions: [[file, start, end, gtid, texts]], more}.")]),
    ("binlogFeedAdd", _later("binlog_feed", "add"), "Hands a listener the next of its transactions (after binlogFeedStart's first batch).", [
        _p("id", "integer", "The listener's id."), _p("specJson", "string", "JSON text {transactions (as binlogFeedStart's), more, applied}.")]),
    ("binlogFeedStatus", _later("binlog_feed", "status"), "What a listener sent: JSON text {sent, sentLast, bytes, connections, failed, queries}.", [
        _p("id", "integer", "The listener's id.")]),
    ("binlogFeedStop", _later("binlog_feed", "stop"), "Stops a listener: JSON text of its last status, or null.", [
        _p("id", "integer", "The listener's id.")]),
    ("clientInfo", _client_info, "Facts about the client machine and process.", []),
]


def _answering(fn):
    # [value, None] or [None, failure]. mysqlsh hands a trailing dictionary argument to a Python
    # function as keyword arguments when there is one argument more than its positional
    # parameters (types_python.cc Python_function::invoke): put it back in its place.
    def call(*args, **options):
        try:
            return [fn(*(args + ((options,) if options else ()))), None]
        except Exception as err:  # every failure crosses as data, a defect too ("internal")
            return [None, failure(err)]
    return call


_SAFE_INTEGER = 2 ** 53 - 1  # beyond it JavaScript numbers lose digits


def _plain(value, where, error):
    # Shell dictionaries and arrays as JSON-able Python values; what JSON (or a JavaScript number)
    # cannot carry as it is is refused, naming where it is: never a parse error later.
    if isinstance(value, bool) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > _SAFE_INTEGER:
            raise error("%s: %d is too large a number (at most %d)" % (where, value, _SAFE_INTEGER))
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise error("%s: %r is not a number the restore plugin can use; give a whole number" % (where, value))
        if abs(value) > _SAFE_INTEGER:
            raise error("%s: %r is too large a number (at most %d)" % (where, value, _SAFE_INTEGER))
        return 0.0 if value == 0 else value
    if hasattr(value, "keys"):
        return {str(k): _plain(value[k], "%s.%s" % (where, k) if where != "Option" else "Option %s" % k, error)
                for k in value.keys()}
    if isinstance(value, (bytes, bytearray)) or not hasattr(value, "__len__"):
        raise error("%s: a value of type %s is not an option value (text, numbers, true/false, lists, "
                    "dictionaries)" % (where, type(value).__name__))
    return [_plain(v, "%s[%d]" % (where, i), error) for i, v in enumerate(value)]


def _shared_values():
    # json.loads shares equal keys, not equal values: 50,000 tables' facts repeat "bench", "zstd",
    # "tsv.zst" once per table. Each short text is made once while parsing (the dictionaries then
    # cross into the Shell's types).
    memo = {}

    def pairs(items):
        out = {}
        for k, v in items:
            if isinstance(v, str) and len(v) <= 64:
                v = memo.setdefault(v, v)
            out[k] = v
        return out
    return pairs


def _public(internal, name, error):
    # mysqlsh hands a member's trailing options dictionary to a Python function as keyword
    # arguments when called from JS: put them back in their place.
    def call(*args, **options):
        args = list(args) + ([options] if options else [])
        plain = [_plain(a, "Argument #%d" % (i + 1) if not isinstance(a, dict) and not hasattr(a, "keys") else "Option",
                        error) for i, a in enumerate(args)]
        answer = _json.loads(internal.run(name, _json.dumps(plain, allow_nan=False)), object_pairs_hook=_shared_values())
        if "error" in answer:
            raise error(answer["error"])
        return answer["value"]
    return call


def register(mysqlsh):
    restore, shell = mysqlsh.globals.restore, mysqlsh.globals.shell
    internal = restore._internal
    for name, fn, brief, parameters in FUNCTIONS:
        shell.add_extension_object_member(internal, name, _answering(fn), {"brief": brief, "parameters": parameters})
    for m in _json.loads(internal.definitions()):
        shell.add_extension_object_member(restore, m["name"], _public(internal, m["name"], mysqlsh.Error), m["definition"])
