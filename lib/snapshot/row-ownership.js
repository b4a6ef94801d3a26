// Row ownership: every statement the plugin runs after util.loadDump (since's trim, orphans
// "delete" and "parents", masks by UPDATE, any later step) touches only rows this load wrote. The
// one place that decides it; each post-load step asks here in the preflight, before anything changes.
//
// A loaded table holds rows of its own when it is on the server before the load, is not dropped by
// it (ignoreExistingObjects, loadDdl: false) and holds a row (an empty table holds none: loading
// into pre-created empty tables goes on). A step that would write such a table is limited to what
// the load wrote, where that is provable, or refused here:
//   since's trim   limited to the loaded chunks' keys (the chunking key at or after the boundary
//                  chunk's first row) when none of the table's own rows is in that range; else refused
//   orphans        refused for the child tables ("delete": its DELETEs; "parents": also the referenced
//                  tables it INSERTs into, where a copied row could collide with a row of its own)
//   masks (UPDATE) refused for every table of the masked columns' foreign key groups
//   replay         refused for the tables its transactions (those the target does not hold yet) change
// util.loadDump itself loads with LOAD DATA … REPLACE (MySQL Shell 9.1): a row of its own with a
// loaded row's primary or unique key is replaced by that row; the plan says so.
// Whatever the table holds: a trigger a step fires (DELETE for the trim and orphans, INSERT for parents,
// UPDATE for masks) whose body writes rows is refused (TRIGGER_WRITES). Tables are matched as the server
// names them (lower_case_table_names).
//
// A resumed load (its progress file there): the tables the earlier attempt filled hold its rows,
// not rows of their own. The first attempt records what it measured beside the progress file
// (recordPath); a resumed one reads it, and refuses where it has no record. A replay rolled forward
// (lib/binlog/replay-record.js: gtid_executed is what the restore left plus this replay's beginning):
// the same, from the facts the replay's record kept of the first load.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var loadedTable = require('../options/loaded-table.js').loadedTable;
var relations = require('../options/relations.js');
var firstRow = require('../dump/chunk-heads.js').firstRow;
var headReader = require('../remote/head-reader.js').headReader;
var tableDdl = require('./table-ddl.js');
var masking = require('./masking.js');
var ddlForeignKeys = require('./deferred-indexes.js').ddlForeignKeys;
var loadedForeignKeys = require('./foreign-keys.js').loadedForeignKeys;
var tableKey = require('./foreign-keys.js').tableKey;
var foldsTableNames = require('../server/server-tables.js').foldsTableNames;

var RECORD_FORMAT = 1;
var INT_TYPES = { tinyint: true, smallint: true, mediumint: true, int: true, integer: true, bigint: true };
var TIME_TYPES = { date: true, datetime: true };

function lower(schema, table) { return tableKey(String(schema).toLowerCase(), String(table).toLowerCase()); }

// A table's key on this server (fold: lower_case_table_names is 1 or 2, lib/server/server-tables.js): with 0,
// `Orders` and `orders` are two tables, and the rows of one must not be taken for the other's.
function keyer(fold) { return fold ? lower : function (schema, table) { return tableKey(String(schema), String(table)); }; }

// The record of a first attempt, beside util.loadDump's progress file.
function recordPath(progressFile) { return progressFile + '.own-rows.json'; }

// The loaded tables on the server now, not dropped by the load: {key: {schema, table} as the server names it}.
// key: the table key of this server (keyer), when the caller has it.
function existingTables(host, tables, drops, key) {
  key = key || keyer(foldsTableNames(host));
  var schemas = [];
  tables.forEach(function (t) { if (schemas.indexOf(t.schema) < 0) schemas.push(t.schema); });
  if (!schemas.length) return {};
  var dropped = {};
  (drops || []).forEach(function (d) { if (d.kind === 'TABLE') dropped[key(d.schema, d.name)] = true; });
  var loaded = {};
  tables.forEach(function (t) { loaded[key(t.schema, t.table)] = true; });
  var out = {};
  host.sql.run("SELECT TABLE_SCHEMA AS s, TABLE_NAME AS t FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND " +
    'TABLE_SCHEMA IN (' + schemas.map(function () { return '?'; }).join(', ') + ')', schemas).rows.forEach(function (r) {
    var k = key(r.s, r.t);
    if (loaded[k] && !dropped[k]) out[k] = { schema: String(r.s), table: String(r.t) };
  });
  return out;
}

// The loaded tables holding at least one row now ({key: {schema, table}}), of those in `existing`.
// tolerant: a table the account may not read counts as holding rows (unread: true; no step of this load
// writes it, and a resumed one takes it as such), else the error stands.
function holdingRows(host, existing, tolerant) {
  var out = {};
  Object.keys(existing).forEach(function (k) {
    var t = existing[k];
    try {
      if (host.sql.run('SELECT 1 AS x FROM ' + quoteTable(t.schema, t.table) + ' LIMIT 1').rows.length) out[k] = t;
    } catch (e) {
      if (!tolerant || !e || !e.isSqlError) throw e;
      out[k] = { schema: t.schema, table: t.table, unread: true };
    }
  });
  return out;
}

// Every key a post-load step may follow, as far as the preflight can know them: the server's (the
// tables already there keep their own DDL), the dump's CREATE TABLE texts, the relations option.
function plannedKeys(host, snap, objects, dump, loadDdl) {
  var tables = objects.tables;
  var more = [];
  if (loadDdl !== false) more = ddlForeignKeys(tables, snap.ddl || tableDdl.dumpTableColumns(host, dump, tables));
  (snap.relations || []).forEach(function (rel) {
    try {
      more = more.concat(relations.relationKeys([rel], tables, function () { return true; }));
    } catch (e) {
      if (!e || !e.isUserError) throw e; // a relation checked after the load: its child is not a loaded table
    }
  });
  return loadedForeignKeys(host, tables, more);
}

// What each post-load step would write: [{step, option, schema, table, why}]. replay: the replay's
// plan (lib/run/replay-preflight.js: its writes, the loaded tables its transactions not on the target yet change) or null.
// event: the statement it runs there (DELETE, INSERT, UPDATE; null: the replay's, the source's own).
function writes(snap, fks, objects, replay) {
  var out = [];
  function add(step, option, schema, table, why, event) {
    out.push({ step: step, option: option, schema: schema, table: table, why: why, event: event || null });
  }
  ((replay && replay.writes) || []).forEach(function (w) {
    add('replay', 'binlogs', w.schema, w.table, 'the source\'s transactions after the dump, from ' + w.gtid + ', change its rows by key, ' +
      'and a row of its own with the key of a source row would be changed');
  });
  if (snap.orphans === 'delete' || snap.orphans === 'parents') {
    var option = 'orphans: "' + snap.orphans + '"';
    fks.forEach(function (fk) {
      add('orphans', option, fk.schema, fk.table, 'its rows whose ' + fk.columns.join(', ') + ' references no row of ' +
        displayTable(fk.refSchema, fk.refTable) + ' are deleted', 'DELETE');
      if (snap.orphans === 'parents' && fk.refLoaded) {
        add('orphans', option, fk.refSchema, fk.refTable, 'rows missing from it are added from the dump\'s chunks, and one may ' +
          'collide with a row of its own', 'INSERT');
      }
    });
  }
  var specs = snap.specs || [];
  if (specs.length) {
    var groupOf = masking.keyGroups(fks);
    var during = {};
    (snap.loadMasks ? snap.loadMasks.masks : []).forEach(function (m) { during[JSON.stringify([m.schema, m.table, m.column])] = true; });
    specs.forEach(function (spec) {
      var t = loadedTable(objects.tables, spec.schema, spec.table);
      if (!t) return; // named wrong: the mask's own check says so
      var id = JSON.stringify([t.schema, t.table, spec.column]);
      (groupOf[id] || [id]).forEach(function (member) {
        // A mask applied while loading writes only loaded rows: no UPDATE for its own column.
        if (member === id && during[id]) return;
        var p = JSON.parse(member);
        add('mask', 'mask ' + spec.name, p[0], p[1], 'its column ' + p[2] + ' is masked by an UPDATE of every row' +
          (member === id ? '' : ' (linked to ' + spec.name + ' by a foreign key)'), 'UPDATE');
      });
    });
  }
  return out;
}

// The record of the first attempt of a resumed load, or null (none, or not one of ours).
function readRecord(host, path) {
  if (!host.files.isFile(path)) return null;
  try {
    var r = JSON.parse(host.files.loadText(path));
    return r && r.format === RECORD_FORMAT && Array.isArray(r.examined) && Array.isArray(r.own) && r.ranges ? r : null;
  } catch (e) {
    return null;
  }
}

// The key range since's trim may cover in a table (srv: its server name): the chunking key at or after
// the first row of the first chunk loaded ({columns, values, ints, chunk}), or {refused: why}.
function boundaryRange(host, ctx, planned, loaded, srv) {
  var facts = (planned.sel.sinceFacts || []).filter(function (f) { return f.schema === loaded.dumpSchema && f.table_ === loaded.table; });
  if (facts.length !== 1) return { refused: 'its since facts are not one boundary' };
  if (facts[0].partition !== null) return { refused: 'it is partitioned: its loaded chunks are no one key range' };
  var f = facts[0];
  var target = planned.model.targets.filter(function (t) { return t.schema === f.schema && t.table === f.table_ && t.partition === null; })[0];
  var key = target && Array.isArray(target.primaryIndex) ? target.primaryIndex : [];
  if (!target || !target.chunking || !key.length) {
    return { refused: 'the dump holds it unchunked or without a key, so the rows it loads are no key range' };
  }
  var info = tableDdl.serverTableColumns(host, srv.schema, srv.table);
  var names = (target.info.settings.loadDialect || {}).columns || [];
  var odd = key.filter(function (c) {
    var col = info && info.columns[c];
    return !col || names.indexOf(c) < 0 || (!INT_TYPES[col.type] && !TIME_TYPES[col.type]);
  });
  if (odd.length) return { refused: 'its chunking key (' + key.join(', ') + ') is not made of integer, DATE or DATETIME columns of the table' };
  // The first chunk the plan loads (the boundary chunk, unless a selection loads earlier ones too):
  // the range from its first row covers every chunk loaded, and is checked free of rows of its own.
  var entry = (planned.plan ? planned.plan.targets : []).filter(function (e) {
    return e.schema === f.schema && e.table === f.table_ && e.partition === null;
  })[0];
  var first = entry ? entry.from : f.boundary;
  if (entry) for (var i = 0; i < entry.from; i++) if (entry.stubbed.indexOf(i) < 0) { first = i; break; }
  var row = firstRow(host, target, first, headReader(host, ctx.dumpDir, ctx.source, ctx.options.rsh));
  var values = row === null ? null : key.map(function (c) { return row[names.indexOf(c)]; });
  var ints = key.map(function (c) { return !!INT_TYPES[info.columns[c].type]; });
  if (!values || values.some(function (v, i) {
    return v === null || v === undefined || (ints[i] ? !/^-?\d+$/.test(v) : !/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2}(\.\d+)?)?$/.test(v));
  })) {
    return { refused: 'the first row of chunk ' + first + ', the first it loads, gives no key to start from' };
  }
  return { columns: key.slice(), values: values, ints: ints, chunk: first };
}

// The range, once no row of the table's own is in it (measured before the load); else {refused}.
function sinceRange(host, ctx, planned, loaded, srv) {
  var range = boundaryRange(host, ctx, planned, loaded, srv);
  if (range.refused) return range;
  var where = rangeWhere(range);
  if (host.sql.run('SELECT 1 AS x FROM ' + quoteTable(srv.schema, srv.table) + ' WHERE ' + where.sql + ' LIMIT 1', where.args).rows.length) {
    return { refused: 'rows of its own are at or after ' + describeRange(range) + ', where the loaded chunks begin' };
  }
  return range;
}

// The WHERE text of a range: (k1, k2) >= (v1, v2); integers written as checked digits (a string
// would compare as a double), times as placeholders.
function rangeWhere(range) {
  var args = [];
  var vals = range.values.map(function (v, i) {
    if (range.ints[i]) return v;
    args.push(v);
    return '?';
  });
  var cols = range.columns.map(quoteIdentifier);
  return { sql: cols.length > 1 ? '(' + cols.join(', ') + ') >= (' + vals.join(', ') + ')' : cols[0] + ' >= ' + vals[0], args: args };
}

function describeRange(range) {
  return range.columns.length > 1 ? '(' + range.columns.join(', ') + ') = (' + range.values.join(', ') + ')'
    : range.columns[0] + ' ' + range.values[0];
}

function refusal(rows, resumedWithout) {
  var byTable = {};
  var order = [];
  var options = [];
  rows.forEach(function (r) {
    var k = tableKey(r.schema, r.table);
    if (!byTable[k]) { byTable[k] = { schema: r.schema, table: r.table, steps: [] }; order.push(k); }
    var said = byTable[k].steps.some(function (x) { return x.option === r.option && x.why === r.why; });
    if (!said) byTable[k].steps.push(r);
    if (options.indexOf(r.option) < 0) options.push(r.option);
  });
  var facts = [];
  return new UserError('OWN_ROWS', 'Refusing to load: ' + order.map(function (k) {
    var t = byTable[k];
    t.steps.forEach(function (r) { facts.push({ schema: t.schema, table: t.table, option: r.option }); });
    return displayTable(t.schema, t.table) + ' already holds rows of its own (it is on the server, not dropped by this load, and ' +
      'not empty' + (resumedWithout ? ': this load resumes an earlier attempt (progress file ' + resumedWithout + ') that recorded ' +
      'nothing, so its rows count as the table\'s own' : '') + '), and after util.loadDump ' + t.steps.map(function (r) {
      return r.option + ' would change rows there that this load did not write (' + r.why + ')';
    }).join(', and ');
  }).join('. ') + '. Nothing was changed. Load into a new schema (schemaMap, or util.loadDump\'s schema option), or with ' +
    'dropExisting: true (the loaded tables are dropped and loaded anew), or leave out ' + options.join(', ') + '.', { tables: facts });
}

// A trigger body that may write rows: the statement word found (INSERT, UPDATE, DELETE, REPLACE, CALL;
// strings, comments and quoted names left out; the functions INSERT() and REPLACE() are no statement), or
// null. A stored function the body calls is not looked into.
function writingWord(body) {
  var bare = String(body).replace(/'(?:[^'\\]|\\[\s\S]|'')*'|"(?:[^"\\]|\\[\s\S]|"")*"|`(?:[^`]|``)*`|\/\*[\s\S]*?\*\/|(?:--\s|#)[^\n]*/g, ' ');
  var m = /\b(INSERT|UPDATE|DELETE|REPLACE|CALL)\b(?!\s*\()/i.exec(bare);
  return m ? m[1].toUpperCase() : null;
}

// The triggers a step after util.loadDump fires that may write rows: a trigger runs for every row the
// step deletes, adds or updates, and what it writes is no row this load wrote. The table's triggers
// are the server's (a table the load keeps) and the dump's that the load creates (includeTriggers /
// excludeTriggers). → [{option, verb, schema, table, trigger, timing, event, word, dumpName: [schema, table] or null}].
function firedTriggers(host, p, written, existing, fold) {
  var key = keyer(fold);
  var steps = written.filter(function (w) { return w.event; }).concat((p.snap.trims || []).map(function (t) {
    return { option: 'since', schema: t.schema, table: t.table, event: 'DELETE' };
  }));
  var cache = {};
  var dumped = steps.length ? tableDdl.dumpTableTriggers(host, p.dump) : null;
  function triggersOf(schema, table) {
    var k = key(schema, table);
    if (cache[k]) return cache[k];
    var list = [];
    var srv = existing[k];
    if (srv) {
      host.sql.run('SELECT TRIGGER_NAME AS name, ACTION_TIMING AS timing, EVENT_MANIPULATION AS event, ACTION_STATEMENT AS body ' +
        'FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? AND EVENT_OBJECT_TABLE = ?', [srv.schema, srv.table]).rows.forEach(function (r) {
        list.push({ name: String(r.name), timing: String(r.timing), event: String(r.event), body: String(r.body), dumpName: null });
      });
    }
    var t = loadedTable(p.objects.tables, schema, table);
    if (t && t.ddl !== false && p.loadDumpOptions.loadDdl !== false) {
      dumped(t).forEach(function (d) {
        // A trigger of that name on the server stays (ignoreExistingObjects): the server's counts.
        var kept = list.some(function (x) { return fold ? x.name.toLowerCase() === d.name.toLowerCase() : x.name === d.name; });
        if (!kept && (!p.triggerChosen || p.triggerChosen([t.dumpSchema, t.table, d.name]))) list.push(Object.assign({ dumpName: [t.dumpSchema, t.table] }, d));
      });
    }
    cache[k] = list;
    return list;
  }
  var out = [];
  steps.forEach(function (w) {
    triggersOf(w.schema, w.table).forEach(function (tr) {
      var word = tr.event === w.event ? writingWord(tr.body) : null;
      var said = out.some(function (x) { return x.option === w.option && x.trigger === tr.name && key(x.schema, x.table) === key(w.schema, w.table); });
      if (!word || said) return;
      out.push({ option: w.option, verb: VERBS[w.event], schema: w.schema, table: w.table, trigger: tr.name, timing: tr.timing, event: tr.event,
        word: word, dumpName: tr.dumpName });
    });
  });
  return out;
}

var VERBS = { DELETE: 'deletes rows of', INSERT: 'adds rows to', UPDATE: 'updates the rows of' };

function triggerRefusal(fired) {
  var names = [];
  var options = [];
  fired.forEach(function (f) {
    var n = f.dumpName ? displayTable(f.dumpName[0], f.dumpName[1]) + '.' + displayIdentifier(f.trigger) : null;
    if (n && names.indexOf(n) < 0) names.push(n);
    if (options.indexOf(f.option) < 0) options.push(f.option);
  });
  var ways = [];
  if (names.length) {
    ways.push('load without ' + (names.length > 1 ? 'those triggers' : 'that trigger') + ' (excludeTriggers: ' + JSON.stringify(names) +
      ') and create ' + (names.length > 1 ? 'them' : 'it') + ' afterwards');
  }
  if (fired.some(function (f) { return !f.dumpName; })) ways.push('drop the server\'s trigger before the load and create it afterwards');
  ways.push('leave out ' + options.join(', '));
  var out = ways.join(', or ');
  return new UserError('TRIGGER_WRITES', 'Refusing to load: ' + fired.map(function (f, i) {
    return (i ? 'After' : 'after') + ' util.loadDump ' + f.option + ' ' + f.verb + ' ' + displayTable(f.schema, f.table) + ', and its trigger ' +
      displayIdentifier(f.trigger) + ' (' + f.timing + ' ' + f.event + (f.dumpName ? ', from the dump' : ', on the server') + ') runs for ' +
      'each of those rows and writes rows itself (' + f.word + ' in its body): rows this load did not write would change';
  }).join('. ') + '. Nothing was changed. ' + out.charAt(0).toUpperCase() + out.slice(1) + '.',
  { triggers: fired.map(function (f) { return { schema: f.schema, table: f.table, trigger: f.trigger, option: f.option }; }) });
}

// In the preflight, after the snapshot step's plan and util.loadDump's options. p: {snap: the
// snapshot step's plan (its trims get their `range` here), objects, drops (lib/server/drop-existing.js),
// planned (the partial step's plan or null), ctx, dump (the dump model), loadDumpOptions (composed), replay (its plan or null),
// triggerChosen (lib/partial/load-objects.js triggerFilter: the dump's triggers the load creates)}.
// Returns {owned: [{schema, table}], lines: [plan lines], record: what the load step writes before
// util.loadDump ({path, doc}) or null}; throws OWN_ROWS for a step that would change rows of its own.
function planOwnership(host, p) {
  var snap = p.snap;
  var lo = p.loadDumpOptions;
  var tables = p.objects.tables;
  var progress = progressFileOf(lo);
  var resumed = resumesProgress(host, lo);
  // A replay rolled forward (p.replay.forward, checked against the target's gtid_executed): the rows are the first
  // load's and its replay's, and that load's facts hold, as for a resumed one.
  var forward = p.replay && p.replay.forward ? p.replay.forward : null;
  var record = resumed ? readRecord(host, recordPath(progress)) : forward ? { examined: forward.rows.examined, own: forward.rows.own, ranges: {} } : null;
  var fold = foldsTableNames(host);
  var key = keyer(fold);
  var existing = existingTables(host, tables, p.drops, key);
  var examined = record ? record.examined : [];
  var ownNow = {};
  // A table the earlier attempt examined holds rows of its own only if its record names it (the rows
  // there now are that attempt's); any other table is measured now.
  var recorded = {};
  if (record) record.own.forEach(function (k) { recorded[k] = true; });
  var measure = {};
  Object.keys(existing).forEach(function (k) { if (examined.indexOf(k) < 0) measure[k] = existing[k]; });
  var rows = holdingRows(host, measure, !snap.active);
  Object.keys(rows).forEach(function (k) { ownNow[k] = rows[k]; });
  Object.keys(existing).forEach(function (k) { if (recorded[k]) ownNow[k] = existing[k]; });
  // A resume without a record: rows there may be the earlier attempt's; they count as the table's own.
  var unknown = resumed && !record;
  var out = { owned: Object.keys(ownNow).map(function (k) { return ownNow[k]; }), lines: [], record: null, fold: fold };
  var ranges = record ? record.ranges : {};
  var refused = [];
  var keyed = snap.orphans === 'delete' || snap.orphans === 'parents' || (snap.specs || []).length > 0;
  var fks = keyed ? plannedKeys(host, snap, p.objects, p.dump, lo.loadDdl) : [];
  var written = writes(snap, fks, p.objects, p.replay);
  out.afterLoad = changedAfterLoad(snap, written, p.replay, existing, resumed, fold);
  if (out.owned.length) {
    written.forEach(function (w) {
      if (ownNow[key(w.schema, w.table)]) refused.push(w);
    });
    (snap.trims || []).forEach(function (t) {
      var k = key(t.schema, t.table);
      if (!ownNow[k]) return;
      var loaded = loadedTable(tables, t.schema, t.table);
      var r;
      if (unknown) r = { refused: 'its rows cannot be told from the earlier attempt\'s' };
      else if (record && recorded[k]) {
        // The earlier attempt measured the range before it loaded: the same range now, or refused.
        var was = ranges[k];
        var now = was ? boundaryRange(host, p.ctx, p.planned, loaded, ownNow[k]) : null;
        r = was && now && !now.refused && JSON.stringify(now.values) === JSON.stringify(was.values) ? was
          : { refused: 'this load resumes an earlier attempt that measured no rows of its own at this point' };
      } else r = sinceRange(host, p.ctx, p.planned, loaded, ownNow[k]);
      if (r.refused) {
        refused.push({ option: 'since', schema: t.schema, table: t.table, why: 'since removes its rows before ' + t.value +
          ' after the load, and ' + r.refused });
        return;
      }
      t.range = r;
      ranges[k] = r;
      out.lines.push('since: ' + displayTable(t.schema, t.table) + ' holds rows of its own: the rows before the point are removed ' +
        'only at or after ' + describeRange(r) + ', the first row of chunk ' + r.chunk + ', the first it loads (no row of its own is there)');
    });
  }
  if (refused.length) throw refusal(refused, unknown ? progress : null);
  var fired = firedTriggers(host, p, written, existing, fold);
  if (fired.length) throw triggerRefusal(fired);
  if (unknown && out.owned.length && snap.active) {
    // Nothing above writes them, but the facts of a resume without a record are unknown: said.
    out.lines.push('Rows of their own: this load resumes an earlier attempt that recorded none; rows in ' + out.owned.map(function (t) {
      return displayTable(t.schema, t.table);
    }).join(', ') + ' are taken as their own');
  }
  var seen = out.owned.filter(function (t) { return !t.unread; });
  if (seen.length) {
    out.lines.push('WARNING: ' + seen.map(function (t) { return displayTable(t.schema, t.table); }).join(', ') + ' already hold' +
      (seen.length > 1 ? '' : 's') + ' rows of ' + (seen.length > 1 ? 'their' : 'its') + ' own: util.loadDump loads with LOAD DATA … REPLACE, ' +
      'so a row of its own with the same primary key or unique key as a loaded row is replaced by the loaded row ' +
      '(util.loadDump then says "N rows were replaced")');
  }
  if (progress && !resumed) {
    out.record = { path: recordPath(progress), doc: { format: RECORD_FORMAT, examined: tables.map(function (t) {
      return key(t.schema, t.table);
    }),
      own: Object.keys(ownNow), ranges: ranges } };
  }
  return out;
}

// util.loadDump's progress file (lo: its composed options), or null when none is kept.
function progressFileOf(lo) {
  return typeof lo.progressFile === 'string' && lo.progressFile !== '' ? lo.progressFile : null;
}

// Whether util.loadDump resumes an earlier attempt: its progress file is there and not reset.
function resumesProgress(host, lo) {
  var progress = progressFileOf(lo);
  return !!progress && !lo.resetProgress && host.files.isFile(progress);
}

// For the report's row counts (lib/run/loaded-rows.js): which loaded tables may hold other rows
// than util.loadDump's own count of what it loaded. {all: why every table is counted, or null,
// counted: {key (keyer): why}}: a table on the server before the load (not dropped), one a step after
// util.loadDump writes (since's trim, orphans, masks by UPDATE); every table for a resumed load (the
// earlier attempt's rows) and a replay (its transactions may also change tables by DDL).
function changedAfterLoad(snap, written, replay, existing, resumed, fold) {
  var key = keyer(fold);
  var out = { all: resumed ? 'this load resumes an earlier attempt' : replay ? 'binary logs are replayed after the load' : null, counted: {},
    fold: fold };
  Object.keys(existing).forEach(function (k) { out.counted[k] = 'it was on the server before the load'; });
  written.forEach(function (w) { out.counted[key(w.schema, w.table)] = w.step + ' changes it after the load'; });
  (snap.trims || []).forEach(function (t) { out.counted[key(t.schema, t.table)] = 'since removes rows after the load'; });
  return out;
}

// Whether the report may take util.loadDump's count of a loaded table's rows: null, or why not.
function whyCounted(afterLoad, schema, table) {
  if (!afterLoad) return 'no plan says what changes it';
  return afterLoad.all || afterLoad.counted[keyer(afterLoad.fold)(schema, table)] || null;
}

// Before util.loadDump: the first attempt's facts, for a resumed one (the plugin's own file).
function writeRecord(host, ownership) {
  if (ownership && ownership.record) host.files.writeFiles([{ path: ownership.record.path, data: JSON.stringify(ownership.record.doc) }], { overwrite: true });
}

// The WHERE limiting since's trim of t (null: the whole table, which holds only this load's rows).
function trimLimit(t) { return t.range ? rangeWhere(t.range) : null; }

// What a replay's record keeps for a roll forward (lib/binlog/replay-record.js): the tables this load examined
// and those that held rows of their own, as planOwnership measured them (a roll forward: as the first load did).
function rowFacts(ownership, tables, forward) {
  if (forward) return forward.rows;
  var key = keyer(ownership.fold);
  return { examined: tables.map(function (t) { return key(t.schema, t.table); }), own: ownership.owned.map(function (t) { return key(t.schema, t.table); }) };
}

module.exports = { planOwnership: planOwnership, writeRecord: writeRecord, trimLimit: trimLimit, recordPath: recordPath,
  describeRange: describeRange, existingTables: existingTables, rowFacts: rowFacts, whyCounted: whyCounted, progressFileOf: progressFileOf,
  resumesProgress: resumesProgress };
