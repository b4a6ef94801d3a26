'use strict';
// Which plugins mysqlsh loads from <user config>/plugins (plugin-runtime.md §1.2-1.3): folders
// only, dot-names skipped, init.js → JS, init.py → Python, both → warning and neither loaded,
// neither → a group whose direct sub-folders are searched once. All JS before all Python.
const fs = require('fs');
const path = require('path');

function entries(dir, order) {
  let names;
  try { names = fs.readdirSync(dir); } catch (e) { return []; }
  names = names.filter((n) => !n.startsWith('.'));
  names.sort();
  if (order === 'reverse') names.reverse();
  return names.map((n) => path.join(dir, n)).filter((p) => { try { return fs.statSync(p).isDirectory(); } catch (e) { return false; } });
}

// order: 'sorted' | 'reverse' — readdir order is unspecified in the Shell; tests may flip it.
function discoverPlugins(pluginsDir, { order = 'sorted', warn } = {}) {
  const js = [];
  const py = [];
  function visit(dir, main) {
    const hasJs = fs.existsSync(path.join(dir, 'init.js'));
    const hasPy = fs.existsSync(path.join(dir, 'init.py'));
    if (hasJs && hasPy) {
      warn(`Found multiple plugin initialization files for plugin '${path.basename(dir)}' at ${dir}, ignoring plugin.`);
      return;
    }
    if (hasJs) { js.push({ file: path.join(dir, 'init.js'), main }); return; }
    if (hasPy) { py.push({ file: path.join(dir, 'init.py'), main }); return; }
    if (main) entries(dir, order).forEach((sub) => visit(sub, false));
  }
  entries(pluginsDir, order).forEach((dir) => visit(dir, true));
  return { js, py };
}

module.exports = { discoverPlugins };
