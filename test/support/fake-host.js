'use strict';
// A lib/ host (lib/core/host.js) for unit tests under plain Node: files in memory, a small fake
// server answering the statements lib/ sends (variables and status it keeps, locks, grants; any
// other statement from a script, else no rows), util.loadDump and util.dump* recorded. Every call
// goes into host.log, in order, so a test can assert what happened and when; host.printed and
// host.warned hold the output lines.
//
//   const host = fakeHost({ files: { '/d/@.json': '{…}' }, mount: { '/d': 'sample-dumps/shop' },
//     variables: { local_infile: 'ON' }, status: { Innodb_redo_log_enabled: 'ON' },
//     grants: ['GRANT ALL PRIVILEGES ON *.* TO `root`@`%` WITH GRANT OPTION'],
//     sql: [[/information_schema.TABLES/, { rows: [...] }], [/^DROP /, (sql, args) => ...]],
//     loadDump: (dir, options) => {...},
//     others: { '127.0.0.1:3307': { variables, sql } } });   // servers host.sql.openOther reaches
//
// mount copies a real directory's files into memory (read once; nothing is ever written there).
const fs = require('fs');
const path = require('path');

const posix = path.posix;
const ROOT = path.resolve(__dirname, '..', '..');

function toBuffer(data) {
  if (Buffer.isBuffer(data)) return data;
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(new Uint8Array(data));
  if (ArrayBuffer.isView(data)) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new Error('fake host: file data must be a string, Buffer or ArrayBuffer');
}

// Names of host.files runs: [prefix, from, to, suffix] or [name].
function runNames(runs) {
  const out = [];
  runs.forEach((r) => {
    if (r.length === 1) out.push(r[0]);
    else for (let i = r[1]; i < r[2]; i++) out.push(r[0] + i + r[3]);
  });
  return out;
}

function toArrayBuffer(buf) {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

// The errors every real host throws (marks, not classes: lib/ checks e.isSqlError / e.isUserError).
const { SqlError } = require('../../lib/core/sql-error.js');
const { UserError } = require('../../lib/core/user-error.js');
const { FileError } = require('../../lib/core/file-error.js');
function sqlError(code, message) { return new SqlError(code, message); }
// host.files refuses with a FileError, as the real host does with the companion's answer.
function fileError(code, path, reason) {
  return new FileError(code, path === null ? reason : path + ': ' + reason, { path, errno: null, reason });
}

// The in-memory file system: absolute POSIX paths → Buffer; directories are implied by the files
// under them, plus those made explicitly. Symbolic links of a load view are kept as {link}.
function memoryFiles(log, initial, mounts) {
  const files = new Map();
  const dirs = new Set(['/']);
  const links = new Map();
  const readOnly = new Set();
  function addDirs(p) {
    for (let d = posix.dirname(p); !dirs.has(d); d = posix.dirname(d)) dirs.add(d);
  }
  function put(p, data) {
    files.set(p, toBuffer(data));
    addDirs(p);
  }
  Object.keys(initial || {}).forEach((p) => put(posix.normalize(p), initial[p]));
  Object.keys(mounts || {}).forEach((at) => {
    const real = path.resolve(ROOT, mounts[at]);
    fs.readdirSync(real).forEach((name) => {
      const full = path.join(real, name);
      if (fs.statSync(full).isFile()) put(posix.join(at, name), fs.readFileSync(full));
    });
  });
  function resolve(p) {
    const target = links.get(p);
    return target === undefined ? p : resolve(target);
  }
  function content(p) { return files.get(resolve(p)); }
  function isFile(p) { return content(posix.normalize(p)) !== undefined; }
  function isDir(p) { return dirs.has(posix.normalize(p)); }
  function children(dir) {
    const prefix = dir === '/' ? '/' : dir + '/';
    const names = new Set();
    for (const p of Array.from(files.keys()).concat(Array.from(links.keys()), Array.from(dirs))) {
      if (p !== dir && p.startsWith(prefix)) names.add(p.slice(prefix.length).split('/')[0]);
    }
    return Array.from(names).sort();
  }
  function write(p, data) {
    if (readOnly.has(posix.dirname(p))) throw fileError('write-failed', p, 'cannot write the file (Permission denied)');
    put(p, data);
  }
  const api = {
    list(dir, opts) {
      dir = posix.normalize(dir);
      log.push(['files.list', dir]);
      if (!isDir(dir)) throw fileError('list-failed', dir, 'cannot list the directory (Not a directory)');
      const omit = opts && opts.omitMatching ? new RegExp(opts.omitMatching) : null;
      const out = { names: [], sizes: [], dirs: [], errors: [] };
      let omitted = 0;
      let omittedEnding = 0;
      children(dir).forEach((name) => {
        if (omit && omit.test(name)) { omitted++; if (opts.countEnding && name.endsWith(opts.countEnding)) omittedEnding++; return; }
        const full = posix.join(dir, name);
        if (isDir(full)) out.dirs.push(out.names.length);
        out.names.push(name);
        out.sizes.push(isFile(full) ? content(full).length : null);
      });
      if (omit) { out.omitted = omitted; out.omittedEnding = omittedEnding; }
      return out;
    },
    stat(paths) {
      const out = { sizes: [], dirs: [], errors: [] };
      paths.forEach((p, i) => {
        out.sizes.push(isFile(p) ? content(posix.normalize(p)).length : null);
        if (isDir(p)) out.dirs.push(i);
      });
      return out;
    },
    statRuns(dir, runs) {
      const names = runNames(runs);
      const sizes = new Float64Array(names.length);
      const out = { sizes: sizes.buffer, dirs: [], errors: [] };
      names.forEach((name, i) => {
        const p = posix.join(dir, name);
        sizes[i] = isFile(p) ? content(posix.normalize(p)).length : NaN;
        if (isDir(p)) out.dirs.push(i);
      });
      return out;
    },
    surveyRuns(dir, runs, n) {
      const stat = api.statRuns(dir, runs);
      const read = api.readRuns(dir, runs, n);
      return { sizes: stat.sizes, lengths: read.lengths, data: read.data, dirs: stat.dirs, errors: stat.errors };
    },
    readRuns(dir, runs, n) {
      const names = runNames(runs);
      const lengths = new Int32Array(names.length);
      const parts = names.map((name, i) => {
        const p = posix.join(dir, name);
        const got = isFile(p) ? content(posix.normalize(p)).subarray(0, n) : null;
        lengths[i] = got ? got.length : -1;
        return got || Buffer.alloc(0);
      });
      return { data: toArrayBuffer(Buffer.concat(parts)), lengths: lengths.buffer };
    },
    readHeads(paths, n) {
      return paths.map((p) => (isFile(p) ? toArrayBuffer(content(posix.normalize(p)).subarray(0, n)) : null));
    },
    readRanges(ranges) {
      return ranges.map((r) => (isFile(r.path)
        ? toArrayBuffer(content(posix.normalize(r.path)).subarray(r.offset, r.offset + r.length)) : null));
    },
    binlogRead() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogPieces() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogPlan() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogPlanNext() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogPast() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogHead() { throw new Error('the fake host reads no binary logs (test them through the companion)'); },
    binlogServerFetch() { throw fileError('program-missing', null, 'mysqlbinlog is not available in the fake host'); },
    binlogApplyStart() { throw new Error('the fake host replays no binary logs (test them through the companion)'); },
    binlogApplyWait() { throw new Error('the fake host replays no binary logs (test them through the companion)'); },
    decompressedSizes(list) {
      const zlib = require('zlib');
      return { sizes: list.map((x) => {
        if (!isFile(x.path)) return { bytes: null, error: 'missing' };
        if (x.compression !== 'gzip') return { bytes: null, error: 'no zstd decoder in the fake host' };
        try { return { bytes: zlib.gunzipSync(content(posix.normalize(x.path))).length, error: null }; } catch (e) { return { bytes: null, error: e.message }; }
      }) };
    },
    // The real decoders, as the companion uses them: the zstd program, zlib.
    decodeHeads(pieces) {
      log.push(['files.decodeHeads', pieces.length]);
      return pieces.map((p) => {
        const data = toBuffer(p.data);
        if (p.compression === 'zstd') {
          const r = require('child_process').spawnSync('zstd', ['-dcq'], { input: data, maxBuffer: 64 << 20 });
          return r.status === 0 ? { data: toArrayBuffer(r.stdout), error: null } : { data: null, error: 'zstd: ' + String(r.stderr).trim() };
        }
        if (p.compression === 'gzip') {
          try { return { data: toArrayBuffer(require('zlib').gunzipSync(data, { finishFlush: require('zlib').constants.Z_SYNC_FLUSH })), error: null }; } catch (e) { return { data: null, error: e.message }; }
        }
        return { data: toArrayBuffer(data), error: null };
      });
    },
    remoteHeads() { throw fileError('program-missing', null, 'ssh is not available in the fake host'); },
    writeFiles(list, opts) {
      const out = { written: [], skipped: [] };
      list.forEach((f) => {
        const p = posix.normalize(f.path);
        log.push(['files.write', p]);
        if (isFile(p) && !(opts && opts.overwrite)) { out.skipped.push(p); return; }
        write(p, f.data);
        out.written.push(p);
      });
      return out;
    },
    writeRuns(dir, runs, data) {
      const out = { written: 0, skipped: [] };
      runNames(runs).forEach((name) => {
        const p = posix.join(posix.normalize(dir), name);
        log.push(['files.write', p]);
        if (isFile(p) || isDir(p)) { out.skipped.push(name); return; }
        write(p, toBuffer(data));
        out.written++;
      });
      return out;
    },
    makeDirs(dir) {
      dir = posix.normalize(dir);
      log.push(['files.makeDirs', dir]);
      dirs.add(dir);
      addDirs(dir);
    },
    viewCreate(dir, markText) {
      dir = posix.normalize(dir);
      if (isDir(dir)) throw fileError('exists', dir, 'something exists there already');
      log.push(['files.viewCreate', dir]);
      dirs.add(dir);
      addDirs(dir);
      put(posix.join(dir, '.restore-view.json'), markText); // the companion's marker name (plugins/restore/restore_py/confine.py VIEW_MARK)
    },
    viewAdd(dir, entries) {
      entries.forEach((e) => {
        const p = posix.join(dir, e.name);
        if (e.link !== undefined) { links.set(p, posix.normalize(e.link)); addDirs(p); } else put(p, e.data);
      });
      return entries.length;
    },
    viewStubs(dir, runs, data) {
      let n = 0;
      runNames(runs).forEach((name) => { put(posix.join(dir, name), data); n++; });
      return n;
    },
    viewAppend(dir, name, text) {
      const p = posix.join(dir, name);
      put(p, Buffer.concat([content(p) || Buffer.alloc(0), toBuffer(text)]));
      return Buffer.byteLength(text);
    },
    viewAppendFrom(dir, name, source, sourceBytes, ops, substitution) {
      const src = content(posix.normalize(source));
      if (!src || src.length !== sourceBytes) throw fileError('source-changed', source, 'it changed');
      const pattern = substitution ? new RegExp(substitution.pattern, 'g') : null;
      const parts = ops.map((op) => {
        if (op[0] === 't') return toBuffer(op[1]);
        const piece = src.subarray(op[1], op[2]);
        if (op[0] === 'c') return piece;
        return Buffer.from(piece.toString('latin1').replace(pattern, (m, kept) => kept + substitution.text), 'latin1');
      });
      const added = Buffer.concat(parts);
      const p = posix.join(dir, name);
      put(p, Buffer.concat([content(p) || Buffer.alloc(0), added]));
      return added.length;
    },
    viewRemove(dir) {
      dir = posix.normalize(dir);
      log.push(['files.viewRemove', dir]);
      const prefix = dir + '/';
      let n = 0;
      for (const m of [files, links]) for (const p of Array.from(m.keys())) if (p.startsWith(prefix)) { m.delete(p); n++; }
      for (const d of Array.from(dirs)) if (d === dir || d.startsWith(prefix)) dirs.delete(d);
      return n;
    },
    rsync() { throw fileError('program-missing', null, 'rsync is not available in the fake host'); },
    bucketList() { throw fileError('bucket', null, 'buckets are not available in the fake host'); },
    bucketFetch() { throw fileError('bucket', null, 'buckets are not available in the fake host'); },
    bucketHeads() { throw fileError('bucket', null, 'buckets are not available in the fake host'); },
    canWrite(dir) { return !readOnly.has(posix.normalize(dir)); },
    remove(paths) {
      const removed = [];
      paths.forEach((p) => { p = posix.normalize(p); log.push(['files.remove', p]); if (files.delete(p) || links.delete(p)) removed.push(p); });
      return { removed };
    },
    loadText(p) {
      log.push(['files.loadText', posix.normalize(p)]);
      if (!isFile(p)) throw new UserError(p + ': no such file');
      return content(posix.normalize(p)).toString('utf8');
    },
    isFile, isDir,
    isAbs: (p) => posix.isAbsolute(p),
    join: (a, b) => posix.join(a, b),
    normpath: (p) => posix.normalize(p),
    basename: (p) => posix.basename(p),
    dirname: (p) => posix.dirname(p),
    cwd: () => '/work',
  };
  // For tests: the bytes of a file, every path held, a directory made read-only.
  const inspect = {
    text(p) { const b = content(posix.normalize(p)); return b === undefined ? null : b.toString('utf8'); },
    bytes(p) { const b = content(posix.normalize(p)); return b === undefined ? null : Buffer.from(b); },
    paths() { return Array.from(files.keys()).concat(Array.from(links.keys())).sort(); },
    put(p, data) { put(posix.normalize(p), data); },
    readOnly(dir) { readOnly.add(posix.normalize(dir)); },
  };
  return { api, inspect };
}

// The fake server: global variables and status it keeps (SET GLOBAL and ALTER INSTANCE change
// them), named locks, SHOW GRANTS, then the script: [[match, answer]], match a RegExp or a
// string the statement starts with, answer {rows, affected} or a function (sql, args, host) →
// answer (it may throw). The first match wins. Unmatched: no rows.
function fakeServer(log, o) {
  const variables = Object.assign({ local_infile: 'ON', lower_case_table_names: '0', read_only: 'OFF',
    super_read_only: 'OFF' }, o.variables || {});
  const status = Object.assign({ Innodb_redo_log_enabled: 'ON', Uptime: '1000' }, o.status || {});
  const grants = o.grants || ['GRANT ALL PRIVILEGES ON *.* TO `root`@`%` WITH GRANT OPTION'];
  const script = (o.sql || []).slice();
  const locks = new Map();
  const info = Object.assign({ version: '9.7.0', flavour: 'mysql', uuid: 'aaaaaaaa-0000-0000-0000-000000000001' }, o.serverInfo || {});
  function like(pattern, name) {
    return new RegExp('^' + pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%/g, '.*').replace(/_/g, '.') + '$', 'i').test(name);
  }
  function builtIn(sql, args) {
    let m;
    if (/^SHOW GLOBAL VARIABLES LIKE \?$/.test(sql)) {
      return { rows: Object.keys(variables).filter((k) => like(args[0], k)).map((k) => ({ Variable_name: k, Value: variables[k] })) };
    }
    if ((m = /^SHOW GLOBAL VARIABLES LIKE '([^']*)'$/.exec(sql))) {
      return { rows: Object.keys(variables).filter((k) => like(m[1], k)).map((k) => ({ Variable_name: k, Value: variables[k] })) };
    }
    if (/^SHOW GLOBAL VARIABLES WHERE Variable_name IN \(/.test(sql)) {
      return { rows: args.filter((k) => variables[k] !== undefined).map((k) => ({ Variable_name: k, Value: variables[k] })) };
    }
    if (/^SHOW GLOBAL STATUS LIKE \?$/.test(sql)) {
      return { rows: Object.keys(status).filter((k) => like(args[0], k)).map((k) => ({ Variable_name: k, Value: status[k] })) };
    }
    if ((m = /^SET GLOBAL (\w+) = (\?|.+)$/.exec(sql))) {
      if (variables[m[1]] === undefined) throw sqlError(1193, "Unknown system variable '" + m[1] + "'");
      variables[m[1]] = m[2] === '?' ? String(args[0]) : m[2].replace(/^'|'$/g, '');
      return { rows: [] };
    }
    if ((m = /^ALTER INSTANCE (ENABLE|DISABLE) INNODB REDO_LOG$/.exec(sql))) {
      status.Innodb_redo_log_enabled = m[1] === 'ENABLE' ? 'ON' : 'OFF';
      return { rows: [] };
    }
    if (/^SELECT GET_LOCK\(\?, 0\) AS got$/.test(sql)) {
      const got = locks.has(args[0]) ? 0 : 1;
      if (got) locks.set(args[0], 1);
      return { rows: [{ got }] };
    }
    if (/^SELECT RELEASE_LOCK\(\?\) AS r$/.test(sql)) { locks.delete(args[0]); return { rows: [{ r: 1 }] }; }
    if (/^SELECT IS_USED_LOCK\(\?\) AS id, CONNECTION_ID\(\) AS me$/.test(sql)) return { rows: [{ id: locks.has(args[0]) ? 1 : null, me: 1 }] };
    if (/^SHOW GRANTS$/.test(sql)) return { rows: grants.map((g) => ({ 'Grants for root@%': g })) };
    if (/^SELECT CURRENT_USER\(\) AS u$/.test(sql)) return { rows: [{ u: 'root@%' }] };
    if (/^SELECT CONNECTION_ID\(\) AS id, /.test(sql)) return { rows: [{ id: 1, uptime: status.Uptime, now: 1700000000 }] };
    if (/information_schema\.PROCESSLIST WHERE ID = CONNECTION_ID\(\)/.test(sql)) return { rows: [{ host: 'localhost:1234' }] };
    if (/information_schema\.PROCESSLIST WHERE ID = \?/.test(sql)) return { rows: Number(args[0]) === 1 ? [{ ID: 1, host: 'localhost:1234' }] : [] };
    if ((m = /^SELECT @@(?:SESSION\.)?(\w+) AS (\w+)$/.exec(sql))) return { rows: [{ [m[2]]: variables[m[1]] === undefined ? '1' : variables[m[1]] }] };
    return null;
  }
  const api = {
    connected: () => o.connected !== false,
    serverInfo: () => info,
    run(sql, args) {
      log.push(['sql', sql, args || []]);
      for (const [match, answer] of script) {
        if (match instanceof RegExp ? match.test(sql) : sql.indexOf(match) === 0) {
          const r = typeof answer === 'function' ? answer(sql, args || [], { variables, status }) : answer;
          if (r !== undefined && r !== null) return Object.assign({ columns: [], rows: [], affected: 0, insertId: 0 }, r);
        }
      }
      const r = builtIn(sql, args || []);
      return Object.assign({ columns: [], rows: [], affected: 0, insertId: 0 }, r || {});
    },
  };
  return { api, variables, status, locks };
}

function fakeHost(options) {
  const o = options || {};
  const log = [];
  const printed = [];
  const warned = [];
  const mem = memoryFiles(log, o.files, o.mount);
  const server = fakeServer(log, o);
  function utilCall(name, fn) {
    return function () {
      const args = Array.from(arguments);
      log.push(['util.' + name].concat(args));
      return fn ? fn.apply(null, args) : undefined;
    };
  }
  // Other servers (replicas, group members) by 'host:port': each a fake server of its own, made
  // from the same options (variables, status, sql…); its statements go to host.memberLog.
  const memberLog = [];
  const others = new Map();
  server.api.openOther = (hostName, port) => {
    const key = hostName + ':' + port;
    log.push(['sql.openOther', key]);
    const spec = (o.others || {})[key];
    if (!spec) throw sqlError(2003, "Can't connect to MySQL server on '" + key + "' (111)");
    if (!others.has(key)) others.set(key, fakeServer(memberLog, spec));
    const srv = others.get(key);
    return { run: (sql, args) => { memberLog.push(['at', key]); return srv.api.run(sql, args); }, close: () => { log.push(['sql.close', key]); } };
  };
  server.api.openUri = (uri) => { throw sqlError(2003, "Can't connect to MySQL server (" + uri + ') in the fake host'); };
  const host = {
    files: mem.api,
    sql: server.api,
    util: {
      loadDump: utilCall('loadDump', o.loadDump),
      dumpInstance: utilCall('dumpInstance', o.dump),
      dumpSchemas: utilCall('dumpSchemas', o.dump),
      dumpTables: utilCall('dumpTables', o.dump),
    },
    out: {
      print: (l) => { printed.push(String(l)); },
      warn: (l) => { warned.push(String(l)); },
      progress: () => {},
    },
    shell: Object.assign({ version: '9.1.0', longVersion: 'mysqlsh Ver 9.1.0 (fake)', engine: 'V8', interactive: false,
      configHome: '/home/u/.mysqlsh', cpuCount: () => 4, getenv: () => null, prompt: (q, d) => d,
      promptPassword: () => '' }, o.shell || {}),
    // For tests:
    log, printed, warned, fs: mem.inspect, server, memberLog, others,
    // The log's entries of one kind ('sql', 'util.loadDump', 'files.write'…), in order.
    calls(kind) { return log.filter((e) => e[0] === kind); },
    statements() { return log.filter((e) => e[0] === 'sql').map((e) => e[1]); },
  };
  if (o.shell && o.shell.cpuCount !== undefined && typeof o.shell.cpuCount !== 'function') {
    const n = o.shell.cpuCount;
    host.shell.cpuCount = () => n;
  }
  return host;
}

module.exports = { fakeHost, sqlError, fileError };
