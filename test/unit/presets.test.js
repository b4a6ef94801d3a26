'use strict';
// Presets (lib/options/presets.js) and restore.presets() (lib/commands/presets.js), with the
// user's presets file in the fake host's memory.
const { expect } = require('chai');
const { fakeHost } = require('../support/fake-host.js');
const presets = require('../../lib/options/presets.js');
const { presetsReport } = require('../../lib/commands/presets.js');

const FILE = '/home/u/.mysqlsh/restore/presets.json';

function hostWith(presetsJson, more) {
  const files = {};
  if (presetsJson !== undefined) files[FILE] = typeof presetsJson === 'string' ? presetsJson : JSON.stringify(presetsJson);
  return fakeHost(Object.assign({ files }, more || {}));
}

describe('presets (lib/options/presets.js)', function () {
  it('"client CPUs" becomes the largest of 4, the client\'s CPUs and the server\'s innodb_read_io_threads', function () {
    const p = presets.resolvePreset(hostWith(undefined, { shell: { cpuCount: 12 }, variables: { innodb_read_io_threads: '6' } }), 'fastest', 'load');
    expect(p.options.threads).to.equal(12);
    expect(p.threadsWhy).to.match(/^12 = the largest of .*the client's CPUs \(12\) and the server's innodb_read_io_threads \(6\)/);
    const small = presets.resolvePreset(hostWith(undefined, { shell: { cpuCount: 2 }, connected: false }), 'fastest', 'load');
    expect(small.options.threads).to.equal(4);
  });

  it('a user preset extends a built-in one; explicit keys override it', function () {
    const host = hostWith({ nightly: { extends: 'fastest', threads: 8, analyze: 'histogram' } });
    const p = presets.resolvePreset(host, 'nightly', 'load');
    expect(p.source).to.equal(FILE);
    expect(p.options).to.include({ threads: 8, analyze: 'histogram', redoLog: 'off', tune: true, deferTableIndexes: 'all' });
  });

  it('refuses a bad presets file naming the file, the preset, the key and the fix', function () {
    expect(() => presets.resolvePreset(hostWith('{"a": '), 'safe', 'load')).to.throw(/Bad preset file .*presets\.json: not valid JSON/);
    expect(() => presets.resolvePreset(hostWith({ x: { extends: 'fastst' } }), 'safe', 'load'))
      .to.throw(/preset 'x', key 'extends' must name a built-in preset .*did you mean 'fastest'\?/);
    expect(() => presets.resolvePreset(hostWith({ x: { kind: 'load', thread: 2 } }), 'safe', 'load'))
      .to.throw(/preset 'x', key 'thread' is not an option of restore.load or util.loadDump \(did you mean 'threads'\?\)/);
    expect(() => presets.resolvePreset(hostWith({ safe: { kind: 'load' } }), 'safe', 'load')).to.throw(/has the name of a built-in preset/);
    expect(() => presets.resolvePreset(hostWith({ x: { kind: 'dump', threadz: 2 } }), 'safe', 'load')).to.throw(/key 'threadz' is not an option of util.dumpInstance/);
  });

  it('refuses an unknown preset or one of the other kind, listing the right ones', function () {
    expect(() => presets.resolvePreset(hostWith(), 'fast', 'load')).to.throw(/Unknown load preset 'fast'. Did you mean 'fastest'\? The load presets are: fastest, safe, dev/);
    expect(() => presets.resolvePreset(hostWith(), 'backup', 'load')).to.throw(/'backup' is a dump preset; here a load preset is needed/);
  });

  it('restore.presets() prints both kinds and returns every preset with its source', function () {
    const host = hostWith({ nightly: { extends: 'fastest', threads: 8 } });
    const facts = presetsReport(host);
    expect(Object.keys(facts)).to.deep.equal(['backup', 'dev-snapshot', 'fastest', 'safe', 'dev', 'nightly']);
    expect(facts.nightly).to.include({ kind: 'load', source: FILE, extends: 'fastest' });
    const text = host.printed.join('\n');
    expect(text).to.match(/Load presets \(restore.load\):/);
    expect(text).to.match(/nightly \(extends fastest\)\s+threads=8/);
    expect(text).to.include('User presets from ' + FILE + '.');
  });
});
