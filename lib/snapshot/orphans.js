// Orphan rows after a partial load: child rows whose referenced row is missing (the load runs
// with foreign key checks off, and the newest chunks of a child reference parents that were not
// loaded). MATCH SIMPLE: a row with NULL in any key column references nothing and is no orphan.
//
// delete: per key, ONE set-based DELETE: the child scanned once, each row looked up in the
// referenced table's index (an anti-join), the orphans deleted as they are found. Measured on
// bench:snapshot's data (666,640 of 1,000,000 orders): the earlier way (the orphans' keys into a
// temporary table, then deleted in batches of 10,000 by joining it) took 7.8 s, about 1.9 s of it
// writing the temporary table and the rest in 67 statements; the one statement takes about 3.5 s,
// and deleting by key ranges instead was slower again (6.0 s). Rounds repeat for the keys whose
// referenced table lost rows (children of deleted parents, self-references) until nothing is
// deleted. foreign_key_checks is 0 in the session meanwhile (no RESTRICT error, no CASCADE behind
// the report's back) and put back afterwards.
// report: counts the orphans of each key as loaded, changes nothing.
var withSessionSwitchOff = require('../server/session-switch.js').withSessionSwitchOff;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var tableKey = require('./foreign-keys.js').tableKey;
var statementSize = require('./statement-size.js');

var MAX_ROUNDS = 1000;

// LEFT JOIN … WHERE … keeping the rows of fk's child (named `child` in the statement) whose
// referenced row is missing.
function missingParent(fk, child) {
  var on = fk.columns.map(function (c, i) {
    return 'p.' + quoteIdentifier(fk.refColumns[i]) + ' = ' + child + '.' + quoteIdentifier(c);
  }).join(' AND ');
  var notNull = fk.columns.map(function (c) { return child + '.' + quoteIdentifier(c) + ' IS NOT NULL'; }).join(' AND ');
  return ' LEFT JOIN ' + quoteTable(fk.refSchema, fk.refTable) + ' AS p ON ' + on + ' WHERE p.' +
    quoteIdentifier(fk.refColumns[0]) + ' IS NULL AND ' + notNull;
}

// FROM … WHERE … selecting the child rows (as c) of fk whose referenced row is missing.
function orphanFrom(fk) {
  return ' FROM ' + quoteTable(fk.schema, fk.table) + ' AS c' + missingParent(fk, 'c');
}

function countOrphans(host, fk) {
  return Number(host.sql.run('SELECT COUNT(*) AS n' + orphanFrom(fk)).rows[0].n);
}

// Rows whose key is not NULL: what an unresolvable key (missing referenced table) leaves in doubt.
function countReferencing(host, fk) {
  return Number(host.sql.run('SELECT COUNT(*) AS n FROM ' + quoteTable(fk.schema, fk.table) + ' AS c WHERE ' +
    fk.columns.map(function (c) { return 'c.' + quoteIdentifier(c) + ' IS NOT NULL'; }).join(' AND ')).rows[0].n);
}

// Deletes the orphans of one key; returns the rows deleted. The child is named without an alias
// (a multi-table DELETE of an alias fails with "No database selected" without a default schema),
// the referenced table as p (it may be the child itself: a self-reference).
function deleteOrphans(host, fk, batch) {
  var child = quoteTable(fk.schema, fk.table);
  if (batch) return deleteInBatches(host, fk, batch);
  return Number(host.sql.run('DELETE ' + child + ' FROM ' + child + missingParent(fk, child)).affected || 0);
}

// On a group (lib/snapshot/statement-size.js): a single-table DELETE … LIMIT (a multi-table one takes
// none), the missing parent as NOT EXISTS; a self-reference reads its keys from a derived table kept
// apart (NO_MERGE: else MySQL refuses a subquery on the table being deleted from, error 1093).
function deleteInBatches(host, fk, batch) {
  var child = quoteTable(fk.schema, fk.table);
  var self = fk.schema === fk.refSchema && fk.table === fk.refTable;
  var from = self ? '(SELECT ' + fk.refColumns.map(quoteIdentifier).join(', ') + ' FROM ' + child + ') AS p'
    : quoteTable(fk.refSchema, fk.refTable) + ' AS p';
  var on = fk.columns.map(function (c, i) { return 'p.' + quoteIdentifier(fk.refColumns[i]) + ' = ' + child + '.' + quoteIdentifier(c); });
  var notNull = fk.columns.map(function (c) { return child + '.' + quoteIdentifier(c) + ' IS NOT NULL'; });
  return statementSize.inBatches(host, 'DELETE FROM ' + child + ' WHERE ' + notNull.join(' AND ') + ' AND NOT EXISTS (SELECT ' +
    (self ? '/*+ NO_MERGE(p) */ ' : '') + '1 FROM ' + from + ' WHERE ' + on.join(' AND ') + ')', [], batch);
}

function withoutForeignKeyChecks(host, fn) {
  return withSessionSwitchOff(host, 'foreign_key_checks', fn);
}

function describe(fk) {
  return { name: fk.name, schema: fk.schema, table: fk.table, columns: fk.columns, refSchema: fk.refSchema,
    refTable: fk.refTable, refColumns: fk.refColumns, refLoaded: fk.refLoaded, virtual: !!fk.virtual, orphans: 0, deleted: 0,
    cannotFix: null };
}

// mode: 'delete' | 'report'; fks from lib/snapshot/foreign-keys.js; opts.clean: indexes of keys known
// to have no orphans now (orphans "parents" found all their parents): not looked at unless their
// referenced table loses rows; opts.groupLimit: group_replication_transaction_size_limit (batches). Returns {mode, seconds, rounds, keys: [per foreign key], tables:
// [{schema, table, deleted, by: [{key (index into keys), deleted}]}]}.
function fixOrphans(host, fks, mode, opts) {
  var clean = (opts && opts.clean) || [];
  // On a group: rows per DELETE, per child table, below its transaction size limit.
  var limit = (opts && opts.groupLimit) || null;
  var batches = {};
  function batchOf(fk) {
    var k = tableKey(fk.schema, fk.table);
    if (batches[k] === undefined) batches[k] = statementSize.batchRows(host, fk.schema, fk.table, limit);
    return batches[k];
  }
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
      var pending = fixable.filter(function (i) { return clean.indexOf(i) < 0; });
      while (pending.length && out.rounds < MAX_ROUNDS) {
        out.rounds++;
        var shrunk = {};
        pending.forEach(function (i) {
          var n;
          try {
            n = deleteOrphans(host, fks[i], batchOf(fks[i]));
          } catch (e) {
            throw statementSize.namedRollback(host, e, 'the orphans DELETE of ' + quoteTable(fks[i].schema, fks[i].table), limit,
              !!limit);
          }
          if (!n) return;
          keys[i].deleted += n;
          var k = tableKey(fks[i].schema, fks[i].table);
          shrunk[k] = true;
          perTable[k] = perTable[k] || { schema: fks[i].schema, table: fks[i].table, deleted: 0, by: [] };
          perTable[k].deleted += n;
          var by = perTable[k].by.filter(function (b) { return b.key === i; })[0];
          if (by) by.deleted += n;
          else perTable[k].by.push({ key: i, deleted: n });
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

module.exports = { fixOrphans: fixOrphans, countOrphans: countOrphans, orphanFrom: orphanFrom,
  withoutForeignKeyChecks: withoutForeignKeyChecks };
