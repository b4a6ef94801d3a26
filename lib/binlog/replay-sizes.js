// The replay's largest pieces against what the target accepts, checked in the preflight. The sessions send
// one statement's table maps and row events as one BINLOG '…' statement (as mysqlbinlog does: never cut
// inside, a rows event without its table map crashes the server) and statements as text: max_allowed_packet
// bounds both. The target's applier (replayWith "applier") receives events: replica_max_allowed_packet
// bounds them. A Group Replication member certifies each transaction: group_replication_transaction_size_limit
// bounds it. Sizes per transaction come from the reader (plugins/restore/restore_py/binlog.py).
var UserError = require('../core/user-error.js').UserError;
var gtids = require('./gtid-set.js');

function mb(n) {
  return (n / 1048576).toFixed(1) + ' MB';
}

// Throws REPLAY_TOO_LARGE naming the largest piece above the limit (its transaction, file:position, size).
// held: the target's gtid_executed (a set): what it holds is not sent.
function refuseOversized(host, plan, held) {
  var applier = !!plan.applier;
  var name = applier ? 'replica_max_allowed_packet' : 'max_allowed_packet';
  var limit = Number(host.sql.run('SELECT @@GLOBAL.' + name + ' AS m').rows[0].m);
  var worst = null;
  plan.transactions.forEach(function (t) {
    var s = t.sizes;
    if (!s || gtids.hasGtid(held, t.gtid)) return;
    // The sessions send BINLOG statements and Query events' statements; the applier receives events (a compressed
    // transaction as one event).
    var piece = applier ? { n: s.event, at: s.eventAt, kind: 'event' }
      : s.binlog >= (s.query || 0) ? { n: s.binlog, at: s.binlogAt, kind: 'binlog' } : { n: s.query, at: s.queryAt, kind: 'query' };
    // >=: a packet is the statement and its command byte.
    if (piece.n >= limit && (!worst || piece.n > worst.n)) worst = { t: t, n: piece.n, at: piece.at, kind: piece.kind };
  });
  if (!worst) return;
  var t = worst.t;
  var size = worst.n + ' bytes (' + mb(worst.n) + ')';
  var what = worst.kind === 'binlog' ? 'one statement whose row events the replay\'s sessions send as one BINLOG statement of ' + size +
      ', as mysqlbinlog | mysql sends it,'
    : worst.kind === 'query' ? 'a statement the replay\'s sessions send as text, of ' + size : 'an event of ' + size;
  var fix = applier
    ? 'Raise it on the target (SET GLOBAL replica_max_allowed_packet = ' + worst.n + ' or more, at most 1 GB), then run the same command.'
    : 'Raise it on the target (SET GLOBAL max_allowed_packet = ' + Math.min(1073741824, Math.ceil(worst.n / 1024 + 1) * 1024) + ' or more, at most 1 GB; ' +
      'the replay\'s sessions are opened after), or replay with replayWith: "applier" (the target\'s applier takes events up to replica_max_allowed_packet), ' +
      'then run the same command.';
  throw new UserError('REPLAY_TOO_LARGE', 'restore.load with binlogs: transaction ' + t.gtid + ' (' + t.file + ':' + t.start + ') holds ' + what +
    ' at ' + t.file + ':' + worst.at + ', above the target\'s ' + name + ' (' + limit + ' bytes): the target would refuse it mid-replay. ' + fix +
    ' Nothing was changed.', { file: t.file, position: worst.at, bytes: worst.n, limit: limit, variable: name });
}

// On a Group Replication member every replayed transaction is certified: one above group_replication_transaction_size_limit is
// rolled back by the group mid-replay. Its size in the source's file stands for what the group measures (the same row events).
function refuseGroupSize(plan, topo, held) {
  var limit = topo && topo.group && topo.group.sizeLimit ? topo.group.sizeLimit : 0;
  if (!limit) return;
  var count = 0;
  var t = null;
  plan.transactions.forEach(function (x) {
    if (x.end - x.start <= limit || gtids.hasGtid(held, x.gtid)) return;
    count++;
    if (!t || x.end - x.start > t.end - t.start) t = x;
  });
  if (!count) return;
  throw new UserError('BINLOG_TOO_LARGE', 'restore.load with binlogs: transaction ' + t.gtid + ' (' + t.file + ':' + t.start + ') is ' + (t.end - t.start) +
    ' bytes in the binary log, above this group\'s group_replication_transaction_size_limit (' + limit + ' bytes): the group would roll it ' +
    'back mid-replay' + (count > 1 ? ' (' + count + ' transaction(s) are above it; this is the largest)' : '') + '. Raise ' +
    'group_replication_transaction_size_limit on every member to at least ' + (t.end - t.start) + ' (SET PERSIST), or stop before it ' +
    '(stopBefore: "' + t.gtid + '"). Nothing was changed.', { gtid: t.gtid, file: t.file, position: t.start, size: t.end - t.start, limit: limit });
}

module.exports = { refuseOversized: refuseOversized, refuseGroupSize: refuseGroupSize };
