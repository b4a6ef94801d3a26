#!/usr/bin/env node
'use strict';
// npm run bench:start: what the plugin adds to every mysqlsh start (issue 56). The real Shell
// started with an empty config home, with this checkout's plugin installed (install.sh), and with
// BENCH_BASE's (a git revision, e.g. c274a62: before the commands loaded at their first call), each
// running `--js -e 1` and `-- restore version`; BENCH_RUNS (9) runs each, interleaved. CPU seconds
// (user + system of mysqlsh, valid on a busy machine) and wall seconds, median (min–max); the JS
// files loaded at start. No server is needed.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { runMeasured, interleave, stats, fmt, machineLine } = require('./measure');
const { MYSQLSH, ROOT } = require('../test/support/real');
const { tempDir, cleanTemp, installPlugin, shellEnv } = require('../test/support/shell');

// A config home with the plugin of git revision `rev` installed by that revision's install.sh.
function installRevision(rev) {
  const tree = tempDir('restore-startbench-tree-');
  const a = spawnSync('sh', ['-c', `git -C "${ROOT}" archive "${rev}" install.sh lib plugins | tar -x -C "${tree}"`], { encoding: 'utf8' });
  if (a.status !== 0) throw new Error(`git archive ${rev} failed: ${a.stderr}`);
  const home = tempDir('restore-startbench-home-');
  const r = spawnSync('sh', [path.join(tree, 'install.sh')], { env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: home }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`install.sh of ${rev} failed: ${r.stderr}`);
  return home;
}

// How many of the plugin's JS files the Shell has loaded once it started.
function filesAtStart(home) {
  const r = spawnSync(MYSQLSH, ['--js', '-e', 'println("@@" + Object.keys(require.__mh.__cache).filter(function (k) { ' +
    'return k.indexOf("/plugins/restore/") >= 0; }).length)'], { env: shellEnv({ configHome: home }), encoding: 'utf8' });
  return Number((/@@(\d+)/.exec(r.stdout) || [])[1]);
}

function main() {
  const homes = [['no plugin', tempDir('restore-startbench-empty-')], ['this checkout', installPlugin()]];
  if (process.env.BENCH_BASE) homes.push([`plugin of ${process.env.BENCH_BASE}`, installRevision(process.env.BENCH_BASE)]);
  const commands = [['--js -e 1', ['--js', '-e', '1']], ['-- restore version', ['--', 'restore', 'version']]];
  const variants = [];
  for (const [what, args] of commands) {
    for (const [who, home] of homes) {
      if (who === 'no plugin' && args[0] === '--') continue;
      variants.push({ name: `${who}: mysqlsh ${what}`, home, run: () => {
        const t = runMeasured(MYSQLSH, args, { env: shellEnv({ configHome: home }) });
        if (t.status !== 0) throw new Error(`${who}: mysqlsh ${what} failed: ${t.stdout}${t.stderr}`);
        return t;
      } });
    }
  }
  const runs = Number(process.env.BENCH_RUNS || 9);
  const results = interleave(variants, runs);
  process.stdout.write(`${machineLine(MYSQLSH)}\n${runs} runs of each, interleaved; median (min–max)\n\n`);
  process.stdout.write(['variant'.padEnd(48), 'CPU s'.padEnd(20), 'wall s'.padEnd(20), 'JS files at start'.padStart(17)].join(' ') + '\n');
  const files = new Map(homes.map(([, home]) => [home, fs.existsSync(path.join(home, 'plugins')) ? filesAtStart(home) : 0]));
  for (const v of variants) {
    const list = results[v.name];
    process.stdout.write([v.name.padEnd(48), fmt(list.map((t) => t.cpu), 3).padEnd(20), fmt(list.map((t) => t.seconds), 3).padEnd(20),
      String(files.get(v.home)).padStart(17)].join(' ') + '\n');
  }
  const cpu = (name) => stats(results[name].map((t) => t.cpu)).median;
  const bare = cpu('no plugin: mysqlsh --js -e 1');
  process.stdout.write(`\nthe plugin's share of a start (CPU, medians): ${homes.slice(1).map(([who]) =>
    `${who} ${(cpu(`${who}: mysqlsh --js -e 1`) - bare).toFixed(3)} s`).join('; ')}\n`);
  cleanTemp();
}

if (require.main === module) {
  try { main(); } catch (e) { process.stderr.write((e && e.stack) || String(e)); cleanTemp(); process.exit(1); }
}
