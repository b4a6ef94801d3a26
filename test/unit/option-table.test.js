'use strict';
// Issue 36, item 1: each option of restore.load, plan, view, stub and inspect is declared once
// (lib/options/option-table.js) and everything about it is made from that declaration: the
// members' definitions (the Shell's help and command line), the partial step's names, the table of
// docs/options.md. An option declared twice, or read by the load without a declaration, fails here.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const table = require('../../lib/options/option-table.js');
const loadOptions = require('../../lib/options/load-options.js');
const ownOptions = require('../../lib/options/load-own-options.js');
const partialStep = require('../../lib/run/partial-step.js');
const { MEMBERS } = require('../../plugins/restore/restore_js/member-registry.js');
const { madePage } = require('../../scripts/option-table.js');

const ROOT = path.resolve(__dirname, '..', '..');

function memberOptions(name) {
  const m = MEMBERS.find((x) => x.name === name);
  const p = m.definition.parameters.find((x) => x.name === 'options');
  return p ? p.options : [];
}

function jsFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return jsFiles(p);
    return e.name.endsWith('.js') ? [p] : [];
  });
}

describe('option table (lib/options/option-table.js): one declaration per option', function () {
  it('no option is declared twice; each has a section, a reader, a type, members and one help line', function () {
    const names = table.OPTIONS.map((o) => o.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i), 'declared twice').to.deep.equal([]);
    const sections = table.SECTIONS.map((s) => s.id);
    table.OPTIONS.forEach((o) => {
      expect(sections, o.name).to.include(o.section);
      expect(['own', 'partial', 'loadDump', 'output', 'command'], o.name).to.include(o.owner);
      expect(['bool', 'string', 'integer', 'list', 'spec'], o.name).to.include(o.type);
      expect(o.members, o.name).to.be.an('array').that.is.not.empty;
      expect(o.brief, o.name).to.be.a('string').and.not.match(/\n/);
      expect(o.brief.length, o.name + ': one help line').to.be.below(200);
      if (o.owner === 'loadDump' || o.bucket) expect(loadOptions.LOAD_DUMP_OPTIONS, o.name).to.have.property(o.name);
      else if (o.name !== 'dryRun') expect(loadOptions.isLoadDumpOption(o.name), o.name + ' shadows util.loadDump\'s').to.equal(false);
    });
  });

  it('the members\' options are the table\'s, each once, restore.load\'s with util.loadDump\'s pass-through ones', function () {
    for (const m of ['load', 'plan', 'view', 'stub', 'inspect']) {
      const names = memberOptions(m).map((o) => o.name);
      expect(names.filter((n, i) => names.indexOf(n) !== i), m + ': listed twice').to.deep.equal([]);
      const declared = table.OPTIONS.filter((o) => o.members.includes(m)).map((o) => o.name);
      const rest = names.filter((n) => !declared.includes(n));
      expect(rest, m).to.deep.equal(m === 'load' ? table.passThroughNames() : []);
    }
    const load = memberOptions('load').map((o) => o.name);
    expect(load, 'every util.loadDump option reaches restore.load')
      .to.include.members(Object.keys(loadOptions.LOAD_DUMP_OPTIONS));
  });

  it('the partial step owns exactly the options declared for it; restore.load\'s settings are the own ones', function () {
    expect(partialStep.optionNames).to.deep.equal(table.namesOwnedBy('partial'));
    expect(ownOptions.OWN_NAMES).to.deep.equal(table.namesOwnedBy('own'));
  });

  it('no option is read by lib/ without a declaration', function () {
    const declared = new Set(table.OPTIONS.map((o) => o.name).concat(Object.keys(loadOptions.LOAD_DUMP_OPTIONS)));
    const own = new Set(table.namesOwnedBy('own'));
    const unknown = [];
    for (const file of jsFiles(path.join(ROOT, 'lib'))) {
      const text = fs.readFileSync(file, 'utf8');
      const rel = path.relative(ROOT, file);
      // restore.load's settings (ctx.own.x, pre.own.x, own.x) and its options as given (ctx.options.x, explicit.x).
      for (const m of text.matchAll(/\b(?:ctx\.|pre\.|resolved\.)?own\.([a-zA-Z]+)\b(?!\s*\()/g)) {
        if (!own.has(m[1])) unknown.push(`${rel}: own.${m[1]}`);
      }
      for (const m of text.matchAll(/\b(?:ctx\.options|explicit)\.([a-zA-Z]+)\b(?!\s*\()/g)) {
        if (!declared.has(m[1])) unknown.push(`${rel}: ${m[0]}`);
      }
    }
    expect(unknown).to.deep.equal([]);
  });

  it('plan, view, stub and inspect read only the options declared for them', function () {
    const unknown = [];
    for (const member of ['plan', 'view', 'stub', 'inspect']) {
      const mine = new Set(table.OPTIONS.filter((o) => o.members.includes(member)).map((o) => o.name));
      const text = fs.readFileSync(path.join(ROOT, 'lib', 'commands', member + '.js'), 'utf8')
        .split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n');
      for (const m of text.matchAll(/\b(?:o|options)\.([a-zA-Z]+)\b(?!\s*\()/g)) {
        if (!mine.has(m[1])) unknown.push(`restore.${member}: ${m[0]}`);
      }
    }
    expect(unknown).to.deep.equal([]);
  });

  it('docs/options.md\'s option table is the one the declarations make (node scripts/option-table.js)', function () {
    const text = fs.readFileSync(path.join(ROOT, 'docs', 'options.md'), 'utf8');
    expect(madePage(text) === text, 'docs/options.md\'s option table is stale: run node scripts/option-table.js').to.equal(true);
  });

  it('the plan echoes the declared options set, saying which the preset gave, and leaves defaults out', function () {
    const all = { preset: 'fastest', redoLog: 'off', tune: true, latest: { 'shop.*': 2 }, threads: 4, dryRun: false, sinceExact: true };
    expect(table.optionEcho('load', all, { preset: 'fastest', latest: { 'shop.*': 2 } }))
      .to.equal('latest: {"shop.*":2}, redoLog: "off" (preset), tune: true (preset)');
    // The masks' key is printed and logged nowhere, the plan included.
    expect(table.optionEcho('load', { maskKey: 'team-secret' }, { maskKey: 'team-secret' })).to.equal('maskKey: (set, not shown)');
  });

  it('values are checked as declared', function () {
    expect(table.valueProblem('membersTimeout', -1)).to.match(/whole number from 0 to 604800/);
    expect(table.valueProblem('redoLog', 'of')).to.match(/must be one of "keep", "off"/);
    expect(table.valueProblem('newest', 'yes')).to.match(/true or false/);
    expect(table.valueProblem('rsh', ' ')).to.match(/remote shell command/);
    expect(table.valueProblem('keepSettings', ['innodb_doublewrite'])).to.equal(null);
  });
});
