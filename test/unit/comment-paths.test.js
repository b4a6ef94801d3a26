'use strict';
// No comment names a file that does not exist: every path with a folder in it (lib/run/x.js,
// ../shared/…, ./x.js) in the comments of lib/, plugins/, test/, bench/ and scripts/ must be
// there, relative to the file, to the checkout or to its parent (../shared).
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const DIRS = ['lib', 'plugins/restore/restore_js', 'plugins/restore/restore_py', 'test', 'bench', 'scripts'];

function sources(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.isSymbolicLink() || e.name === 'node_modules' || e.name === 'target' ? [] : sources(p);
    return /\.(js|py)$/.test(e.name) ? [p] : [];
  });
}

function commentOf(line, file) {
  if (file.endsWith('.py')) { const at = line.indexOf('#'); return at >= 0 ? line.slice(at) : ''; }
  const at = line.indexOf('//');
  if (at >= 0) return line.slice(at);
  return /^\s*\*/.test(line) ? line : '';
}

// Shell source paths cited from mysql/mysql-shell (modules/…, mysqlshdk/…) name files of that repository.
const SHELL_SOURCE = /^(modules|mysqlshdk|src|languages|utils|types|polyglot_wrappers|ext|unittest)\//;

function dangling(file) {
  const out = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const c = commentOf(line, file);
    for (const m of c.matchAll(/(?:^|[\s(`'"])((?:\.\.?\/|[\w-]+\/)+[\w.@-]*\w\.(?:js|py|json|md|sh|txt))\b/g)) {
      const ref = m[1];
      if (SHELL_SOURCE.test(ref) || /^https?:/.test(ref)) continue;
      const places = [path.resolve(path.dirname(file), ref), path.resolve(ROOT, ref), path.resolve(ROOT, '..', ref),
        path.resolve(ROOT, '..', ref.replace(/^(\.\.\/)+/, ''))];
      if (!places.some((p) => fs.existsSync(p))) out.push(path.relative(ROOT, file) + ':' + (i + 1) + ': ' + ref);
    }
  });
  return out;
}

describe('comments name files that exist', function () {
  it('every folder/file path in a comment is a file of the checkout or of ../shared', function () {
    const files = DIRS.map((d) => path.join(ROOT, d)).filter((d) => fs.existsSync(d)).flatMap(sources)
      .filter((f) => f !== __filename); // its own examples
    expect(files.flatMap(dangling)).to.deep.equal([]);
  });

  it('finds a comment naming a file that is gone (the check can fail)', function () {
    const tmp = path.join(require('os').tmpdir(), 'comment-paths-' + process.pid + '.js');
    fs.writeFileSync(tmp, '// see lib/run/load-run.js\n');
    try { expect(dangling(tmp)).to.have.length(1); } finally { fs.unlinkSync(tmp); }
  });
});
