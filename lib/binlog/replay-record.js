// Rolling a replay forward: after restore.load replayed to one point, the same command with a later
// stop continues from what the target holds, without loading the dump again. That is safe only when
// the tables hold the restore's own rows: the target's gtid_executed is what the restore left there
// (recorded here, on this machine, when the load ends) plus transactions of this same replay, and
// those form its beginning. Anything else is refused, said. The record, one per server:
// <config home>/restore/replays/<server uuid>.json
//   {format, server (its uuid), key (the dump and the loaded tables, under their names: the caller's),
//    gtidExecuted (the target's, when the load ended), rows ({examined, own}: row-ownership's facts of the
//    first load), last ({gtid, time} | null: the replay's last transaction), at (ISO time)}
// Not chosen: a table on the target (changes the target beyond the rows loaded); the dump's GTIDs in
// gtid_executed (util.loadDump's updateGtidSet: changes the target's history for every replica).
var UserError = require('../core/user-error.js').UserError;
var gtids = require('./gtid-set.js');
var times = require('./binlog-times.js');

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

// doc: {key, rows, last}; the target's gtid_executed is read now.
function writeRecord(host, doc) {
  var uuid = host.sql.serverInfo().uuid;
  var path = recordPath(host, uuid);
  var text = gtids.executedText(host);
  host.files.makeDirs(host.files.dirname(path));
  host.files.writeFiles([{ path: path, data: JSON.stringify({ format: FORMAT, server: uuid, key: doc.key, gtidExecuted: text, rows: doc.rows,
    last: doc.last || null, at: new Date().toISOString() }) }], { overwrite: true });
}

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

var FRESH = 'To restore anew, load onto a fresh server, or drop the loaded schemas and RESET BINARY LOGS AND GTIDS where the server holds ' +
  'nothing else (RESET clears its GTID history: never on a server others replicate from).';

// plan: the replay's (lib/binlog/replay-plan.js, with `after`); p: {key, resumed (the load resumes its progress file),
// tablesThere (a loaded table is on the server and stays), dropExisting}. Returns null (no roll forward: the load and
// the replay as planned) or {from: {gtid, time, timeText} | null, held: n, rows, record, line}; throws when the target
// holds part of the replay in a way that is not the restore's own.
function planForward(host, plan, p) {
  var now = gtids.executed(host);
  var heldPlan = plan.transactions.filter(function (t) { return gtids.hasGtid(now, t.gtid); });
  var heldAfter = (plan.after || []).filter(function (t) { return gtids.hasGtid(now, t.gtid); });
  var timeText = function (t) { return times.timeTexts(host, plan.zone, [t.time])[0]; };
  if (heldAfter.length) {
    var last = heldAfter[heldAfter.length - 1];
    throw new UserError('REPLAY_PAST_STOP', said('the target holds this replay already up to ' + last.gtid + ', committed ' + timeText(last) +
      ' (its gtid_executed), past ' + plan.target + ': a replay only goes forward, it cannot take back what it applied. Give a stop at or ' +
      'after that point to roll forward, or, to go back, restore anew. ' + FRESH), { applied: { gtid: last.gtid, time: timeText(last) } });
  }
  // A stopped load and replay resumed by its progress file: row-ownership's record of that attempt holds.
  if (p.resumed) return null;
  var uuid = host.sql.serverInfo().uuid;
  var record = readRecord(host, uuid);
  var was = record ? gtids.parseSet(record.gtidExecuted, 'The record ' + recordPath(host, uuid)) : null;
  // A record the target has lost GTIDs of (RESET BINARY LOGS AND GTIDS since) tells nothing about it now.
  var ours = !!record && record.key === p.key && !gtids.setText(gtids.minus(was, now));
  var upTo = heldPlan.length ? ' (' + heldPlan.length + ' of its transactions, up to ' + heldPlan[heldPlan.length - 1].gtid + ')' : '';
  if (!p.tablesThere || p.dropExisting) {
    if (!heldPlan.length) return null;
    throw new UserError('TARGET_CHANGED', said('the target holds this replay already' + upTo + ', but the loaded tables ' +
      (p.dropExisting ? 'are dropped by dropExisting and' : 'are not on the server:') + ' loaded anew from the dump, they would miss those ' +
      'transactions, which the replay skips (a GTID the target holds is never applied twice). ' + (p.dropExisting && ours
      ? 'Without dropExisting the same command rolls forward from there. ' : '') + FRESH));
  }
  if (!heldPlan.length && !ours) return null; // not a replay of this restore: the rows are measured (row-ownership)
  if (!ours) {
    throw new UserError('TARGET_CHANGED', said('the target holds this replay already' + upTo + ', but no restore from this machine left it so: ' +
      (!record ? 'there is no record of one (' + recordPath(host, uuid) + ')' : record.key !== p.key ? 'the restore recorded (' +
        recordPath(host, uuid) + ') loaded another dump, or other tables or names (filters, schemaMap)'
        : 'the target no longer holds what it held when that restore ended (' + gtids.setText(gtids.minus(was, now)) + ')') +
      '; so the loaded tables\' rows cannot be told to be the restore\'s own. Run it from the machine that ran that restore, with the same dump, ' +
      'filters and schemaMap. ' + FRESH), { record: recordPath(host, uuid) });
  }
  var planSet = {};
  plan.transactions.forEach(function (t) { var g = gtids.splitGtid(t.gtid); gtids.addRange(planSet, g.uuid, g.n, g.n); });
  var foreign = gtids.setText(gtids.minus(gtids.minus(now, was), planSet));
  if (foreign) {
    throw new UserError('TARGET_CHANGED', said('since the restore ended (' + record.at + '), the target ran transactions that are not of this ' +
      'replay: ' + foreign + ' (its gtid_executed). They may have changed the loaded tables (or others), so rolling forward over them is ' +
      'refused: the replay\'s transactions would meet rows the restore did not leave. ' + FRESH), { foreign: foreign });
  }
  // What the target holds of the replay is its beginning (commits keep the source's order): else not the plugin's doing.
  var hole = heldPlan.length ? plan.transactions.slice(0, plan.transactions.indexOf(heldPlan[heldPlan.length - 1]))
    .filter(function (t) { return !gtids.hasGtid(now, t.gtid); })[0] : null;
  if (hole) {
    throw new UserError('TARGET_CHANGED', said('the target holds ' + heldPlan[heldPlan.length - 1].gtid + ' of this replay but not ' + hole.gtid +
      ', before it: the replay commits in the source\'s order, so it did not leave that. ' + FRESH), { missing: hole.gtid });
  }
  var from = heldPlan.length ? heldPlan[heldPlan.length - 1] : null;
  var out = { from: from ? { gtid: from.gtid, time: from.time, timeText: timeText(from) } : null, held: heldPlan.length, rows: record.rows, record: record };
  out.line = '  rolling forward from ' + (from ? from.gtid + ', committed ' + out.from.timeText : 'the dump\'s end') + ' to ' + plan.target +
    ': the target holds the dump and ' + heldPlan.length + ' transaction(s) of this replay, and nothing else since the restore of ' + record.at +
    ' (its gtid_executed against this machine\'s record of it); util.loadDump is not run again, the replay continues';
  return out;
}

module.exports = { planForward: planForward, writeRecord: writeRecord, readRecord: readRecord, recordPath: recordPath };
