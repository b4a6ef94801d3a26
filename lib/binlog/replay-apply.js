// A replay's transactions applied to the target by the Python companion's engine
// (plugins/restore/restore_py/binlog_replay.py): `workers` sessions of its own, transactions scheduled
// by the logical clock the source wrote, each committed once it is done (before an earlier one only
// where the clock says it does not depend on it), under its GTID (the source's, or one derived from the
// dump's position when the source had GTIDs off). The target keeps it: a rerun skips what gtid_executed
// holds, and a stopped replay leaves only holes the clock allows (replay-record.js accepts them). This loop polls it for progress and turns a
// failure into REPLAY_FAILED.
var UserError = require('../core/user-error.js').UserError;
var startProgress = require('../format/progress.js').startProgress;
var formatBytes = require('../format/text-table.js').formatBytes;
var times = require('./binlog-times.js');
var gtids = require('./gtid-set.js');
var memory = require('../core/memory.js');

var POLL_SECONDS = 2;
// Transactions one call hands the engine (binlog_replay.py LOW: it asks for more when it holds fewer than this).
var BATCH = 10000;

function rows(todo, from, to) {
  var out = [];
  for (var k = from; k < to; k++) {
    var t = todo.at(k);
    out.push([t.file, t.start, t.end, t.gtid, t.lastCommitted, t.sequenceNumber, t.time, t.texts || null, !!t.idempotent]);
  }
  return out;
}

// plan: lib/binlog/replay-plan.js planReplay's; opts {workers: sessions, unlogged: sql_log_bin = 0 in them, quietMs:
// progress.js's (tests)}. Returns {applied, onTarget, workers,
// bytes, retries, statements, cpuSeconds, commitSeconds (inside the COMMITs, summed over the sessions), last: {gtid, time} | null}.
function applyReplay(host, plan, opts) {
  var workers = opts.workers;
  var held = gtids.executed(host);
  var todo = plan.transactions.filter(function (t) { return !gtids.hasGtid(held, t.gtid); });
  var out = { applied: 0, onTarget: plan.transactions.length - todo.length, workers: workers, bytes: 0, retries: 0, statements: 0, last: null };
  if (!todo.length) return out;
  // A load under other schema names (plan.rewrite, lib/run/replay-rename.js): each transaction's statements
  // at their positions replaced; outsideSlice "skip": its row events under rbr_exec_mode IDEMPOTENT.
  // The transactions cross in batches, as the engine asks for them (it holds what it has not applied, not every one);
  // what the plan and the load left is collected first.
  memory.settle(host, todo.length);
  var sent = Math.min(BATCH, todo.length);
  var spec = { dir: plan.folder.dir, workers: workers, unlogged: !!opts.unlogged,
    rewrite: plan.rewrite ? { schemaMap: plan.rewrite.schemaMap } : null, transactions: rows(todo, 0, sent) };
  if (sent < todo.length) spec.more = true;
  var id = host.files.binlogApplyStart(spec);
  spec = null;
  var progress = startProgress(host, 'Replaying binary logs', todo.length, { unit: 'transactions', quietMs: opts.quietMs });
  var st;
  try {
    do {
      st = host.files.binlogApplyWait(id, POLL_SECONDS);
      while (!st.done && sent < todo.length && sent - st.applied < BATCH) {
        var n = Math.min(BATCH, todo.length - sent);
        host.files.binlogApplyAdd(id, { transactions: rows(todo, sent, sent + n), more: sent + n < todo.length });
        sent += n;
        // The batch as built outlives a young collection; mysqlsh's V8 collects in full only when a call returns.
        memory.settle(host, n);
      }
      if (st.last && !st.done) {
        progress.update(st.applied, formatBytes(st.bytes) + ', commit time reached ' + times.timeTexts(host, plan.zone, [st.last.time])[0]);
      }
    } while (!st.done);
  } catch (e) {
    // Interrupted here (not by the engine): what is not committed is rolled back, the sessions closed.
    try { host.files.binlogApplyWait(id, 600, true); } catch (ignored) { /* the error below says it */ }
    throw e;
  }
  out.applied = st.applied;
  out.bytes = st.bytes;
  out.retries = st.retries;
  out.statements = st.statements;
  out.cpuSeconds = st.cpuSeconds;
  out.commitSeconds = st.commitSeconds;
  out.last = st.last ? { gtid: st.last.gtid, time: st.last.time } : null;
  if (st.failed) {
    var f = st.failed;
    throw new UserError('REPLAY_FAILED', 'The replay failed at transaction ' + (f.gtid || 'without a GTID') + ' (' + f.file + ':' + f.position +
      '): ' + (f.code ? 'MySQL error ' + f.code + ': ' : '') + f.message + '. ' + st.applied + ' transaction(s) were applied before it' +
      (st.ahead ? ', and ' + st.ahead + ' after it that the source\'s logical clock let commit without it (they do not depend on it)' : '') +
      ', and stay (each with its GTID): the same command continues from there once the cause is fixed.',
      { applied: st.applied, gtid: f.gtid, file: f.file, position: f.position });
  }
  progress.done(st.applied + ' transactions, ' + formatBytes(st.bytes));
  return out;
}

module.exports = { applyReplay: applyReplay };
