// Restore benchmark for docker users (mysqlsh globals only): the same dump loaded with plain
// util.loadDump defaults and with restore.load's `fastest` preset; prints both times and the ratio.
//   docker compose run --rm bench     (or: mysqlsh root@host --js -f test/e2e/restore-bench.js)
// BENCH_ORDERS sets the size (default 200000 orders).
var seed = require('./shop-seed.js');

var SCHEMA = 'bench_shop';
var session = shell.getSession();
if (!session) throw new Error('Run with a connection: mysqlsh root@host --js -f restore-bench.js');
var orders = Number(os.getenv('BENCH_ORDERS') || 200000);
var dumpDir = os.path.join(os.getenv('E2E_WORKDIR') || '/tmp', 'bench-shop-' + Date.now());

println('Seeding ' + SCHEMA + ' with ' + orders + ' orders and dumping it…');
seed.seedShop(session, SCHEMA, { orders: orders });
util.dumpSchemas([SCHEMA], dumpDir, { showProgress: false, bytesPerChunk: '8M' });

function timed(what, fn) {
  session.runSql('DROP DATABASE IF EXISTS ' + SCHEMA);
  var t0 = Date.now();
  fn();
  var s = (Date.now() - t0) / 1000;
  println(what + ': ' + s.toFixed(1) + ' s');
  return s;
}

var plain = timed('util.loadDump defaults', function () {
  util.loadDump(dumpDir, { progressFile: '', showProgress: false });
});
var fastest = timed('restore.load fastest  ', function () {
  restore.load(dumpDir, { preset: 'fastest', progressFile: '', showProgress: false, force: true });
});
println('Speed-up: ' + (plain / fastest).toFixed(2) + 'x (' + orders + ' orders)');
session.runSql('DROP DATABASE IF EXISTS ' + SCHEMA);
