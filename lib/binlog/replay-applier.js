// replayWith "applier": the replay's transactions applied by the target's own replication applier,
// fed by the plugin. The Python companion serves the transactions the plan chose (the same ones the
// sessions would send: loaded tables only, derived GTIDs for a source with GTIDs off), then the first one
// past the stop, over the replication protocol (plugins/restore/restore_py/binlog_feed.py); the stop and
// schemaMap's names are the server's work (lib/binlog/replay-channel.js says which work, and why not the rest); and
// the target replicates them through a channel of its own, CHANNEL, which this module creates, waits on
// and removes: always, on failure and interruption too (finally); what a killed mysqlsh left, the next
// load's preflight or restore.revert() removes (removeLeftover). The rows travel over TLS (a key and a
// certificate the companion makes for the run with the openssl program; SOURCE_SSL = 1); without
// openssl only over loopback, where they never leave this machine. The channel's applier keeps each
// transaction's GTID and commits in the source's order (replica_preserve_commit_order), so a stop
// leaves no hole and the same command continues from gtid_executed, as with the sessions.
var UserError = require('../core/user-error.js').UserError;
var startProgress = require('../format/progress.js').startProgress;
var formatBytes = require('../format/text-table.js').formatBytes;
var times = require('./binlog-times.js');
var gtids = require('./gtid-set.js');
var memory = require('../core/memory.js');
var channel = require('./replay-channel.js');

var CHANNEL = 'restore_replay';
var USER = 'mysqlsh_restore'; // the user the channel presents to the plugin's listener (its password: random, per run)
// A poll's WAIT_FOR_EXECUTED_GTID_SET: short, because the server notices a killed mysqlsh (and frees its
// restore lock) only once the statement ends, and the same command run again at once must find it free.
var POLL_SECONDS = 0.5;
var CONNECT_SECONDS = 15; // how long the target may take to connect back before the replay is refused
var SESSIONS = 'Use replayWith "sessions" (the plugin\'s own sessions), or "auto" (the default: the sessions where the applier cannot be used).';

function said(text) {
  return 'restore.load replayWith "applier": ' + text;
}

// A refusal of the preflight: data.reason is why alone (replayWith "auto" prints it when it takes the sessions).
function refused(reason, advice) {
  return new UserError('REPLAY_APPLIER_REFUSED', said(reason + ' ' + advice + ' Nothing was changed.'), { reason: reason });
}

function channelRow(host) {
  var rows = host.sql.run('SELECT c.USER AS user, s.SERVICE_STATE AS io FROM performance_schema.replication_connection_configuration c ' +
    'LEFT JOIN performance_schema.replication_connection_status s ON s.CHANNEL_NAME = c.CHANNEL_NAME WHERE c.CHANNEL_NAME = ?', [CHANNEL]).rows;
  return rows.length ? { user: String(rows[0].user), io: rows[0].io === null ? null : String(rows[0].io) } : null;
}

// The address the listener binds to: the one the target sees this client's connection come from (its
// socket's peer address), so that the target can connect back to it. A Unix socket: the target runs
// here (127.0.0.1). null when the server does not say (then refused).
function clientAddress(host) {
  var rows = host.sql.run('SELECT s.IP AS ip FROM performance_schema.socket_instances s JOIN performance_schema.threads t ' +
    'ON t.THREAD_ID = s.THREAD_ID WHERE t.PROCESSLIST_ID = CONNECTION_ID()').rows;
  var ip = rows.length ? String(rows[0].ip || '') : null;
  if (ip === '') return '127.0.0.1';
  if (ip === null) return null;
  return ip.replace(/^::ffff:(?=\d+\.)/i, ''); // an IPv4 client of a dual-stack listener
}

// In the preflight (changes nothing): refuses what would make the channel fail, says how. plan: the replay
// plan (planReplay's); unlogged: the load's skipBinlog; auto: replayWith "auto" (the line names its fallback). Returns {address, workers, leftover, lines}.
function planApplier(host, plan, unlogged, auto) {
  if (plan.transactions.some(function (t) { return t.idempotent; })) {
    throw refused('outsideSlice "skip" applies some transactions with rbr_exec_mode IDEMPOTENT, which a replication channel cannot do per transaction.',
      SESSIONS);
  }
  var v = host.sql.run('SELECT @@GLOBAL.replica_parallel_workers AS w, @@GLOBAL.replica_preserve_commit_order AS o, ' +
    '@@GLOBAL.log_bin AS lb, @@GLOBAL.log_replica_updates AS lru, @@GLOBAL.server_id AS sid, @@GLOBAL.lower_case_table_names AS lc').rows[0];
  var workers = Number(v.w);
  if (workers > 1 && String(v.o) !== '1' && String(v.o).toUpperCase() !== 'ON') {
    throw refused('the target has replica_parallel_workers ' + workers + ' and replica_preserve_commit_order OFF: ' +
      'its applier would commit out of the source\'s order, and a stopped replay would leave holes.',
      'SET GLOBAL replica_preserve_commit_order = ON, or use replayWith "sessions".');
  }
  if (String(v.lb) === '1' && String(v.lru) === '0') {
    throw refused('the target writes a binary log but log_replica_updates is OFF: what its applier applies ' +
      'would not reach the binary log (nor replicas or a point-in-time recovery of this server).', SESSIONS);
  }
  if (Number(v.sid) === 0) {
    throw refused('the target\'s server_id is 0: it cannot replicate.', SESSIONS);
  }
  // Global replication filters apply to every channel, this one too: the applier would skip what they name.
  var filters = host.sql.run('SELECT FILTER_NAME AS f FROM performance_schema.replication_applier_global_filters').rows;
  if (filters.length) {
    throw refused('the target has global replication filters (' + filters.map(function (r) { return r.f; }).join(', ') +
      ', performance_schema.replication_applier_global_filters): its applier would skip what they name.', SESSIONS);
  }
  var row = channelRow(host);
  if (row && row.user !== USER) {
    throw refused('the target has a replication channel named \'' + CHANNEL + '\' that is not the plugin\'s (its user is ' + row.user + ').',
      'Remove or rename it, or use replayWith "sessions".');
  }
  var address = clientAddress(host);
  if (address === null) {
    throw refused('the target does not say which address this client connects from (performance_schema.socket_instances), ' +
      'so the plugin cannot tell where the target could connect back to it.', SESSIONS);
  }
  var tls = listenable(host, address);
  if (!tls.on && !loopback(address)) {
    throw refused('the plugin\'s listener cannot speak TLS (' + tls.why + '), and the target reaches it at ' + address +
      ', not over loopback: the binary log\'s rows would cross the network in clear.',
    'Install the openssl program on this machine (apt-get install openssl), or use replayWith "sessions".');
  }
  var ordered = String(v.o) === '1' || String(v.o).toUpperCase() === 'ON';
  var a = { address: address, workers: workers, ordered: ordered, kept: false, tuned: false, leftover: !!row, logged: unlogged && String(v.lb) === '1', auto: !!auto,
    tls: tls.on, plainWhy: tls.on ? null : tls.why, server: channel.serverWork(plan, v.lc) };
  a.lines = [applierLine(a)];
  return a;
}

// The plan's line for the applier (a: planApplier's).
function applierLine(a) {
  return '  applied by: the target\'s replication applier (channel \'' + CHANNEL + '\', replica_parallel_workers ' + a.workers +
    (a.tuned ? ' (the load\'s threads, put back after)' : '') +
    (a.kept ? ' (not raised to the load\'s threads: replica_preserve_commit_order is OFF, and more workers would commit out of ' +
      'the source\'s order)' : '') +
    ', commit order kept' + channel.workText(a.server) + '), fed by the plugin from ' + a.address + ' (the target connects back there' +
    (a.tls ? ' over TLS, SOURCE_SSL = 1, with a key and certificate made for this run' : ', not encrypted: over loopback, the rows do not leave this machine (' + a.plainWhy + ')') +
    '; the channel is removed at the end)' +
    (a.leftover ? '; a channel \'' + CHANNEL + '\' left by an interrupted run is stopped and removed first' : '') +
    (a.logged ? '; skipBinlog does not hold for the replay: the applier writes the binary log (log_replica_updates ON)' : '') +
    (a.auto ? '; replayWith "auto": if the target cannot connect back, the plugin\'s sessions replay instead (once it is proven nothing was applied)' : '');
}

// With the load's tuning on (tune), the applier gets as many workers as the load has threads: one more tuned
// setting (tuned: the load's tuning plan, lib/server/tuning.js), recorded and put back by the revert step.
function tuneWorkers(plan, tuned, tune, threads) {
  var a = plan.applier;
  if (!tune || !(threads > 0) || threads === a.workers) return;
  var at = plan.lines.indexOf(a.lines[0]);
  if (threads > 1 && !a.ordered) {
    // The commit-order rule holds for the workers the replay runs with: one worker commits in order by itself.
    a.kept = true;
    a.lines[0] = applierLine(a);
    if (at >= 0) plan.lines[at] = a.lines[0];
    return;
  }
  tuned.push({ name: 'replica_parallel_workers', original: String(a.workers), value: String(threads),
    why: 'replayWith "applier": as many applier workers as the load\'s threads' });
  a.workers = threads;
  a.tuned = true;
  a.lines[0] = applierLine(a);
  if (at >= 0) plan.lines[at] = a.lines[0];
  plan.workers = threads;
}

// Whether the plugin can listen on that address (this machine has it) and over TLS: a listener opened and
// closed, in the preflight, so that a refusal comes before the load. Returns {on, why}; throws REPLAY_APPLIER_REFUSED.
function listenable(host, address) {
  var probe;
  try {
    probe = host.files.binlogFeedStart({ dir: '', address: address, transactions: [], tls: 'if-possible' });
  } catch (e) {
    throw refused('the target sees this client connect from ' + address + ', and the plugin cannot listen there (' +
      e.message + '): the target would have nowhere to connect back to (NAT, a proxy).', SESSIONS);
  }
  host.files.binlogFeedStop(probe.id);
  return { on: !!probe.tls, why: probe.tlsWhy || null };
}

// 127.0.0.0/8 and ::1: a connection that never leaves this machine (a Unix socket's client is given 127.0.0.1).
function loopback(address) {
  return /^127\./.test(address) || /^(0*:){2,7}0*1$/.test(address) || address === '::1';
}

// Stops and removes the channel (what an interrupted run left too). Each statement on its own: a
// channel whose threads are stopped already is still reset.
function removeChannel(host) {
  if (!channelRow(host)) return;
  host.sql.run("STOP REPLICA FOR CHANNEL '" + CHANNEL + "'");
  host.sql.run("RESET REPLICA ALL FOR CHANNEL '" + CHANNEL + "'");
}

// restore.revert(): the channel a killed or interrupted replay left (its user the plugin's), removed; true if it was there.
function removeOwnChannel(host) {
  var row = channelRow(host);
  if (!row || row.user !== USER) return false;
  removeChannel(host);
  return true;
}

// Whether the plugin's own channel is there, left by a replay that was killed (the preflight asks; the
// plan says it goes first).
function leftoverChannel(host) {
  var row;
  try {
    row = channelRow(host);
  } catch (e) {
    return false; // performance_schema not readable: the channel, if any, is not this account's to see
  }
  return !!(row && row.user === USER);
}

// The plan's line for it.
function leftoverLine() {
  return 'Replication channel \'' + CHANNEL + '\' left by an interrupted replay: stopped and removed (with its password) first.';
}

// Removes that channel (lib/run/steps/leftover-channel.js, after the preflight; restore.revert()).
function removeLeftover(host) {
  if (!leftoverChannel(host)) return false;
  try {
    removeChannel(host);
  } catch (e) {
    host.out.warn('Replication channel \'' + CHANNEL + '\' left by an interrupted replay could not be removed (' + e.message + '): ' +
      'run restore.revert() with an account holding REPLICATION_SLAVE_ADMIN.');
    return false;
  }
  host.out.print('Replication channel \'' + CHANNEL + '\' left by an interrupted replay: stopped and removed (with its password).');
  return true;
}

function channelErrors(host) {
  var io = host.sql.run('SELECT SERVICE_STATE AS state, LAST_ERROR_NUMBER AS code, LAST_ERROR_MESSAGE AS message ' +
    'FROM performance_schema.replication_connection_status WHERE CHANNEL_NAME = ?', [CHANNEL]).rows[0];
  var sql = host.sql.run('SELECT LAST_ERROR_NUMBER AS code, LAST_ERROR_MESSAGE AS message FROM performance_schema.replication_applier_status_by_worker ' +
    'WHERE CHANNEL_NAME = ? AND LAST_ERROR_NUMBER <> 0 UNION ALL SELECT LAST_ERROR_NUMBER, LAST_ERROR_MESSAGE FROM ' +
    'performance_schema.replication_applier_status_by_coordinator WHERE CHANNEL_NAME = ? AND LAST_ERROR_NUMBER <> 0', [CHANNEL, CHANNEL]).rows[0];
  return { io: io ? { state: String(io.state), code: Number(io.code), message: String(io.message || '') } : null,
    applier: sql ? { code: Number(sql.code), message: String(sql.message || '') } : null };
}

// Whether the channel neither received nor applied a transaction (read before it is removed): with the
// target's gtid_executed unchanged, the proof that the replay changed nothing (replayWith "auto" then falls back).
function channelIdle(host) {
  var rx = host.sql.run('SELECT RECEIVED_TRANSACTION_SET AS r FROM performance_schema.replication_connection_status WHERE CHANNEL_NAME = ?', [CHANNEL]).rows;
  if (rx.length && String(rx[0].r || '').replace(/\s/g, '') !== '') return false;
  var busy = host.sql.run('SELECT COUNT(*) AS n FROM performance_schema.replication_applier_status_by_worker WHERE CHANNEL_NAME = ? AND ' +
    "(LAST_APPLIED_TRANSACTION <> '' OR APPLYING_TRANSACTION <> '') UNION ALL SELECT COUNT(*) FROM " +
    "performance_schema.replication_applier_status_by_coordinator WHERE CHANNEL_NAME = ? AND (LAST_PROCESSED_TRANSACTION <> '' OR PROCESSING_TRANSACTION <> '')",
  [CHANNEL, CHANNEL]).rows;
  return !busy.some(function (r) { return Number(r.n) > 0; });
}

// The applied prefix: how many of todo the target holds, in order (commits keep the source's order), from `from` on.
function appliedPrefix(host, todo, from) {
  var held = gtids.executed(host);
  var n = from || 0;
  while (n < todo.length && gtids.hasGtid(held, todo.at(n).gtid)) n++;
  return n;
}

// Transactions one call hands the listener: it holds those the target has not committed, not every one.
var BATCH = 10000;

// The listener's rows for todo[from, to), and after the last the transaction past the stop (until), its GTID event alone.
function feedRows(todo, from, to, until) {
  var out = [];
  for (var k = from; k < to; k++) {
    var t = todo.at(k);
    out.push([t.file, t.start, t.end, t.gtid, t.texts || null]);
  }
  if (to === todo.length && until) out.push([until.file, until.start, until.end, until.gtid, null, true]);
  return out;
}

// plan: planReplay's with plan.applier (planApplier's); opts {quietMs}. Returns what applyReplay returns.
function applyWithApplier(host, plan, opts) {
  removeChannel(host); // an interrupted run's: its applier finishes its transaction and stops first
  var before = gtids.executedText(host);
  var held = gtids.parseSet(before, 'The target\'s gtid_executed');
  var todo = plan.transactions.filter(function (t) { return !gtids.hasGtid(held, t.gtid); });
  var server = plan.applier.server || channel.serverWork({});
  // The transaction past the stop, sent after the last one for the applier to stop before (not where the target holds
  // it: the dump's, then the server would take the stop as reached at once).
  var until = server.until && !gtids.hasGtid(held, server.until) ? server.next : null;
  var out = { applied: 0, onTarget: plan.transactions.length - todo.length, workers: plan.applier.workers, bytes: 0, retries: 0,
    statements: 0, last: null, engine: 'applier' };
  if (!todo.length) return out;
  var wantedText = setOf(todo);
  memory.settle(host, todo.length); // what the plan and the load left
  var info = host.sql.run('SELECT @@GLOBAL.server_id AS sid, VERSION() AS v, UUID() AS u, @@GLOBAL.replica_parallel_workers AS w').rows[0];
  out.workers = Number(info.w); // as the server has it when the channel starts (the tuned value, when tuned)
  var feed = host.files.binlogFeedStart({ tls: plan.applier.tls ? 'required' : null, dir: plan.folder.dir, address: plan.applier.address, version: String(info.v).replace(/-.*/, ''),
    targetServerId: Number(info.sid), uuid: String(info.u), user: USER, rewrite: channel.feedRewrite(plan, server),
    transactions: feedRows(todo, 0, Math.min(BATCH, todo.length), until), more: todo.length > BATCH });
  var sent = Math.min(BATCH, todo.length);
  var counted = { n: 0, bytes: 0 }; // bytes of todo's first n
  var progress = startProgress(host, 'Replaying binary logs (the target\'s applier)', todo.length, { unit: 'transactions', quietMs: opts.quietMs });
  var started = Date.now();
  var done = 0;
  var failure = null;
  var did = null;
  try {
    // The password only in this statement: the server masks it in its logs; the channel is reset at the end.
    host.sql.run("CHANGE REPLICATION SOURCE TO SOURCE_HOST = ?, SOURCE_PORT = ?, SOURCE_USER = ?, SOURCE_PASSWORD = ?, SOURCE_AUTO_POSITION = 1, " +
      "SOURCE_SSL = " + (feed.tls ? 1 : 0) + ", GET_SOURCE_PUBLIC_KEY = 0, SOURCE_CONNECT_RETRY = 1, SOURCE_RETRY_COUNT = 10 FOR CHANNEL '" + CHANNEL + "'",
    [plan.applier.address, feed.port, feed.user, feed.password]);
    var filter = channel.filterStatement(server);
    if (filter) host.sql.run(filter);
    host.sql.run(channel.startStatement(until ? until.gtid : null));
    for (;;) {
      var w = host.sql.run('SELECT WAIT_FOR_EXECUTED_GTID_SET(?, ?) AS w', [wantedText, POLL_SECONDS]).rows[0].w;
      var finished = w !== null && Number(w) === 0; // NULL (no answer) is not "every GTID is there"
      done = appliedPrefix(host, todo, done);
      if (finished) { did = channel.whatServerDid(host, server); break; }
      while (sent < todo.length && sent - done < BATCH) {
        var n = Math.min(BATCH, todo.length - sent);
        host.files.binlogFeedAdd(feed.id, { transactions: feedRows(todo, sent, sent + n, until), more: sent + n < todo.length, applied: done });
        sent += n;
        // The batch as built, and the polls' garbage, outlive young collections; V8 collects in full only when a call returns.
        memory.settle(host, n);
      }
      var st = host.files.binlogFeedStatus(feed.id);
      var err = channelErrors(host);
      if (err.applier) { failure = { kind: 'applier', code: err.applier.code, message: err.applier.message }; break; }
      if (until && channel.applierStopped(host)) {
        // Stopped before the replay's last transaction was applied: by an error (read again), else the UNTIL taken as
        // reached early (never expected: the target does not hold that transaction).
        if (appliedPrefix(host, todo, done) === todo.length) continue;
        err = channelErrors(host);
        failure = err.applier ? { kind: 'applier', code: err.applier.code, message: err.applier.message }
          : { kind: 'applier', code: null, message: 'stopped for START REPLICA UNTIL SQL_BEFORE_GTIDS = ' + until.gtid + ' with transactions of the replay not applied' };
        break;
      }
      if (err.io && err.io.code && (!st.connections || err.io.state === 'OFF') && (err.io.state === 'OFF' || Date.now() - started > CONNECT_SECONDS * 1000)) {
        failure = { kind: st.connections ? 'io' : 'unreachable', code: err.io.code, message: err.io.message, feed: st.failed };
        if (failure.kind === 'unreachable') failure.idle = channelIdle(host);
        break;
      }
      if (done) {
        var t = todo.at(done - 1);
        progress.update(done, formatBytes(bytesOf(todo, done, counted)) + ', commit time reached ' + times.timeTexts(host, plan.zone, [t.time])[0]);
      }
    }
  } finally {
    try { removeChannel(host); } finally { var last = host.files.binlogFeedStop(feed.id); if (last) { out.cpuSeconds = last.cpuSeconds; out.tls = last.tls || null; } }
  }
  done = appliedPrefix(host, todo, done); // what the applier committed before it stopped
  out.applied = done;
  out.bytes = bytesOf(todo, done, counted);
  out.last = done ? { gtid: todo.at(done - 1).gtid, time: todo.at(done - 1).time } : null;
  if (failure && failure.kind === 'unreachable') {
    var reason = 'the target could not connect back to the plugin at ' + plan.applier.address + ':' + feed.port +
      ' (its replication connection says: MySQL error ' + failure.code + ': ' + failure.message + ')';
    // Proven untouched: the channel received and applied nothing, and gtid_executed is as it was.
    var untouched = !done && failure.idle && gtids.executedText(host) === before;
    throw new UserError('REPLAY_APPLIER_REFUSED', said(reason + '. Let the target reach this machine on that address (a firewall, a container ' +
      'network), or use replayWith "sessions". The channel was removed; ' + (untouched ? 'nothing was applied.' : done + ' transaction(s) were applied.')),
    { reason: reason, nothingApplied: untouched, applied: done });
  }
  if (failure) {
    var next = todo.at(done);
    throw new UserError('REPLAY_FAILED', 'The replay failed at transaction ' + (next ? next.gtid + ' (' + next.file + ':' + next.start + ')' : '(none left)') +
      ': the target\'s ' + (failure.kind === 'io' ? 'replication connection' : 'applier') + (failure.code === null ? ' ' : ' says MySQL error ' + failure.code + ': ') + failure.message +
      (failure.feed ? ' (the plugin\'s listener: ' + failure.feed + ')' : '') + '. ' + done + ' transaction(s) were applied before it, in the ' +
      'source\'s order, and stay (each with its GTID); the channel was removed. The same command continues from there once the cause is fixed.',
    { applied: done, gtid: next ? next.gtid : null, file: next ? next.file : null, position: next ? next.start : null });
  }
  progress.done(done + ' transactions, ' + formatBytes(out.bytes));
  if (did && did.text) host.out.print('Replay: ' + did.text + '.');
  out.server = did;
  return out;
}

// The GTIDs of the transactions as a set's text (one pass: runs per uuid as they come, then sorted and joined).
function setOf(list) {
  var by = {};
  list.forEach(function (t) {
    var g = gtids.splitGtid(t.gtid);
    var runs = by[g.uuid] = by[g.uuid] || [];
    var last = runs[runs.length - 1];
    if (last && g.n === last[1] + 1) last[1] = g.n;
    else runs.push([g.n, g.n]);
  });
  return Object.keys(by).sort().map(function (u) {
    var runs = [];
    by[u].sort(function (a, b) { return a[0] - b[0]; }).forEach(function (r) {
      var last = runs[runs.length - 1];
      if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
      else runs.push([r[0], r[1]]);
    });
    return u + ':' + runs.map(function (r) { return r[0] === r[1] ? String(r[0]) : r[0] + '-' + r[1]; }).join(':');
  }).join(',');
}

// The bytes of todo's first n (counted: what an earlier call counted, n only grows).
function bytesOf(todo, n, counted) {
  for (; counted.n < n; counted.n++) { var t = todo.at(counted.n); counted.bytes += t.end - t.start; }
  return counted.bytes;
}

module.exports = { planApplier: planApplier, tuneWorkers: tuneWorkers, applyWithApplier: applyWithApplier, removeOwnChannel: removeOwnChannel,
  removeLeftover: removeLeftover, leftoverChannel: leftoverChannel, leftoverLine: leftoverLine, CHANNEL: CHANNEL };
