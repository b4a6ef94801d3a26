// E2E scenario, written only against mysqlsh globals: it runs as it is under real mysqlsh
// (mysqlsh root@host --js -f test/e2e/scenario-partial.js, see docker-compose.yml) and under the
// stand-in (node test/mysqlsh/cli.js uri --js -f …, in CI).
//   seed → restore.dump → restore.plan → delete the unchosen chunks → restore.load with latest
//   → check row counts, the redo log state and that every tuned variable is back.
var seed = require('./shop-seed.js');

var SCHEMA = 'e2e_shop';
var TUNED = ['local_infile', 'innodb_flush_log_at_trx_commit', 'sync_binlog', 'innodb_adaptive_hash_index',
  'innodb_io_capacity', 'innodb_io_capacity_max', 'innodb_redo_log_capacity'];

function check(condition, what) {
  if (!condition) throw new Error('E2E check failed: ' + what);
  println('  ok: ' + what);
}

function scalar(session, sql) {
  return session.runSql(sql).fetchOne()[0];
}

function variables(session) {
  var out = {};
  TUNED.forEach(function (name) {
    var row = session.runSql('SHOW GLOBAL VARIABLES LIKE ?', [name]).fetchOne();
    if (row) out[name] = String(row[1]);
  });
  return out;
}

var session = shell.getSession();
if (!session) throw new Error('Run this scenario with a connection: mysqlsh root@host --js -f scenario-partial.js');
var work = os.getenv('E2E_WORKDIR') || '/tmp';
var dumpDir = os.path.join(work, 'e2e-shop-' + Date.now());

println('1. seed ' + SCHEMA + ' and dump it with restore.dump');
seed.seedShop(session, SCHEMA);
var total = scalar(session, 'SELECT COUNT(*) FROM ' + SCHEMA + '.orders');
var maxId = scalar(session, 'SELECT MAX(id) FROM ' + SCHEMA + '.orders');
restore.dump(dumpDir, { schemas: [SCHEMA], bytesPerChunk: '128k', showProgress: false });

println('2. plan the newest 2 chunks of orders, without audit_log');
var selection = { latest: {}, excludeTables: [SCHEMA + '.audit_log'] };
selection.latest[SCHEMA + '.orders'] = 2;
var plan = restore.plan(dumpDir, selection);
var chosen = [];
Array.from(plan.tables).forEach(function (t) { if (t.table === 'orders') chosen = Array.from(t.chosen); });
check(chosen.length === 2, 'the plan chooses 2 chunks of orders');

println('3. delete the chunks that were not chosen (as if only the chosen ones had been fetched)');
var inspected = restore.inspect(dumpDir);
var unchosen = [];
Array.from(inspected.tables).forEach(function (t) {
  if (t.table !== 'orders') return;
  Array.from(t.chunks).forEach(function (c) {
    if (chosen.indexOf(c.file) < 0) unchosen.push(os.path.join(dumpDir, c.file));
  });
});
restore.fsRemove(unchosen);
check(unchosen.length >= 4, unchosen.length + ' chunk files removed');

println('4. load with latest and the fastest preset');
session.runSql('DROP DATABASE ' + SCHEMA);
var before = variables(session);
var redoBefore = restore.status().redoLog;
var report = restore.load(dumpDir, { latest: selection.latest, excludeTables: selection.excludeTables, preset: 'fastest',
  force: true });

println('5. check what was loaded and what was put back');
var loaded = scalar(session, 'SELECT COUNT(*) FROM ' + SCHEMA + '.orders');
var lowest = scalar(session, 'SELECT MIN(id) FROM ' + SCHEMA + '.orders');
var highest = scalar(session, 'SELECT MAX(id) FROM ' + SCHEMA + '.orders');
check(loaded > 0 && loaded < total, 'orders holds part of the rows (' + loaded + ' of ' + total + ')');
check(highest === maxId && loaded === highest - lowest + 1, 'orders holds the newest ids, ' + lowest + '..' + highest);
check(scalar(session, 'SELECT COUNT(*) FROM ' + SCHEMA + '.customers') === 1000, 'customers loaded whole');
check(scalar(session, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + SCHEMA +
  "' AND table_name = 'audit_log'") === 0, 'audit_log excluded');
var redoAfter = restore.status().redoLog;
check(redoAfter === redoBefore && (redoAfter === null || redoAfter === 'ON'), 'redo log as before: ' + redoAfter);
var after = variables(session);
Object.keys(before).forEach(function (name) {
  check(after[name] === before[name], name + ' restored to ' + before[name]);
});
check(report.ok === true, 'restore.load reports success');

session.runSql('DROP DATABASE ' + SCHEMA);
println('E2E scenario-partial: OK');
