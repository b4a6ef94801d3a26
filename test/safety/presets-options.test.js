'use strict';
// Load presets (built-in and the user's file), and util.loadDump options checked against the
// running Shell version before anything changes. Dry runs: nothing is loaded.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const fx = require('./server-fixture');
const { LOAD_DUMP_OPTIONS } = require('../../lib/options/load-options');
const { contractDir } = require('../mysqlsh/contract-paths');

describe('restore.load presets and option checks', function () {
  let dump;
  let configHome;
  let shell;

  function writePresets(content) {
    fs.mkdirSync(path.join(configHome, 'restore'), { recursive: true });
    const file = path.join(configHome, 'restore', 'presets.json');
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  function dryRun(options, opts) {
    return shell(`restore.load(${JSON.stringify(dump)}, ${JSON.stringify({ ...options, dryRun: true })})`, opts);
  }

  before(() => { dump = fx.copyVetDump(); });
  beforeEach(() => {
    configHome = fx.pluginConfigHome();
    shell = fx.shellIn(configHome);
  });

  it('the util.loadDump option table is the contract\'s options.json, name for name', () => {
    const contract = JSON.parse(fs.readFileSync(path.join(contractDir(), 'options.json'), 'utf8')).methods['util.loadDump'];
    expect(LOAD_DUMP_OPTIONS).to.deep.equal(contract);
  });

  it('restore.presets() shows the load and dump presets as data', () => {
    const r = shell('restore.presets()');
    expect(r.error).to.equal(null);
    expect(Object.keys(r.value)).to.have.members(['backup', 'dev-snapshot', 'fastest', 'safe', 'dev']);
    expect(r.value.fastest).to.deep.include({ kind: 'load', source: 'built-in', options: { threads: 'client-cpus',
      deferTableIndexes: 'all', skipBinlog: true, redoLog: 'off', tune: true, analyze: 'on' } });
    expect(r.value.backup.options).to.deep.equal({ threads: 'client-cpus', bytesPerChunk: '100M', compression: 'zstd', consistent: true });
    expect(r.value['dev-snapshot'].options).to.deep.equal({ compatibility: ['strip_definers'], users: false });
    expect(r.stdout).to.match(/Load presets \(restore\.load\):[\s\S]*fastest +threads=client CPUs/);
  });

  it('fastest: one thread per client CPU, deferred indexes, no binlog; explicit options win', () => {
    const r = dryRun({ preset: 'fastest' });
    expect(r.value.loadDumpOptions).to.deep.equal({ threads: os.cpus().length, deferTableIndexes: 'all', skipBinlog: true });
    const o = dryRun({ preset: 'fastest', threads: 3, skipBinlog: false });
    expect(o.value.loadDumpOptions).to.deep.equal({ threads: 3, deferTableIndexes: 'all', skipBinlog: false });
  });

  it('no preset means safe: util.loadDump with the given options only, no server change', () => {
    const r = dryRun({ includeSchemas: ['veterinariadb'] });
    expect(r.value.preset).to.equal('safe');
    expect(r.value.loadDumpOptions).to.deep.equal({ includeSchemas: ['veterinariadb'] });
    expect(r.value.settings).to.deep.equal([]);
  });

  it('dev: a fresh progress file per run, and resetProgress never needed', () => {
    const r = dryRun({ preset: 'dev' });
    expect(r.value.loadDumpOptions.progressFile).to.match(new RegExp(`^${dump.replace(/[/.]/g, '\\$&')}/load-progress\\..+\\.\\d{8}T\\d{6}\\.json$`));
    const explicit = dryRun({ preset: 'dev', progressFile: '' });
    expect(explicit.value.loadDumpOptions).to.deep.equal({ progressFile: '' });
  });

  it('user presets extend a built-in one and show up in restore.presets()', () => {
    writePresets({ nightly: { extends: 'fastest', threads: 3, description: 'Nightly refresh' },
      tiny: { kind: 'load', threads: 1, analyze: 'on' } });
    const p = shell('restore.presets()');
    expect(p.value.nightly).to.deep.include({ kind: 'load', extends: 'fastest', description: 'Nightly refresh' });
    expect(p.value.nightly.source).to.equal(path.join(configHome, 'restore', 'presets.json'));
    const r = dryRun({ preset: 'nightly' });
    expect(r.value.loadDumpOptions).to.deep.equal({ threads: 3, deferTableIndexes: 'all', skipBinlog: true });
    expect(dryRun({ preset: 'tiny' }).value).to.deep.include({ analyze: 'on', loadDumpOptions: { threads: 1 } });
  });

  const badFiles = [
    ['not JSON', '{"nightly": {', /not valid JSON/],
    ['a misspelled option', { nightly: { extends: 'fastest', thread: 3 } },
      /preset 'nightly', key 'thread' is not an option of restore\.load or util\.loadDump \(did you mean 'threads'\?\)/],
    ['an unknown built-in to extend', { nightly: { extends: 'fastst' } }, /key 'extends' must name a built-in preset .*did you mean 'fastest'/],
    ['a bad value', { nightly: { extends: 'fastest', redoLog: 'of' } }, /key 'redoLog' must be one of "keep", "off", not "of"/],
    ['force in a preset', { nightly: { extends: 'safe', force: true } }, /key 'force' is not allowed in a preset/],
    ['no kind', { nightly: { threads: 2 } }, /key 'kind' must be "load" or "dump"/],
    ['a built-in name', { fastest: { threads: 2 } }, /has the name of a built-in preset/],
  ];
  badFiles.forEach(([what, content, message]) => {
    it(`a preset file with ${what} is an error naming the file and the key`, () => {
      const file = writePresets(content);
      const r = dryRun({ preset: 'safe' });
      expect(r.error.message).to.include(`Bad preset file ${file}`);
      expect(r.error.message).to.match(message);
      expect(shell('restore.presets()').error.message).to.include(file);
    });
  });

  it('an unknown preset name gets the nearest one; a dump preset is no load preset', () => {
    expect(dryRun({ preset: 'fastes' }).error.message).to.include("Unknown load preset 'fastes'. Did you mean 'fastest'?");
    expect(dryRun({ preset: 'backup' }).error.message).to.include("'backup' is a dump preset");
  });

  it('a util.loadDump option newer than the running Shell is refused before anything happens', () => {
    const r = dryRun({ disableBulkLoad: true }, { version: '8.0.35' });
    expect(r.error.message).to.include("Option 'disableBulkLoad' is a util.loadDump option from MySQL Shell 8.4.0 on; this Shell is 8.0.35");
    const d = dryRun({ dropExistingObjects: true });
    expect(d.error.message).to.include('use dropExisting: true');
    expect(dryRun({ dropExistingObjects: true }, { version: '9.1.0' }).error).to.equal(null);
  });

  it('dropExisting uses util.loadDump\'s dropExistingObjects from Shell 9.1 on', () => {
    expect(dryRun({ dropExisting: true }).value.loadDumpOptions).to.deep.equal({ resetProgress: true });
    expect(dryRun({ dropExisting: true }, { version: '9.1.0' }).value.loadDumpOptions)
      .to.deep.equal({ dropExistingObjects: true, resetProgress: true });
    expect(dryRun({ dropExisting: true, loadDdl: false }).error.message).to.include('dropExisting with loadDdl: false');
  });
});
