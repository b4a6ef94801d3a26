'use strict';
// restore.inspect given something that is not a usable dump: one clear error, nothing else.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { tempDir, realDump } = require('../support/paths');
const { writableCopy } = require('./fixtures');
const { inspect, inspectOk } = require('./run-inspect');

function editJson(dir, name, edit) {
  const file = path.join(dir, name);
  const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
  edit(doc);
  fs.writeFileSync(file, JSON.stringify(doc));
}

// The error and nothing printed before it.
function failure(dir, options, extra) {
  const r = inspect(dir, options, extra);
  expect(r.error, 'inspect should fail').to.not.equal(null);
  expect(r.stdout).to.equal('');
  return r.error.message;
}

describe('restore.inspect: bad input', () => {
  it('a directory that does not exist', () => {
    expect(failure('/nonexistent/dump')).to.include('The dump directory /nonexistent/dump does not exist.');
  });

  it('an empty dump directory name', () => {
    expect(failure('')).to.include('No dump directory given: pass the directory holding @.json.');
  });

  it('a file instead of a directory', () => {
    const file = path.join(realDump('FedeCapo00__Database'), '@.json');
    expect(failure(file)).to.include(`${file} is a file, not a directory`);
  });

  it('a directory without @.json is not a dump', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'hello');
    expect(failure(dir)).to.include(`${dir} is not a MySQL Shell dump: it has no @.json`);
  });

  it('a truncated @.json: names the file', () => {
    const dir = writableCopy('FedeCapo00__Database');
    const file = path.join(dir, '@.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 200));
    const msg = failure(dir);
    expect(msg).to.include(`${file} is not valid JSON`).and.include('truncated or damaged');
  });

  it('a truncated table metadata file: names that file', () => {
    const dir = writableCopy('fortunewalla__dvdstore__mysql_ds2');
    const file = path.join(dir, 'ds2@orders.json');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 100));
    expect(failure(dir)).to.include(`${file} is not valid JSON`);
  });

  it('a truncated @.done.json: names that file', () => {
    const dir = writableCopy('fortunewalla__dvdstore__mysql_ds2');
    const file = path.join(dir, '@.done.json');
    fs.writeFileSync(file, '{"end": "2022-12-28 22:50:57", "dataBytes": 65');
    expect(failure(dir)).to.include(`${file} is not valid JSON`);
  });

  it('a format newer than 2.x: says which', () => {
    const dir = writableCopy('FedeCapo00__Database');
    editJson(dir, '@.json', (d) => { d.version = '3.0.0'; });
    const msg = failure(dir);
    expect(msg).to.include('has format 3.0.0, newer than the formats this plugin reads (1.0.0 to 2.x; newest known 2.0.1)');
    expect(msg).to.include('mysqlsh Ver 8.1.1-g2');
  });

  it('a newer 2.x format is read, with a problem saying so', () => {
    const dir = writableCopy('FedeCapo00__Database');
    editJson(dir, '@.json', (d) => { d.version = '2.1.0'; });
    const r = inspectOk(dir);
    expect(r.value.format).to.equal('2.1.0');
    expect(r.value.problems.map((p) => p.code)).to.deep.equal(['format-newer']);
    expect(r.value.loadable).to.equal(true);
  });

  it('a missing @.done.json is not an error: the dump is reported unfinished and not loadable', () => {
    const dir = writableCopy('FedeCapo00__Database');
    fs.unlinkSync(path.join(dir, '@.done.json'));
    const r = inspectOk(dir);
    expect(r.value).to.include({ complete: false, loadable: false });
    expect(r.value.problems[0]).to.include({ code: 'dump-incomplete', file: '@.done.json' });
    expect(r.stdout).to.include('Verdict: util.loadDump would fail: the dump is unfinished.');
  });

  describe('base names that would leave the dump directory are refused', () => {
    it('a schema base name with ..', () => {
      const dir = writableCopy('FedeCapo00__Database');
      editJson(dir, '@.json', (d) => { d.basenames.test = '../test'; });
      expect(failure(dir)).to.include('Refusing the dump: @.json gives schema test the file name "../test", ' +
        'which would point outside the dump directory');
    });

    it('an absolute table base name', () => {
      const dir = writableCopy('FedeCapo00__Database');
      editJson(dir, 'test.json', (d) => { d.basenames.test_table = '/etc/passwd'; });
      expect(failure(dir)).to.include('Refusing the dump: test.json gives table test.test_table the file name "/etc/passwd"');
    });

    it('a partition base name of ..', () => {
      const dir = writableCopy('FedeCapo00__Database');
      editJson(dir, 'test@test_table.json', (d) => { d.partitions = ['p0']; d.basenames = { p0: '..' }; });
      expect(failure(dir)).to.include('Refusing the dump: test@test_table.json gives partition p0 of table test.test_table the file name ".."');
    });

    it('a data file extension with a path in it', () => {
      const dir = writableCopy('FedeCapo00__Database');
      editJson(dir, 'test@test_table.json', (d) => { d.extension = 'tsv.zst/../../x'; });
      expect(failure(dir)).to.include('gives the data files of table test.test_table (extension) the file name "tsv.zst/../../x"');
    });
  });

  it('a relative dump directory is taken from the current directory', () => {
    const r = inspectOk('FedeCapo00__Database', undefined, { cwd: path.dirname(realDump('FedeCapo00__Database')) });
    expect(r.value.tables.map((t) => t.table)).to.deep.equal(['test_table']);
    expect(r.stdout).to.include(`Dump:       ${realDump('FedeCapo00__Database')}`);
    const msg = failure('no-such-dump', undefined, { cwd: tempDir() });
    expect(msg).to.match(/"no-such-dump" is taken relative to the current directory \//);
  });

  it('arguments are type-checked by the member definition', () => {
    expect(inspect(5).error.message).to.include('Argument #1 is expected to be a string');
    expect(inspect('/tmp', { bogus: 1 }).error.message).to.include('Invalid options at Argument #2: bogus');
    expect(inspect('/tmp', { listing: 7 }).error.message).to.include("Argument #2, option 'listing' is expected to be a string");
  });
});
