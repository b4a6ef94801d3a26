'use strict';
// The help a person reads: `\? restore` and `\? restore.<member>` as the real mysqlsh prints them
// (interactive mode, commands from a file, no terminal).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs, HAVE } = require('../support/real');
const { mysqlsh, tempDir } = require('../support/shell');

const SIGNATURES = {
  analyze: 'analyze([selection])',
  binlogs: 'binlogs(where[, options])',
  disableRedoLog: 'disableRedoLog([options])',
  dump: 'dump(outputDir[, options])',
  enableRedoLog: 'enableRedoLog([options])',
  inspect: 'inspect(dumpDir[, options])',
  load: 'load(dumpDir[, options])',
  plan: 'plan(dumpDir[, options])',
  presets: 'presets([options])',
  revert: 'revert([options])',
  status: 'status([options])',
  stub: 'stub(dumpDir[, options])',
  view: 'view(dumpDir[, options])',
  version: 'version([options])',
};
const MEMBERS = Object.keys(SIGNATURES);

// Splits the printed help into {name → text}, 'restore' for the object's own page.
function pages(stdout) {
  const out = {};
  stdout.split(/^NAME\n/m).slice(1).forEach((p) => { out[p.trim().split(/\s/)[0]] = p; });
  return out;
}

// "- name: Type - brief …" entries of the options list.
function optionEntries(page) {
  const at = page.indexOf('accepts the following options:');
  if (at < 0) return [];
  return page.slice(at).split(/\n {6}- /).slice(1).map((e) => e.replace(/\s+/g, ' ').trim());
}

describe('restore help (real Shell)', function () {
  let help;
  beforeEach(function () { needs(this, ['shell']); });
  before(function () {
    if (!HAVE.shell) return;
    const file = path.join(tempDir('restore-help-'), 'help.js');
    fs.writeFileSync(file, ['\\? restore', ...MEMBERS.map((m) => `\\? restore.${m}`)].join('\n') + '\n');
    const r = mysqlsh(['--js', '--interactive', '-f', file]);
    expect(r.status, r.out).to.equal(0);
    help = pages(r.stdout);
  });

  it('\\? restore lists every member with its signature, and no internal function', function () {
    const page = help.restore;
    expect(page, 'the object page').to.be.a('string');
    const functions = page.slice(page.indexOf('FUNCTIONS')).match(/^ {6}\w+\(.*\)$/mg).map((l) => l.trim());
    expect(functions).to.deep.equal([...Object.values(SIGNATURES), 'help([member])'].sort());
    expect(page).to.not.match(/\b(fs\w*|clientInfo|readHeads|writeFiles|list)\(/);
    const properties = page.slice(page.indexOf('PROPERTIES'), page.indexOf('FUNCTIONS')).match(/^ {6}\S+$/mg) || [];
    expect(properties.map((p) => p.trim()), 'one internal property, nothing else').to.have.length(1);
    expect(properties[0].trim()).to.match(/^_/);
  });

  it('\\? restore says how to get the report and how to get the facts', function () {
    expect(help.restore).to.match(/outputFormat/);
    expect(help.restore).to.not.match(/returns the same facts as a dictionary/);
  });

  it('\\? restore.load fits in 200 lines and names its options by section', function () {
    const page = help.load;
    expect(page.split('\n').length, 'lines of \\? restore.load').to.be.at.most(200);
    for (const section of ['Selection', 'Speed and server', 'Developer slices', 'Names and owners', 'Output', 'util.loadDump\'s own options']) {
      expect(page.replace(/\s+/g, ' ')).to.include(section);
    }
    expect(page.replace(/\s+/g, ' ')).to.include('\\? util.loadDump'); // the Shell may wrap between the two
  });

  for (const m of MEMBERS) {
    it(`\\? restore.${m}: what it does, each option with its default, an example`, function () {
      const page = help[m];
      expect(page, `help of ${m}`).to.be.a('string');
      expect(page).to.include(`restore.${SIGNATURES[m]}`);
      expect(page).to.match(/DESCRIPTION\n {6}\S/);
      expect(page).to.match(/Examples?: restore\./);
      const entries = optionEntries(page);
      expect(entries.map((e) => e.split(':')[0])).to.include('outputFormat');
      const withoutDefault = entries.filter((e) => !/default/i.test(e) && !/Passed to util\.loadDump \([\d.]+\+\)|util\.dump\S* option \(MySQL Shell [\d.]+ and later\), passed through/.test(e));
      expect(withoutDefault, 'options whose default the help does not say').to.deep.equal([]);
    });
  }
});
