#!/usr/bin/env node
'use strict';
// npm run sample-dumps: seeds a throwaway MariaDB with the "shop" schema (test/e2e/shop-seed.js)
// and writes sample-dumps/shop with restore.dump through the stand-in mysqlsh: small chunks, so
// orders has many chunks, events one set per partition, audit_log (no key) an empty last chunk.
const fs = require('fs');
const path = require('path');
const { startMariaDb } = require('../test/support/mariadb-server');
const { runShell } = require('../test/support/standin');

const ROOT = path.resolve(__dirname, '..');
const OUT = path.join(ROOT, 'sample-dumps', 'shop');

async function main() {
  const server = await startMariaDb();
  try {
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    const r = runShell({
      uri: server.uri,
      cwd: ROOT,
      code: `require('./test/e2e/shop-seed.js').seedShop(shell.getSession(), 'shop');
        restore.dump(${JSON.stringify(OUT)}, {schemas: ['shop'], bytesPerChunk: '128k', threads: 2});
        restore.inspect(${JSON.stringify(OUT)});`,
    });
    process.stdout.write(r.stdout);
    process.stderr.write(r.stderr);
    if (r.error) throw new Error(r.error.message);
    const bytes = fs.readdirSync(OUT).reduce((n, f) => n + fs.statSync(path.join(OUT, f)).size, 0);
    process.stdout.write(`\nsample-dumps/shop: ${fs.readdirSync(OUT).length} files, ${(bytes / 1024).toFixed(0)} KiB\n`);
  } finally {
    await server.stop();
  }
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
