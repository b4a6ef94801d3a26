// The data files of one table or partition, without an object per file: a dump may hold a
// million chunks, and util.loadDump's names are fixed by the base name, the extension and the
// chunk number (contract §2), so a name is made when it is needed and every per-chunk fact lives
// in one typed array per fact. Typed arrays are only touched here: other files call these
// functions (values crossing files are wrapped anew under GraalJS).
var names = require('./chunk-names.js');

var STATES = ['', 'present', 'empty', 'stub', 'missing', 'corrupt', 'unchecked'];
var STATE_CODE = {};
STATES.forEach(function (s, i) { STATE_CODE[s] = i; });
var UNREADABLE = 1;
var COPY = 2;
var NOT_REGULAR = 4; // unreadable because not a regular file: util.loadDump does not see it
var WANTS_HEAD = 8; // its first bytes are to be read (chunk-survey.js): a mark, not a list of a million

// The per-chunk facts of every chunk table of a dump model live in one store, a typed array per
// fact, chunk i of a table at position ct.at + i: an array per table cost some 100 bytes of its own
// (100,000 tables: 10 MB), a typed array per table and fact some 250. Unset: NaN for sizes and
// keys, 0 for states and flags. The rare facts (an extra chunk marked last, a problem's text) are
// kept by position in the store's maps.
var DATA = 0;
var FILE = 1;
var HEAD = 2;
var STATE = 3;
var FLAG = 4;
var FACTS = 5;
var TYPES = [Float64Array, Float64Array, Float64Array, Uint8Array, Uint8Array];

function unset(c) { return c >= STATE ? 0 : NaN; }

// A store for about `chunks` chunks (it grows when more are placed).
function newStore(chunks) {
  var store = { size: 0, used: 0, cols: [], marks: null, problems: null };
  grow(store, Math.max(0, chunks || 0));
  return store;
}

function grow(store, size) {
  for (var c = 0; c < FACTS; c++) {
    var a = new TYPES[c](size);
    if (store.size) a.set(store.cols[c]);
    if (c < STATE) a.fill(NaN, store.size);
    store.cols[c] = a;
  }
  store.size = size;
}

// Tables without chunks share one store with no room.
var NO_CHUNKS = newStore(0);

function resetFacts(ct, from) {
  for (var c = from; c < FACTS; c++) ct.store.cols[c].fill(unset(c), ct.at, ct.at + ct.length);
}

function get(ct, c, i) { return ct.store.cols[c][ct.at + i]; }

function put(ct, c, i, v) { ct.store.cols[c][ct.at + i] = v; }

// count chunks, numbered 0..count-1; lastIndex: the chunk marked last (@@N), -1 when none is;
// whole: the table was dumped as one file (<base>.<ext>), its only chunk 0; store: from newStore,
// shared by the tables of a model (none: a store of this table's own).
function newChunkTable(base, ext, count, lastIndex, whole, store) {
  var s = count === 0 ? NO_CHUNKS : store || newStore(count);
  if (s.used + count > s.size) grow(s, Math.max(s.used + count, 2 * s.size));
  var ct = { base: base, ext: ext, length: count, lastIndex: lastIndex, whole: !!whole, surveyed: false, at: s.used, store: s };
  s.used += count;
  return ct;
}

function emptyChunkTable() { return newChunkTable('', '', 0, -1, false); }

// Marks chunk i last as well (conflicting files: only its @@ file exists).
function markLast(ct, i) {
  if (!ct.store.marks) ct.store.marks = new Set();
  ct.store.marks.add(ct.at + i);
}

function isLast(ct, i) {
  return ct.whole || i === ct.lastIndex || (ct.store.marks !== null && ct.store.marks.has(ct.at + i));
}

function fileOf(ct, i) {
  return ct.whole ? names.wholeFileName(ct.base, ct.ext) : names.chunkFileName(ct.base, ct.ext, i, isLast(ct, i));
}

function dataBytesOf(ct, i) {
  var v = get(ct, DATA, i);
  return v === v ? v : null; // NaN: not recorded
}

function setDataBytes(ct, i, bytes) { put(ct, DATA, i, bytes === null || bytes === undefined ? NaN : bytes); }

// The survey's arrays, made once it starts.
function startSurvey(ct) {
  resetFacts(ct, FILE);
  ct.surveyed = true;
  var p = ct.store.problems;
  for (var i = 0; p && i < ct.length; i++) p.delete(ct.at + i);
}

// A number standing for a file's first bytes (chunk-survey.js), or null when they were not read.
function headKeyOf(ct, i) {
  var v = get(ct, HEAD, i);
  return v === v ? v : null;
}

function setHeadKey(ct, i, key) { put(ct, HEAD, i, key); }

// Bytes of the file on disk; null when it is not there (or was not looked up).
function fileBytesOf(ct, i) {
  var v = get(ct, FILE, i);
  return v === v ? v : null;
}

function setFileBytes(ct, i, bytes) { put(ct, FILE, i, bytes === null || bytes === undefined ? NaN : bytes); }

function stateOf(ct, i) { return STATES[get(ct, STATE, i)] || null; }

function setState(ct, i, state) { put(ct, STATE, i, STATE_CODE[state]); }

function flag(ct, i, bit, on) {
  var bits = get(ct, FLAG, i);
  if (on === undefined) return !!(bits & bit);
  put(ct, FLAG, i, on ? bits | bit : bits & ~bit);
  return on;
}

function isUnreadable(ct, i, on) { return flag(ct, i, UNREADABLE, on); }
function isCopy(ct, i, on) { return flag(ct, i, COPY, on); }
function isNotRegular(ct, i, on) { return flag(ct, i, NOT_REGULAR, on); }
function wantsHead(ct, i, on) { return flag(ct, i, WANTS_HEAD, on); }

function problemOf(ct, i) {
  var p = ct.store.problems;
  return p && p.has(ct.at + i) ? p.get(ct.at + i) : null;
}
function setProblem(ct, i, text) {
  if (!ct.store.problems) ct.store.problems = new Map(); // made when a first problem is set
  ct.store.problems.set(ct.at + i, text);
}

// Indexes of the chunks in state s, in order.
function indexesIn(ct, s) {
  var out = [];
  var code = STATE_CODE[s];
  if (!ct.surveyed || !code) return out;
  for (var i = 0; i < ct.length; i++) if (get(ct, STATE, i) === code) out.push(i);
  return out;
}

// A plain object for one chunk, for reports and the few chunks handled one by one.
function chunkAt(ct, i) {
  return { index: i, last: isLast(ct, i), file: fileOf(ct, i), dataBytes: dataBytesOf(ct, i), fileBytes: fileBytesOf(ct, i),
    state: stateOf(ct, i), problem: problemOf(ct, i), unreadable: isUnreadable(ct, i), copy: isCopy(ct, i) };
}

// Sum of the recorded sizes of chunks [from, to) (unknown ones count 0: see someUnknown).
function sumDataBytes(ct, from, to) {
  var n = 0;
  for (var i = from; i < to; i++) { var v = get(ct, DATA, i); if (v === v) n += v; }
  return n;
}

// Whether some chunk in [from, to) has no recorded size.
function someUnknown(ct, from, to) {
  for (var i = from; i < to; i++) { var v = get(ct, DATA, i); if (v !== v) return true; }
  return false;
}

// The names of chunks `indexes` (sorted) of a chunked table, each plus `suffix`, as runs
// [prefix, from, to, suffix]: every name prefix + n + suffix for n in [from, to).
function nameRuns(ct, indexes, suffix) {
  var runs = [];
  for (var k = 0; k < indexes.length;) {
    var from = indexes[k];
    var last = isLast(ct, from);
    var to = from + 1;
    k++;
    while (k < indexes.length && indexes[k] === to && isLast(ct, to) === last) { to++; k++; }
    var parts = names.chunkNameParts(ct.base, ct.ext, last);
    runs.push([parts[0], from, to, parts[1] + suffix]);
  }
  return runs;
}

// Chunks [from, to) as host.files runs (no list of their numbers made); a table dumped whole: its one file.
function rangeRuns(ct, from, to) {
  if (ct.whole) return from < to ? [[fileOf(ct, 0)]] : [];
  var runs = [];
  for (var i = from; i < to;) {
    var last = isLast(ct, i);
    var end = i + 1;
    while (end < to && isLast(ct, end) === last) end++;
    var parts = names.chunkNameParts(ct.base, ct.ext, last);
    runs.push([parts[0], i, end, parts[1]]);
    i = end;
  }
  return runs;
}

// Chunks `indexes` (in order) as host.files runs, each name plus suffix ('' or '.idx'); a table
// dumped whole: its one file.
function fileRuns(ct, indexes, suffix) {
  if (!indexes.length) return [];
  return ct.whole ? [[fileOf(ct, 0) + suffix]] : nameRuns(ct, indexes, suffix);
}

// Calls fn(piece, count) for consecutive pieces of host.files runs naming at most `most` files each.
function eachBatch(runs, most, fn) {
  var batch = [];
  var count = 0;
  function flush() {
    if (batch.length) fn(batch, count);
    batch = [];
    count = 0;
  }
  runs.forEach(function (r) {
    if (r.length === 1) { batch.push(r); count++; }
    for (var from = r[1]; r.length > 1 && from < r[2];) {
      var to = Math.min(r[2], from + most - count);
      batch.push([r[0], from, to, r[3]]);
      count += to - from;
      from = to;
      if (count >= most) flush();
    }
    if (count >= most) flush();
  });
  flush();
}

// The chunk numbers in each state as ranges, {present: "0-97, 99", missing: "98"}: only the states
// that occur, in one pass (a table of a million chunks makes a few strings, not a list).
function stateRanges(ct) {
  var out = {};
  if (!ct.surveyed) return out;
  var parts = {};
  for (var i = 0; i < ct.length;) {
    var code = get(ct, STATE, i);
    var end = i + 1;
    while (end < ct.length && get(ct, STATE, end) === code) end++;
    var s = STATES[code];
    if (s) (parts[s] = parts[s] || []).push(end - i === 1 ? String(i) : i + '-' + (end - 1));
    i = end;
  }
  Object.keys(parts).forEach(function (s) { out[s] = parts[s].join(', '); });
  return out;
}

// "0-3, 7, 9-12" for sorted indexes (at most `limit` ranges, then "…").
function describeRanges(indexes, limit) {
  var ranges = [];
  for (var i = 0; i < indexes.length; i++) {
    var start = indexes[i];
    while (i + 1 < indexes.length && indexes[i + 1] === indexes[i] + 1) i++;
    if (limit !== undefined && ranges.length === limit) return ranges.join(', ') + ', …';
    ranges.push(start === indexes[i] ? String(start) : start + '-' + indexes[i]);
  }
  return ranges.join(', ');
}

module.exports = { newStore: newStore, newChunkTable: newChunkTable, emptyChunkTable: emptyChunkTable, markLast: markLast, isLast: isLast,
  fileOf: fileOf, dataBytesOf: dataBytesOf, setDataBytes: setDataBytes, startSurvey: startSurvey, fileBytesOf: fileBytesOf,
  setFileBytes: setFileBytes, headKeyOf: headKeyOf, setHeadKey: setHeadKey, stateOf: stateOf, setState: setState, isUnreadable: isUnreadable, isNotRegular: isNotRegular, isCopy: isCopy, wantsHead: wantsHead,
  problemOf: problemOf, setProblem: setProblem, indexesIn: indexesIn, chunkAt: chunkAt, sumDataBytes: sumDataBytes,
  someUnknown: someUnknown, describeRanges: describeRanges, stateRanges: stateRanges, nameRuns: nameRuns,
  fileRuns: fileRuns, rangeRuns: rangeRuns, eachBatch: eachBatch };
