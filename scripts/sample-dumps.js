#!/usr/bin/env node
'use strict';
// npm run sample-dumps: seeds a throwaway real MySQL with the "shop" schema (test/e2e/shop-seed.js)
// and writes sample-dumps/shop with restore.dump in the real MySQL Shell: small chunks, so orders
// has many chunks, events one set per partition, audit_log (no key) an empty last chunk.
// The Shell refuses to dump a server newer than itself (MySQL 9.7 here): the shared bundles skip
// that one check with MYSQLSH_ALLOW_NEWER_SERVER=1, set for this dump only.
const fs = require('fs');
const path = require('path');
const { startServer } = require('../test/support/server');
const { runJs, cleanTemp } = require('../test/support/shell');
const { ROOT, HAVE } = require('../test/support/real');

const OUT = path.join(ROOT, 'sample-dumps', 'shop');

async function main() {
  if (!HAVE.shell || !HAVE.server) throw new Error('npm run sample-dumps needs ../shared (the real MySQL Shell and MySQL).');
  const server = await startServer();
  try {
    fs.rmSync(OUT, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(OUT), { recursive: true });
    const seed = path.join(ROOT, 'test', 'e2e', 'shop-seed.js');
    const r = runJs(server.uri, `var module = {exports: {}}; eval(os.loadTextFile(${JSON.stringify(seed)}));
      module.exports.seedShop(shell.getSession(), 'shop');
      restore.dump(${JSON.stringify(OUT)}, {schemas: ['shop'], bytesPerChunk: '128k', threads: 2});
      restore.inspect(${JSON.stringify(OUT)}); null`, { env: { MYSQLSH_ALLOW_NEWER_SERVER: '1' } });
    process.stdout.write(r.printed);
    if (r.error) throw new Error(r.error.message + '\n' + r.stderr);
    const bytes = fs.readdirSync(OUT).reduce((n, f) => n + fs.statSync(path.join(OUT, f)).size, 0);
    process.stdout.write(`\nsample-dumps/shop: ${fs.readdirSync(OUT).length} files, ${(bytes / 1024).toFixed(0)} KiB\n`);
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
