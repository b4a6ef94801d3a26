'use strict';
// lib/dump/ is the only reader of a dump's metadata (lib/README.md): no file of lib/ outside it
// calls the metadata readers, parses @.done.json, or loads a text file, except the plugin's own
// files named below. Plain Node: reads the sources, runs nothing of them.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const LIB = path.join(ROOT, 'lib');

// The readers of lib/dump/ (dump-metadata.js, done-file.js): a dump's files are read through them.
const READERS = ['readJsonFile', 'readText', 'readDoneFile', 'checkObject', 'invalidJson'];

// Files outside lib/dump/ that load a text file: each reads a file of the plugin's own, never a dump's.
const OWN_FILES = {
  'lib/server/restore-state.js': 'the state file (<config home>/restore/state)',
  'lib/options/presets.js': 'the user\'s presets file',
  'lib/partial/load-view.js': 'the load view\'s own mark file',
  'lib/snapshot/row-ownership.js': 'its record of rows of their own, beside util.loadDump\'s progress file',
  'lib/binlog/replay-record.js': 'the replay\'s record for a roll forward (<config home>/restore/replays)',
  'lib/run/loaded-rows.js': 'util.loadDump\'s progress file (never inside the dump: lib/run/progress-file-check.js)',
  'lib/binlog/binlog-folder.js': 'a folder of binary logs\' index file (binlog.index): not a dump\'s',
};

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.isFile() && e.name.endsWith('.js') ? [p] : [];
  });
}

// Code only: comments (which name files freely) are left out.
function code(text) {
  return text.split('\n').map((l) => l.replace(/^\s*\/\/.*$/, '').replace(/\s\/\/ .*$/, '')).join('\n');
}

// rel: path from the project root; text: the file's source → what breaks the rule.
function dumpReads(rel, text) {
  const c = code(text);
  const found = [];
  READERS.forEach((name) => { if (new RegExp('\\b' + name + '\\b').test(c)) found.push(rel + ' uses ' + name); });
  (c.match(/\bloadText\([^)]*\)/g) || []).forEach((call) => {
    if (!OWN_FILES[rel]) found.push(rel + ' loads a file itself: ' + call);
    else if (/pathOf|\.json'|model\.dir|dumpDir/.test(call)) found.push(rel + ' loads a dump\'s file: ' + call);
  });
  return found;
}

describe('the dump model is the only reader of a dump\'s metadata (plain Node, no Shell)', function () {
  it('no file of lib/ outside lib/dump/ reads a dump\'s metadata or loads its files', function () {
    const found = [];
    jsFiles(LIB).forEach((f) => {
      const rel = path.relative(ROOT, f).split(path.sep).join('/');
      if (rel.startsWith('lib/dump/')) return;
      found.push(...dumpReads(rel, fs.readFileSync(f, 'utf8')));
    });
    expect(found).to.deep.equal([]);
  });

  it('every file allowed to load text exists and does load text (the list stays true)', function () {
    Object.keys(OWN_FILES).forEach((rel) => {
      expect(code(fs.readFileSync(path.join(ROOT, rel), 'utf8')), rel).to.match(/\bloadText\(/);
    });
  });

  it('finds a reader outside lib/dump/ when there is one (the check can fail)', function () {
    expect(dumpReads('lib/partial/x.js', "var root = metadata.readJsonFile(host, pathOf('@.json'));")).to.have.length(1);
    expect(dumpReads('lib/snapshot/x.js', 'var t = host.files.loadText(file);')).to.have.length(1);
    expect(dumpReads('lib/partial/load-view.js', "f.loadText(pathOf('@.checksums.json'))")).to.have.length(1);
    expect(dumpReads('lib/partial/x.js', '// metadata.readJsonFile is lib/dump\'s')).to.deep.equal([]);
  });
});
