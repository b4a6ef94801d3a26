'use strict';
// restore.dump: the util.* call it makes (recorded by --trace) for each preset and override,
// and what it refuses before anything runs.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { runShell } = require('../support/standin');
const { tempDir } = require('../support/paths');

const SCHEMA = 'rdump_shop';

function traced(code, extra = {}) {
  const dir = tempDir('restore-dump-');
  const trace = path.join(dir, 'trace.jsonl');
  const r = runShell({ code, trace, ...extra });
  const calls = fs.existsSync(trace) ? fs.readFileSync(trace, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
  return { ...r, calls, dir };
}

describe('restore.dump', () => {
  before(() => {
    runShell({ code: `var s = shell.getSession();
      s.runSql('DROP DATABASE IF EXISTS ${SCHEMA}');
      s.runSql('CREATE DATABASE ${SCHEMA}');
      s.runSql('CREATE TABLE ${SCHEMA}.orders (id INT AUTO_INCREMENT PRIMARY KEY, total DECIMAL(10,2))');
      s.runSql('INSERT INTO ${SCHEMA}.orders (total) VALUES (1.5), (2.5)');` });
  });
  after(() => runShell({ code: `shell.getSession().runSql('DROP DATABASE IF EXISTS ${SCHEMA}')` }));

  it('preset backup: util.dumpSchemas with client CPUs, 100M chunks, zstd, consistent', () => {
    const out = path.join(tempDir(), 'd');
    const r = traced(`restore.dump(${JSON.stringify(out)}, {schemas: ['${SCHEMA}'], preset: 'backup'})`);
    expect(r.error).to.equal(null);
    const cpus = require('os').cpus().length;
    expect(r.calls).to.deep.equal([{ fn: 'util.dumpSchemas', args: [[SCHEMA], out,
      { threads: cpus, bytesPerChunk: '100M', compression: 'zstd', consistent: true }] }]);
    expect(r.stdout).to.include('util.dumpSchemas(');
    expect(fs.existsSync(path.join(out, '@.done.json'))).to.equal(true);
  });

  it('explicit options override the preset; dev-snapshot leaves out users for dumpSchemas', () => {
    const out = path.join(tempDir(), 'd');
    const r = traced(`restore.dump(${JSON.stringify(out)}, {schemas: ['${SCHEMA}'], preset: 'dev-snapshot', compatibility: [], threads: 2})`);
    expect(r.calls[0].args[2]).to.deep.equal({ compatibility: [], threads: 2 });
    expect(r.stdout).to.include('left out: users');
  });

  it('dev-snapshot on the whole instance passes users: false to util.dumpInstance', () => {
    const out = path.join(tempDir(), 'd');
    const r = traced(`restore.dump(${JSON.stringify(out)}, {preset: 'dev-snapshot', includeSchemas: ['${SCHEMA}']})`);
    expect(r.calls[0]).to.deep.equal({ fn: 'util.dumpInstance', args: [out,
      { compatibility: ['strip_definers'], users: false, includeSchemas: [SCHEMA] }] });
  });

  it('schema + tables calls util.dumpTables', () => {
    const out = path.join(tempDir(), 'd');
    const r = traced(`restore.dump(${JSON.stringify(out)}, {schema: '${SCHEMA}', tables: ['orders'], chunking: false})`);
    expect(r.calls[0]).to.deep.equal({ fn: 'util.dumpTables', args: [SCHEMA, ['orders'], out, { chunking: false }] });
  });

  it('refuses, before any util call, options this Shell or this function does not know', () => {
    const out = path.join(tempDir(), 'd');
    const old = traced(`restore.dump(${JSON.stringify(out)}, {schemas: ['${SCHEMA}'], checksum: true})`, { version: '8.0.32' });
    expect(old.error.message).to.include("Option 'checksum' exists in util.dumpSchemas from MySQL Shell 8.3.0 on; this Shell is 8.0.32");
    expect(old.calls).to.deep.equal([]);
    const wrongFn = traced(`restore.dump(${JSON.stringify(out)}, {schemas: ['${SCHEMA}'], users: false})`);
    expect(wrongFn.error.message).to.include("Option 'users' is not an option of util.dumpSchemas");
    const tables = traced(`restore.dump(${JSON.stringify(out)}, {schema: '${SCHEMA}', tables: ['orders']})`, { version: '8.0.29' });
    expect(tables.error).to.equal(null);
    const noTables = traced(`restore.dump(${JSON.stringify(out)}, {schema: '${SCHEMA}'})`);
    expect(noTables.error.message).to.include('schema needs tables');
  });

  it('an unknown preset names the dump presets', () => {
    const r = traced(`restore.dump('/tmp/x', {preset: 'backpu'})`);
    expect(r.error.message).to.include("Unknown dump preset 'backpu'. Did you mean 'backup'?");
  });
});
