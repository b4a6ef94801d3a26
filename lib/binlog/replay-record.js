// Rolling a replay forward: after restore.load replayed to one point, the same command with a later
// stop continues from what the target holds, without loading the dump again. That is safe only when
// the tables hold the restore's own rows: the target's gtid_executed is what the restore left there
// (recorded here, on this machine, when the load ends) plus transactions of this same replay, and
// those form its beginning. Anything else is refused, said. The record, one per server:
// <config home>/restore/replays/<server uuid>.json
//   {format, server (its uuid), key (the dump and the loaded tables, under their names: the caller's),
//    gtidExecuted (the target's, when the load ended), rows ({examined, own}: row-ownership's facts of the
//    first load), last ({gtid, time} | null: the replay's last transaction), replaying (the replay began and has not ended),
//    at (ISO time)}
// Not chosen: a table on the target (changes the target beyond the rows loaded); the dump's GTIDs in
// gtid_executed (util.loadDump's updateGtidSet: changes the target's history for every replica).
var UserError = require('../core/user-error.js').UserError;
var gtids = require('./gtid-set.js');
var times = require('./binlog-times.js');
var heldPastStop = require('./replay-read.js').heldPastStop;

var FORMAT = 1;

function recordPath(host, serverUuid) {
  var f = host.files;
  return f.join(f.join(f.join(host.shell.configHome, 'restore'), 'replays'), String(serverUuid).replace(/[^A-Za-z0-9._-]/g, '_') + '.json');
}

function readRecord(host, serverUuid) {
  var path = recordPath(host, serverUuid);
  if (!host.files.isFile(path)) return null;
  try {
    var r = JSON.parse(host.files.loadText(path));
    return r && r.format === FORMAT && r.server === serverUuid && typeof r.key === 'string' && typeof r.gtidExecuted === 'string' &&
      r.rows && Array.isArray(r.rows.examined) && Array.isArray(r.rows.own) ? r : null;
  } catch (e) {
    return null;
  }
}

// doc: {key, rows, last, replaying (written as the replay starts: a record still saying so is of a replay that stopped)};
// the target's gtid_executed is read now.
function writeRecord(host, doc) {
  var uuid = host.sql.serverInfo().uuid;
  var path = recordPath(host, uuid);
  var text = gtids.executedText(host);
  host.files.makeDirs(host.files.dirname(path));
  host.files.writeFiles([{ path: path, data: JSON.stringify({ format: FORMAT, server: uuid, key: doc.key, gtidExecuted: text, rows: doc.rows,
    last: doc.last || null, replaying: !!doc.replaying, at: new Date().toISOString() }) }], { overwrite: true });
}

// As the replay starts (plan: with recordKey, forward; rows: row-ownership's rowFacts). Without it (a file that cannot
// be written) a stopped replay continues from the target's GTIDs all the same: nothing is said.
function markReplaying(host, plan, rows) {
  try {
    writeRecord(host, { key: plan.recordKey, rows: rows, replaying: true,
      last: plan.forward && plan.forward.from ? { gtid: plan.forward.from.gtid, time: plan.forward.from.timeText } : null });
  } catch (e) {
    return;
  }
}

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

var FRESH = 'To restore anew, load onto a fresh server, or drop the loaded schemas and RESET BINARY LOGS AND GTIDS where the server holds ' +
  'nothing else (RESET clears its GTID history: never on a server others replicate from).';

// What to do when the target cannot be continued, said so that it can be done there: a group or a source with replicas
// cannot be reset (RESET BINARY LOGS AND GTIDS on it breaks the others).
function fresh(replicated) {
  return replicated ? 'To restore anew on a server others replicate from, restore onto a fresh server (or a fresh group) and move the ' +
    'clients there: RESET BINARY LOGS AND GTIDS is not for a server others replicate from.' : FRESH;
}

// The first transaction of the plan the target lacks although it holds one after it that cannot have committed
// before it: the replay commits in the source's order, except transactions the source's logical clock lets run
// together (a later one of the same file whose last_committed is before the missing one's sequence_number). Or null.
function hole(list, now) {
  var held = list.map(function (t) { return gtids.hasGtid(now, t.gtid); });
  for (var k = 0; k < list.length; k++) {
    if (held[k]) continue;
    var m = list.at(k);
    for (var j = k + 1; j < list.length; j++) {
      if (!held[j]) continue;
      var h = list.at(j);
      var together = h.file === m.file && typeof h.lastCommitted === 'number' && typeof m.sequenceNumber === 'number' &&
        h.lastCommitted < m.sequenceNumber;
      if (!together) return { missing: m, after: h };
    }
  }
  return null;
}

// plan: the replay's (lib/binlog/replay-plan.js, with `after`); p: {key, resumed (the load resumes its progress file),
// tablesThere (a loaded table is on the server and stays), existing (their keys, as the server names them: the rows'
// facts of a replay continued without a record), dropExisting, replicated (others replicate from the target)}.
// Returns null (no roll forward: the load and the replay as planned) or {from: {gtid, time, timeText} | null, held: n,
// rows, record, line}; throws when the target holds part of the replay in a way that is not the restore's own.
// A replay that stopped (a failure, a kill: no record of it ending) continues from what the target holds of it, record
// or not, when that is the beginning of the replay (in the source's order, or as its logical clock allows): the fix of
// its cause may have written transactions of the target's own. A replay that ended is rolled forward only where
// nothing but this replay ran since (the record's gtid_executed).
function planForward(host, plan, p) {
  var now = gtids.executed(host);
  // How many of the plan's transactions the target holds, and the index of the last one.
  var heldCount = 0;
  var lastHeld = -1;
  plan.transactions.forEach(function (t, k) { if (gtids.hasGtid(now, t.gtid)) { heldCount++; lastHeld = k; } });
  var heldLast = lastHeld >= 0 ? plan.transactions.at(lastHeld) : null;
  var pastLast = heldPastStop(host, plan, now);
  var timeText = function (t) { return times.timeTexts(host, plan.zone, [t.time])[0]; };
  var FRESH_HERE = fresh(p.replicated);
  if (pastLast) {
    var last = pastLast;
    throw new UserError('REPLAY_PAST_STOP', said('the target holds this replay already up to ' + last.gtid + ', committed ' + timeText(last) +
      ' (its gtid_executed), past ' + plan.target + ': a replay only goes forward, it cannot take back what it applied. Give a stop at or ' +
      'after that point to roll forward, or, to go back, restore anew. ' + FRESH_HERE), { applied: { gtid: last.gtid, time: timeText(last) } });
  }
  // A stopped load and replay resumed by its progress file: row-ownership's record of that attempt holds.
  if (p.resumed) return null;
  var uuid = host.sql.serverInfo().uuid;
  var record = readRecord(host, uuid);
  var was = record ? gtids.parseSet(record.gtidExecuted, 'The record ' + recordPath(host, uuid)) : null;
  // A record the target has lost GTIDs of (RESET BINARY LOGS AND GTIDS since) tells nothing about it now.
  var current = !!record && !gtids.setText(gtids.minus(was, now));
  var ours = current && record.key === p.key;
  var upTo = heldCount ? ' (' + heldCount + ' of its transactions, up to ' + heldLast.gtid + ')' : '';
  if (!heldCount && (!p.tablesThere || p.dropExisting || !ours)) return null; // not a replay of this restore: the rows are measured
  if (!p.tablesThere) {
    throw new UserError('TARGET_CHANGED', said('the target holds this replay already' + upTo + ', but the loaded tables are not on the ' +
      'server: loaded anew from the dump, they would miss those transactions, which the replay skips (a GTID the target holds is never ' +
      'applied twice). ' + FRESH_HERE));
  }
  if (current && !ours) {
    throw new UserError('TARGET_CHANGED', said('the target holds this replay already' + upTo + ', and the restore recorded on this server (' +
      recordPath(host, uuid) + ') loaded another dump, or other tables or names (filters, schemaMap): the loaded tables\' rows cannot be told ' +
      'to be this replay\'s. Give the same dump, filters and schemaMap as that restore: the same command then continues. ' + FRESH_HERE),
    { record: recordPath(host, uuid) });
  }
  var gap = hole(plan.transactions.slice(0, lastHeld + 1), now);
  if (gap) {
    throw new UserError('TARGET_CHANGED', said('the target holds ' + gap.after.gtid + ' of this replay but not ' + gap.missing.gtid + ' (' +
      gap.missing.file + ':' + gap.missing.start + '), before it, which it cannot have committed before (the replay commits in the source\'s ' +
      'order, as its logical clock allows): not this replay\'s doing, so the loaded tables\' rows cannot be told to be the source\'s at any ' +
      'point. ' + FRESH_HERE), { missing: gap.missing.gtid });
  }
  var stopped = !current || !!record.replaying;
  if (!stopped) {
    var planSet = {};
    plan.transactions.forEach(function (t) { var g = gtids.splitGtid(t.gtid); gtids.addRange(planSet, g.uuid, g.n, g.n); });
    var foreign = gtids.setText(gtids.minus(gtids.minus(now, was), planSet));
    if (foreign) {
      throw new UserError('TARGET_CHANGED', said('since the restore ended (' + record.at + '), the target ran transactions that are not of this ' +
        'replay: ' + foreign + ' (its gtid_executed). They may have changed the loaded tables (or others), so rolling forward over them is ' +
        'refused: the replay\'s transactions would meet rows the restore did not leave. ' + FRESH_HERE), { foreign: foreign });
    }
  }
  var from = heldLast;
  var out = { from: from ? { gtid: from.gtid, time: from.time, timeText: timeText(from) } : null, held: heldCount,
    rows: ours ? record.rows : { examined: p.existing || [], own: [] }, record: ours ? record : null, stopped: stopped };
  var dropNot = p.dropExisting ? ' (dropExisting drops nothing: the loaded tables hold the load and those transactions)' : '';
  out.line = stopped
    ? '  continuing a replay that stopped, from ' + (from ? from.gtid + ', committed ' + out.from.timeText : 'the dump\'s end') + ' to ' + plan.target +
      ': the target holds ' + heldCount + ' transaction(s) of this replay, its beginning in the source\'s order (its gtid_executed; ' +
      'transactions of the target\'s own, such as a fix, are left as they are); util.loadDump is not run again' + dropNot + ', the replay continues'
    : '  rolling forward from ' + (from ? from.gtid + ', committed ' + out.from.timeText : 'the dump\'s end') + ' to ' + plan.target +
      ': the target holds the dump and ' + heldCount + ' transaction(s) of this replay, and nothing else since the restore of ' + record.at +
      ' (its gtid_executed against this machine\'s record of it); util.loadDump is not run again' + dropNot + ', the replay continues';
  return out;
}

module.exports = { planForward: planForward, writeRecord: writeRecord, markReplaying: markReplaying, readRecord: readRecord, recordPath: recordPath };
