'use strict';
// restore.load as named steps (lib/commands/load.js composes lib/run/steps/ once): each step
// declares what it reads, adds, reports and how it is undone, and the pipeline stays short enough
// to read. The order and the failures are test/unit/load-order.test.js's.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { STEPS, REVERT } = require('../../lib/commands/load.js');

describe('restore.load steps (lib/run/steps/, plain Node)', function () {
  it('every step declares its interface: name, reads, adds, reports, undo, when, run', function () {
    STEPS.concat([REVERT]).forEach((s) => {
      const label = s.name || s.reports;
      expect(s.name === null || typeof s.name === 'string', label + ': name').to.equal(true);
      expect(s.reads, label + ': reads').to.be.an('array').that.is.not.empty;
      expect(s.adds, label + ': adds').to.be.an('array');
      expect(s.reports, label + ': reports').to.be.a('string').that.is.not.empty;
      expect(s.undo, label + ': undo').to.be.a('string').that.is.not.empty;
      expect(s.when, label + ': when').to.be.a('function');
      expect(s.run, label + ': run').to.be.a('function');
      Object.keys(s).forEach((k) => expect(['BY', 'name', 'reads', 'adds', 'reports', 'undo', 'when', 'run', 'confirm', 'release'],
        label + ': undeclared member ' + k).to.include(k));
    });
  });

  it('the timed steps are the phases of the report, in order', function () {
    expect(STEPS.map((s) => s.name).filter(Boolean)).to.deep.equal(['prepare', 'server steps', 'drop existing', 'util.loadDump', 'replay',
      'snapshot', 'analyze', 'members']);
    expect(REVERT.name).to.equal('revert');
  });

  it('lib/commands/load.js reads as the pipeline: under 200 lines', function () {
    const text = fs.readFileSync(path.join(__dirname, '..', '..', 'lib', 'commands', 'load.js'), 'utf8');
    expect(text.split('\n').length).to.be.below(200);
  });
});
