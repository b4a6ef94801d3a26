// util.loadDump in several calls of a slice of the tables each (issue 44). Shell 9.1's loader picks
// each table's DDL task by a scan of the queued ones for a schema with no DDL running (never found
// when the tables share a schema) and each chunk by a scan of every table with data: quadratic in
// tables, ~13 s of mysqlsh CPU at 10,000 tables in one schema. Measured there (redo log off, 8
// threads, 2 CPUs): 1 call 45.0 s, 5 calls of 2,000 36.6 s, 20 of 500 41.9 s (each call pays ~0.5-1.5 s
// to open the dump); the fit T(b) = 31.6 + 12.9/b + 0.48b s gives calls of about 20·sqrt(tables).
// How the calls make ONE load (facts of Shell 9.1's loader, checked in test/shell/load-batches.test.js):
// they share the progress file; a call that finds it resumes (no check for existing objects, skips
// what the file says is done). A slice call gets includeSchemas/includeTables = its slice, no users,
// no GTID update. A schema's DDL (routines, events) runs in the first call with one of its tables and
// is marked done at the end of that call's view step, views or not: a schema with views is never
// sliced (they would never be created), its tables go to the last call. The last call: the load's own
// options without the sliced tables (the last slice, views, users, the GTID set, the rest).
var splitName = require('../dump/object-names.js').splitName;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var rowOwnership = require('../snapshot/row-ownership.js');
var existingSchemas = require('../server/server-tables.js').existingSchemas;
var groupDigits = require('../format/progress.js').groupDigits;

// Fewer tables: the scheduler's scans cost less than a call's fixed overhead.
var MIN_TABLES = 1500;
// Object filters util.loadDump applies inside a schema's DDL or to accounts: not sliced (unproven).
var OBJECT_FILTERS = ['includeRoutines', 'excludeRoutines', 'includeEvents', 'excludeEvents', 'includeTriggers', 'excludeTriggers',
  'includeUsers', 'excludeUsers', 'includeLibraries', 'excludeLibraries'];
var REMOTE = ['osBucketName', 's3BucketName', 'azureContainerName'];

// Tables per call for a load of n tables.
function batchSize(n) { return Math.max(1, Math.round(20 * Math.sqrt(n))); }

function key(schema, table) { return JSON.stringify([schema, table]); }

// Why a load of many tables runs in one call (null: it may be sliced). p as planBatches's.
function whyOneCall(host, p) {
  var lo = p.lo;
  if (p.planned && p.planned.viewed) return 'it goes through a load view (partial import, masks, schemaMap)';
  if (p.planned && p.planned.readsBucket) return 'util.loadDump reads the dump in a bucket (each call would open it again)';
  if (p.replay) return 'binlogs: the replay follows one load';
  if (p.topology && p.topology.kind !== 'standalone') return 'the server is a ' + p.topology.kind;
  if (!rowOwnership.progressFileOf(lo) || REMOTE.some(function (k) { return lo[k]; })) return 'no local progress file to share between calls';
  if (lo.dryRun) return 'dryRun';
  if (lo.loadDdl === false || lo.schema !== undefined || Number(lo.waitDumpTimeout) > 0) return 'loadDdl, schema or waitDumpTimeout given';
  if (lo.analyzeTables && lo.analyzeTables !== 'off') return 'util.loadDump\'s analyzeTables runs once at its end';
  if (lo.checksum) return 'util.loadDump\'s checksum';
  var filters = OBJECT_FILTERS.filter(function (k) { return Array.isArray(lo[k]) && lo[k].length; });
  if (filters.length) return filters.join(', ') + ' given';
  if (lo.ignoreExistingObjects || lo.dropExistingObjects || p.dropNative) return 'existing objects are dropped or ignored by util.loadDump';
  if (p.resumed) return null;
  // util.loadDump checks for existing objects only in a call that does not resume, and for that call's
  // objects: here for all of them, as it compares accounts ('user'@'host', case aside) and schemas.
  if (lo.loadUsers && !Array.isArray(p.accounts)) return 'loadUsers, and the dump\'s @.json lists no accounts to check against the server';
  var accounts = lo.loadUsers ? p.accounts.map(function (a) { return String(a).toLowerCase(); }) : [];
  if (accounts.length) {
    var there = host.sql.run('SELECT DISTINCT GRANTEE AS g FROM information_schema.USER_PRIVILEGES').rows.filter(function (r) {
      return accounts.indexOf(String(r.g).toLowerCase()) >= 0;
    });
    if (there.length) return 'account ' + String(there[0].g) + ' exists: util.loadDump checks for existing accounts only in its first call';
  }
  var schemas = [];
  p.objects.schemas.forEach(function (s) { if (schemas.indexOf(s.schema) < 0) schemas.push(s.schema); });
  var found = existingSchemas(host, schemas);
  if (found.length) return 'schema ' + found[0] + ' exists: util.loadDump checks for existing objects only in its first call';
  return null;
}

// The calls' options: slices[i] a slice call's tables, the last call the load's own options minus them.
function callOptions(lo, slices) {
  var sliced = {};
  var calls = slices.map(function (slice, i) {
    var o = Object.assign({}, lo);
    ['includeTables', 'excludeTables', 'includeSchemas', 'excludeSchemas', 'updateGtidSet'].forEach(function (k) { delete o[k]; });
    if (i > 0) delete o.resetProgress;
    var schemas = [];
    slice.forEach(function (t) {
      sliced[key(t.schema, t.table)] = true;
      if (schemas.indexOf(t.schema) < 0) schemas.push(t.schema);
    });
    o.includeSchemas = schemas;
    o.includeTables = slice.map(function (t) { return quoteTable(t.schema, t.table); });
    o.loadUsers = false;
    return o;
  });
  var last = Object.assign({}, lo);
  delete last.resetProgress;
  var names = [];
  slices.forEach(function (slice) { slice.forEach(function (t) { names.push(quoteTable(t.schema, t.table)); }); });
  // Shell 9.1 refuses a table in both includeTables and excludeTables.
  if (Array.isArray(lo.includeTables) && lo.includeTables.length) {
    last.includeTables = lo.includeTables.filter(function (n) {
      var parts = splitName(n, 'includeTables');
      return !sliced[key(parts[0], parts[1])];
    });
  } else last.excludeTables = (lo.excludeTables || []).concat(names);
  return calls.concat([last]);
}

// In the preflight, after util.loadDump's options are composed. p: {objects (what the load creates),
// lo (the composed options), planned, replay, topology, dropNative, resumed, accounts (@.json's users, or null)}. → {calls: [options of each
// util.loadDump call] or null (one call: lo), lines: the plan's}.
function planBatches(host, p) {
  var tables = p.objects.tables;
  if (tables.length < MIN_TABLES) return { calls: null, lines: [] };
  var why = whyOneCall(host, p);
  if (why) return { calls: null, lines: ['util.loadDump in one call of ' + groupDigits(tables.length) + ' tables: ' + why] };
  var withViews = {};
  p.objects.views.forEach(function (v) { withViews[v.schema] = true; });
  var free = tables.filter(function (t) { return !withViews[t.schema]; });
  var size = batchSize(tables.length);
  var count = Math.ceil(free.length / size);
  if (count < 2) {
    return { calls: null, lines: ['util.loadDump in one call of ' + groupDigits(tables.length) + ' tables: ' + groupDigits(tables.length - free.length) +
      ' of them in schemas with views, which go whole into one call'] };
  }
  var per = Math.ceil(free.length / count);
  var slices = [];
  for (var i = 0; i + per < free.length; i += per) slices.push(free.slice(i, i + per));
  var last = tables.length - slices.length * per;
  return { calls: callOptions(p.lo, slices), lines: ['util.loadDump in ' + (slices.length + 1) + ' calls of ≤' + groupDigits(Math.max(per, last)) +
    ' tables (the Shell\'s scheduler is quadratic in tables: ' + groupDigits(tables.length) + ' tables, calls of about 20·sqrt(tables) ' +
    'each); one progress file, the last call with the load\'s own filters for the other ' + groupDigits(last) + ' tables, views, users' +
    (free.length < tables.length ? ' (' + groupDigits(tables.length - free.length) + ' tables in schemas with views)' : '')] };
}

// The line printed before call i (0-based) of `calls`.
function callLine(calls, i) {
  return 'util.loadDump call ' + (i + 1) + ' of ' + calls.length + ': ' + (i < calls.length - 1
    ? groupDigits(calls[i].includeTables.length) + ' tables' : 'the load\'s own options, the tables above left out');
}

module.exports = { planBatches: planBatches, batchSize: batchSize, MIN_TABLES: MIN_TABLES, callOptions: callOptions, callLine: callLine };
