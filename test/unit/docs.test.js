'use strict';
// README.md and docs/*.md hold together without the Shell: every relative link leads to a file (and
// to a heading of it when it names one), every page of docs/ is linked from the README, every sh/js
// example says whether it runs (docs/tests.md), and the ones that do not run at least parse, name
// restore options that exist and npm scripts that exist. test/shell/docs-examples.test.js runs the rest.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { ROOT } = require('../support/real');
const doc = require('../support/doc-blocks');
const optionTable = require('../../lib/options/option-table.js');
const pkg = require('../../package.json');

const FILES = doc.docFiles();
const text = (f) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const all = () => FILES.flatMap((f) => doc.blocks(text(f)).map((b) => ({ ...b, file: f })));
const where = (b) => `${b.file}:${b.line}`;

describe('docs: README.md and docs/*.md', function () {
  it('has a page per capability under docs/, each linked from the README', function () {
    const pages = FILES.filter((f) => f !== 'README.md');
    expect(pages).to.include.members(['docs/load.md', 'docs/partial.md', 'docs/remote.md', 'docs/topologies.md',
      'docs/slices-and-masks.md', 'docs/point-in-time.md', 'docs/options.md', 'docs/output.md', 'docs/tests.md']);
    const linked = doc.links(text('README.md')).map((k) => k.target.split('#')[0]);
    expect(pages.filter((p) => linked.indexOf(p) < 0), 'pages the README does not link').to.deep.equal([]);
  });

  it('every relative link resolves to a file, and its #anchor to a heading there', function () {
    const broken = [];
    for (const f of FILES) {
      for (const k of doc.links(text(f))) {
        const [file, anchor] = k.target.split('#');
        const target = file ? path.normalize(path.join(path.dirname(f), decodeURI(file))) : f;
        if (!fs.existsSync(path.join(ROOT, target))) { broken.push(`${f}:${k.line} ${k.target} (no file ${target})`); continue; }
        if (anchor && !doc.anchors(text(target)).has(anchor)) broken.push(`${f}:${k.line} ${k.target} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('every sh and js example is marked run or norun', function () {
    const unmarked = all().filter((b) => /^(sh|js)$/.test(b.lang) && !b.mode).map(where);
    expect(unmarked, 'mark them ```sh run or ```sh norun (docs/tests.md)').to.deep.equal([]);
    expect(all().filter((b) => b.mode === 'run').length).to.be.above(10);
  });

  it('every sh example parses (sh -n)', function () {
    const bad = all().filter((b) => b.lang === 'sh').map((b) => ({ b, r: spawnSync('sh', ['-n'], { input: b.code, encoding: 'utf8' }) }))
      .filter((x) => x.r.status !== 0).map((x) => `${where(x.b)}: ${x.r.stderr.trim()}`);
    expect(bad).to.deep.equal([]);
  });

  it('every js example parses', function () {
    const bad = [];
    for (const b of all().filter((x) => x.lang === 'js')) {
      try { new Function(b.code); } catch (e) { bad.push(`${where(b)}: ${e.message}`); } // eslint-disable-line no-new-func
    }
    expect(bad).to.deep.equal([]);
  });

  it('the restore command lines of the examples name options their member takes', function () {
    const bad = [];
    let seen = 0;
    for (const b of all().filter((x) => x.lang === 'sh')) {
      for (const c of doc.restoreCommands(b.code)) {
        const known = optionTable.memberOptions(c.member).map((o) => o.name);
        if (!known.length) continue; // a member without declared options (status, presets, dump …)
        seen++;
        c.options.filter((o) => known.indexOf(o) < 0).forEach((o) => bad.push(`${where(b)}: restore ${c.member} has no option ${o}`));
      }
    }
    expect(seen).to.be.above(10);
    expect(bad).to.deep.equal([]);
  });

  it('the npm scripts the examples run exist', function () {
    const bad = [];
    for (const b of all().filter((x) => x.lang === 'sh')) {
      for (const m of b.code.matchAll(/\bnpm run ([\w:-]+)/g)) if (!pkg.scripts[m[1]]) bad.push(`${where(b)}: npm run ${m[1]}`);
    }
    expect(bad).to.deep.equal([]);
  });
});
