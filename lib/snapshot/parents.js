// orphans: "parents": after a partial load, the rows the loaded rows reference are added from the
// chunks `latest` left out, instead of the referencing rows being thrown away. Per referenced
// table, the chunks left out are read one at a time with util.importTable (LOAD DATA LOCAL of the
// dump's zstd TSV, as util.loadDump reads it) into a staging table of the same structure (CREATE
// TABLE … LIKE: no foreign keys, no triggers) plus the chunk's number; then, per key, ONE
// INSERT … SELECT copies the staged rows holding a missing key into the table. No row is added
// twice: only keys missing from the table are copied, and the chunks left out hold none of the
// loaded rows. Rounds repeat for the keys whose child table grew (grandparents, self-references,
// multi-column keys) until nothing is missing or nothing more can be found.
//
// Which chunks: the dump's chunks hold ascending ranges of the chunking index (contract §4). When
// a key references that index's first column, chunks are staged newest first and staging stops
// once every key still missing is above the lowest staged key: those keys are in no chunk.
// Otherwise (another column, a partitioned or keyless table) every chunk left out may hold one:
// staged until every key is found or none is left. A remote dump's chunks are fetched the same way.
//
// What cannot be completed (keys in no chunk of the dump, a referenced table not in the load) then
// goes by the delete rules (lib/snapshot/orphans.js), and the report lists it.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var shortHash = require('../core/short-hash.js').shortHash;
var displayTable = require('../format/display-name.js').displayTable;
var tableKey = require('./foreign-keys.js').tableKey;
var orphans = require('./orphans.js');
var statementSize = require('./statement-size.js');

var MAX_ROUNDS = 1000;
var CHUNK_COLUMN = 'restore_chunk';
var STAGE_MARK = 'restore plugin: staging table of orphans "parents", dropped when the load ends';
var NEED = 'restore_parent_keys';
var SEQ = 'restore_seq';

function q(name) { return quoteIdentifier(name); }

// The staging table of parent table p (same schema): a name of the plugin's own.
function stageName(p) {
  return 'restore_parents_' + shortHash(JSON.stringify([p.schema, p.table]));
}

// A staging table left by a load that was killed is the plugin's own (its comment says so): dropped.
// Anything else of that name is refused.
function makeStage(host, st) {
  var at = quoteTable(st.schema, st.stage);
  var old = host.sql.run('SELECT TABLE_COMMENT AS c FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
    [st.schema, st.stage]).rows;
  if (old.length) {
    if (String(old[0].c) !== STAGE_MARK) {
      throw new UserError('NAME_TAKEN', 'orphans "parents" needs the staging table ' + displayTable(st.schema, st.stage) + ', and a table ' +
        'of that name exists that the restore plugin did not make. Rename or drop it, or load with orphans: "delete".');
    }
    host.sql.run('DROP TABLE ' + at);
  }
  host.sql.run('CREATE TABLE ' + at + ' LIKE ' + quoteTable(st.schema, st.table));
  st.made = true;
  host.sql.run('ALTER TABLE ' + at + ' ADD COLUMN ' + q(CHUNK_COLUMN) + ' INT NULL, COMMENT = ' + sqlString(STAGE_MARK));
}

function sqlString(text) { return "'" + String(text).replace(/\\/g, '\\\\').replace(/'/g, "''") + "'"; }

// One chunk file into the staging table: util.importTable with the dump's dialect, the chunk's
// number in CHUNK_COLUMN. skipBinlog: the staging rows stay out of the binary log like the load's.
function stageChunk(host, st, file, skipBinlog) {
  var o = JSON.parse(JSON.stringify(st.source.options));
  o.decodeColumns = o.decodeColumns || {};
  o.decodeColumns[CHUNK_COLUMN] = String(file.index);
  o.schema = st.schema;
  o.table = st.stage;
  o.threads = 1;
  o.showProgress = false;
  // The key of masks applied while loading (chunk-sources.js): the staged rows are masked alike.
  var init = (st.source.initSql || []).concat(skipBinlog ? ['SET SESSION sql_log_bin = 0'] : []);
  if (init.length) o.sessionInitSql = init;
  // On a group: the load's maxBytesPerTransaction, where util.importTable splits a file by it (a
  // compressed chunk it loads whole: statement-size.js refuseLargeStaging checked its size).
  if (st.maxBytes) o.maxBytesPerTransaction = st.maxBytes;
  host.util.importTable(st.source.path(file.name), o);
  st.staged.push(file.index);
}

// A temporary table of the keys of fk its child holds and its referenced table lacks. Returns
// how many. The child's distinct keys are read first (on bench:snapshot's 1,000,000 orders an
// index skip scan over the key's index: 0.45 s, against 0.9 s for the anti-join of every row).
// Keyed, so that joining the staged rows on it is one lookup each; a column type that cannot be a
// key (TEXT, BLOB) goes without.
function collectNeed(host, fk) {
  var need = quoteTable(fk.refSchema, NEED);
  host.sql.run('DROP TEMPORARY TABLE IF EXISTS ' + need);
  var ks = fk.columns.map(function (c, i) { return 'k' + i; });
  var select = 'SELECT ' + ks.map(function (k) { return 'd.' + k; }).join(', ') + ' FROM (SELECT ' +
    fk.columns.map(function (c, i) { return q(c) + ' AS k' + i; }).join(', ') + ' FROM ' + quoteTable(fk.schema, fk.table) +
    ' WHERE ' + fk.columns.map(function (c) { return q(c) + ' IS NOT NULL'; }).join(' AND ') + ' GROUP BY ' +
    fk.columns.map(q).join(', ') + ') AS d LEFT JOIN ' + quoteTable(fk.refSchema, fk.refTable) + ' AS p ON ' +
    fk.refColumns.map(function (c, i) { return 'p.' + q(c) + ' = d.k' + i; }).join(' AND ') + ' WHERE p.' +
    q(fk.refColumns[0]) + ' IS NULL';
  // seq numbers the keys: on a group the rows are copied in ranges of it (copyNeeded).
  var seq = q(SEQ) + ' BIGINT NOT NULL AUTO_INCREMENT';
  try {
    host.sql.run('CREATE TEMPORARY TABLE ' + need + ' (' + seq + ', PRIMARY KEY (' + ks.join(', ') + '), UNIQUE KEY (' + q(SEQ) +
      ')) ENGINE=InnoDB ' + select);
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    host.sql.run('DROP TEMPORARY TABLE IF EXISTS ' + need);
    host.sql.run('CREATE TEMPORARY TABLE ' + need + ' (' + seq + ', PRIMARY KEY (' + q(SEQ) + ')) ENGINE=InnoDB ' + select);
  }
  return Number(host.sql.run('SELECT COUNT(*) AS n FROM ' + need).rows[0].n);
}

// How many needed keys no staged row holds (all of them before anything is staged).
function notStaged(host, fk, st, needed) {
  if (!st.stage) return needed;
  return Number(host.sql.run('SELECT COUNT(*) AS n FROM ' + quoteTable(fk.refSchema, NEED) + ' AS n WHERE ' +
    stagedMiss(fk, st)).rows[0].n);
}

function stagedMiss(fk, st) {
  return 'NOT EXISTS (SELECT 1 FROM ' + quoteTable(st.schema, st.stage) + ' AS s WHERE ' +
    fk.refColumns.map(function (c, i) { return 's.' + q(c) + ' = n.k' + i; }).join(' AND ') + ')';
}

function needJoin(fk, st) {
  return quoteTable(fk.refSchema, NEED) + ' AS n JOIN ' + quoteTable(st.schema, st.stage) + ' AS s ON ' +
    fk.refColumns.map(function (c, i) { return 's.' + q(c) + ' = n.k' + i; }).join(' AND ');
}

// Whether some needed key is in no staged row (and, for a key on the chunking index, below the
// lowest staged key: only those can still be in a chunk not staged yet).
function stillSought(host, fk, st) {
  var sql = 'SELECT 1 FROM ' + quoteTable(fk.refSchema, NEED) + ' AS n WHERE ' + stagedMiss(fk, st);
  if (st.ordered(fk) && st.staged.length) {
    sql += ' AND n.k0 < (SELECT MIN(' + q(fk.refColumns[0]) + ') FROM ' + quoteTable(st.schema, st.stage) + ')';
  }
  return host.sql.run(sql + ' LIMIT 1').rows.length > 0;
}

// Copies the staged rows holding a needed key into the table; returns {rows, byChunk: {index: rows}}.
// batch: on a group, the needed keys per INSERT (lib/snapshot/statement-size.js), else null (one INSERT).
function copyNeeded(host, fk, st, batch) {
  var cols = st.columns.map(q).join(', ');
  var from = ' FROM ' + needJoin(fk, st);
  var byChunk = {};
  host.sql.run('SELECT s.' + q(CHUNK_COLUMN) + ' AS c, COUNT(*) AS n' + from + ' GROUP BY s.' + q(CHUNK_COLUMN)).rows
    .forEach(function (r) { byChunk[String(r.c)] = Number(r.n); });
  var insert = 'INSERT INTO ' + quoteTable(st.schema, st.table) + ' (' + cols + ') SELECT ' +
    st.columns.map(function (c) { return 's.' + q(c); }).join(', ') + from;
  var rows = 0;
  if (!batch) rows = Number(host.sql.run(insert).affected || 0);
  else {
    var last = Number(host.sql.run('SELECT COALESCE(MAX(' + q(SEQ) + '), 0) AS m FROM ' + quoteTable(fk.refSchema, NEED)).rows[0].m);
    for (var at = 0; at < last; at += batch) {
      rows += Number(host.sql.run(insert + ' WHERE n.' + q(SEQ) + ' > ' + at + ' AND n.' + q(SEQ) + ' <= ' + (at + batch)).affected || 0);
    }
  }
  return { rows: rows, byChunk: byChunk };
}

// The columns the dump holds data for (its table JSON), else the table's own non-generated ones.
function dataColumns(host, st) {
  var listed = st.source.options.columns;
  if (Array.isArray(listed) && listed.length && listed.every(function (c) { return typeof c === 'string'; })) return listed;
  return host.sql.run("SELECT COLUMN_NAME AS c FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? " +
    "AND EXTRA NOT LIKE '%GENERATED%' ORDER BY ORDINAL_POSITION", [st.schema, st.table]).rows.map(function (r) {
    return String(r.c);
  });
}

// Stages chunks of st until the keys of fk still needed are found, or cannot be in any chunk left.
function stageUntilFound(host, fk, st, skipBinlog) {
  while (st.next < st.source.files.length && (!st.stage || stillSought(host, fk, st))) {
    if (!st.stage) {
      st.stage = stageName(st);
      makeStage(host, st);
      st.columns = dataColumns(host, st);
    }
    var file = st.source.files[st.next];
    if (!st.checked[file.name]) fetchAhead(st, fk);
    st.next++;
    if (st.present[file.name]) stageChunk(host, st, file, skipBinlog);
    else st.absent.push(file.index);
  }
}

// Makes the next files local (a remote dump: one rsync run for several): for a key on the chunking
// index 1, 2, 4, … at a time (staging stops once the keys are found), otherwise all that are left.
function fetchAhead(st, fk) {
  var files = st.source.files;
  var n = st.ordered(fk) ? st.batch : files.length - st.next;
  st.batch *= 2;
  var names = files.slice(st.next, st.next + n).map(function (f) { return f.name; });
  names.forEach(function (name) { st.checked[name] = true; });
  st.source.fetch(names).forEach(function (name) { st.present[name] = true; });
}

function tableState(src) {
  var key = src.chunkKey;
  return { schema: src.schema, table: src.table, source: src, stage: null, made: false, columns: null, next: 0, staged: [],
    absent: [], added: 0, fromChunks: {}, batch: 1, checked: {}, present: {},
    // A key on the chunking index's first column: chunks hold ascending ranges of it.
    ordered: function (fk) {
      return !src.partitioned && Array.isArray(key) && key.length > 0 && fk.refColumns[0] === key[0];
    } };
}

// Why rows of fk were deleted although parents were sought: for the report.
function whyIncomplete(fk, st, lost) {
  var why = !fk.refLoaded ? 'the referenced table is not part of this load'
    : !st ? 'the referenced table was loaded whole: the rows are not in the dump'
      : st.absent.length ? 'their keys are in no chunk read (' + st.absent.length + ' chunk file(s) of ' +
        displayTable(st.schema, st.table) + ' are not in the dump directory)'
        : 'their keys are in no chunk of the dump';
  return lost[tableKey(fk.refSchema, fk.refTable)] ? why + ', or the rows they referenced were deleted in turn' : why;
}

// fks: lib/snapshot/foreign-keys.js; sources: lib/snapshot/chunk-sources.js; opts.skipBinlog, opts.groupLimit,
// opts.maxBytesPerTransaction (the load's, for util.importTable staging the chunks).
// Returns the facts of lib/snapshot/orphans.js fixOrphans with mode "parents", plus per key
// `added`, and tables: [{schema, table, added, fromChunks, staged, absent, chunkCount, deleted, by}].
function completeParents(host, fks, sources, opts) {
  var t0 = Date.now();
  var states = {};
  var tables = {};
  var order = [];
  function table(schema, table) {
    var k = tableKey(schema, table);
    if (!tables[k]) {
      tables[k] = { schema: schema, table: table, added: 0, fromChunks: [], staged: [], absent: [], chunkCount: 0, deleted: 0,
        by: [] };
      order.push(k);
    }
    return tables[k];
  }
  var keys = fks.map(function () { return { added: 0 }; });
  var closable = [];
  fks.forEach(function (fk, i) {
    if (fk.refExists) { table(fk.schema, fk.table); table(fk.refSchema, fk.refTable); }
    var src = fk.refExists && fk.refLoaded ? sources[tableKey(fk.refSchema, fk.refTable)] : null;
    if (!src) return;
    if (!states[tableKey(fk.refSchema, fk.refTable)]) {
      states[tableKey(fk.refSchema, fk.refTable)] = Object.assign(tableState(src), { maxBytes: opts.maxBytesPerTransaction || null });
    }
    closable.push(i);
  });
  var rounds = 0;
  var result;
  var left = {};
  try {
    orphans.withoutForeignKeyChecks(host, function () {
      var pending = closable;
      while (pending.length && rounds < MAX_ROUNDS) {
        rounds++;
        var grown = {};
        pending.forEach(function (i) {
          var fk = fks[i];
          var st = states[tableKey(fk.refSchema, fk.refTable)];
          var needed = collectNeed(host, fk);
          // Orphans left after its last look (none: the removal pass need not look again).
          left[i] = needed;
          if (!needed) return;
          stageUntilFound(host, fk, st, opts.skipBinlog);
          left[i] = notStaged(host, fk, st, needed);
          if (!st.stage) return;
          var got;
          try {
            got = copyNeeded(host, fk, st, statementSize.batchRows(host, st.schema, st.table, opts.groupLimit || null));
          } catch (e) {
            throw statementSize.namedRollback(host, e, 'orphans "parents" copying rows into ' + quoteTable(st.schema, st.table),
              opts.groupLimit || null, true);
          }
          if (!got.rows) return;
          keys[i].added += got.rows;
          st.added += got.rows;
          Object.keys(got.byChunk).forEach(function (c) { st.fromChunks[c] = (st.fromChunks[c] || 0) + got.byChunk[c]; });
          grown[tableKey(fk.refSchema, fk.refTable)] = true;
        });
        // Only a key whose child table grew can miss new parents.
        pending = closable.filter(function (i) { return grown[tableKey(fks[i].schema, fks[i].table)]; });
      }
      closable.forEach(function (i) { host.sql.run('DROP TEMPORARY TABLE IF EXISTS ' + quoteTable(fks[i].refSchema, NEED)); });
    });
    // What could not be completed goes by the delete rules.
    result = orphans.fixOrphans(host, fks, 'delete', { clean: closable.filter(function (i) { return left[i] === 0; }),
      groupLimit: opts.groupLimit || null });
  } finally {
    Object.keys(states).forEach(function (k) {
      var st = states[k];
      if (st.made) host.sql.run('DROP TABLE IF EXISTS ' + quoteTable(st.schema, st.stage));
    });
  }
  Object.keys(states).forEach(function (k) {
    var st = states[k];
    var t = table(st.schema, st.table);
    t.added = st.added;
    t.fromChunks = Object.keys(st.fromChunks).map(Number).sort(function (a, b) { return a - b; });
    t.staged = st.staged.slice().sort(function (a, b) { return a - b; });
    t.absent = st.absent.slice().sort(function (a, b) { return a - b; });
    t.chunkCount = st.source.chunkCount;
  });
  result.tables.forEach(function (d) {
    var t = table(d.schema, d.table);
    t.deleted = d.deleted;
    t.by = d.by;
  });
  var lost = {};
  result.tables.forEach(function (d) { if (d.deleted) lost[tableKey(d.schema, d.table)] = true; });
  result.keys.forEach(function (k, i) {
    k.added = keys[i].added;
    if (k.deleted) k.why = whyIncomplete(fks[i], states[tableKey(fks[i].refSchema, fks[i].refTable)], lost);
  });
  result.mode = 'parents';
  result.completionRounds = rounds;
  result.tables = order.map(function (k) { return tables[k]; });
  result.seconds = (Date.now() - t0) / 1000;
  return result;
}

module.exports = { completeParents: completeParents, stageName: stageName };
