'use strict';
// A multi-chunk "shop" dump written once per test run by the stand-in's util.dumpSchemas from the
// seeded test server (orders: AUTO_INCREMENT, 8+ chunks; events: 4 partitions; audit_log: no
// key; `order items`: a percent-encoded name). Tests copy it before changing anything.
const fs = require('fs');
const path = require('path');
const { runShell } = require('./standin');
const { tempDir } = require('./paths');
const { ROOT } = require('./standin');

const SCHEMA = 'shop';
let cached = null;

function shopDump() {
  if (cached) return cached;
  const dir = path.join(tempDir('restore-shop-'), 'dump');
  const r = runShell({
    cwd: ROOT,
    code: `var s = shell.getSession();
      require('./test/e2e/shop-seed.js').seedShop(s, '${SCHEMA}');
      util.dumpSchemas(['${SCHEMA}'], ${JSON.stringify(dir)}, {bytesPerChunk: '128k', showProgress: false});
      var ids = s.runSql('SELECT COUNT(*) FROM ${SCHEMA}.orders').fetchOne()[0];
      s.runSql('DROP DATABASE ${SCHEMA}');
      ids`,
  });
  if (r.error) throw new Error(`could not write the shop dump: ${r.error.message}\n${r.stderr}`);
  cached = { dir, schema: SCHEMA, orders: r.value };
  return cached;
}

// Data files (not .idx) whose name starts with prefix, in chunk order.
function dataFiles(dir, prefix) {
  const num = (f) => Number(/@@?(\d+)\.[^@]*$/.exec(f)[1]);
  return fs.readdirSync(dir).filter((f) => f.startsWith(prefix) && !f.endsWith('.idx') && /@@?\d+\./.test(f.slice(prefix.length - 1)))
    .sort((a, b) => num(a) - num(b));
}

module.exports = { shopDump, dataFiles, SCHEMA };
