#!/usr/bin/env node
'use strict';
// npm run demo — the main job on the bundled sample dump, in the real MySQL Shell against a real
// MySQL (both from ../shared, or RESTORE_SHARED_DIR): inspect, a full load with the fastest
// preset, then a developer's partial import of the newest chunks (plan, load with latest and the
// dev preset), and the server's state afterwards. mysqlsh's own output is shown as it comes: the
// reports a user sees.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { HAVE, SHARED, MYSQLSH, WITH_MYSQL, SAMPLE_SHOP } = require('../test/support/real');

function missing() {
  const what = [];
  if (!HAVE.shell) what.push(`MySQL Shell (${MYSQLSH})`);
  if (!HAVE.server) what.push(`a throwaway MySQL server (${WITH_MYSQL})`);
  if (!fs.existsSync(path.join(SAMPLE_SHOP, '@.json'))) what.push(`the sample dump (${SAMPLE_SHOP})`);
  return what;
}

async function main() {
  const lacking = missing();
  if (lacking.length) {
    process.stderr.write(`npm run demo needs ${lacking.join(' and ')}.\n` +
      `Put the shared folder beside the checkout (${SHARED}, or set RESTORE_SHARED_DIR): bin/mysqlsh (MySQL Shell ` +
      '8.0.29 or later) and bin/with-mysql (starts a throwaway MySQL). Without it, try the plugin on your own server: ' +
      './install.sh, then mysqlsh root@host -- restore inspect sample-dumps/shop\n');
    process.exit(1);
  }
  // Required only now: they need the shared folder's tools.
  const { startServer } = require('../test/support/server');
  const { installPlugin, tempDir, copyDump, cleanTemp } = require('../test/support/shell');

  const configHome = installPlugin(tempDir('restore-demo-cfg-'));
  const env = { ...process.env, MYSQLSH_USER_CONFIG_HOME: configHome, MYSQLSH_ALLOW_NEWER_SERVER: '1' };

  function step(uri, args, title) {
    process.stdout.write(`\n### ${title}\n$ mysqlsh ${uri.replace(/:@/, '@')} -- restore ${args.join(' ')}\n`);
    const r = spawnSync(MYSQLSH, [uri, '--', 'restore', ...args], { stdio: ['ignore', 'inherit', 'inherit'], env });
    if (r.status !== 0) throw new Error(`step failed (exit ${r.status}): ${title}`);
  }

  process.stdout.write('Starting a throwaway MySQL…\n');
  const server = await startServer();
  try {
    const full = copyDump(SAMPLE_SHOP, 'shop');
    step(server.uri, ['inspect', full], 'What the dump holds');
    step(server.uri, ['load', full, '--preset=fastest', '--force'], 'Full load, preset fastest (the server is put back afterwards)');
    await server.query('DROP SCHEMA shop');

    // A developer's partial import: metadata plus the newest two chunks of orders only (here:
    // copy the dump, then remove the older chunks of orders, as if only those had been fetched).
    const partial = copyDump(SAMPLE_SHOP, 'shop-latest');
    const chunkNumber = (f) => Number(/@@?(\d+)\.tsv\.zst$/.exec(f)[1]);
    const orders = fs.readdirSync(partial).filter((f) => /^shop@orders@@?\d+\.tsv\.zst$/.test(f))
      .sort((a, b) => chunkNumber(a) - chunkNumber(b));
    orders.slice(0, -2).forEach((f) => fs.rmSync(path.join(partial, f)));
    process.stdout.write(`\n(${orders.length - 2} older chunks of shop.orders removed from ${partial})\n`);
    step(server.uri, ['plan', partial, '--latest=shop.orders:2'], 'Plan a partial import of the newest chunks');
    step(server.uri, ['load', partial, '--latest=shop.orders:2', '--preset=dev', '--force'],
      'Partial load: the newest 2 chunks of orders, everything else whole');
    step(server.uri, ['status'], 'The server afterwards');
    await server.query('DROP SCHEMA IF EXISTS shop');
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
