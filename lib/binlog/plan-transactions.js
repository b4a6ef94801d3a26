// The transactions of a replay's plan held as columns (typed arrays, in blocks: no copy as they grow), 40 bytes
// each, instead of an object each (a million transactions after the dump). What few have (statements, sizes
// of 1 KB or more, anything unusual, what the preflight adds: schemaMap's texts, idempotent) in a map by row.
// Consumers see a list: length, at(k) (a fresh plain object, a view: changing it changes nothing), forEach, map,
// filter / slice / pick (lists of the same rows), some, every, and set(k, field, value) for what the plan changes.
// A test's plain array of objects works where a list does (setField, listOf).
var NONE = [];
var BITS = 14;
var BLOCK = 1 << BITS; // rows a block holds
var MASK = BLOCK - 1;
var INT_MAX = 2147483647;
var FAR = -32768; // a column's mark: the value is in extras

// One column: blocks of a typed array type.
function column(Type) {
  var blocks = [];
  return {
    get: function (i) { return blocks[i >> BITS][i & MASK]; },
    put: function (i, v) {
      var b = i >> BITS;
      while (blocks.length <= b) blocks.push(new Type(BLOCK));
      blocks[b][i & MASK] = v;
    },
  };
}

// files: the names of the files read, in order (a row's file index is into it); sets: the table sets, each
// {name: true}, shared by the transactions writing the same tables.
function createStore(files, sets) {
  var n = 0;
  // What does not fit (a file past 4 GB, a transaction of 2 GB or more, more than 65,535 files or 32,767 sources, a
  // clock value past 2^31) is kept in extras: the column then holds its mark (FAR).
  var file = column(files.length < 65535 ? Uint16Array : Int32Array);
  var start = column(Uint32Array);
  var size = column(Int32Array); // end - start; -1: end null
  var src = column(Int16Array); // -1: no GTID read
  var gno = column(Float64Array);
  var lc = column(Int32Array); // -1: null (or in extras)
  var seq = column(Int32Array);
  var commit = column(Float64Array); // NaN: null
  var set = column(Int32Array); // the set read; once chosen, -2 - the index of the names it writes (tablesIndex)
  var extras = new Map();
  var sources = [];
  var sourceAt = new Map();
  var tableLists = [];

  function sourceIndex(key) {
    var i = sourceAt.get(key);
    if (i === undefined) {
      i = sources.length;
      sources.push(key);
      sourceAt.set(key, i);
    }
    return i;
  }

  function extra(row) {
    var x = extras.get(row);
    if (!x) { x = {}; extras.set(row, x); }
    return x;
  }

  function putGtid(row, text) {
    var at = text === null || text === undefined ? -1 : text.lastIndexOf(':');
    var u = at < 0 ? -1 : sourceIndex(text.slice(0, at));
    if (u > 32766) { extra(row).gtid = text; u = FAR; }
    src.put(row, u);
    gno.put(row, at < 0 ? 0 : Number(text.slice(at + 1)));
  }

  function putClock(row, col, name, v) {
    if (typeof v === 'number' && v >= 0 && v <= INT_MAX && v === Math.floor(v)) col.put(row, v);
    else {
      col.put(row, -1);
      if (v !== null && v !== undefined) extra(row)[name] = v;
    }
  }

  // r: binlog_plan.py's row [file index, start, end, gtid, lastCommitted, sequenceNumber, commit, set index,
  // binlog size, query size, event size, extra {statements, undecoded, unsized, unsupported, incomplete, compression,
  // sizes, inDump} | 0].
  function push(r) {
    var row = n++;
    file.put(row, r[0]);
    if (r[1] > 4294967295) extra(row).start = r[1];
    start.put(row, r[1]);
    var len = r[2] === null ? -1 : r[2] - r[1];
    if (len > INT_MAX) { extra(row).end = r[2]; len = FAR; }
    size.put(row, len);
    putGtid(row, r[3]);
    putClock(row, lc, 'lastCommitted', r[4]);
    putClock(row, seq, 'sequenceNumber', r[5]);
    commit.put(row, r[6] === null ? NaN : r[6]);
    set.put(row, r[7]);
    var x = r[11];
    // Below 1 KB no piece can exceed max_allowed_packet (its least value): no sizes kept.
    var sizes = x && x.sizes ? x.sizes : Math.max(r[8], r[9], r[10]) >= 1024
      ? { binlog: r[8], binlogAt: r[1], query: r[9], queryAt: r[1], event: r[10], eventAt: r[1] } : null;
    if (x || sizes) {
      var o = extra(row);
      ['statements', 'undecoded', 'unsized', 'unsupported', 'incomplete', 'compression'].forEach(function (k) { if (x && x[k]) o[k] = x[k]; });
      if (x && x.inDump) o.inDump = true;
      if (sizes) o.sizes = sizes;
    }
  }

  // The plain object a consumer reads for a row.
  function view(row) {
    var x = extras.get(row);
    var u = src.get(row);
    var b = x && x.start !== undefined ? x.start : start.get(row);
    var len = size.get(row);
    var c = commit.get(row);
    var l = lc.get(row);
    var q = seq.get(row);
    var s = set.get(row);
    var time = c === c ? c : null;
    return {
      row: row,
      file: files[file.get(row)],
      start: b,
      end: len === FAR ? x.end : len < 0 ? null : b + len,
      gtid: u === FAR ? x.gtid : u < 0 ? null : sources[u] + ':' + gno.get(row),
      lastCommitted: l >= 0 ? l : x && x.lastCommitted !== undefined ? x.lastCommitted : null,
      sequenceNumber: q >= 0 ? q : x && x.sequenceNumber !== undefined ? x.sequenceNumber : null,
      commit: time,
      time: time,
      set: s,
      tables: s <= -2 ? tableLists[-2 - s] : sets[s],
      statements: x && x.statements || NONE,
      undecoded: x && x.undecoded || NONE,
      unsized: x && x.unsized || NONE,
      unsupported: x && x.unsupported || NONE,
      incomplete: x && x.incomplete || null,
      compression: x && x.compression || null,
      inDump: !!(x && x.inDump),
      sizes: x && x.sizes || null,
      texts: x ? x.texts : undefined,
      idempotent: !!(x && x.idempotent),
    };
  }

  // What the plan changes on a row: gtid (a derived one), tablesAt (tablesIndex's: the names it writes), texts, idempotent.
  function change(row, field, value) {
    if (field === 'gtid') putGtid(row, value);
    else if (field === 'tablesAt') set.put(row, -2 - value);
    else if (field === 'texts' || field === 'idempotent') extra(row)[field] = value;
    else throw new Error('plan-transactions: ' + field + ' is not a field a plan changes');
  }

  var store = { push: push, view: view, change: change, size: function () { return n; },
    // A list of table names the rows may share (set(k, 'tablesAt', index)).
    tablesIndex: function (names) { tableLists.push(names); return tableLists.length - 1; } };
  return store;
}

// The list of rows (an Int32Array of store rows, or null: every row from 0 to the store's size then) of a store.
function listOf(store, rows) {
  var length = rows ? rows.length : store.size();
  var rowAt = rows ? function (k) { return rows[k]; } : function (k) { return k; };
  var at = function (k) { return k >= 0 && k < length ? store.view(rowAt(k)) : undefined; };
  var pickRows = function (ks) {
    var out = new Int32Array(ks.length);
    for (var i = 0; i < ks.length; i++) out[i] = rowAt(ks[i]);
    return listOf(store, out);
  };
  return {
    length: length,
    at: at,
    forEach: function (fn) { for (var k = 0; k < length; k++) fn(store.view(rowAt(k)), k); },
    map: function (fn) { var out = []; for (var k = 0; k < length; k++) out.push(fn(store.view(rowAt(k)), k)); return out; },
    some: function (fn) { for (var k = 0; k < length; k++) if (fn(store.view(rowAt(k)), k)) return true; return false; },
    every: function (fn) { for (var k = 0; k < length; k++) if (!fn(store.view(rowAt(k)), k)) return false; return true; },
    filter: function (fn) {
      var out = new Int32Array(Math.min(length, 1024));
      var m = 0;
      for (var k = 0; k < length; k++) {
        if (!fn(store.view(rowAt(k)), k)) continue;
        if (m === out.length) { var more = new Int32Array(Math.min(length, m * 2)); more.set(out); out = more; }
        out[m++] = rowAt(k);
      }
      return listOf(store, out.subarray(0, m));
    },
    // ks: indexes into this list, in the order wanted.
    pick: pickRows,
    slice: function (a, b) {
      var from = Math.max(0, Math.min(length, a === undefined ? 0 : a < 0 ? length + a : a));
      var to = Math.max(from, Math.min(length, b === undefined ? length : b < 0 ? length + b : b));
      var out = new Int32Array(to - from);
      for (var i = from; i < to; i++) out[i - from] = rowAt(i);
      return listOf(store, out);
    },
    set: function (k, field, value) { store.change(rowAt(k), field, value); },
    tablesIndex: store.tablesIndex,
  };
}

// A store: push(row), size(), list() (of the rows pushed so far).
function create(files, sets) {
  var store = createStore(files, sets);
  return { push: store.push, size: store.size, list: function () { return listOf(store, null); } };
}

// set on a list, or on a plain array's object (tests build plans of plain objects).
function setField(list, k, field, value) {
  if (typeof list.set === 'function') list.set(k, field, value);
  else list[k][field] = value;
}

module.exports = { create: create, setField: setField };
