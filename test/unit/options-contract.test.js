'use strict';
// The option tables lib/ carries (plugin code cannot read files at run time) against the Shell's
// own, ../shared/mysqlsh-contract/options.json: a util.loadDump or util.dump* option added,
// retyped or moved to another version shows up here, not in a user's refused load.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { SHARED, needs } = require('../support/real');
const loadOptions = require('../../lib/options/load-options.js');
const dumpOptions = require('../../lib/options/dump-options.js');
const ownOptions = require('../../lib/options/load-own-options.js');

const CONTRACT = path.join(SHARED, 'mysqlsh-contract', 'options.json');

function typeAndSince(table) {
  const out = {};
  Object.keys(table).forEach((k) => { out[k] = { type: table[k].type, since: table[k].since }; });
  return out;
}

describe('options contract (lib/options/ against ../shared/mysqlsh-contract/options.json)', function () {
  let contract;
  before(function () {
    needs(this, ['contract']);
    contract = JSON.parse(fs.readFileSync(CONTRACT, 'utf8'));
  });

  it('util.loadDump: the same names, types and first versions', function () {
    expect(typeAndSince(loadOptions.LOAD_DUMP_OPTIONS)).to.deep.equal(typeAndSince(contract.methods['util.loadDump']));
  });

  it('util.dump*: the same names, types, first versions and functions (ociPar* left out on purpose)', function () {
    const letters = { i: 'util.dumpInstance', s: 'util.dumpSchemas', t: 'util.dumpTables' };
    const expected = {};
    Object.keys(letters).forEach((l) => {
      Object.entries(contract.methods[letters[l]]).forEach(([name, o]) => {
        if (contract.removed['util.dump*'][name]) return;
        const e = expected[name] || (expected[name] = { type: o.type, since: o.since, in: '' });
        expect(o.type, name + ' in ' + letters[l]).to.equal(e.type);
        e.in += l;
      });
    });
    const ours = {};
    Object.entries(dumpOptions.DUMP_OPTIONS).forEach(([name, o]) => { ours[name] = { type: o.type, since: o.since, in: o.in }; });
    // The first version is per function in the contract; the table keeps the earliest.
    Object.keys(expected).forEach((name) => {
      const since = Object.keys(letters).map((l) => contract.methods[letters[l]][name]).filter(Boolean).map((o) => o.since)
        .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))[0];
      expected[name].since = since;
    });
    expect(ours).to.deep.equal(expected);
  });

  it('restore.load\'s own options take no util.loadDump name but dryRun (the plan, and util.loadDump never called)', function () {
    const clash = ownOptions.OWN_NAMES.filter((n) => loadOptions.isLoadDumpOption(n));
    expect(clash).to.deep.equal(['dryRun']);
  });

  it('an option a Shell version does not know yet is refused with the version that brought it', function () {
    expect(() => loadOptions.checkLoadDumpOptionNames(['dropExistingObjects'], '8.4.0', []))
      .to.throw(/from MySQL Shell 9\.1\.0 on; this Shell is 8\.4\.0.*dropExisting: true/);
    expect(() => loadOptions.checkLoadDumpOptionNames(['thread'], '9.1.0', ownOptions.OWN_NAMES)).to.throw(/Did you mean 'threads'\?/);
    expect(() => loadOptions.checkLoadDumpOptionNames(['threads', 'skipBinlog'], '8.0.21', [])).to.not.throw();
  });
});
