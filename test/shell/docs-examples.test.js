'use strict';
// The examples of README.md and docs/*.md run as written (docs/tests.md, "Examples in the docs"):
// every block marked `run` runs in the real mysqlsh against the suite's server, in a folder holding
// ./dump (a copy of sample-dumps/shop) and ./binlogs (a binary log of test/fixtures/binlogs), with
// `root@localhost` standing for the suite's server; it must exit 0 and print each `prints:` line.
// Blocks marked `norun` (an ssh host, a bucket, replicas) are parsed by the Shell's own JavaScript
// here and by sh -n in test/unit/docs.test.js, with their restore options checked there.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { needs, ROOT, MYSQLSH, SAMPLE_SHOP } = require('../support/real');
const { tempDir, installPlugin, copyDump, shellEnv } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const doc = require('../support/doc-blocks');

const FILES = doc.docFiles();
const BLOCKS = FILES.map((f) => ({ file: f, blocks: doc.blocks(fs.readFileSync(path.join(ROOT, f), 'utf8')) }));
// An example shown in two places (the README's tour and its page) runs once, where it comes first.
const FIRST = new Map();
BLOCKS.forEach(({ file, blocks }) => blocks.filter((b) => b.mode === 'run').forEach((b) => {
  const key = b.lang + '\n' + b.code;
  if (!FIRST.has(key)) FIRST.set(key, { ...b, places: [] });
  FIRST.get(key).places.push(`${file}:${b.line}`);
}));
const BINLOG = path.join(ROOT, 'test', 'fixtures', 'binlogs', 'types.000002');

describe('docs examples (real Shell, the suite\'s server, the sample dump)', function () {
  let server = null;
  let env = null;
  let before0 = null;

  async function schemas() {
    return (await server.query('SELECT SCHEMA_NAME AS s FROM information_schema.SCHEMATA')).map((r) => r.s);
  }
  // What an example loaded goes again, so the next one starts from the same server.
  async function dropNew() {
    for (const s of (await schemas()).filter((x) => before0.indexOf(x) < 0)) await server.query(`DROP SCHEMA \`${s.replace(/`/g, '``')}\``);
  }

  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    before0 = await schemas();
    // `mysqlsh` on the PATH of the sh examples is the real Shell, with the plugin in a config home of its own.
    const bin = tempDir('restore-docs-bin-');
    fs.writeFileSync(path.join(bin, 'mysqlsh'), `#!/bin/sh\nexec ${JSON.stringify(MYSQLSH)} "$@"\n`, { mode: 0o755 });
    env = shellEnv({ configHome: installPlugin(tempDir('restore-docs-cfg-')) });
    env.PATH = bin + path.delimiter + env.PATH;
  });
  after(async function () { if (server && before0) await dropNew(); });

  for (const { file, blocks } of BLOCKS) {
    const runs = blocks.filter((b) => b.mode === 'run').map((b) => FIRST.get(b.lang + '\n' + b.code))
      .filter((b) => b.places[0] === `${file}:${b.line}`);
    if (!runs.length) continue;
    describe(file, function () {
      let dir = null;
      before(function () {
        if (!server) return;
        dir = path.dirname(copyDump(SAMPLE_SHOP, 'dump'));
        fs.mkdirSync(path.join(dir, 'binlogs'));
        fs.copyFileSync(BINLOG, path.join(dir, 'binlogs', path.basename(BINLOG)));
      });
      afterEach(async function () { if (server) await dropNew(); });
      for (const b of runs) {
        it(`${b.places.join(', ')} (${b.lang})`, function () {
          needs(this, ['shell', 'server']);
          this.timeout(120000);
          const code = b.code.replace(/root@localhost/g, server.uri);
          let r;
          if (b.lang === 'sh') {
            r = spawnSync('sh', ['-e', '-c', code], { cwd: dir, env, encoding: 'utf8', timeout: 110000, stdio: ['ignore', 'pipe', 'pipe'] });
          } else {
            const js = path.join(tempDir('restore-docs-js-'), 'example.js');
            fs.writeFileSync(js, code);
            r = spawnSync(MYSQLSH, [server.uri, '--js', '-f', js], { cwd: dir, env, encoding: 'utf8', timeout: 110000, stdio: ['ignore', 'pipe', 'pipe'] });
          }
          const out = (r.stdout || '') + (r.stderr || '');
          expect(r.status, `${file}:${b.line}\n${code}\n${out}`).to.equal(0);
          for (const p of b.prints) expect(out, `${file}:${b.line} prints "${p}"`).to.include(p);
        });
      }
    });
  }

  it('the examples that do not run (an ssh host, a bucket, replicas) parse in the Shell\'s JavaScript', function () {
    needs(this, ['shell']);
    const norun = [];
    BLOCKS.forEach(({ file, blocks }) => blocks.filter((b) => b.lang === 'js' && b.mode === 'norun')
      .forEach((b) => norun.push({ where: `${file}:${b.line}`, code: b.code })));
    expect(norun.length).to.be.above(0);
    const check = `var bad = [];\n` + norun.map((n) => `try { new Function(${JSON.stringify(n.code)}); } catch (e) { bad.push(${JSON.stringify(n.where)} + ': ' + e.message); }`).join('\n') +
      `\nprintln('PARSED ' + ${norun.length} + ' ' + JSON.stringify(bad));\n`;
    const js = path.join(tempDir('restore-docs-js-'), 'parse.js');
    fs.writeFileSync(js, check);
    const r = spawnSync(MYSQLSH, ['--js', '-f', js], { env: env || shellEnv(), encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] });
    expect(r.stdout + r.stderr).to.include(`PARSED ${norun.length} []`);
  });
});
