// The binary log files a replay's plan reads (host.files.binlogPlan, plugins/restore/restore_py/binlog_plan.py):
// from the dump's file to the stop, no further, each transaction the dump holds summarised, every other one
// crossing as a short array made here into the object planReplay works on. And, when the target holds GTIDs
// the replay up to the stop does not explain, whether those lie past the stop (heldPastStop: a scan of the
// files from the stop on, only then).
var folderOf = require('./binlog-folder.js');
var gtids = require('./gtid-set.js');

var NONE = [];
// Transactions a batch of the companion's read holds (one JSON text at a time crosses, never every transaction).
var BATCH = 20000;

// The sources of the GTIDs read ("uuid" or "uuid:tag"), each held once: a transaction keeps its source's index
// and its number, its GTID text made when asked (a million transactions, a few sources).
var SOURCES = [];
var SOURCE_AT = new Map();

function sourceIndex(key) {
  var i = SOURCE_AT.get(key);
  if (i === undefined) {
    i = SOURCES.length;
    SOURCES.push(key);
    SOURCE_AT.set(key, i);
  }
  return i;
}

// One transaction of the plan: what the schedule, the filters and the checks read, about a hundred bytes; what
// few have (statements, anything unusual, sizes of 1 KB or more) only on those, the rest from the prototype.
function Trx(r, names, sets) {
  this.file = names[r[0]];
  this.start = r[1];
  this.end = r[2];
  this.gtid = r[3];
  this.lastCommitted = r[4];
  this.sequenceNumber = r[5];
  this.commit = r[6];
  this.tables = sets[r[7]];
  // Below 1 KB no piece can exceed max_allowed_packet (its least value): no sizes kept.
  var x = r[11];
  if (x && x.sizes) this.sizes = x.sizes;
  else if (Math.max(r[8], r[9], r[10]) >= 1024) this.sizes = { binlog: r[8], binlogAt: r[1], query: r[9], queryAt: r[1], event: r[10], eventAt: r[1] };
  if (x) {
    if (x.statements) this.statements = x.statements;
    if (x.undecoded) this.undecoded = x.undecoded;
    if (x.unsized) this.unsized = x.unsized;
    if (x.unsupported) this.unsupported = x.unsupported;
    if (x.incomplete) this.incomplete = x.incomplete;
    if (x.compression) this.compression = x.compression;
    if (x.inDump) this.inDump = true;
  }
}
Object.defineProperty(Trx.prototype, 'gtid', {
  get: function () { return this.u === undefined ? null : SOURCES[this.u] + ':' + this.n; },
  set: function (text) {
    var at = text === null ? -1 : text.lastIndexOf(':');
    this.u = at < 0 ? undefined : sourceIndex(text.slice(0, at));
    this.n = at < 0 ? undefined : Number(text.slice(at + 1));
  },
});
// The plan's time of a transaction: its commit on the source's clock.
Object.defineProperty(Trx.prototype, 'time', { get: function () { return this.commit; } });
Trx.prototype.statements = NONE;
Trx.prototype.undecoded = NONE;
Trx.prototype.unsized = NONE;
Trx.prototype.unsupported = NONE;
Trx.prototype.incomplete = null;
Trx.prototype.compression = null;
Trx.prototype.inDump = false;
Trx.prototype.sizes = null;

// folder: binlog-folder.js folderFiles' (or binlog-source.js openBinlogs'); spec: binlog_plan.plan's.
// Returns what binlog-folder.js readFolder returns (files, transactions, last) with inDump {count, gtids, last},
// gtidsRead, gtidsBeforeStop, tagless, stopped ({file, position} or null) and unread (names of the files not read).
function readPlan(host, folder, spec) {
  var paths = folder.files.map(function (n) { return host.files.join(folder.dir, n); });
  if (!paths.length) {
    return { files: [], unread: [], transactions: [], inDump: { count: 0, gtids: '', last: null }, gtidsRead: '', gtidsBeforeStop: '',
      tagless: false, stopped: null, last: null };
  }
  var id = host.files.binlogPlan(paths, spec).id;
  var tables = [];
  // A table set: {name: true} (the filters read its keys), shared by the transactions writing it.
  var sets = [];
  var list = [];
  var got;
  do {
    got = host.files.binlogPlanNext(id, BATCH);
    tables.push.apply(tables, got.tables);
    got.sets.forEach(function (ids) {
      var o = {};
      ids.forEach(function (i) { o[tables[i]] = true; });
      sets.push(o);
    });
    for (var k = 0; k < got.transactions.length; k++) list.push(new Trx(got.transactions[k], folder.files, sets));
    got.transactions = null;
  } while (!got.done);
  got.transactions = list;
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
