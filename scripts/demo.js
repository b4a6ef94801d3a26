#!/usr/bin/env node
'use strict';
// The main job on the bundled sample dump, without MySQL: a throwaway MariaDB, the stand-in
// mysqlsh, and the plugin's own commands — inspect, a full load with the `fastest` preset, then
// a partial import of the newest chunks.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { startMariaDb } = require('../test/support/mariadb-server');

const ROOT = path.resolve(__dirname, '..');
const SAMPLE = path.join(ROOT, 'sample-dumps', 'shop');

function shellCommand(uri, configHome, args, title) {
  process.stdout.write(`\n$ mysqlsh ${uri} ${args.join(' ')}    # ${title}\n`);
  const r = spawnSync(process.execPath, [path.join(ROOT, 'test', 'mysqlsh', 'cli.js'), uri, ...args], {
    cwd: ROOT, stdio: 'inherit', env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: configHome },
  });
  if (r.status !== 0) throw new Error(`step failed (exit ${r.status}): ${title}`);
}

async function main() {
  if (!fs.existsSync(path.join(SAMPLE, '@.json'))) throw new Error(`${SAMPLE} is missing: run npm run sample-dumps`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-demo-'));
  const configHome = path.join(work, 'mysqlsh');
  fs.mkdirSync(path.join(configHome, 'plugins'), { recursive: true });
  fs.symlinkSync(path.join(ROOT, 'plugins', 'restore'), path.join(configHome, 'plugins', 'restore'));
  const full = path.join(work, 'shop-full');
  const partial = path.join(work, 'shop-partial');
  fs.cpSync(SAMPLE, full, { recursive: true });
  process.stdout.write('Starting a throwaway MariaDB…\n');
  const server = await startMariaDb();
  try {
    shellCommand(server.uri, configHome, ['--', 'restore', 'inspect', full], 'what is in the dump');
    shellCommand(server.uri, configHome, ['--', 'restore', 'load', full, '--preset=fastest'], 'full load, fastest preset');
    // The developer's case: metadata plus the newest chunks only (here: copy, then remove the
    // older chunks of orders, as if only the newest two had been fetched).
    fs.cpSync(SAMPLE, partial, { recursive: true });
    const chunkNumber = (f) => Number(/@@?(\d+)\.tsv\.zst$/.exec(f)[1]);
    const orders = fs.readdirSync(partial).filter((f) => /^shop@orders@@?\d+\.tsv\.zst$/.test(f))
      .sort((a, b) => chunkNumber(a) - chunkNumber(b));
    orders.slice(0, -2).forEach((f) => fs.rmSync(path.join(partial, f)));
    shellCommand(server.uri, configHome, ['--', 'restore', 'plan', partial, '--latest=shop.orders:2',
      '--exclude-tables=shop.audit_log'], 'plan a partial import');
    shellCommand(server.uri, configHome, ['--', 'restore', 'load', partial, '--latest=shop.orders:2',
      '--exclude-tables=shop.audit_log', '--preset=dev', '--force'], 'partial load of the newest chunks');
    shellCommand(server.uri, configHome, ['--', 'restore', 'status'], 'server state afterwards');
  } finally {
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => { process.stderr.write(`${e.message}\n`); process.exit(1); });
