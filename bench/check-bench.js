'use strict';
// What checking the data files costs, in the real mysqlsh: `restore inspect` (the default
// structural check: zstd frame and block headers, nothing decompressed) and `restore inspect
// --verify` (every file decompressed by the zstd program) on a large dump, next to a plain read of
// every byte (cat > /dev/null) and mysqlsh's own start-up. Prints numbers; asserts nothing.
//
// The dump: sample-dumps/shop with shop.orders replaced by N generated chunks of M MiB of
// TSV-like text each (zstd -1), and @.done.json recording their real sizes.
// Usage: node bench/check-bench.js [files=100] [MiB of data per file=16]
const fs = require('fs');
const os = require('os');
const path = require('path');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { MYSQLSH, HAVE } = require('../test/support/real');
const { runMeasured, interleave, stats, fmt, machineLine, settle } = require('./measure');

const FILES = Number(process.argv[2] || 100);
const MIB = Number(process.argv[3] || 16);
const ROOT = path.join(__dirname, '..');

function run(cmd, args, opts) {
  const t = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 28, ...opts });
  const s = Number(process.hrtime.bigint() - t) / 1e9;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
  return { s, out: r.stdout };
}

function makeDump(dir) {
  fs.cpSync(path.join(ROOT, 'sample-dumps', 'shop'), dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) if (/^shop@orders@|^load-progress/.test(f)) fs.rmSync(path.join(dir, f));
  // Digits, tabs and newlines: about 2:1 with zstd -1, like numeric TSV chunks. Each file differs.
  const raw = crypto.randomBytes(MIB * 1048576);
  for (let i = 0; i < raw.length; i++) raw[i] = raw[i] < 20 ? 9 : raw[i] < 24 ? 10 : 48 + (raw[i] % 10);
  const done = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8'));
  for (const k of Object.keys(done.chunkFileBytes)) if (k.startsWith('shop@orders@')) delete done.chunkFileBytes[k];
  let compressed = 0;
  for (let i = 0; i < FILES; i++) {
    raw.write(String(i).padStart(8, '0'), 0, 'latin1'); // a different file each time: no two chunks alike
    const name = `shop@orders@${i === FILES - 1 ? '@' : ''}${i}.tsv.zst`;
    const z = spawnSync('zstd', ['-q', '-1', '-c'], { input: raw, maxBuffer: 1 << 30 });
    if (z.status !== 0) throw new Error('zstd failed: ' + z.stderr);
    fs.writeFileSync(path.join(dir, name), z.stdout);
    compressed += z.stdout.length;
    done.chunkFileBytes[name] = raw.length;
  }
  done.tableDataBytes.shop.orders = FILES * raw.length;
  fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify(done));
  return compressed;
}

function main() {
  if (!HAVE.shell) throw new Error('needs the real mysqlsh (../shared/bin/mysqlsh)');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'check-bench-'));
  const home = path.join(work, 'cfg');
  try {
    run('sh', [path.join(ROOT, 'install.sh')], { env: { ...process.env, MYSQLSH_USER_CONFIG_HOME: home } });
    const dump = path.join(work, 'dump');
    const compressed = makeDump(dump);
    const env = { ...process.env, MYSQLSH_USER_CONFIG_HOME: home };
    const measured = (cmd, args, opts) => () => {
      settle();
      const r = runMeasured(cmd, args, opts || { env });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stdout}${r.stderr}`);
      return r;
    };
    const inspect = (args) => measured(MYSQLSH, ['--', 'restore', 'inspect', dump, ...args]);
    const runs = Number(process.env.BENCH_RUNS || 3);
    console.log(machineLine(MYSQLSH));
    console.log(`dump: ${FILES} data files of ${MIB} MiB data each (${(compressed / 1048576).toFixed(0)} MiB zstd, ` +
      `${FILES * MIB} MiB data); ${runs} runs of each, interleaved (warm page cache); median (min–max)`);
    const results = interleave([
      { name: 'cat of every data file (read only)', run: measured('sh', ['-c', `cat "${dump}"/shop@orders@* > /dev/null`], {}) },
      { name: 'mysqlsh start, nothing done', run: measured(MYSQLSH, ['--js', '-e', '1']) },
      { name: 'restore inspect (structure, default)', run: inspect([]) },
      { name: 'restore inspect --verify (decompressed)', run: inspect(['--verify']) },
    ], runs);
    const verdict = results['restore inspect --verify (decompressed)'][0].stdout.match(/Verdict: .*/)[0];
    const mb = compressed / 1048576;
    const med = (name) => stats(results[name].map((x) => x.seconds)).median;
    console.log(`  ${'variant'.padEnd(42)} ${'seconds'.padEnd(20)} ${'MiB/s'.padStart(6)}  peak MB of the process`);
    Object.keys(results).forEach((name) => {
      const list = results[name];
      console.log(`  ${name.padEnd(42)} ${fmt(list.map((x) => x.seconds)).padEnd(20)} ${(mb / med(name)).toFixed(0).padStart(6)}  ` +
        fmt(list.map((x) => x.peakMB), 0));
    });
    const start = med('mysqlsh start, nothing done');
    const structure = med('restore inspect (structure, default)') - start;
    const verify = med('restore inspect --verify (decompressed)') - start;
    console.log(`  structure check beyond start-up: ${structure.toFixed(2)} s; verify: ${verify.toFixed(2)} s ` +
      `(${(verify / Math.max(structure, 0.001)).toFixed(1)}x); ${verdict}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main();
