// Builds the lib/ host (see ../lib/core/host.js) from what mysqlsh gives a JS plugin.
// JS in mysqlsh cannot write or list files: host.files goes through the Python companion
// functions (restore._internal.list & co., ../restore_py/registration.py), registered after this file loads.
var SqlError = require('../lib/core/sql-error.js').SqlError;
var FileError = require('../lib/core/file-error.js').FileError;
var shellVersion = require('../lib/options/shell-version.js');
var bytes = require('../lib/core/bytes.js');
// The global `mysql` may be missing in a plugin's context (contract §1): the module itself.
var mysqlModule = require('mysql');

function errorDetails(e) {
  var cause = e && e.cause;
  return {
    message: (cause && cause.message) || (e && e.message) || String(e),
    code: (cause && cause.code) || (e && e.code) || 0,
  };
}

// The Python companion's functions live on restore._internal (../restore_py/registration.py). Each
// answers [value, null], or [null, failure] when it refused or failed: failure is
// {code, path, errno, reason, message}, thrown here as a FileError with those fields. A defect of
// the companion itself (code "internal") is thrown as one of the plugin's, to be reported.
function companion(restore, member) {
  var fn = restore._internal[member];
  return function () {
    var a = arguments;
    var answer;
    // A Shell function is callable but has no apply(); extra undefined arguments are refused.
    switch (a.length) {
      case 0: answer = fn(); break;
      case 1: answer = fn(a[0]); break;
      case 2: answer = fn(a[0], a[1]); break;
      case 3: answer = fn(a[0], a[1], a[2]); break;
      default: answer = fn(a[0], a[1], a[2], a[3]);
    }
    var failed = answer[1];
    if (failed === null || failed === undefined) return answer[0];
    var code = String(failed.code);
    var message = String(failed.message);
    if (code === 'internal') throw new Error('the Python companion failed in ' + member + ': ' + message);
    throw new FileError(code, message, { path: failed.path === null ? null : String(failed.path),
      errno: failed.errno === null ? null : Number(failed.errno), reason: String(failed.reason) });
  };
}

// ArrayBuffer is the only binary type that crosses into Python as bytes.
function asBinary(data) {
  if (typeof data === 'string') return data;
  if (bytes.isBinary(data)) return bytes.toArrayBuffer(data);
  throw new Error('file data must be a string or bytes');
}

// A string naming small contents, so equal stubs are sent once; null for large ones.
function contentKey(data) {
  if (typeof data === 'string') return data.length <= 256 ? 's' + data : null;
  if (data.byteLength > 256) return null;
  return 'b' + Array.prototype.join.call(bytes.toBytes(data), ',');
}

// Files sharing one content (stubs) send it once: each file names its content by index into
// `contents`. Contents are matched by value (a string key), not by object: stubs are a few bytes.
// Returns data -> index, filling `contents`.
function contentIndex(contents) {
  var index = new Map();
  return function (raw) {
    var data = asBinary(raw);
    var key = contentKey(data);
    var at = key === null ? undefined : index.get(key);
    if (at === undefined) {
      at = contents.length;
      contents.push(data);
      if (key !== null) index.set(key, at);
    }
    return at;
  };
}

function listColumns(c) {
  return { names: c.names, sizes: c.sizes, dirs: c.dirs, errors: c.errors, omitted: c.omitted, omittedEnding: c.omittedEnding };
}

function makeFiles(restore) {
  return {
    list: function (dir, opts) {
      var o = {};
      if (opts && opts.noSizeFor) o.noSizeFor = opts.noSizeFor;
      if (opts && opts.omitMatching) o.omitMatching = opts.omitMatching;
      if (opts && opts.countEnding) o.countEnding = opts.countEnding;
      if (opts && opts.joined) {
        o.joined = true;
        var got = companion(restore, 'list')(dir, o);
        if (typeof got === 'string') return listColumns(JSON.parse(got)); // a name that is not UTF-8
        var rest = JSON.parse(got[2]);
        return { namesText: got[0], sizeBytes: got[1], dirs: rest.dirs, errors: rest.errors, omitted: rest.omitted,
          omittedEnding: rest.omittedEnding };
      }
      return listColumns(JSON.parse(companion(restore, 'list')(dir, o)));
    },
    stat: function (paths) {
      var c = JSON.parse(companion(restore, 'stat')(JSON.stringify(paths)));
      return { sizes: c.sizes, dirs: c.dirs, errors: c.errors };
    },
    statRuns: function (dir, runs) {
      var got = companion(restore, 'statRuns')(dir, JSON.stringify(runs));
      var c = JSON.parse(got[1]);
      return { sizes: got[0], dirs: c.dirs, errors: c.errors };
    },
    surveyRuns: function (dir, runs, n) {
      var got = companion(restore, 'surveyRuns')(dir, JSON.stringify(runs), n);
      var c = JSON.parse(got[3]);
      return { sizes: got[0], lengths: got[1], data: got[2], dirs: c.dirs, errors: c.errors };
    },
    readRuns: function (dir, runs, n) {
      var got = companion(restore, 'readRuns')(dir, JSON.stringify(runs), n);
      return { data: got[0], lengths: got[1] };
    },
    readHeads: function (paths, n) { return Array.from(companion(restore, 'readHeads')(paths, n)); },
    readRanges: function (requests) {
      var list = requests.map(function (r) { return [r.path, r.offset, r.length]; });
      return Array.from(companion(restore, 'readRanges')(JSON.stringify(list)));
    },
    decompressedSizes: function (requests, threads) {
      var list = requests.map(function (r) { return [r.path, r.compression]; });
      var answer = JSON.parse(companion(restore, 'decompressedSizes')(JSON.stringify(list), threads));
      return { sizes: answer.sizes.map(function (s) { return { bytes: s[0], error: s[1] }; }) };
    },
    binlogRead: function (paths, spec) {
      return JSON.parse(companion(restore, 'binlogRead')(JSON.stringify(paths), JSON.stringify(spec)));
    },
    binlogPieces: function (path, ranges, checkOnly, rewrite) {
      var call = companion(restore, 'binlogPieces');
      return JSON.parse(rewrite ? call(path, JSON.stringify(ranges), !!checkOnly, JSON.stringify(rewrite))
        : call(path, JSON.stringify(ranges), !!checkOnly));
    },
    binlogPlan: function (paths, spec) {
      return JSON.parse(companion(restore, 'binlogPlan')(JSON.stringify(paths), JSON.stringify(spec)));
    },
    binlogPlanNext: function (id, n, finish) {
      var call = companion(restore, 'binlogPlanNext');
      return JSON.parse(finish ? call(id, n, true) : call(id, n));
    },
    binlogPast: function (paths, spec) {
      return JSON.parse(companion(restore, 'binlogPast')(JSON.stringify(paths), JSON.stringify(spec)));
    },
    binlogHead: function (path) { return JSON.parse(companion(restore, 'binlogHead')(path)); },
    binlogServerFetch: function (spec, password) {
      return JSON.parse(companion(restore, 'binlogServerFetch')(JSON.stringify(spec), password));
    },
    binlogApplyStart: function (spec) { return companion(restore, 'binlogApplyStart')(JSON.stringify(spec)); },
    binlogApplyAdd: function (id, spec) { companion(restore, 'binlogApplyAdd')(id, JSON.stringify(spec)); },
    binlogApplyWait: function (id, seconds, stop) {
      return JSON.parse(companion(restore, 'binlogApplyWait')(id, seconds, !!stop));
    },
    binlogFeedStart: function (spec) { return JSON.parse(companion(restore, 'binlogFeedStart')(JSON.stringify(spec))); },
    binlogFeedAdd: function (id, spec) { companion(restore, 'binlogFeedAdd')(id, JSON.stringify(spec)); },
    binlogFeedStatus: function (id) { return JSON.parse(companion(restore, 'binlogFeedStatus')(id)); },
    binlogFeedStop: function (id) { return JSON.parse(companion(restore, 'binlogFeedStop')(id)); },
    decodeHeads: function (pieces) {
      var got = companion(restore, 'decodeHeads')(JSON.stringify(pieces.map(function (p) { return p.compression; })),
        pieces.map(function (p) { return asBinary(p.data); }));
      var errors = JSON.parse(got[1]);
      return Array.from(got[0]).map(function (d, i) { return { data: errors[i] ? null : d, error: errors[i] || null }; });
    },
    remoteHeads: function (argv, target, paths, n) {
      return Array.from(companion(restore, 'remoteHeads')(JSON.stringify(argv), target, JSON.stringify(paths), n));
    },
    writeFiles: function (files, opts) {
      var contents = [];
      var at = contentIndex(contents);
      var entries = files.map(function (f) { return [f.path, at(f.data)]; });
      var r = JSON.parse(companion(restore, 'writeFiles')(JSON.stringify(entries), contents,
        { overwrite: !!(opts && opts.overwrite) }));
      var skipped = new Set(r.skipped);
      return {
        written: files.map(function (f) { return f.path; }).filter(function (p) { return !skipped.has(p); }),
        skipped: r.skipped,
      };
    },
    writeRuns: function (dir, runs, data) {
      var r = JSON.parse(companion(restore, 'writeRuns')(dir, JSON.stringify(runs), [asBinary(data)]));
      return { written: Number(r.written), skipped: r.skipped };
    },
    makeDirs: function (dir, opts) { companion(restore, 'makeDirs')(dir, { fresh: !!(opts && opts.fresh) }); },
    viewCreate: function (dir, markText) { companion(restore, 'viewCreate')(dir, markText); },
    // entries: [{name, link} | {name, data}]; equal contents (stubs) are sent once.
    viewAdd: function (dir, entries) {
      var contents = [];
      var at = contentIndex(contents);
      var list = entries.map(function (e) { return [e.name, typeof e.link === 'string' ? e.link : at(e.data)]; });
      return Number(companion(restore, 'viewAdd')(dir, JSON.stringify(list), contents));
    },
    viewStubs: function (dir, runs, data) {
      return Number(companion(restore, 'viewStubs')(dir, JSON.stringify(runs), [asBinary(data)]));
    },
    viewAppend: function (dir, name, text) { return Number(companion(restore, 'viewAppend')(dir, name, text)); },
    viewAppendFrom: function (dir, name, source, sourceBytes, ops, substitution) {
      var sub = substitution || {};
      var spec = JSON.stringify({ source: source, bytes: sourceBytes, ops: ops, pattern: sub.pattern || '', text: sub.text || '' });
      return Number(companion(restore, 'viewAppendFrom')(dir, name, spec));
    },
    viewRemove: function (dir) { return Number(companion(restore, 'viewRemove')(dir)); },
    rsync: function (args, opts) {
      var o = opts || {};
      return JSON.parse(companion(restore, 'rsync')(JSON.stringify(args), o.timeout || 0, o.input || ''));
    },
    canWrite: function (dir) { return !!companion(restore, 'canWrite')(dir); },
    // A dump in an S3-compatible bucket (../restore_py/bucket.py): GET requests only.
    bucketList: function (s3, prefix, delimiter) {
      return JSON.parse(companion(restore, 'bucketList')(JSON.stringify(s3), prefix, delimiter || ''));
    },
    bucketFetch: function (s3, items, dir, threads, refresh) {
      return JSON.parse(companion(restore, 'bucketFetch')(JSON.stringify(s3),
        JSON.stringify({ items: items, dir: dir, threads: threads, refresh: !!refresh })));
    },
    bucketHeads: function (s3, keys, n) {
      return Array.from(companion(restore, 'bucketHeads')(JSON.stringify(s3), JSON.stringify({ keys: keys, n: n })));
    },
    remove: function (paths) { return { removed: Array.from(companion(restore, 'remove')(paths).removed) }; },
    loadText: function (p) { return os.loadTextFile(p); },
    isFile: function (p) { return os.path.isfile(p); },
    isDir: function (p) { return os.path.isdir(p); },
    isAbs: function (p) { return os.path.isabs(p); },
    join: function (a, b) { return os.path.join(a, b); },
    normpath: function (p) { return os.path.normpath(p); },
    basename: function (p) { return os.path.basename(p); },
    dirname: function (p) { return os.path.dirname(p); },
    cwd: function () { return os.getcwd(); },
  };
}

// Another server with the global session's account: the password the Shell's credential store
// holds for that address, else the prompt (interactive only), else none (a script would hang on
// a prompt). The global session's own password is not readable from JS.
function openOtherSession(current, hostName, port, typed) {
  var m = /^(?:\w+:\/\/)?([^@]*)@/.exec(String(current.uri));
  var user = m ? decodeURIComponent(m[1].replace(/:.*$/, '')) : 'root';
  var uri = 'mysql://' + encodeURIComponent(user) + '@' + hostName + ':' + port;
  var stored = false;
  try {
    stored = Array.from(shell.listCredentials()).indexOf(user + '@' + hostName + ':' + port) >= 0;
  } catch (e) {
    stored = false; // no credential helper
  }
  try {
    if (stored) return mysqlModule.getClassicSession(uri);
    var key = user + '@' + hostName + ':' + port;
    // Asked once per call of a member (the preflight and the verification reach the same members).
    if (typed[key] === undefined) {
      typed[key] = shell.options.interactive
        ? String(shell.prompt('Password for ' + key + ' (to verify this member): ', { type: 'password' })) : '';
    }
    var password = typed[key];
    return mysqlModule.getClassicSession(uri, password);
  } catch (e) {
    var d = errorDetails(e);
    throw new SqlError(d.code, d.message.replace(/^\w+\.getClassicSession: /, ''));
  }
}

function sessionRunner(session) {
  return function run(sql, args) {
    // Fetching rows fails too (a statement killed or interrupted by Ctrl-C while its rows are read):
    // a failed statement either way, with the server's error, not a defect of the plugin.
    try {
      var result = args === undefined ? session().runSql(sql) : session().runSql(sql, args);
      var columns = Array.from(result.getColumnNames());
      var rows = [];
      var row;
      while ((row = result.fetchOne()) !== null) {
        var o = {};
        for (var i = 0; i < columns.length; i++) o[columns[i]] = row[i];
        rows.push(o);
      }
      return { columns: columns, rows: rows, affected: result.getAffectedItemsCount(),
        insertId: result.getAutoIncrementValue() };
    } catch (e) {
      if (e && e.isSqlError) throw e;
      var d = errorDetails(e);
      throw new SqlError(d.code, d.message.replace(/^(?:ClassicSession|ClassicResult)\.\w+: /, ''));
    }
  };
}

// A session the plugin opened itself, as host.sql's: run (rows as objects) and close.
function ownSession(other) {
  return { run: sessionRunner(function () { return other; }), close: function () { other.close(); } };
}

function makeSql() {
  var info = null;
  function session() {
    var s = shell.getSession();
    if (!s) throw new SqlError(0, 'Not connected: open a session first (\\connect root@host or mysqlsh root@host -- restore ...).');
    return s;
  }
  var run = sessionRunner(session);
  var typed = {}; // passwords typed for other members, for this host (one member call) only
  return {
    connected: function () { var s = shell.getSession(); return !!(s && s.isOpen()); },
    run: run,
    // A session to another server named by the user (binlogs from a live source), with the password given.
    openUri: function (uri, password) {
      var other;
      try {
        other = mysqlModule.getClassicSession(uri, password);
      } catch (e) {
        var d = errorDetails(e);
        throw new SqlError(d.code, d.message.replace(/^\w+\.getClassicSession: /, ''));
      }
      return ownSession(other);
    },
    openOther: function (hostName, port) {
      return ownSession(openOtherSession(session(), hostName, port, typed));
    },
    // The same server with the global session's connection options (shell.openSession() without
    // arguments, 8.0.31+: how util.loadDump and the Python companion open theirs); null without it.
    openDuplicate: function () {
      if (typeof shell.openSession !== 'function') return null;
      session();
      var other;
      try {
        other = shell.openSession();
      } catch (e) {
        var d = errorDetails(e);
        throw new SqlError(d.code, d.message.replace(/^\w+\.openSession: /, ''));
      }
      return ownSession(other);
    },
    serverInfo: function () {
      if (info) return info;
      var v = run('SELECT @@version AS version, @@version_comment AS comment, @@hostname AS hostname, ' +
        '@@port AS port, @@server_id AS serverId, @@lower_case_table_names AS lctn').rows[0];
      var flavour = /mariadb/i.test(v.version + ' ' + v.comment) ? 'mariadb' : 'mysql';
      // MariaDB has no server_uuid: name the server by host, port and server_id instead.
      var uuid = flavour === 'mysql' ? String(run('SELECT @@server_uuid AS u').rows[0].u)
        : 'mariadb-' + v.hostname + '-' + v.port + '-' + v.serverId;
      info = { version: String(v.version), flavour: flavour, uuid: uuid, hostname: String(v.hostname), port: v.port,
        lowerCaseTableNames: String(v.lctn) };
      return info;
    },
  };
}

function shellApi(fn) {
  return function () {
    try {
      return fn.apply(null, arguments);
    } catch (e) {
      var d = errorDetails(e);
      var err = new Error(d.message);
      err.code = d.code;
      err.isShellApiError = true;
      throw err;
    }
  };
}

function makeUtil() {
  return {
    loadDump: shellApi(function (url, opts) { return util.loadDump(url, opts); }),
    dumpInstance: shellApi(function (dir, opts) { return util.dumpInstance(dir, opts); }),
    dumpSchemas: shellApi(function (schemas, dir, opts) { return util.dumpSchemas(schemas, dir, opts); }),
    dumpTables: shellApi(function (schema, tables, dir, opts) { return util.dumpTables(schema, tables, dir, opts); }),
    importTable: shellApi(function (file, opts) { return util.importTable(file, opts); }),
  };
}

function makeOut() {
  return {
    print: function (line) { println(line); },
    warn: function (line) { println('WARNING: ' + line); },
    progress: function (line) { println(line); },
  };
}

function makeShell(restore) {
  return {
    version: shellVersion.parse(shell.version),
    longVersion: String(shell.version),
    engine: typeof Graal !== 'undefined' ? 'GraalJS' : 'V8',
    interactive: !!shell.options.interactive && shell.options.useWizards !== false,
    cpuCount: function () { return companion(restore, 'clientInfo')().cpuCount; },
    // The Shell's config home, as the Python companion takes it: the one place that decides what
    // is inside the state directory (<config home>/restore) decides where it is.
    configHome: String(companion(restore, 'clientInfo')().configHome),
    getenv: function (name) { return os.getenv(name); },
    prompt: function (question, defaultValue) {
      return String(shell.prompt(question, { defaultValue: defaultValue || '' }));
    },
    promptPassword: function (question) { return String(shell.prompt(question, { type: 'password' })); },
    collectGarbage: collectGarbage,
  };
}

// mysqlsh on V8 (up to 9.1) gives the isolate no heap limit and asks for no full collection until a
// call returns, so what a long read promotes and then drops stays in the peak (a dump of 50,000
// tables: some 40 MB). V8 answers external memory of more than half its old generation's limit with
// a full collection at once (Heap::ReportExternalMemoryPressure): an ArrayBuffer of 2 GB, whose pages
// (calloc) are never touched, is that signal. Refused (a small machine): nothing collected. GraalJS
// (9.2+) runs its own collector: nothing to do.
function collectGarbage() {
  if (typeof Graal !== 'undefined') return;
  try {
    var signal = new ArrayBuffer(2048 * 1048576);
    signal = null;
  } catch (e) {
    // refused: nothing collected
  }
}

function makeHost(restore) {
  return {
    files: makeFiles(restore),
    sql: makeSql(),
    util: makeUtil(),
    out: makeOut(),
    shell: makeShell(restore),
  };
}

module.exports = { makeHost: makeHost };
