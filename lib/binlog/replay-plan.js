// What a replay after a dump applies, decided from the binary log files before anything changes:
// from where the dump ends (its gtidExecuted: those transactions are skipped) to the target (until:
// every transaction committed before that time, none at or after it; stopBefore / stopAfter: a
// GTID), only transactions of loaded tables. Every refusal (a gap, GTIDs off, events it cannot
// send, a transaction over loaded and not loaded tables) is thrown here, in the preflight. One job a module: here the
// files read and each transaction chosen; where it stops, replay-stops.js; the files' history, replay-history.js;
// what the load creates, replay-filter.js; the plan's lines, replay-lines.js (sizes: replay-sizes.js, in the preflight).
var UserError = require('../core/user-error.js').UserError;
var replayRead = require('./replay-read.js');
var binlogSource = require('./binlog-source.js');
var times = require('./binlog-times.js');
var gtids = require('./gtid-set.js');
var history = require('./replay-history.js');
var replayFilter = require('./replay-filter.js');
var stops = require('./replay-stops.js');
var planLines = require('./replay-lines.js');
var memory = require('../core/memory.js');

var splitPosition = stops.splitPosition;
var isStop = stops.isStop;

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

// opts: {where, until, stopBefore, stopAfter (the user's texts), dumpGtids (the dump's gtidExecuted), dumpFile,
// dumpPosition (its binlogFile:binlogPosition), byPosition: {uuid, source} (a dump without gtidExecuted: the
// transactions from dumpFile:dumpPosition on, numbered from 1 in the source's order, are given GTIDs uuid:n; the
// preflight derives uuid), dumpPurged, dumpServerUuid, dumpServerId, dumpGroupName (the dumped server's gtid_purged,
// server_uuid, server_id and group_replication_group_name, as @.json records them, or null), filter: lib/binlog/replay-filter.js forLoad's (what the load creates) | null (every transaction replays)}.
// Returns {folder, files, zone, transactions: [{gtid, file, start, end, time, statements}], inDump, notLoaded, otherSchemas,
// target: text, reached: bool, lines, numbered: the last number given (byPosition), pastStop: where the files go on past the
// stop (lib/binlog/replay-read.js heldPastStop) or null}.
function planReplay(host, opts) {
  var byPosition = opts.dumpGtids ? null : opts.byPosition;
  var named = stops.checkStops(opts, byPosition);
  if (!opts.dumpGtids && !byPosition) {
    throw new UserError('BINLOG_UNSUPPORTED', said('the dump records neither gtidExecuted nor binlogFile:binlogPosition (the dump is too old, ' +
      'or binary logging was off on the source): where the replay starts is not known.'));
  }
  var dumpSet = gtids.parseSet(opts.dumpGtids || '', 'The dump\'s gtidExecuted (@.json)');
  var zone = times.chooseZone(host);
  var until = opts.until ? times.parseTime(host, zone, opts.until, 'until', 'restore.load') : null;
  var folder = binlogSource.openBinlogs(host, opts.where, opts.sourceOptions, { startFile: opts.dumpFile || null, dumpGtids: opts.dumpGtids, until: until,
    stopGtid: [named ? null : opts.stopBefore, opts.stopAfter].filter(function (x) { return x && !splitPosition(x); })[0] || null });
  // Read from the dump's file to the stop, no further (a stop by name: up to the batch the drop is found in).
  var early = byPosition && opts.dumpFile ? stops.beforePosition(folder.files, opts.dumpFile, opts.dumpPosition) : null;
  var got = replayRead.readPlan(host, folder, { dumpGtids: opts.dumpGtids || null, dumpFile: opts.dumpFile || null,
    dumpPosition: typeof opts.dumpPosition === 'number' ? opts.dumpPosition : null, until: until, toEnd: !!named,
    stopBefore: named ? null : opts.stopBefore || null, stopAfter: opts.stopAfter || null },
  named ? function (batch) { return !!stops.resolveNamed(batch, named, dumpSet, early); } : null);
  // The files: all there, readable, no gap, the dumped server's history (lib/binlog/replay-history.js).
  var checked = history.checkFiles(host, folder, got, opts, dumpSet, byPosition);
  var names = checked.names;
  // A dump without GTIDs: a transaction before its binlogFile:binlogPosition is in it.
  var dumpPosition = opts.dumpFile && typeof opts.dumpPosition === 'number' ? stops.beforePosition(names, opts.dumpFile, opts.dumpPosition) : null;
  var beforeDump = byPosition ? dumpPosition : null;
  var resolved = named ? stops.resolveNamed(got.transactions, named, dumpSet, beforeDump) : null;
  if (named && !resolved) {
    throw new UserError('BINLOG_STOP_NOT_FOUND', said('stopBefore ' + JSON.stringify(opts.stopBefore) + ': no statement drops or truncates ' +
      named.schema + '.' + named.table + ' (DROP TABLE, DROP DATABASE ' + named.schema + ', TRUNCATE) after the dump in ' + folder.dir + ' (' +
      names[0] + ' … ' + names[names.length - 1] + '). restore.binlogs lists the ones there are; or stop by until or a GTID.'),
    { option: 'stopBefore', table: named.schema + '.' + named.table });
  }
  if (resolved) {
    resolved.asked = String(opts.stopBefore).trim();
    opts = Object.assign({}, opts, { stopBefore: resolved.stop });
  }
  var out = { folder: folder, files: names, zone: zone, stopNamed: resolved,
    transactions: [], inDump: got.inDump.count, notLoaded: 0, otherSchemas: 0, reached: false, target: null, last: null, numbered: 0, ownGtids: 0 };
  var stopGtid = opts.stopBefore || opts.stopAfter;
  var stopName = opts.stopBefore ? 'stopBefore ' : 'stopAfter ';
  var inDump = function (t) { return beforeDump ? beforeDump(t) : t.gtid ? gtids.hasGtid(dumpSet, t.gtid) : !!(dumpPosition && dumpPosition(t)); };
  var range = { until: until, zone: zone, trxs: got.transactions, inDump: inDump, got: got, names: names, byPosition: byPosition,
    dumpFile: opts.dumpFile, dumpPosition: opts.dumpPosition, stopBefore: opts.stopBefore, stopAfter: opts.stopAfter, isStop: isStop };
  history.checkStop(folder, got.transactions, stopGtid, stopName, dumpSet, isStop, splitPosition, range);
  history.checkUntil(host, range);
  history.checkIncidents(host, range);
  memory.settle(host, got.transactions.length);
  var trxs = got.transactions;
  var stopAt = trxs.length;
  var kept = new Map();
  var chosen = new Int32Array(trxs.length); // indexes into trxs of the transactions replayed: the first nChosen
  var nChosen = 0;
  for (var k = 0; k < trxs.length; k++) {
    var t = trxs.at(k);
    if (byPosition) {
      // Before the dump's position: in the dump. From it on: numbered in the source's order, whatever is then
      // skipped, so a number names the same transaction whatever the stop or the filters.
      if (beforeDump(t)) {
        if (isStop(t, stopGtid)) throw new UserError('OPTION_INVALID', said(stopName + stopGtid + ' is before the dump\'s position ' + opts.dumpFile + ':' + opts.dumpPosition + ': already in the dump.'));
        out.inDump++;
        continue;
      }
    }
    if ((until !== null && t.commit >= until) || isStop(t, opts.stopBefore)) { out.reached = true; stopAt = k; break; }
    if (t.gtid === null && t.undecoded.length && !byPosition) {
      // A tagged GTID (MySQL 8.3+): its GTID is not read. Before the dump's binlogFile:binlogPosition it is in the dump;
      // after it, neither what it is nor whether the target holds it is known: refused.
      if (dumpPosition && dumpPosition(t)) { out.inDump++; continue; }
      throw new UserError('BINLOG_UNSUPPORTED', said('the transaction at ' + t.file + ':' + t.start + ' holds ' + t.undecoded.join('; ') +
        ': the replay does not read tagged GTIDs yet (the source ran it under SET gtid_next = \'AUTOMATIC:<tag>\', MySQL 8.3+). Replay up ' +
        'to it (stopBefore: "' + t.file + ':' + t.start + '") and the rest with mysqlbinlog | mysql.'), { file: t.file, position: t.start });
    }
    if (byPosition) {
      out.numbered++;
      if (t.gtid === null) trxs.set(k, 'gtid', t.gtid = byPosition.uuid + ':' + out.numbered);
      else out.ownGtids++; // GTIDs turned on at the source after the dump: its own kept
    }
    if (t.gtid === null) {
      throw new UserError('BINLOG_UNSUPPORTED', said('the transaction at ' + t.file + ':' + t.start + ' has no GTID (GTIDs turned off on the source ' +
        'after the dump): the dump records GTIDs, the files do not. Replay up to it (stopBefore: "' + t.file + ':' + t.start + '") and the rest with mysqlbinlog | mysql.'));
    }
    if (gtids.hasGtid(dumpSet, t.gtid)) { out.inDump++; continue; }
    if (t.incomplete) throw new UserError('BINLOG_GAP', said('transaction ' + t.gtid + ' (' + t.file + ':' + t.start + '): ' + t.incomplete + '. Copy the file again once the source has rotated it.'));
    if (t.undecoded.length) {
      throw new UserError('BINLOG_UNSUPPORTED', said('transaction ' + t.gtid + ' (' + t.file + ':' + t.start + ') holds what the replay does not send yet: ' +
        t.undecoded.join('; ') +
        '. Replay it with mysqlbinlog | mysql.'));
    }
    // Transactions writing the same tables (one set index: lib/binlog/plan-transactions.js) and no statement: decided once.
    var plain = !t.statements.length;
    var memo = plain ? kept.get(t.set) : undefined;
    var keep = memo ? memo.keep : replayFilter.keepForLoad(t, opts.filter);
    if (keep === true) {
      // The row read is the plan's (no copy): its tables become the names it writes.
      var written = memo ? memo.written : trxs.tablesIndex(replayFilter.writtenTables(t));
      if (plain && !memo) kept.set(t.set, { keep: keep, written: written });
      trxs.set(k, 'tablesAt', written);
      chosen[nChosen++] = k;
    } else {
      if (plain && !memo) kept.set(t.set, { keep: keep });
      out[keep]++;
    }
    if (isStop(t, opts.stopAfter)) { out.reached = true; stopAt = k + 1; break; }
  }
  out.transactions = trxs.pick(chosen.subarray(0, nChosen));
  chosen = null;
  memory.settle(host, trxs.length);
  out.pastStop = pastStop(folder, got, trxs, stopAt, opts.stopAfter, byPosition, out.numbered, dumpSet);
  out.next = stops.firstPastStop(trxs.at(stopAt), out, byPosition);
  refuseUnsent(out.transactions);
  out.last = out.transactions.length ? out.transactions.at(out.transactions.length - 1) : null;
  var shown = times.timeTexts(host, zone, [until, out.last ? out.last.time : null, got.last ? got.last.commit : null,
    resolved ? resolved.time : null]);
  if (resolved) resolved.timeText = shown[3];
  out.target = stops.targetText(opts, until, zone, resolved, shown);
  out.lastText = out.last ? shown[1] : null;
  out.lines = planLines.linesOf(out, { folder: folder, until: until, stopGtid: stopGtid, shown: shown, byPosition: byPosition, opts: opts,
    checked: checked, zone: zone, unread: got.unread, lastRead: names[names.length - 1] });
  return out;
}

// Where the files go on past the stop, for the check that the target holds nothing of them (a roll forward to an
// earlier point is refused: lib/binlog/replay-record.js, through replay-read.js heldPastStop), or null when nothing
// is past it. known: what the history up to the stop holds (the dump's GTIDs, the first file's previous GTIDs, every
// GTID read before the stop); numbered/uuid: a dump without GTIDs, its transactions numbered on from numbered + 1.
function pastStop(folder, got, trxs, stopAt, stopAfter, byPosition, numbered, dumpSet) {
  var at = stopAt < trxs.length ? trxs.at(stopAt) : got.stopped ? null : stopAt > 0 && isStop(trxs.at(stopAt - 1), stopAfter) ? trxs.at(stopAt - 1) : null;
  var from = at ? { file: at.file, position: stopAt < trxs.length ? at.start : at.end } : got.stopped;
  if (!from) return null;
  var known = gtids.parseSet(got.gtidsBeforeStop);
  [gtids.setText(dumpSet), got.files.length ? got.files[0].previousGtids : ''].forEach(function (t) {
    var set = gtids.parseSet(t || '');
    Object.keys(set).forEach(function (s) { set[s].forEach(function (r) { gtids.addRange(known, s, r[0], r[1]); }); });
  });
  // A transaction read past the stop (a stop by name reads every file) is not known: it is what the check looks for.
  var read = {};
  trxs.slice(stopAt).forEach(function (t) {
    var g = t.gtid && gtids.splitGtid(t.gtid);
    if (g) gtids.addRange(read, g.uuid, g.n, g.n);
  });
  if (stopAt < trxs.length) known = gtids.minus(known, read);
  return { dir: folder.dir, files: folder.files.slice(folder.files.indexOf(from.file)), position: from.position, known: gtids.setText(known),
    numbered: numbered, uuid: byPosition ? byPosition.uuid : null };
}

// Events the replay cannot send (statement-based ones, events of a type it does not know) found in the plan's one
// read of the files (plugins/restore/restore_py/binlog_plan.py): refused, naming the first.
function refuseUnsent(list) {
  for (var k = 0; k < list.length; k++) {
    var t = list.at(k);
    if (!t.unsupported.length) continue;
    throw new UserError('BINLOG_UNSUPPORTED', said('transaction ' + t.gtid + ' (' + t.file + ':' + t.start + ') holds ' +
      t.unsupported.join(', ') + ', which the replay does not send yet. Replay up to it ' +
      '(stopBefore: "' + t.gtid + '") and the rest with mysqlbinlog | mysql.'));
  }
}

module.exports = { planReplay: planReplay, splitPosition: splitPosition, namedStop: stops.namedStop };
