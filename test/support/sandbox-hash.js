'use strict';
// Hashes a whole sandbox (directories given as roots: a dump copy, where a fetch list may go, the
// config home's state directory) so a test can assert that a refused command changed nothing
// pre-existing and created nothing outside the places it may write. Symbolic links are recorded
// by target (never followed), directories by their presence.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');

function walk(root, into) {
  let st;
  try { st = fs.lstatSync(root); } catch (e) { return into; }
  if (st.isSymbolicLink()) into.set(root, 'link:' + fs.readlinkSync(root));
  else if (st.isDirectory()) {
    into.set(root, 'dir');
    for (const n of fs.readdirSync(root)) walk(path.join(root, n), into);
  } else {
    let h;
    try { h = crypto.createHash('sha256').update(fs.readFileSync(root)).digest('hex'); } catch (e) { h = 'unreadable:' + e.code; }
    into.set(root, 'file:' + st.size + ':' + h + ':' + (st.mode & 0o777).toString(8));
  }
  return into;
}

// roots → Map path → fingerprint.
function hashSandbox(roots) {
  const m = new Map();
  for (const r of roots) walk(r, m);
  return m;
}

// {changed, removed, added} paths between two hashes; allowedNew(path) → true for paths that may appear.
function diffSandbox(before, after, allowedNew = () => false) {
  const out = { changed: [], removed: [], added: [] };
  for (const [p, h] of before) {
    if (!after.has(p)) out.removed.push(p);
    else if (after.get(p) !== h) out.changed.push(p);
  }
  for (const p of after.keys()) if (!before.has(p) && !allowedNew(p)) out.added.push(p);
  return out;
}

const UNCHANGED = { changed: [], removed: [], added: [] };

module.exports = { hashSandbox, diffSandbox, UNCHANGED };
