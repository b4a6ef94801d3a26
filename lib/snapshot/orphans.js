// Orphan rows after a partial load: child rows whose referenced row is missing (the load runs
// with foreign key checks off, and the newest chunks of a child reference parents that were not
// loaded). MATCH SIMPLE: a row with NULL in any key column references nothing and is no orphan.
//
// delete: per foreign key, the primary keys of the orphan rows go into a temporary table in one
// set-based CREATE … SELECT (an anti-join against the parent's key index), numbered in key
// order; then the rows are deleted by joining that table, BATCH rows per statement (multi-table
// DELETE has no LIMIT; seq ranges keep every transaction small and its rows close together). A
// table without a primary key is handled by its distinct orphan key values instead (orphan-ness
// depends only on them), joined on the child's foreign key index. Rounds repeat for the keys
// whose parent lost rows (children of deleted parents, self-references) until nothing is deleted. foreign_key_checks is 0 in the session meanwhile
// (no RESTRICT error, no CASCADE behind the report's back) and put back afterwards.
// report: counts the orphans of each key as loaded, changes nothing.
var withSessionSwitchOff = require('../server/session-switch.js').withSessionSwitchOff;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var tableKey = require('./foreign-keys.js').tableKey;

var BATCH = 10000; // rows (by primary key) or key values (without one) per DELETE
var MAX_ROUNDS = 1000;

// FROM … WHERE … selecting the child rows of fk whose referenced row is missing.
function orphanFrom(fk) {
  var on = fk.columns.map(function (c, i) {
    return 'p.' + quoteIdentifier(fk.refColumns[i]) + ' = c.' + quoteIdentifier(c);
  }).join(' AND ');
  var notNull = fk.columns.map(function (c) { return 'c.' + quoteIdentifier(c) + ' IS NOT NULL'; }).join(' AND ');
  return ' FROM ' + quoteTable(fk.schema, fk.table) + ' AS c LEFT JOIN ' + quoteTable(fk.refSchema, fk.refTable) +
    ' AS p ON ' + on + ' WHERE p.' + quoteIdentifier(fk.refColumns[0]) + ' IS NULL AND ' + notNull;
}

function countOrphans(host, fk) {
  return Number(host.sql.run('SELECT COUNT(*) AS n' + orphanFrom(fk)).rows[0].n);
}

// Rows whose key is not NULL: what an unresolvable key (missing referenced table) leaves in doubt.
function countReferencing(host, fk) {
  return Number(host.sql.run('SELECT COUNT(*) AS n FROM ' + quoteTable(fk.schema, fk.table) + ' AS c WHERE ' +
    fk.columns.map(function (c) { return 'c.' + quoteIdentifier(c) + ' IS NOT NULL'; }).join(' AND ')).rows[0].n);
}

// Deletes the orphans of one key; returns the rows deleted.
function deleteOrphans(host, fk) {
  // A session's temporary table, in the child's schema (a temporary table needs one).
  var KEYS_TABLE = quoteTable(fk.schema, 'restore_orphan_keys');
  host.sql.run('DROP TEMPORARY TABLE IF EXISTS ' + KEYS_TABLE);
  // By primary key, in key order: every batch deletes at most BATCH rows, close together. Without
  // one, by the distinct foreign key values (all rows with an orphan value are orphans).
  var byPk = fk.childKey && fk.childKey.length > 0;
  var cols = byPk ? fk.childKey : fk.columns;
  var keys = cols.map(function (c, i) { return 'c.' + quoteIdentifier(c) + ' AS k' + i; }).join(', ');
  host.sql.run('CREATE TEMPORARY TABLE ' + KEYS_TABLE + ' (seq BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY) ' +
    'ENGINE=InnoDB SELECT ' + (byPk ? '' : 'DISTINCT ') + keys + orphanFrom(fk) +
    (byPk ? ' ORDER BY ' + cols.map(function (c) { return 'c.' + quoteIdentifier(c); }).join(', ') : ''));
  try {
    var last = Number(host.sql.run('SELECT COALESCE(MAX(seq), 0) AS n FROM ' + KEYS_TABLE).rows[0].n);
    // No alias for the child: a multi-table DELETE of an alias fails with "No database selected" without a default schema.
    var child = quoteTable(fk.schema, fk.table);
    var join = cols.map(function (c, i) { return child + '.' + quoteIdentifier(c) + ' = k.k' + i; }).join(' AND ');
    var sql = 'DELETE ' + child + ' FROM ' + child + ' JOIN ' + KEYS_TABLE + ' AS k ON ' + join + ' WHERE k.seq BETWEEN ? AND ?';
    var deleted = 0;
    for (var from = 1; from <= last; from += BATCH) deleted += Number(host.sql.run(sql, [from, from + BATCH - 1]).affected || 0);
    return deleted;
  } finally {
    host.sql.run('DROP TEMPORARY TABLE IF EXISTS ' + KEYS_TABLE);
  }
}

function withoutForeignKeyChecks(host, fn) {
  return withSessionSwitchOff(host, 'foreign_key_checks', fn);
}

function describe(fk) {
  return { name: fk.name, schema: fk.schema, table: fk.table, columns: fk.columns, refSchema: fk.refSchema,
    refTable: fk.refTable, refColumns: fk.refColumns, refLoaded: fk.refLoaded, orphans: 0, deleted: 0, cannotFix: null };
}

// mode: 'delete' | 'report'; fks from lib/snapshot/foreign-keys.js. Returns {mode, seconds, rounds,
// keys: [per foreign key], tables: [{schema, table, deleted}]}.
function fixOrphans(host, fks, mode) {
  var t0 = Date.now();
  var keys = fks.map(describe);
  var out = { mode: mode, seconds: 0, rounds: 0, keys: keys, tables: [] };
  var fixable = [];
  fks.forEach(function (fk, i) {
    if (fk.refExists) fixable.push(i);
    else {
      keys[i].cannotFix = 'references ' + quoteTable(fk.refSchema, fk.refTable) + ', which is not on the server ' +
        '(excluded from the load?): its rows were kept';
      keys[i].orphans = countReferencing(host, fk);
    }
  });
  if (mode === 'report') {
    fixable.forEach(function (i) { keys[i].orphans = countOrphans(host, fks[i]); });
  } else {
    var perTable = {};
    withoutForeignKeyChecks(host, function () {
      var pending = fixable;
      while (pending.length && out.rounds < MAX_ROUNDS) {
        out.rounds++;
        var shrunk = {};
        pending.forEach(function (i) {
          var n = deleteOrphans(host, fks[i]);
          if (!n) return;
          keys[i].deleted += n;
          var k = tableKey(fks[i].schema, fks[i].table);
          shrunk[k] = true;
          perTable[k] = perTable[k] || { schema: fks[i].schema, table: fks[i].table, deleted: 0 };
          perTable[k].deleted += n;
        });
        // Only a key whose referenced table lost rows can have new orphans.
        pending = fixable.filter(function (i) { return shrunk[tableKey(fks[i].refSchema, fks[i].refTable)]; });
      }
    });
    keys.forEach(function (k) { if (!k.cannotFix) k.orphans = k.deleted; });
    out.tables = Object.keys(perTable).map(function (k) { return perTable[k]; });
  }
  out.seconds = (Date.now() - t0) / 1000;
  return out;
}

module.exports = { fixOrphans: fixOrphans, countOrphans: countOrphans, withoutForeignKeyChecks: withoutForeignKeyChecks };
