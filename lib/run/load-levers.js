// The levers a built-in preset pulls only where the dump's own figures say they pay (issue 44):
// fastest's "every secondary index deferred" costs one ALTER TABLE per table after its rows (a
// 20-row table pays it and gains nothing), and "ANALYZE TABLE after the load" re-reads tables that
// InnoDB's automatic statistics cover anyway. Decided in the preflight from @.done.json's bytes
// per table and the server's statistics settings; each decision is a plan line with its figures.
// An option given explicitly, or set by a user's preset, is never changed.
var globalVariables = require('../server/server-variables.js').globalVariables;
var formatBytes = require('../format/text-table.js').formatBytes;
var displayTable = require('../format/display-name.js').displayTable;

var MiB = 1024 * 1024;
// A table "big" enough for a sorted index build after its rows to pay for its ALTER TABLE.
var BIG_TABLE = 32 * MiB;
// So many smaller tables that their DDL (a CREATE TABLE each, waiting on file creation more than
// on the CPUs) rules the load: twice the preset's threads (1,000 tables of bench:tables' dump,
// redo log off, 2 CPUs: the DDL took 4 s with 8 threads against 8-9 s with 4; 5 s with 16).
var MANY_SMALL_TABLES = 1000;

function plural(n, one, many) { return n + ' ' + (n === 1 ? one : many); }

// Whether the preset (a built-in one), not the user, chose option `name`.
function presetChose(p, name) {
  return p.preset.source === 'built-in' && p.explicit[name] === undefined;
}

// tables: [{schema, dumpSchema, table}] → [{t, bytes}] from @.done.json (tableBytes: the
// preflight's, read once), or null when any is unknown.
function sizes(tables, tableBytes) {
  var bytesOf = tableBytes();
  if (!bytesOf) return null;
  var out = [];
  for (var i = 0; i < tables.length; i++) {
    var b = bytesOf(tables[i].dumpSchema, tables[i].table);
    if (b === null) return null;
    out.push({ t: tables[i], bytes: b });
  }
  return out;
}

function total(list) { return list.reduce(function (s, x) { return s + x.bytes; }, 0); }

// Deferring every index pays where the bytes are: the tables of at least BIG_TABLE must hold more
// MiB than there are smaller tables (each of those pays one ALTER TABLE and gains nothing).
function deferChoice(sized, presetName) {
  var big = sized.filter(function (x) { return x.bytes >= BIG_TABLE; });
  var smallCount = sized.length - big.length;
  var bigBytes = total(big);
  var figures = plural(big.length, 'table', 'tables') + ' of at least ' + formatBytes(BIG_TABLE) + (big.length === 1 ? ' holds ' : ' hold ') + formatBytes(bigBytes) +
    ' of the ' + formatBytes(total(sized)) + ' of data; ' + plural(smallCount, 'smaller table', 'smaller tables');
  if (big.length && bigBytes / MiB >= smallCount) {
    return { value: 'all', line: 'Indexes deferred: all (preset ' + presetName + '): ' + figures + ' (the rule: defer when the big tables\' ' +
      'MiB outnumber the smaller tables, each of which pays one ALTER TABLE)' };
  }
  var largest = sized.reduce(function (m, x) { return !m || x.bytes > m.bytes ? x : m; }, null);
  return { value: 'fulltext', line: 'Indexes deferred: fulltext (util.loadDump\'s default), not the preset\'s all: ' + figures +
    (largest ? ' (the largest: ' + displayTable(largest.t.schema, largest.t.table) + ', ' + formatBytes(largest.bytes) + ')' : '') +
    '; one ALTER TABLE per table after its rows would cost more than it saves' };
}

// ANALYZE TABLE pays where InnoDB's automatic recalculation samples less than the table holds.
function analyzeChoice(host, sized, presetName) {
  var names = ['innodb_stats_persistent', 'innodb_stats_auto_recalc', 'innodb_stats_persistent_sample_pages', 'innodb_page_size'];
  var v = globalVariables(host, names);
  names.forEach(function (n) { if (v[n] === undefined) v[n] = 'not set'; });
  if (String(v.innodb_stats_persistent) !== 'ON' || String(v.innodb_stats_auto_recalc) !== 'ON') {
    return { tables: null, line: 'Analyze after the load: every table (preset ' + presetName + '): innodb_stats_persistent is ' +
      v.innodb_stats_persistent + ', innodb_stats_auto_recalc ' + v.innodb_stats_auto_recalc + ' on this server' };
  }
  var cutoff = Number(v.innodb_stats_persistent_sample_pages) * Number(v.innodb_page_size);
  var chosen = sized.filter(function (x) { return x.bytes >= cutoff; });
  return { tables: chosen.map(function (x) { return x.t; }),
    line: 'Analyze after the load: ' + chosen.length + ' of ' + plural(sized.length, 'table', 'tables') + ' (preset ' + presetName +
      '), those with at least ' + formatBytes(cutoff) + ' of data in the dump (innodb_stats_persistent_sample_pages ' +
      v.innodb_stats_persistent_sample_pages + ' x innodb_page_size ' + formatBytes(Number(v.innodb_page_size)) + '); the ' +
      (sized.length - chosen.length) + ' smaller are left to InnoDB\'s automatic recalculation (innodb_stats_auto_recalc ON)' };
}

// p: {tableBytes (() -> (dumpSchema, table) -> bytes @.done.json records, or null), tables (what the load creates), preset,
// explicit, lo (util.loadDump's options as resolved), own}. → {loadOptions: what util.loadDump gets instead of the preset's, analyzeTables:
// the tables to analyze (null: every loaded table), lines: the plan's, one per lever decided}.
function chooseLevers(host, p) {
  var out = { loadOptions: {}, analyzeTables: null, lines: [] };
  var defer = p.lo.deferTableIndexes === 'all' && p.lo.loadIndexes !== false && presetChose(p, 'deferTableIndexes');
  var analyze = p.own.analyze === 'on' && presetChose(p, 'analyze');
  if ((!defer && !analyze) || !p.tables.length) return out;
  var sized = sizes(p.tables, p.tableBytes);
  if (!sized) {
    out.lines.push('Levers of preset ' + p.preset.name + ' kept as they are: @.done.json records no data size for some loaded tables');
    return out;
  }
  if (defer) {
    var d = deferChoice(sized, p.preset.name);
    if (d.value !== 'all') out.loadOptions.deferTableIndexes = d.value;
    out.lines.push(d.line);
  }
  var deferredAll = (out.loadOptions.deferTableIndexes || p.lo.deferTableIndexes) === 'all';
  var small = sized.filter(function (x) { return x.bytes < BIG_TABLE; }).length;
  // Only where the preset chose the threads (fastest, whose redo log is off: measured there; dev's
  // load with the redo log on took longer with 8: DDL 57 s, 97 s in all against the defaults' 82 s).
  var given = Number(p.lo.threads);
  if (!deferredAll && p.lo.loadDdl !== false && small >= MANY_SMALL_TABLES && given > 0 && presetChose(p, 'threads')) {
    out.loadOptions.threads = 2 * given;
    out.lines.push('Threads: ' + out.loadOptions.threads + ', twice the preset\'s ' + given + ': ' + small + ' tables smaller than ' + formatBytes(BIG_TABLE) + ' (at least ' + MANY_SMALL_TABLES + '), each one CREATE TABLE ' +
      'that waits on the disk more than on the CPUs');
  }
  if (analyze) {
    var a = analyzeChoice(host, sized, p.preset.name);
    out.analyzeTables = a.tables;
    out.lines.push(a.line);
  }
  return out;
}

module.exports = { chooseLevers: chooseLevers, BIG_TABLE: BIG_TABLE };
