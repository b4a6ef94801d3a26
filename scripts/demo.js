#!/usr/bin/env node
'use strict';
// npm run demo — the main job on the bundled sample dump, in the real MySQL Shell against a real
// MySQL (both from ../shared, or RESTORE_SHARED_DIR): inspect, a full load with the fastest
// preset, then a developer's import of the newest chunks straight from a backup host (sshd on the
// loopback address, a folder of nightly dumps: plan, then load with newest, latest and the dev
// preset), and the server's state afterwards. mysqlsh's own output is shown as it comes: the
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
  const { nightlyDumps } = require('../test/support/nightly-dumps');

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

    // A developer's import of the newest slice of last night's backup, straight from the backup
    // host: here sshd on the loopback address, with a folder of nightly dumps (the newest one
    // still being written). One command; nothing is written on the backup host or into its dumps.
    const backups = nightlyDumps(tempDir('restore-demo-backups-'), SAMPLE_SHOP, [['2026-11-23', '2026-11-23 01:00:00', true],
      ['2026-11-24', '2026-11-24 01:00:00', true], ['2026-11-25', '2026-11-25 01:00:00', false]]);
    const { remoteMissing, startSshHost } = require('../test/support/remote-host');
    const why = remoteMissing();
    if (why) {
      process.stdout.write(`\n(The backup-host step is left out: ${why}; scripts/setup-dev.sh installs them.)\n`);
    } else {
      const ssh = await startSshHost();
      try {
        Object.assign(env, ssh.env);
        process.stdout.write(`\n(A backup host: sshd on 127.0.0.1:${ssh.port}; RSYNC_RSH holds its port and a throwaway key. ` +
          `${backups} holds the nightly dumps 2026-11-23, 2026-11-24 and the unfinished 2026-11-25.)\n`);
        const src = `root@127.0.0.1:${backups}`;
        step(server.uri, ['plan', src, '--newest', '--latest=shop.orders:2'], 'Plan: the newest 2 chunks of orders, everything else whole');
        step(server.uri, ['load', src, '--newest', '--latest=shop.orders:2', '--preset=dev', '--force'],
          'Developer import from the backup host, in one command: newest complete dump, metadata and chosen chunks fetched, loaded through a load view');
      } finally {
        await ssh.stop();
      }
    }
    step(server.uri, ['status'], 'The server afterwards');
    await server.query('DROP SCHEMA IF EXISTS shop');
  } finally {
    await server.stop();
    cleanTemp();
  }
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
