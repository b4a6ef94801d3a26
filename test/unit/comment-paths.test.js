'use strict';
// No comment names a file that does not exist: every path with a folder in it (lib/run/x.js,
// ../shared/…, ./x.js) in the comments of lib/, plugins/, test/, bench/ and scripts/ must be
// there, relative to the file, to the checkout or to its parent (../shared). Paths into the shared
// folder are checked in a test of their own, skipped (and said so) when the folder is not there.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { SHARED, skipBecause } = require('../support/real');

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

// A path into the shared folder: ../shared/… (however many ../), or one that resolves into it.
function intoShared(ref, file) {
  return /^(\.\.\/)+shared\//.test(ref) || path.resolve(path.dirname(file), ref).startsWith(SHARED + path.sep);
}

// The dangling paths of a file; shared: true for the paths into the shared folder only, false for the others.
function dangling(file, shared = false) {
  const out = [];
  fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
    const c = commentOf(line, file);
    for (const m of c.matchAll(/(?:^|[\s(`'"])((?:\.\.?\/|[\w-]+\/)+[\w.@-]*\w\.(?:js|py|json|md|sh|txt))\b/g)) {
      const ref = m[1];
      if (SHELL_SOURCE.test(ref) || /^https?:/.test(ref)) continue;
      if (intoShared(ref, file) !== shared) continue;
      const places = [path.resolve(path.dirname(file), ref), path.resolve(ROOT, ref), path.resolve(ROOT, '..', ref),
        path.resolve(ROOT, '..', ref.replace(/^(\.\.\/)+/, ''))];
      if (!places.some((p) => fs.existsSync(p))) out.push(path.relative(ROOT, file) + ':' + (i + 1) + ': ' + ref);
    }
  });
  return out;
}

const checked = () => DIRS.map((d) => path.join(ROOT, d)).filter((d) => fs.existsSync(d)).flatMap(sources)
  .filter((f) => f !== __filename); // its own examples

describe('comments name files that exist', function () {
  it('every folder/file path in a comment is a file of the checkout', function () {
    expect(checked().flatMap((f) => dangling(f))).to.deep.equal([]);
  });

  it('every ../shared/… path in a comment is a file of the shared folder', function () {
    if (!fs.existsSync(SHARED)) skipBecause(this, 'it needs the shared folder (' + SHARED + ')');
    expect(checked().flatMap((f) => dangling(f, true))).to.deep.equal([]);
  });

  it('finds a comment naming a file that is gone (the check can fail)', function () {
    const tmp = path.join(require('os').tmpdir(), 'comment-paths-' + process.pid + '.js');
    fs.writeFileSync(tmp, '// see lib/run/load-run.js and ../shared/bin/no-such-tool.sh\n');
    try {
      expect(dangling(tmp)).to.deep.equal([path.relative(ROOT, tmp) + ':1: lib/run/load-run.js']);
      expect(dangling(tmp, true)).to.deep.equal([path.relative(ROOT, tmp) + ':1: ../shared/bin/no-such-tool.sh']);
    } finally { fs.unlinkSync(tmp); }
  });
});
