// The binary log files a replay's plan reads (host.files.binlogPlan, plugins/restore/restore_py/binlog_plan.py):
// from the dump's file to the stop, no further, each transaction the dump holds summarised, every other one
// crossing as a short array kept here in columns (./plan-transactions.js: a list planReplay works on). And, when the target holds GTIDs
// the replay up to the stop does not explain, whether those lie past the stop (heldPastStop: a scan of the
// files from the stop on, only then).
var folderOf = require('./binlog-folder.js');
var gtids = require('./gtid-set.js');
var planTransactions = require('./plan-transactions.js');
var memory = require('../core/memory.js');

// Transactions a batch of the companion's read holds (one JSON text at a time crosses, never every transaction):
// small enough that a batch as parsed, here and in Python, is little beside the plan's columns.
var BATCH = 5000;

// folder: binlog-folder.js folderFiles' (or binlog-source.js openBinlogs'); spec: binlog_plan.plan's; found (a stop by
// name, spec.toEnd): list -> whether the stop is among the transactions of a batch (a list): the read then ends there.
// Returns what binlog-folder.js readFolder returns (files, transactions, last) with inDump {count, gtids, last},
// gtidsRead, gtidsBeforeStop, tagless, stopped ({file, position} or null) and unread (names of the files not read).
function readPlan(host, folder, spec, found) {
  var paths = folder.files.map(function (n) { return host.files.join(folder.dir, n); });
  if (!paths.length) {
    return { files: [], unread: [], transactions: planTransactions.create([], []).list(), inDump: { count: 0, gtids: '', last: null }, gtidsRead: '', gtidsBeforeStop: '',
      tagless: false, stopped: null, last: null };
  }
  var id = host.files.binlogPlan(paths, spec).id;
  var tables = [];
  // A table set: {name: true} (the filters read its keys), shared by the transactions writing it.
  var sets = [];
  var store = planTransactions.create(folder.files, sets);
  var batches = 0;
  var finish = false;
  var got;
  do {
    var from = store.size();
    got = host.files.binlogPlanNext(id, BATCH, finish);
    tables.push.apply(tables, got.tables);
    got.sets.forEach(function (ids) {
      var o = {};
      ids.forEach(function (i) { o[tables[i]] = true; });
      sets.push(o);
    });
    for (var k = 0; k < got.transactions.length; k++) store.push(got.transactions[k]);
    got.transactions = null;
    // Each batch as parsed outlives a young collection and then dies: collected every 50,000 (lib/core/memory.js).
    if (++batches % 10 === 0) memory.settle(host, 10 * BATCH);
    finish = !got.done && !!found && found(store.list().slice(from));
  } while (!got.done);
  got.transactions = store.list();
  got.unread = got.unread.map(function (p) { return host.files.basename(p); });
  got.files = got.files.filter(function (f) {
    if (!f.error || f.error.code !== 'not-a-binlog') return true;
    folder.skipped.push({ file: host.files.basename(f.path), reason: f.error.reason });
    return false;
  });
  if (folder.order === 'file names') {
    folder.missing = folderOf.numberGaps(got.files.map(function (f) { return host.files.basename(f.path); }).concat(got.unread));
  }
  return got;
}

// plan: planReplay's (pastStop {dir, files (the stop's file and those after), position, known (a GTID set's text: the
// dump's, the first file's previous GTIDs, every GTID up to the stop), numbered, uuid}); now: the target's gtid_executed (a set).
// The last transaction past the stop the target holds, {gtid, time}, or null.
function heldPastStop(host, plan, now) {
  var p = plan.pastStop;
  if (!p) return null;
  var cand = gtids.minus(now, gtids.parseSet(p.known));
  var derived = {};
  if (p.uuid && cand[p.uuid]) {
    // A dump without GTIDs: the replay numbers its transactions uuid:1, 2…; those above the stop's number are past it.
    gtids.addRange(derived, p.uuid, p.numbered + 1, Number.MAX_SAFE_INTEGER);
    derived = gtids.minus(cand, gtids.minus(cand, derived));
  }
  delete cand[p.uuid];
  // Only sources the files carry: the last file's previous GTIDs hold every source before it (a source first
  // written in that file itself is not seen: its transactions are read only when another one is in question).
  var sources = {};
  Object.keys(gtids.parseSet(p.known)).forEach(function (s) { sources[s] = true; });
  if (Object.keys(cand).some(function (s) { return !sources[s]; })) {
    var head = host.files.binlogHead(host.files.join(p.dir, p.files[p.files.length - 1]));
    if (head.previousGtids) Object.keys(gtids.parseSet(head.previousGtids)).forEach(function (s) { sources[s] = true; });
  }
  Object.keys(cand).forEach(function (s) { if (!sources[s]) delete cand[s]; });
  Object.keys(derived).forEach(function (s) { cand[s] = derived[s]; });
  var text = gtids.setText(cand);
  if (!text) return null;
  var got = host.files.binlogPast(p.files.map(function (n) { return host.files.join(p.dir, n); }),
    { position: p.position, held: text, numbered: p.numbered, uuid: p.uuid || null });
  return got.last ? { gtid: got.last.gtid, time: got.last.commit } : null;
}

module.exports = { readPlan: readPlan, heldPastStop: heldPastStop };
