'use strict';
// Errors carry a code (lib/core/error-codes.js) and no code reads an error's wording: a message
// may be reworded without changing what the plugin does. Reads the sources of lib/ and the plugin's
// JS; runs one refusal through lib/format/output.js for the JSON document a script gets.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { CODES, FILE_CODES } = require('../../lib/core/error-codes.js');
const { UserError } = require('../../lib/core/user-error.js');
const { FileError } = require('../../lib/core/file-error.js');
const { runWithOutput } = require('../../lib/format/output.js');

const ROOT = path.resolve(__dirname, '..', '..');
const DIRS = [path.join(ROOT, 'lib'), path.join(ROOT, 'plugins', 'restore', 'restore_js')];
const PY_DIR = path.join(ROOT, 'plugins', 'restore', 'restore_py');

// The host: the Shell's own error messages lose the Shell's prefix ("ClassicSession.runSql: ")
// there. Option parsers' messages trimmed for the option table (lib/options/option-table.js, a
// parser's message without the option's name); os.loadTextFile's message, which names the path
// again, until host.js's loadText gives the reason alone. A fixed site must leave this list.
const COMPANION = 'plugins/restore/restore_js/host.js';
const KNOWN_READS = [COMPANION, 'lib/dump/dump-metadata.js', 'lib/options/option-table.js', 'lib/options/mask-spec.js'];

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && !e.isSymbolicLink()) return jsFiles(p);
    return e.isFile() && e.name.endsWith('.js') ? [p] : [];
  });
}

const SOURCES = DIRS.flatMap(jsFiles).map((f) => ({ file: path.relative(ROOT, f), text: fs.readFileSync(f, 'utf8') }));

// Every construction: its file, line and first argument's text.
function constructions() {
  const out = [];
  SOURCES.forEach(({ file, text }) => {
    const re = /new UserError\(\s*([^,)]*)([,)])/g;
    let m;
    while ((m = re.exec(text))) {
      out.push({ where: file + ':' + text.slice(0, m.index).split('\n').length, first: m[1].trim(), args: m[2] === ',' });
    }
  });
  return out;
}

// A string method or a regex applied to an error's message (or to a text made of it).
const READS = [
  /\b(message|why|problem|error)\)?\s*\.(replace|match|matchAll|indexOf|lastIndexOf|search|split|startsWith|endsWith|includes|slice|substr|substring)\(/,
  /\.(test|exec)\(\s*(String\()?[\w.]*\b(message|why|problem|error)\b/,
  /lastIndexOf\('\w*Error: '\)/,
];

describe('error codes (lib/core/error-codes.js, plain Node)', function () {
  const all = constructions();

  it('every UserError is constructed with a declared code first', function () {
    const bad = all.filter((c) => !c.where.startsWith(COMPANION + ':'))
      .filter((c) => !c.args || !/^'[A-Z][A-Z0-9_]*'$/.test(c.first) || !CODES[c.first.slice(1, -1)]);
    expect(bad.map((c) => c.where + ' ' + c.first), 'constructions without a declared code').to.deep.equal([]);
    expect(all.length).to.be.above(150);
  });

  it('every declared code is used, and no code is a message', function () {
    const used = new Set(all.map((c) => c.first.slice(1, -1)));
    const unused = Object.keys(CODES).filter((k) => !used.has(k));
    expect(unused, 'declared codes no construction uses').to.deep.equal([]);
    Object.keys(CODES).forEach((k) => expect(k).to.match(/^[A-Z][A-Z0-9_]{2,30}$/));
  });

  it('every code the Python companion answers is declared (a FileError\'s code), and none is left over', function () {
    const answered = new Set();
    fs.readdirSync(PY_DIR).filter((n) => n.endsWith('.py')).forEach((n) => {
      const text = fs.readFileSync(path.join(PY_DIR, n), 'utf8');
      for (const m of text.matchAll(/\b(?:Refusal|os_refusal)\(\s*"([a-z]+(?:-[a-z]+)*)"/g)) answered.add(m[1]);
    });
    answered.delete('internal'); // a defect of the companion: thrown as the plugin's own, never a FileError
    expect(answered.size).to.be.above(10);
    expect([...answered].filter((c) => !FILE_CODES[c]), 'companion codes not in FILE_CODES').to.deep.equal([]);
    expect(Object.keys(FILE_CODES).filter((c) => !answered.has(c)), 'FILE_CODES the companion never answers').to.deep.equal([]);
    Object.keys(FILE_CODES).forEach((k) => expect(CODES[k], k).to.equal(undefined));
  });

  it('no code reads an error message\'s wording (regexes, string methods over e.message)', function () {
    const found = [];
    SOURCES.forEach(({ file, text }) => {
      text.split('\n').forEach((line, i) => {
        if (READS.some((re) => re.test(line))) found.push(file + ':' + (i + 1));
      });
    });
    const fresh = found.filter((w) => !KNOWN_READS.some((k) => w.startsWith(k + ':')));
    expect(fresh, 'code that parses an error message: give the error a code or data instead').to.deep.equal([]);
    KNOWN_READS.forEach((k) => expect(found.some((w) => w.startsWith(k + ':')), k + ' no longer reads a message: drop it from KNOWN_READS').to.equal(true));
  });

  it('outputFormat json prints a refusal as {error: {code, message, data}} and still fails', function () {
    const printed = [];
    const host = { out: { print: (l) => printed.push(l), progress: () => {}, warn: () => {} } };
    const refuse = (h) => {
      h.out.warn('a warning on the way');
      throw new UserError('OPTION_INVALID', 'Option x must be a number.', { option: 'x' });
    };
    let error = null;
    try { runWithOutput(host, { outputFormat: 'json' }, refuse); } catch (e) { error = e; }
    expect(error && error.code).to.equal('OPTION_INVALID');
    expect(printed).to.have.length(1);
    expect(JSON.parse(printed[0])).to.deep.equal({ error: { code: 'OPTION_INVALID', message: 'Option x must be a number.',
      data: { option: 'x' } }, warnings: ['a warning on the way'] });
  });

  it('a FileError (a file operation the companion refused) is printed in the same shape, with its code', function () {
    const printed = [];
    const host = { out: { print: (l) => printed.push(l), progress: () => {}, warn: () => {} } };
    const refuse = () => {
      throw new FileError('write-failed', '/tmp/x/list.txt: cannot write (Permission denied)',
        { path: '/tmp/x/list.txt', errno: 13, reason: 'cannot write (Permission denied)' });
    };
    let error = null;
    try { runWithOutput(host, { outputFormat: 'json' }, refuse); } catch (e) { error = e; }
    expect(error && error.isUserError && error.code).to.equal('write-failed');
    expect(JSON.parse(printed[0])).to.deep.equal({ error: { code: 'write-failed', message: '/tmp/x/list.txt: cannot write (Permission denied)',
      data: { path: '/tmp/x/list.txt', errno: 13, reason: 'cannot write (Permission denied)' } } });
  });
});
