// A replay's transactions sent to the target through the plugin's session, as mysqlbinlog | mysql
// would send them: once per file its FORMAT_DESCRIPTION event (BINLOG '…'), then per transaction
// SET gtid_next = the source's GTID (the target keeps it: a rerun skips what gtid_executed holds),
// its row events as BINLOG '…' and its statements (BEGIN, DDL, COMMIT) as text in their schema and
// at their time, then gtid_next back to AUTOMATIC.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var startProgress = require('../format/progress.js').startProgress;
var gtids = require('./gtid-set.js');

var BATCH = 200; // transactions per read of the file (bounds what is held at once)

// A load under other schema names (plan.rewrite, lib/run/replay-rename.js): what the companion rewrites
// for these transactions ({schemaMap, texts: {position: statement}}), else null.
function rewriteOf(plan, batch) {
  if (!plan.rewrite) return null;
  var texts = {};
  batch.forEach(function (t) { Object.keys(t.texts || {}).forEach(function (k) { texts[k] = t.texts[k]; }); });
  return { schemaMap: plan.rewrite.schemaMap, texts: texts };
}

// plan: lib/binlog/replay-plan.js planReplay's. Returns {applied, onTarget, last: {gtid, time} | null}.
function applyReplay(host, plan) {
  var sql = host.sql;
  var held = gtids.parseSet(String(sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g || ''));
  var todo = plan.transactions.filter(function (t) { return !gtids.hasGtid(held, t.gtid); });
  var out = { applied: 0, onTarget: plan.transactions.length - todo.length, last: null };
  var progress = startProgress(host, 'Replaying binary logs', todo.length, { unit: 'transactions' });
  var formatOf = null;
  var schema = null;
  var current = null;
  try {
    for (var i = 0; i < todo.length;) {
      var file = todo[i].file;
      var batch = [];
      while (i < todo.length && todo[i].file === file && batch.length < BATCH) batch.push(todo[i++]);
      var got = host.files.binlogPieces(host.files.join(plan.folder.dir, file), batch.map(function (t) { return [t.start, t.end]; }), false,
        rewriteOf(plan, batch));
      if (formatOf !== file) {
        sql.run('BINLOG \'' + got.format + '\'');
        formatOf = file;
      }
      for (var k = 0; k < batch.length; k++) {
        current = batch[k];
        sql.run('SET SESSION gtid_next = ?', [current.gtid]);
        if (current.idempotent) sql.run('SET SESSION rbr_exec_mode = IDEMPOTENT'); // outsideSlice: skip (lib/run/replay-preflight.js)
        got.transactions[k].forEach(function (p) {
          if (p.unsupported) throw new Error(p.unsupported + ' (not sent by the replay)');
          if (p.binlog) { sql.run('BINLOG \'' + p.binlog + '\''); return; }
          if (p.commit) { sql.run('COMMIT'); return; }
          if (p.schema && p.schema !== schema) {
            sql.run('USE ' + quoteIdentifier(p.schema));
            schema = p.schema;
          }
          sql.run('SET TIMESTAMP = ?', [p.when]);
          sql.run(p.query);
        });
        sql.run('SET SESSION gtid_next = AUTOMATIC');
        if (current.idempotent) sql.run('SET SESSION rbr_exec_mode = STRICT');
        out.applied++;
        out.last = { gtid: current.gtid, time: current.time };
        current = null;
        progress.update(out.applied);
      }
    }
  } catch (e) {
    var at = current ? 'transaction ' + current.gtid + ' (' + current.file + ':' + current.start + ')' : 'reading the binary logs';
    try { sql.run('ROLLBACK'); sql.run('SET SESSION gtid_next = AUTOMATIC'); sql.run('SET SESSION rbr_exec_mode = STRICT'); } catch (ignored) { /* the error below says it */ }
    throw new UserError('REPLAY_FAILED', 'The replay failed at ' + at + ': ' + e.message + '. ' + out.applied + ' transaction(s) were ' +
      'applied before it and stay (each with its source GTID): the same command continues from there once the cause is fixed.',
      { applied: out.applied, gtid: current ? current.gtid : null });
  } finally {
    try { sql.run('SET TIMESTAMP = DEFAULT'); } catch (ignored) { /* the session is gone: nothing to put back */ }
  }
  progress.done();
  return out;
}

module.exports = { applyReplay: applyReplay };
