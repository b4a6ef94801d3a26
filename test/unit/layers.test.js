'use strict';
// The layers of lib/ (lib/README.md, top): a require may point to the same folder or to a folder
// of a lower layer, never up, and no chain of requires comes back to where it started. Plain
// Node: reads the sources, runs nothing of them.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const LIB = path.join(ROOT, 'lib');
const PLUGIN = path.join(ROOT, 'plugins', 'restore', 'restore_js');

// Lowest first; the same list as lib/README.md's. The plugin's files sit above all of lib/.
const LAYERS = ['core', 'format', 'dump', 'options', 'remote', 'binlog', 'server', 'snapshot', 'partial', 'rename', 'run', 'commands'];

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !e.isSymbolicLink()) return jsFiles(p);
    return e.isFile() && e.name.endsWith('.js') ? [p] : [];
  });
}

// Every relative require of a file, resolved to a real path (plugins/restore/lib is a symlink to lib/).
function requiresOf(file) {
  const text = fs.readFileSync(file, 'utf8');
  const out = [];
  const re = /\brequire\(\s*(['"])([^'"]+)\1\s*\)/g;
  let m;
  while ((m = re.exec(text))) {
    if (!m[2].startsWith('.')) continue;
    let target = path.resolve(path.dirname(file), m[2]);
    if (!target.endsWith('.js')) target += '.js';
    out.push({ text: m[2], target: fs.existsSync(target) ? fs.realpathSync(target) : target });
  }
  return out;
}

// 'lib/<folder>' → its layer index; plugin files → LAYERS.length.
function layerOf(file) {
  const rel = path.relative(LIB, file);
  if (rel.startsWith('..')) return { name: 'plugin', rank: LAYERS.length };
  const folder = rel.split(path.sep)[0];
  return { name: folder, rank: LAYERS.indexOf(folder) };
}

function graph() {
  const files = jsFiles(LIB).concat(jsFiles(PLUGIN));
  const edges = new Map();
  files.forEach((f) => edges.set(f, requiresOf(f)));
  return { files, edges };
}

function cycles(nodes, next) {
  const found = [];
  const state = new Map();
  const stack = [];
  function visit(n) {
    state.set(n, 'open');
    stack.push(n);
    for (const m of next(n)) {
      if (state.get(m) === 'open') found.push(stack.slice(stack.indexOf(m)).concat([m]));
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  }
  nodes.forEach((n) => { if (!state.has(n)) visit(n); });
  return found;
}

describe('layers of lib/ (plain Node, no Shell)', function () {
  const { files, edges } = graph();
  const rel = (f) => path.relative(ROOT, f);

  it('every folder of lib/ has its place in the order', function () {
    const folders = fs.readdirSync(LIB, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((d) => LAYERS.indexOf(d) < 0), 'folders missing from LAYERS (and lib/README.md)').to.deep.equal([]);
    expect(fs.readdirSync(LIB).filter((n) => n.endsWith('.js')), 'files straight in lib/').to.deep.equal([]);
  });

  it('lib/README.md lists the same layers in the same order', function () {
    const readme = fs.readFileSync(path.join(LIB, 'README.md'), 'utf8');
    const listed = (readme.match(/^Layers[\s\S]*?```\n([\s\S]*?)```/m) || [])[1] || '';
    const names = listed.split('\n').map((l) => (l.match(/^\s*(\w+)\//) || [])[1]).filter(Boolean);
    expect(names.reverse()).to.deep.equal(LAYERS);
  });

  it('every require resolves to a file of the project', function () {
    const broken = [];
    edges.forEach((reqs, f) => reqs.forEach((r) => { if (!fs.existsSync(r.target)) broken.push(rel(f) + ' → ' + r.text); }));
    expect(broken).to.deep.equal([]);
  });

  it('no require points up the order', function () {
    const up = [];
    edges.forEach((reqs, f) => {
      const from = layerOf(f);
      reqs.forEach((r) => {
        const to = layerOf(r.target);
        if (to.rank > from.rank) up.push(rel(f) + ' (' + from.name + ') → ' + r.text + ' (' + to.name + ')');
      });
    });
    expect(up).to.deep.equal([]);
  });

  it('the plugin reaches lib/ through lib/commands, lib/format, lib/options and lib/core only', function () {
    const allowed = ['commands', 'format', 'options', 'core'];
    const bad = [];
    edges.forEach((reqs, f) => {
      if (layerOf(f).name !== 'plugin') return;
      reqs.forEach((r) => { const to = layerOf(r.target); if (to.name !== 'plugin' && allowed.indexOf(to.name) < 0) bad.push(rel(f) + ' → ' + r.text); });
    });
    expect(bad).to.deep.equal([]);
  });

  it('no cycle of folders and none of files', function () {
    const folderEdges = new Map();
    edges.forEach((reqs, f) => {
      const a = layerOf(f).name;
      reqs.forEach((r) => {
        const b = layerOf(r.target).name;
        if (a === b) return;
        if (!folderEdges.has(a)) folderEdges.set(a, new Set());
        folderEdges.get(a).add(b);
      });
    });
    const folderCycles = cycles(Array.from(folderEdges.keys()), (n) => Array.from(folderEdges.get(n) || []));
    expect(folderCycles.map((c) => c.join(' → '))).to.deep.equal([]);
    const fileCycles = cycles(files, (f) => (edges.get(f) || []).map((r) => r.target).filter((t) => edges.has(t)));
    expect(fileCycles.map((c) => c.map(rel).join(' → '))).to.deep.equal([]);
  });

  it('finds an upward require and a cycle when there is one (the checks can fail)', function () {
    expect(layerOf(path.join(LIB, 'dump', 'x.js')).rank).to.be.below(layerOf(path.join(LIB, 'commands', 'x.js')).rank);
    const c = cycles(['a', 'b', 'c'], (n) => ({ a: ['b'], b: ['c'], c: ['a'] })[n]);
    expect(c).to.deep.equal([['a', 'b', 'c', 'a']]);
  });
});
