// Whether the binary log files given can be replayed onto this dump, decided from what they hold before
// anything changes (lib/binlog/replay-plan.js planReplay calls these): every file there and readable, no
// gap after the dump, the files the dumped server's history (its gtidExecuted inside what they carry, and in its own
// files at its binlogFile:binlogPosition; a dump without GTIDs: that position where a transaction begins or ends), a stop after the
// dump's own point, no INCIDENT (events the source lost) inside what is replayed.
var UserError = require('../core/user-error.js').UserError;
var gtids = require('./gtid-set.js');
var times = require('./binlog-times.js');

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

var OWN_FILES = 'Give the binary log files of the server the dump was taken from (SHOW BINARY LOGS there; a dump of a replica: ' +
  'that replica\'s own files, or its source\'s when GTIDs are on).';

// The files: there, readable, no gap after the dump, the dumped server's history. Returns {names (in order), note (a line
// for the plan, or null)}.
// opts: planReplay's; dumpSet: the dump's gtidExecuted parsed; byPosition: a dump without GTIDs.
function checkFiles(host, folder, got, opts, dumpSet, byPosition) {
  if (!got.files.length) throw new UserError('BINLOG_GAP', said('the folder ' + folder.dir + ' holds no binary log file.'));
  if (folder.missing.length) {
    throw new UserError('BINLOG_GAP', said('binary log file(s) ' + folder.missing.join(', ') + ' are missing from ' + folder.dir + ' (' + folder.order +
      ' lists the files around them). Copy them from the source.'));
  }
  got.files.forEach(function (f) {
    if (f.error) throw new UserError('BINLOG_GAP', said(host.files.basename(f.path) + ' cannot be read to its end (' + f.error.reason + '). Copy it again.'));
  });
  var first = got.files[0];
  var names = got.files.map(function (f) { return host.files.basename(f.path); });
  if (byPosition) {
    // No GTIDs to find the gap by: the file the dump ends in must be here (the files after it: folder.missing).
    if (names.indexOf(opts.dumpFile) < 0) {
      throw new UserError('BINLOG_GAP', said(opts.dumpFile + ', where the dump ends (its binlogFile:binlogPosition ' + opts.dumpFile + ':' +
        opts.dumpPosition + '), is not among the files of ' + folder.dir + ' (' + names[0] + ' … ' + names[names.length - 1] +
        '): the transactions after the dump start there. Copy it from the source (SHOW BINARY LOGS), or use a newer dump.'));
    }
    checkPosition(host, got, names, opts);
    return { names: names, note: null };
  }
  if (first.previousGtids === null) {
    throw new UserError('BINLOG_UNSUPPORTED', said(host.files.basename(first.path) + ' records its previous GTIDs in the tagged format (MySQL 8.3+: the source ' +
      'ran a transaction with a tagged GTID, SET gtid_next = \'AUTOMATIC:tag\'), which the replay does not read yet. Replay with mysqlbinlog | mysql.'));
  }
  var note = checkHistory(host, got, names, opts, dumpSet);
  checkDumpPoint(got, names, opts, dumpSet);
  var purged = gtids.minus(gtids.parseSet(first.previousGtids, host.files.basename(first.path) + '\'s previous GTIDs'), dumpSet);
  if (gtids.setText(purged)) {
    throw new UserError('BINLOG_GAP', said('transactions ' + gtids.setText(purged) + ' ran on the source after the dump and before the first file here, ' +
      host.files.basename(first.path) + ': they are in neither. Copy the binary log files before ' + host.files.basename(first.path) +
      ' (SHOW BINARY LOGS on the source), or use a newer dump.'));
  }
  return { names: names, note: note };
}

// GTIDs on: every transaction of the dump (its gtidExecuted) is in the history the files carry (each file's previous
// GTIDs, the GTIDs of the transactions in them), or was never logged by the dumped server (its gtid_purged, as the
// dump records it: SET gtid_purged there leaves no event). Else the files are another server's (its own GTIDs), or
// of a history begun again (RESET BINARY LOGS AND GTIDS), or end before the dump: refused, naming what is missing.
// The dump's binlogFile:binlogPosition: checkDumpPoint.
function checkHistory(host, got, names, opts, dumpSet) {
  var carried = {};
  got.files.forEach(function (f) {
    if (f.previousGtids) merge(carried, gtids.parseSet(f.previousGtids, host.files.basename(f.path) + '\'s previous GTIDs'));
  });
  var tagless = !!got.tagless;
  // The plan's read (replay-read.js) gives every GTID it read as one set.
  if (got.gtidsRead !== undefined) merge(carried, gtids.parseSet(got.gtidsRead, 'The GTIDs read'));
  var numbers = {};
  (got.gtidsRead !== undefined ? [] : got.transactions).forEach(function (t) {
    var g = t.gtid ? gtids.splitGtid(t.gtid) : null;
    if (g) (numbers[g.uuid] = numbers[g.uuid] || []).push(g.n);
    else if (t.undecoded.length) tagless = true;
  });
  // Sorted once and added as runs: a million transactions are a few ranges.
  Object.keys(numbers).forEach(function (uuid) {
    var list = numbers[uuid].sort(function (a, b) { return a - b; });
    for (var i = 0, lo = 0; i < list.length; i++) {
      if (i + 1 === list.length || list[i + 1] > list[i] + 1) { gtids.addRange(carried, uuid, list[lo], list[i]); lo = i + 1; }
    }
  });
  var absent = gtids.minus(dumpSet, carried);
  var missing = opts.dumpPurged ? gtids.minus(absent, gtids.parseSet(opts.dumpPurged, 'The dump\'s gtid_purged (@.json source.sysvars)')) : absent;
  // A transaction whose tagged GTID is not read (MySQL 8.3+) may be the dump's tagged one: tags not held against the files then.
  if (tagless) Object.keys(missing).forEach(function (s) { if (s.indexOf(':') >= 0) delete missing[s]; });
  // The dumped server's own transactions (its server_uuid, as the dump records it) where the files carry none of that
  // uuid and all the rest of the dump: a replica's local writes, which its source's files cannot hold. Not when the files
  // carry nothing of the dump: those are another server's.
  var own = opts.dumpServerUuid ? opts.dumpServerUuid.toLowerCase() : null;
  var shared = gtids.setText(gtids.minus(dumpSet, absent)) !== '';
  if (own && missing[own] && !carried[own] && shared && Object.keys(missing).length === 1) {
    var local = {};
    local[own] = missing[own];
    delete missing[own];
    return 'the dump\'s ' + gtids.setText(local) + ' (the dumped server\'s own transactions, e.g. a replica\'s local writes) are in ' +
      'none of these files: the target holds them with the dump, as the dump has them';
  }
  var text = gtids.setText(missing);
  if (!text) return null;
  // Transactions of sources the files carry, each above every number they carry for it: the files end before the dump
// (or, numbered alike, a history begun again: the files cannot tell which).
  var later = Object.keys(missing).every(function (s) {
    var have = carried[s] || [];
    return have.length && missing[s][0][0] > have[have.length - 1][1];
  });
  var first = names[0];
  var last = names[names.length - 1];
  var carriedText = gtids.setText(carried);
  throw new UserError('BINLOG_OTHER_HISTORY', said('the files of ' + (names.length > 1 ? first + ' … ' + last : first) + ' are not the history of the ' +
    'dumped server: the dump holds ' + text + (text === gtids.setText(dumpSet) ? ' (its gtidExecuted)' : ' (of its gtidExecuted ' + gtids.setText(dumpSet) + ')') + ', which ' +
    (later ? 'the files end before (they carry ' + carriedText + ', up to the end of ' + last + '): they were copied before the dump was taken ' +
      '(copy them again from the source, the newest included), or written after the source began its history again (RESET BINARY LOGS AND ' +
      'GTIDS: use a dump taken after that).'
      : 'none of them carries (they carry ' + (carriedText || 'no GTID') + '; ' + first + '\'s previous GTIDs: ' +
        (got.files[0].previousGtids ? got.files[0].previousGtids.replace(/\s+/g, '') : 'none') + '): they are another server\'s, or of a history begun again after the dump ' +
        '(RESET BINARY LOGS AND GTIDS). ' + OWN_FILES)), { file: first, missing: text });
}

// GTIDs on, in the dumped server's own files: its binlogFile:binlogPosition is where a transaction of that file begins
// or ends, every transaction before it is in the dump's gtidExecuted and none from it on. Own files: the file the dump
// names is here, written by the server_id the dump records (a replica writes files of the same names under its own
// server_id, the same GTIDs at other positions: not held to the position), and the files hold transactions of the
// dumped server's own (its server_uuid or group name: not a server loaded from the dump that kept server_id 1).
// Else the dump's two records of its point disagree on these files: a history begun again (RESET BINARY LOGS AND GTIDS)
// that numbered its GTIDs alike, which checkHistory cannot tell.
function checkDumpPoint(got, names, opts, dumpSet) {
  var file = opts.dumpFile;
  var pos = opts.dumpPosition;
  var k = names.indexOf(file);
  if (k < 0 || typeof pos !== 'number' || opts.dumpServerId === null || opts.dumpServerId === undefined) return;
  var info = got.files[k];
  if (info.serverId === null || info.serverId === undefined || String(info.serverId) !== String(opts.dumpServerId).trim()) return;
  var uuids = [opts.dumpServerUuid, opts.dumpGroupName].filter(Boolean).map(function (u) { return u.toLowerCase(); });
  // The dump's own transactions read (passed over: only their GTIDs are given) count as the files' too.
  var passed = Object.keys(gtids.parseSet((got.inDump && got.inDump.gtids) || '')).map(function (u) { return u.toLowerCase(); });
  var mine = passed.some(function (u) { return uuids.indexOf(u) >= 0; }) || got.transactions.some(function (t) {
    var g = t.gtid ? gtids.splitGtid(t.gtid) : null;
    return g && uuids.indexOf(g.uuid.toLowerCase()) >= 0;
  });
  if (!mine) return;
  var why = pointMismatch(got, names, k, pos, dumpSet);
  if (!why) return;
  throw new UserError('BINLOG_DUMP_POINT', said('the dump ends at ' + file + ':' + pos + ' (its binlogFile:binlogPosition) with the transactions of its ' +
    'gtidExecuted, and in ' + file + ' here, written by the dumped server (server_id ' + info.serverId + ', as @.json records it), ' + why +
    ': the two do not name one point of these files. They are of a history begun again after the dump (RESET BINARY LOGS AND GTIDS, ' +
    'its GTIDs numbered alike), or the dump\'s gtidExecuted was not read at its binlogFile:binlogPosition. Give the files of the history ' +
    'the dump was taken in (SHOW BINARY LOGS on the source), or use a dump taken after the reset.'), { file: file, position: pos });
}

// Why file k's position pos and the dump's gtidExecuted are not one point (a sentence), or null. The transactions
// the plan passed over as the dump's come as got.inDump's inFile, atPoint, around and fromPoint (binlog_plan.py).
function pointMismatch(got, names, k, pos, dumpSet) {
  var file = names[k];
  var info = got.files[k];
  var passed = got.inDump || {};
  var here = inFile(got.transactions, file, pos);
  var atPoint = passed.atPoint || here.atPoint;
  if (here.count || passed.inFile ? !atPoint : pos > info.size) {
    var around = here.around || passed.around;
    return pos > info.size ? 'the file ends at ' + info.size + ', before that position'
      : 'no transaction begins or ends at ' + pos + (around ? ' (' + (around.gtid ? 'transaction ' + around.gtid + ', ' : 'the transaction ') + 'at ' +
        around.start + ', runs to ' + around.end + ')' : '');
  }
  var wrong = null;
  for (var i = 0; i < got.transactions.length && !wrong; i++) {
    var t = got.transactions.at(i);
    if (!t.gtid) continue; // a tagged GTID not read: no GTID to hold against the set
    var fk = names.indexOf(t.file);
    var before = fk < k || (fk === k && t.end !== null && t.end <= pos);
    if (before !== gtids.hasGtid(dumpSet, t.gtid)) wrong = { t: t, before: before };
  }
  // The dump's first transaction from the position on, if it comes before the first one read that disagrees.
  var from = passed.fromPoint;
  if (from && (!wrong || names.indexOf(from.file) < names.indexOf(wrong.t.file) ||
      (from.file === wrong.t.file && from.start < wrong.t.start))) wrong = { t: from, before: false };
  if (!wrong) return null;
  return 'transaction ' + wrong.t.gtid + ' at ' + wrong.t.file + ':' + wrong.t.start + (wrong.before ? ', before that position, is not in the ' +
    'dump\'s gtidExecuted' : ', from that position on, is in the dump\'s gtidExecuted');
}

// The transactions read of file: {count, atPoint (one begins or ends at pos), around (the first one pos is inside, or null)}.
function inFile(trxs, file, pos) {
  var out = { count: 0, atPoint: false, around: null };
  trxs.forEach(function (t) {
    if (t.file !== file) return;
    out.count++;
    if (t.start === pos || t.end === pos) out.atPoint = true;
    if (!out.around && t.start < pos && pos < t.end) out.around = t;
  });
  return out;
}

function merge(into, set) {
  Object.keys(set).forEach(function (s) { set[s].forEach(function (r) { gtids.addRange(into, s, r[0], r[1]); }); });
}

// GTIDs off: the dump's binlogFile:binlogPosition is where a transaction of that file begins or ends (or, in a
// file without one, inside it). Else the file is another server's of the same name, or not the dump's.
function checkPosition(host, got, names, opts) {
  var file = opts.dumpFile;
  var pos = opts.dumpPosition;
  if (typeof pos !== 'number') return;
  var info = got.files[names.indexOf(file)];
  var here = inFile(got.transactions, file, pos);
  var ok = here.count ? here.atPoint : pos <= info.size;
  if (ok) return;
  var around = here.around;
  throw new UserError('BINLOG_OTHER_HISTORY', said('the dump ends at ' + file + ':' + pos + ' (its binlogFile:binlogPosition), and the ' + file +
    ' here ' + (pos > info.size ? 'ends at ' + info.size + ', before it' : 'has no transaction beginning or ending there' +
      (around ? ' (its transaction at ' + around.start + ' runs to ' + around.end + ')' : '')) +
    ': it is another server\'s file of the same name, or of a history begun again (RESET BINARY LOGS AND GTIDS). ' + OWN_FILES),
  { file: file, position: pos });
}

// A stop named by GTID or file:position: after the dump and in the files. r: planReplay's range (inDump, byPosition, dumpFile…).
function checkStop(folder, trxs, stopGtid, stopName, dumpSet, isStop, splitPosition, r) {
  if (!stopGtid) return;
  if (!splitPosition(stopGtid) && gtids.hasGtid(dumpSet, stopGtid)) throw new UserError('OPTION_INVALID', said(stopName + stopGtid + ' is already in the dump (its gtidExecuted).'));
  var at = trxs.filter(function (t) { return isStop(t, stopGtid); }).at(0);
  if (!at) {
    throw new UserError('OPTION_INVALID', said(stopName + stopGtid + ' is in none of the files of ' + folder.dir + (splitPosition(stopGtid)
      ? ' (no transaction starts there: restore.binlogs lists them with their file:position)' : '') + '.'));
  }
  // A file:position of a transaction the dump holds: the target would hold the dump, past that stop.
  if (r.inDump(at)) {
    throw new UserError('OPTION_INVALID', said(stopName + stopGtid + (r.byPosition ? ' is before the dump\'s position ' + r.dumpFile + ':' + r.dumpPosition
      : ' is transaction ' + at.gtid) + ': already in the dump' + (r.byPosition ? '' : ' (its gtidExecuted)') + '.'));
  }
}

// until before the dump's own point: the target would hold the dump, later than until. Told by a transaction
// of the dump (inDump) in the files committed at or after until; without one, by the first file beginning after
// until (the dump ends before it or in it: when its transactions committed, the files cannot tell). Not by the
// dump's "begin" in @.json: that is the dumping client's local time, its zone not recorded.
// r: {until, zone, trxs, inDump, got, names, byPosition, dumpFile, dumpPosition}.
function checkUntil(host, r) {
  if (r.until === null) return;
  var last = null;
  // The plan's read summarises the dump's transactions: the one committed last among them (replay-read.js).
  var inDumpLast = r.got.inDump && r.got.inDump.last;
  var later = function (t) {
    if (r.inDump(t) && t.commit !== null && (!last || t.commit > last.commit)) last = t;
  };
  r.trxs.forEach(later);
  if (inDumpLast) later(inDumpLast);
  if (last && last.commit >= r.until) {
    var shown = times.timeTexts(host, r.zone, [r.until, last.commit]);
    throw new UserError('OPTION_INVALID', said('until ' + shown[0] + ' is before the dump\'s own point: ' + (last.gtid ? 'transaction ' + last.gtid +
      ' (' + last.file + ':' + last.start + ')' : 'the transaction at ' + last.file + ':' + last.start) + ', committed ' + shown[1] + ', is in the dump (' +
      (r.byPosition ? 'before its binlogFile:binlogPosition ' + r.dumpFile + ':' + r.dumpPosition : 'its gtidExecuted') + '), so the target would ' +
      'hold it and everything the dump holds (times in ' + r.zone.name + '). Give an until after ' + shown[1] + ', or a dump taken before ' + shown[0] + '.'),
    { option: 'until' });
  }
  var f = r.got.files[0];
  var began = f.firstEventTime ? f.firstEventTime * 1000000 : null;
  if (last || began === null || r.until >= began) return;
  var t2 = times.timeTexts(host, r.zone, [r.until, began]);
  throw new UserError('OPTION_INVALID', said('until ' + t2[0] + ' is before the first file here, ' + r.names[0] + ', began (' + t2[1] + ', times in ' +
    r.zone.name + '), and the dump ends ' + (r.byPosition ? 'in it, at ' + r.dumpFile + ':' + r.dumpPosition + ', so after until: the target would hold ' +
      'the dump, later than until.' : 'before it: whether the dump holds transactions committed after until, these files cannot tell.') +
    ' Give an until after ' + t2[1] + ', a dump taken before ' + t2[0] + (r.byPosition ? '' : ', or the files from before until too (from the one ' +
      'before ' + r.names[0] + ')') + '.'), { option: 'until' });
}

// An INCIDENT event (the source lost events there; a replica stops at it) between the dump's point and the stop:
// refused, naming it, offering a stop before it. Before the dump (the next transaction in the dump) or past the stop: no matter.
// r: {trxs, inDump, got, names, until, stopBefore, stopAfter, isStop}.
function checkIncidents(host, r) {
  if (!r.got.files.some(function (f) { return f.incidents && f.incidents.length; })) return;
  var stopAt = r.trxs.length;
  for (var k = 0; k < r.trxs.length; k++) {
    var t = r.trxs.at(k);
    if (r.inDump(t)) continue;
    if ((r.until !== null && t.commit >= r.until) || r.isStop(t, r.stopBefore)) { stopAt = k; break; }
    if (r.isStop(t, r.stopAfter)) { stopAt = k + 1; break; }
  }
  r.got.files.forEach(function (f, fk) {
    (f.incidents || []).forEach(function (pos) {
      var file = r.names[fk];
      var n = 0;
      var before = function (t) { return r.names.indexOf(t.file) < fk || (t.file === file && t.start < pos); };
      while (n < r.trxs.length && before(r.trxs.at(n))) n++;
      if (n < r.trxs.length && r.inDump(r.trxs.at(n))) return;
      if (n >= stopAt && stopAt < r.trxs.length) return;
      var prev = n > 0 && !r.inDump(r.trxs.at(n - 1)) ? r.trxs.at(n - 1) : null;
      var next = n < r.trxs.length ? r.trxs.at(n) : null;
      throw new UserError('BINLOG_INCIDENT', said('an INCIDENT event at ' + file + ':' + pos + ' (the source lost events there: a replica stops at it, ' +
        'mysqlbinlog breaks its output there) lies inside the replay. What the source lost is in no file, so nothing after it can be replayed ' +
        'as the source had it. ' + (next ? 'Replay up to it: stopBefore: "' + next.file + ':' + next.start + '" (the transaction after it)' +
          (prev ? ', or stopAfter: "' + prev.file + ':' + prev.start + '"' : '') + '.'
          : prev ? 'Replay up to it: stopAfter: "' + prev.file + ':' + prev.start + '" (the last transaction before it).'
            : 'No transaction after the dump comes before it: load the dump without binlogs.')), { file: file, position: pos });
    });
  });
}

module.exports = { checkFiles: checkFiles, checkStop: checkStop, checkUntil: checkUntil, checkIncidents: checkIncidents };
