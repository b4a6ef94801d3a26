// The host contract: everything lib/ may use from the outside world arrives in ONE object.
// plugins/restore/restore_js/host.js builds it from mysqlsh's globals (the GraalJS test host in
// test/graal-host loads that same file). lib/ never touches a mysqlsh global directly.
//
// host = {
//   files: {
//     list(dir, opts)           -> {names: [name], sizes: [bytes|null], dirs: [index], errors: [[index, why, special]]}:
//                                  in columns (a big dump has hundreds of thousands of files; throws if
//                                  dir is not a directory); an entry's error: why (the OS's words, or
//                                  "not a regular file (a named pipe)") and special: what a non-regular
//                                  entry is ("a named pipe", "a device", ...), else null. opts.noSizeFor:
//                                  name endings whose size is not needed (size null); opts.omitMatching:
//                                  a regular expression (source text): names it finds are left out and
//                                  only counted ({omitted: n, omittedEnding: how many of them end in
//                                  opts.countEnding}). opts.joined: a host may answer {namesText: the
//                                  names joined by "/" (no file name holds one), sizeBytes: a native
//                                  float64 per name (NaN: null), dirs, errors, ...} instead (a big
//                                  dump's names then never become a string each). lib/core/listing.js reads it.
//     stat(paths)               -> {sizes, dirs, errors}: the same columns as list, for these files only
//                                  (a missing file: size null, no error)
//     statRuns(dir, runs)       -> {sizes: ArrayBuffer, dirs, errors}: stat for the files of dir named by
//                                  runs [[prefix, from, to, suffix] | [name]] (names prefix + n + suffix,
//                                  n in [from, to)): a native float64 per name, NaN where no file is
//                                  (missing, a directory, an error); dirs and errors index the names
//     surveyRuns(dir, runs, n)  -> {sizes, lengths, data: ArrayBuffers, dirs, errors}: statRuns and
//                                  readRuns of the regular files in one pass (one open per file);
//                                  lengths -1 where nothing was read (no regular file, or an error)
//     readRuns(dir, runs, n)    -> {data: ArrayBuffer, lengths: ArrayBuffer}: the first n bytes of each
//                                  file named by runs, one after the other; lengths: a native int32 per
//                                  name, -1 for a missing file
//     readHeads(paths, n)       -> [ArrayBuffer|null]      first n bytes of each file, null if missing
//     readRanges([{path, offset, length}]) -> [ArrayBuffer|null]  bytes at each place (shorter at
//                                  the end of a file), null if missing: one step of a walk over many files
//     decompressedSizes([{path, compression: 'zstd'|'gzip'}], threads)
//                               -> {sizes: [{bytes, error}]} each file decompressed in full, nothing
//                                  kept (a FileError 'program-missing' when no zstd decoder is here)
//     binlogRead(paths, spec)   -> {files, tables, transactions, counted, first, last}: binary log files
//                                  (in replay order) read into transactions (plugins/restore/restore_py/binlog.py says
//                                  every field); spec {since, until: microseconds UTC or null,
//                                  keep: 'all' | 'notable', manyRows}. Only reads.
//     binlogPieces(path, ranges, checkOnly, rewrite) -> {format, transactions: [[piece]]}: what a replay sends for
//                                  whole transactions ([start, end] each) of one file; checkOnly: only the
//                                  pieces {unsupported} (plugins/restore/restore_py/binlog_apply.py); rewrite
//                                  {schemaMap, texts: {position: statement}} or null (binlog_rewrite.py)
//     binlogPlan(paths, spec)   -> {id}: starts reading what a replay's plan needs, from the dump's file to the stop only
//     binlogPlanNext(id, n, finish) -> its next transactions, each a short array, and at the end the summary (finish:
//                                  a stop by name found in what was given, the read ends there)
//                                  (plugins/restore/restore_py/binlog_plan.py plan_start, plan_next; lib/binlog/replay-read.js)
//     binlogPast(paths, spec)   -> {count, last}: the transactions past a replay's stop a target holds (binlog_plan.py past)
//     binlogHead(path)          -> {previousGtids, firstGtid, firstCommit, size, error}: a binary log file read
//                                  up to the end of its first transaction (plugins/restore/restore_py/binlog_source.py)
//     binlogServerFetch({host, port, user, names, dir}, password) -> {program, files: [{name, size, status,
//                                  stderr}]}: files read whole from a live server by mysqlbinlog --raw into dir
//                                  (the password through a pipe); a FileError 'program-missing' without mysqlbinlog
//     binlogApplyStart({dir, workers, transactions: [[file, start, end, gtid, lastCommitted, sequenceNumber, time, texts,
//                                  idempotent]], more})
//                               -> id: a replay started over `workers` sessions of its own (opened with the
//                                  global session's options), in the background (plugins/restore/restore_py/binlog_replay.py);
//                                  more: the rest follow in batches, binlogApplyAdd(id, {transactions, more}), as it asks
//                                  (binlogApplyWait returns early when it holds fewer than it wants)
//     binlogApplyWait(id, seconds, stop) -> {done, applied, bytes, last, failed, retries, statements, seconds}:
//                                  waits up to `seconds`; stop: what is not committed is rolled back; once
//                                  done its sessions are closed
//     binlogFeedStart({dir, address, version, targetServerId, uuid, rewrite, transactions: [[file, start, end, gtid, texts]]})
//                               -> {id, port, user, password}: a listener the target replicates the transactions
//                                  from (plugins/restore/restore_py/binlog_feed.py); the password is random, per run;
//                                  more: the rest follow, binlogFeedAdd(id, {transactions, more, applied (how many the
//                                  target committed: those it drops)})
//     binlogFeedStatus(id) / binlogFeedStop(id) -> {sent, sentLast, bytes, connections, failed, queries}
//     decodeHeads([{compression: 'zstd'|'gzip'|'none', data: ArrayBuffer}])
//                               -> [{data: ArrayBuffer|null, error}]: each piece decoded (zstd: a whole
//                                  frame, the zstd program; gzip: the start of a stream, zlib)
//     remoteHeads(rshArgv, target, paths, n) -> [ArrayBuffer|null]: the first n bytes of each file
//                                  on an ssh host (`head -c n`, run through the remote shell argv;
//                                  null for a null path or a missing file); throws a FileError when
//                                  the remote shell fails
//     writeFiles(files, opts)   -> {written: [path], skipped: [path]}
//                                  files: [{path, data: ArrayBuffer|string}]; opts.overwrite (false)
//     writeRuns(dir, runs, data) -> {written: count, skipped: [name]}: new files in dir, each holding
//                                  data, named by runs (as statRuns); names that exist are skipped
//     makeDirs(dir, opts)       -> undefined: like mkdir -p inside the state directory; elsewhere
//                                  only with opts.fresh: exactly one new directory
//     viewCreate(dir, markText) -> undefined: a new directory holding the load view marker
//     viewAdd(dir, entries)     -> number made; entries [{name, link: target} | {name, data}], all new
//     viewStubs(dir, runs, data) -> number made: entries that all hold data (a few bytes): one file in
//                                  the view holds it, each name is a symbolic link to that file;
//                                  runs [[prefix, from, to, suffix]]: names prefix + n + suffix, n in [from, to)
//     viewAppend(dir, name, text) -> bytes added at the end of a file the view holds (never the marker)
//     viewAppendFrom(dir, name, source, sourceBytes, ops, substitution) -> bytes added the same way,
//                                  from the file source (only read; refused unless it still has
//                                  sourceBytes): ops [['t', text] | ['c', start, end] (its bytes as they
//                                  are) | ['s', start, end] (its bytes with every match of
//                                  substitution.pattern, a regular expression's source text, replaced by
//                                  the match's first group followed by substitution.text)]
//     viewRemove(dir)           -> number of entries removed (only a directory holding the marker)
//     rsync(args, {timeout, input}) -> {status, stdout, stderr}: the rsync program (never with deletions;
//                                  input: its standard input, e.g. a --files-from=- list);
//                                  throws a FileError saying what to install when rsync is missing
//     bucketList(s3, prefix, delimiter) -> {names, sizes, prefixes, requests}: the objects of an S3-compatible
//                                  bucket under prefix (names relative to it; delimiter "/": one level,
//                                  prefixes: its sub-prefixes); s3: util.loadDump's s3* options
//     bucketFetch(s3, [[key, name, size]], dir, threads, refresh) -> {fetched, kept, bytes, requests}: objects
//                                  into a cache the plugin made (files of the listed size already there
//                                  are kept, unless refresh); each file's size checked against the listing;
//                                  only GET requests are ever sent to a bucket
//     bucketHeads(s3, keys, n)  -> [ArrayBuffer|null]: the first n bytes of each object (ranged GETs;
//                                  null for a null key or a missing object)
//                                  A bucket's refusal (keys, region, endpoint, a denied request) throws a
//                                  FileError 'bucket'.
//     canWrite(dir)             -> bool: the user running the Shell may create files in dir
//     remove(paths)             -> {removed: [path]}
//     loadText(path)            -> string (throws if missing/unreadable)
//     isFile(p), isDir(p), isAbs(p), join(a, b), normpath(p), basename(p), dirname(p), cwd()
//     A refused or failed operation throws a FileError (lib/core/file-error.js): {code, path, errno,
//     message}, shown as its message alone.
//   },
//   sql: {
//     connected()               -> bool
//     run(sql, args)            -> {columns: [name], rows: [{col: value}], affected, insertId}
//                                  errors thrown as SqlError (lib/core/sql-error.js): {code, message}
//     serverInfo()              -> {version, flavour: 'mysql'|'mariadb', uuid, lowerCaseTableNames (optional: '0'|'1'|'2')}
//                                  (cached per session)
//     openOther(hostName, port) -> {run(sql, args) (as run above), close()}: a session of its own on
//                                  another server (a replica, a group member) with this session's
//                                  account; errors thrown as SqlError
//     openUri(uri, password)    -> the same, on a server the user named (binlogs from a live source)
//     openDuplicate()           -> the same, on this server with the global session's connection options
//                                  (as util.loadDump opens its sessions; Shell 8.0.31+), or null where the
//                                  host cannot (optional: lib/run/session-init-check.js then tries nothing)
//   },
//   util: { loadDump(url, opts), dumpInstance(dir, opts), dumpSchemas(schemas, dir, opts),
//           dumpTables(schema, tables, dir, opts), importTable(file, opts) }   (errors thrown as ShellApiError)
//   out: { print(line), warn(line), progress(line) }
//   shell: { version: 'X.Y.Z', longVersion, engine: 'V8'|'GraalJS', interactive: bool, cpuCount() -> int,
//            configHome: string (the Shell's own config home, absolute; the state directory is its restore/),
//            getenv(name), prompt(question, defaultValue) -> string, promptPassword(question) -> string,
//            collectGarbage() (optional): the JS engine collects now (lib/core/memory.js says when) }
// }

const REQUIRED = {
  files: ['list', 'stat', 'statRuns', 'surveyRuns', 'readRuns', 'readHeads', 'readRanges', 'decompressedSizes', 'binlogRead', 'binlogPieces', 'binlogApplyStart', 'binlogApplyWait', 'binlogFeedStart', 'binlogFeedStatus', 'binlogFeedStop', 'decodeHeads', 'remoteHeads', 'writeFiles', 'writeRuns', 'makeDirs', 'viewCreate', 'viewAdd', 'viewStubs', 'viewAppend', 'viewAppendFrom', 'viewRemove', 'rsync', 'bucketList', 'bucketFetch', 'bucketHeads', 'canWrite', 'remove', 'loadText', 'isFile', 'isDir',
    'isAbs', 'join', 'normpath', 'basename', 'dirname', 'cwd'],
  sql: ['connected', 'run', 'serverInfo', 'openOther'],
  util: ['loadDump', 'dumpInstance', 'dumpSchemas', 'dumpTables', 'importTable'],
  out: ['print', 'warn', 'progress'],
  shell: ['getenv', 'prompt', 'cpuCount'],
};

// Where the binary logs come from (lib/binlog/binlog-source.js).
REQUIRED.files.push('binlogHead', 'binlogServerFetch', 'binlogPlan', 'binlogPlanNext', 'binlogPast');
REQUIRED.sql.push('openUri');
REQUIRED.shell.push('promptPassword');

// Fails early, with the missing capability named, when a host is incomplete.
function checkHost(host) {
  Object.keys(REQUIRED).forEach(function (group) {
    if (!host || !host[group]) throw new Error('host is missing the ' + group + ' capabilities');
    REQUIRED[group].forEach(function (fn) {
      if (typeof host[group][fn] !== 'function') {
        throw new Error('host.' + group + '.' + fn + ' is missing');
      }
    });
  });
  return host;
}

module.exports = { checkHost: checkHost, REQUIRED: REQUIRED };
