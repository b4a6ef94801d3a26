'use strict';
// mysqlsh's JS module loading (plugin-runtime.md §1.4-1.5): every file runs in its own realm (a
// Node vm context) whose globals are a snapshot of the main globals taken when the file loads,
// wrapped as function(exports, module, __filename, __dirname). require() resolves like core.js:
// `./`/`../` against the folder of the module being loaded (only while it loads), then sys.path;
// tries name, name.js, name/init.js; refuses '', '\' and absolute paths. No Node modules exist.
const fs = require('fs');
const path = require('path');
const vm = require('vm');

function createModuleSystem({ snapshotGlobals, baseFolder, sysPath, nativeModules }) {
  const cache = new Map();
  const folders = [];

  function currentFolder() {
    return folders.length ? folders[folders.length - 1] : baseFolder();
  }

  function isFile(p) { try { return fs.statSync(p).isFile(); } catch (e) { return false; } }
  function isDir(p) { try { return fs.statSync(p).isDirectory(); } catch (e) { return false; } }

  function resolve(name) {
    const roots = [];
    if (name.startsWith('./') || name.startsWith('../')) roots.push(currentFolder());
    for (const p of sysPath()) roots.push(path.isAbsolute(p) ? p : path.join(process.cwd(), p));
    for (const root of roots) {
      const full = path.normalize(path.join(root, name));
      if (isFile(full)) return full;
      if (isFile(`${full}.js`)) return `${full}.js`;
      if (isDir(full) && isFile(path.join(full, 'init.js'))) return path.join(full, 'init.js');
    }
    return null;
  }

  function requireModule(name) {
    if (typeof name !== 'string') throw new TypeError("The 'module_name_or_path' parameter is expected to be a string.");
    if (name === '') throw new Error('The path must contain at least one character.');
    if (name.includes('\\')) throw new Error("The '\\' character is disallowed.");
    if (path.isAbsolute(name)) throw new Error('The absolute path is disallowed.');
    if (nativeModules[name]) return nativeModules[name]();
    const full = resolve(name);
    if (!full) throw new Error(`Could not find module '${name}'.`);
    return loadModule(full);
  }

  // Runs one file in a fresh realm; returns module.exports (cached by absolute path).
  function loadModule(full) {
    if (cache.has(full)) return cache.get(full).exports;
    const module = { __filename: full, __dirname: path.dirname(full), exports: {} };
    cache.set(full, module);
    const sandbox = snapshotGlobals();
    sandbox.require = requireModule;
    const context = vm.createContext(sandbox, { name: full });
    const source = fs.readFileSync(full, 'utf8');
    const wrapped = vm.runInContext(
      `(function (exports, module, __filename, __dirname) {${source}\n})`, context, { filename: full, lineOffset: 0 });
    folders.push(path.dirname(full));
    try {
      wrapped(module.exports, module, module.__filename, module.__dirname);
    } catch (e) {
      cache.delete(full);
      throw e;
    } finally {
      folders.pop();
    }
    return module.exports;
  }

  return { requireModule, loadModule };
}

module.exports = { createModuleSystem };
