'use strict';
// The `os` global of mysqlsh's JavaScript (plugin-runtime.md §2.2-2.3): getenv, getcwd, sleep,
// loadTextFile and os.path — and nothing else (no way to write or list files).
const fs = require('fs');
const path = require('path');
const { shellThrowable } = require('./shell-errors');

function makeOs({ profile, env, cwd }) {
  const where = (m) => (profile.prefix ? m : null);
  const str = (v, i, m) => {
    if (typeof v !== 'string') throw shellThrowable(profile, 'TypeError', `Argument #${i} is expected to be a string`, undefined, where(m));
    return v;
  };
  const p = {
    basename: (x) => path.basename(str(x, 1, 'Path.basename')),
    dirname: (x) => path.dirname(str(x, 1, 'Path.dirname')),
    isabs: (x) => path.isAbsolute(str(x, 1, 'Path.isabs')),
    isdir: (x) => { try { return fs.statSync(path.resolve(cwd(), str(x, 1, 'Path.isdir'))).isDirectory(); } catch (e) { return false; } },
    isfile: (x) => { try { return fs.statSync(path.resolve(cwd(), str(x, 1, 'Path.isfile'))).isFile(); } catch (e) { return false; } },
    join: (...parts) => {
      if (parts.length < 2 || parts.length > 4) {
        throw shellThrowable(profile, 'ArgumentError', `Invalid number of arguments, expected 2 to 4 but got ${parts.length}`, undefined, where('Path.join'));
      }
      parts.forEach((x, i) => str(x, i + 1, 'Path.join'));
      let out = '';
      parts.forEach((x, i) => {
        if (i >= 2 && x === '') return;
        if (path.isAbsolute(x)) out = x;
        else out = out === '' ? x : (out.endsWith('/') ? out + x : `${out}/${x}`);
      });
      return out;
    },
    normpath: (x) => {
      const n = path.normalize(str(x, 1, 'Path.normpath'));
      return n.length > 1 ? n.replace(/\/$/, '') : n;
    },
    __shellObject: 'Path',
  };
  return {
    getenv: (name) => { const v = env[str(name, 1, 'Os.getenv')]; return v === undefined ? null : v; },
    getcwd: () => cwd(),
    sleep: (s) => { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(s) * 1000); },
    loadTextFile: (file) => {
      const full = path.resolve(cwd(), str(file, 1, 'Os.loadTextFile'));
      try {
        return fs.readFileSync(full, 'utf8');
      } catch (e) {
        const reason = e.code === 'ENOENT' ? 'No such file or directory' : e.code === 'EISDIR' ? 'Is a directory' : e.message;
        throw shellThrowable(profile, 'RuntimeError', `${file}: ${reason}`, undefined, where('Os.loadTextFile'));
      }
    },
    path: p,
    __shellObject: 'Os',
  };
}

module.exports = { makeOs };
