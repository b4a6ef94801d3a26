'use strict';
// The dump's output directory, handled as the Shell's local storage backend does: `file://` and
// `~` accepted, relative paths against the current directory; an existing directory must hold
// no files; a missing one is created (its parent must exist), mode rwxr-x---.
const fs = require('fs');
const os = require('os');
const path = require('path');

function resolveOutputDir(outputUrl, cwd) {
  let p = String(outputUrl).replace(/^file:\/\//i, '');
  if (p === '~' || p.startsWith('~/')) p = path.join(os.homedir(), p.slice(1));
  return path.resolve(cwd, p);
}

// Error text when the directory already holds files (only regular files count), else null.
function notEmptyProblem(outputUrl, fullPath) {
  let entries;
  try { entries = fs.readdirSync(fullPath); } catch (e) { return null; }
  const hasFiles = entries.some((name) => {
    try { return fs.statSync(path.join(fullPath, name)).isFile(); } catch (e) { return false; }
  });
  return hasFiles
    ? `Cannot proceed with the dump, the specified directory '${outputUrl}' already exists at the target location ${fullPath} and is not empty.`
    : null;
}

// Throws Error('Could not create directory …') as the Shell words it.
function createOutputDir(fullPath) {
  if (fs.existsSync(fullPath) && fs.statSync(fullPath).isDirectory()) return;
  try {
    fs.mkdirSync(fullPath, { mode: 0o750 });
  } catch (e) {
    const reason = { ENOENT: 'No such file or directory', EEXIST: 'File exists', EACCES: 'Permission denied',
      ENOTDIR: 'Not a directory' }[e.code] || e.message;
    throw new Error(`Could not create directory ${fullPath}: ${reason}`);
  }
}

module.exports = { resolveOutputDir, notEmptyProblem, createOutputDir };
