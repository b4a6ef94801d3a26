'use strict';
// Data file states and chunk-list sources on copies of real dumps changed the way users'
// directories get changed: chunks deleted, stubbed, damaged, partly copied.
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { tempDir, realDump } = require('../support/paths');
const { writableCopy } = require('./fixtures');
const { inspect, inspectOk, tableEntry } = require('./run-inspect');
const facts = require('./dump-facts');

const SHELL_EMPTY_FRAME = Buffer.from('28b52ffd2000010000', 'hex'); // what MySQL Shell writes for an empty chunk
const ZSTD_EMPTY_FRAME = Buffer.from('28b52ffd240001000099e9d851', 'hex'); // printf '' | zstd

const copy = writableCopy;

function chunkOf(result, file) {
  const c = result.tables.flatMap((t) => t.chunks).find((x) => x.file === file);
  if (!c) throw new Error(`no chunk ${file}`);
  return c;
}

describe('restore.inspect: data file states', () => {
  const VET = 'danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA';
  const CHUNK = 'veterinariadb@clientes@@0.tsv.zst'; // holds data (chunkFileBytes 119)

  it('a chunk deleted and replaced by the 9-byte empty zstd frame is a stub; the dump stays loadable', () => {
    const dir = copy(VET);
    const recorded = facts.readJson(dir, '@.done.json').chunkFileBytes[CHUNK];
    expect(recorded).to.be.above(0);
    fs.unlinkSync(path.join(dir, CHUNK));
    fs.writeFileSync(path.join(dir, CHUNK), SHELL_EMPTY_FRAME);
    expect(facts.contentBytes(path.join(dir, CHUNK), 'zstd')).to.equal(0); // zstd agrees: it holds nothing
    const r = inspectOk(dir);
    expect(chunkOf(r.value, CHUNK)).to.deep.equal({ index: 0, last: true, file: CHUNK, state: 'stub', dataBytes: recorded });
    // The table that was empty when dumped holds the same frame, and is empty, not a stub.
    expect(chunkOf(r.value, 'veterinariadb@citas@@0.tsv.zst').state).to.equal('empty');
    expect(r.value.totals.stub).to.equal(1);
    expect(r.value.loadable).to.equal(true);
    expect(r.stdout).to.include('Verdict: util.loadDump would load this dump (1 stubbed chunk load no rows).');
    expect(r.stdout).to.match(/veterinariadb\.clientes\s+0\/1\s+1\s+0\s+0 /);
  });

  it('the 13-byte frame of `zstd` and a zero-length file are stubs too', () => {
    const dir = copy(VET);
    fs.writeFileSync(path.join(dir, CHUNK), ZSTD_EMPTY_FRAME);
    fs.writeFileSync(path.join(dir, 'veterinariadb@mascotas@@0.tsv.zst'), Buffer.alloc(0));
    const r = inspectOk(dir);
    expect(chunkOf(r.value, CHUNK).state).to.equal('stub');
    expect(chunkOf(r.value, 'veterinariadb@mascotas@@0.tsv.zst').state).to.equal('stub');
  });

  it('eight zero bytes, or plain text, in a zstd chunk are corrupt', () => {
    const dir = copy(VET);
    fs.writeFileSync(path.join(dir, CHUNK), Buffer.alloc(8));
    fs.writeFileSync(path.join(dir, 'veterinariadb@mascotas@@0.tsv.zst'), '1\tRex\tperro\n');
    const r = inspectOk(dir);
    expect(chunkOf(r.value, CHUNK).state).to.equal('corrupt');
    expect(chunkOf(r.value, 'veterinariadb@mascotas@@0.tsv.zst').state).to.equal('corrupt');
    expect(r.value.loadable).to.equal(false);
    const p = r.value.problems.find((x) => x.code === 'chunk-corrupt' && x.file === CHUNK);
    expect(p.message).to.include('veterinariadb.clientes').and.include('zstd.read: Unknown frame descriptor');
  });

  it('a deleted chunk is missing, named in a problem, and makes the dump unloadable', () => {
    const dir = copy(VET);
    fs.unlinkSync(path.join(dir, CHUNK));
    const r = inspectOk(dir);
    expect(chunkOf(r.value, CHUNK).state).to.equal('missing');
    const p = r.value.problems.find((x) => x.code === 'chunk-missing');
    expect(p.file).to.equal(CHUNK);
    expect(p.message).to.include('some of the data files are missing');
    expect(r.value.loadable).to.equal(false);
  });

  it('format 1.0.0 (no chunkFileBytes): a stub is recognised from the size in its .idx file', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    const file = 'world@City@@0.tsv.zst';
    const idx = facts.idxBytes(dir, file);
    fs.writeFileSync(path.join(dir, file), SHELL_EMPTY_FRAME);
    const r = inspectOk(dir);
    expect(chunkOf(r.value, file)).to.include({ state: 'stub', dataBytes: idx });
  });

  it('format 1.0.0: a data file gone but its .idx left: missing, with its size', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    const file = 'world@City@@0.tsv.zst';
    fs.unlinkSync(path.join(dir, file));
    const r = inspectOk(dir);
    const city = tableEntry(r.value, 'world', 'City');
    expect(city.chunkSource).to.equal('files');
    expect(city.lastChunkKnown).to.equal(true);
    expect(city.chunks).to.deep.equal([{ index: 0, last: true, file, state: 'missing', dataBytes: facts.idxBytes(dir, file) }]);
  });

  it('format 1.0.0: data file and .idx both gone: the last chunk cannot be known, and it says so', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    fs.unlinkSync(path.join(dir, 'world@City@@0.tsv.zst'));
    fs.unlinkSync(path.join(dir, 'world@City@@0.tsv.zst.idx'));
    const r = inspectOk(dir);
    const city = tableEntry(r.value, 'world', 'City');
    expect(city.chunks).to.deep.equal([]);
    expect(city.lastChunkKnown).to.equal(false);
    const p = r.value.problems.find((x) => x.code === 'last-chunk-unknown');
    expect(p.message).to.include('world.City').and.include('options.listing');
    expect(p.file).to.equal('world@City.json');
    expect(r.value.loadable).to.equal(false);
    expect(r.stdout).to.match(/world\.City\s+0\/0\+\?/);
  });

  it('both @0 and @@0 of one chunk: conflicting files, not loadable', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    fs.copyFileSync(path.join(dir, 'world@City@@0.tsv.zst'), path.join(dir, 'world@City@0.tsv.zst'));
    const r = inspectOk(dir);
    const p = r.value.problems.find((x) => x.code === 'chunks-conflict');
    expect(p.message).to.include('both world@City@0.tsv.zst and world@City@@0.tsv.zst exist');
    expect(r.value.loadable).to.equal(false);
  });

  it('a whole-table file beside chunk files: the loader takes only the whole file', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    fs.copyFileSync(path.join(dir, 'all_features@tbl1.tsv.zst'), path.join(dir, 'all_features@tbl1@@0.tsv.zst'));
    const r = inspectOk(dir);
    expect(tableEntry(r.value, 'all_features', 'tbl1').chunks.map((c) => c.file)).to.deep.equal(['all_features@tbl1.tsv.zst']);
    expect(r.value.problems.map((x) => x.code)).to.deep.equal(['whole-and-chunked']);
    expect(r.value.loadable).to.equal(true);
  });
});

describe('restore.inspect: a listing of the complete dump', () => {
  const DUMP = 'mysql__mysql-shell__test_dump1'; // metadata only: every data file was stripped

  function listingFile(lines) {
    const file = path.join(tempDir(), 'listing.txt');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('takes the file name from plain lines, `ls -l` lines and `rsync --list-only` lines', () => {
    const listing = listingFile([
      'total 1234',
      '-rw-r--r-- 1 mysql mysql  123456789 Jul  8 21:40 stackoverflow@Badges@0.tsv.zst',
      '-rw-r--r-- 1 mysql mysql         40 Jul  8 21:40 stackoverflow@Badges@0.tsv.zst.idx',
      '-rw-r--r--    2,254,977,119 2020/07/08 21:46:35 dump/stackoverflow@Badges@@1.tsv.zst',
      'stackoverflow@Tags@@0.tsv.zst',
      'stackoverflow@Votes@0.tsv.zst',
    ]);
    const r = inspectOk(realDump(DUMP), { listing });
    const badges = tableEntry(r.value, 'stackoverflow', 'Badges');
    expect(badges.chunkSource).to.equal('listing');
    expect(badges.lastChunkKnown).to.equal(true);
    expect(badges.chunks.map((c) => [c.file, c.state])).to.deep.equal([
      ['stackoverflow@Badges@0.tsv.zst', 'missing'], ['stackoverflow@Badges@@1.tsv.zst', 'missing']]);
    expect(tableEntry(r.value, 'stackoverflow', 'Tags').chunks.map((c) => c.file)).to.deep.equal(['stackoverflow@Tags@@0.tsv.zst']);
    // @0 alone does not say how many chunks Votes has.
    const votes = tableEntry(r.value, 'stackoverflow', 'Votes');
    expect(votes.lastChunkKnown).to.equal(false);
    const p = r.value.problems.find((x) => x.code === 'last-chunk-unknown' && x.message.includes('stackoverflow.Votes'));
    expect(p.message).to.include('not even in the listing');
    expect(r.value.problems.filter((x) => x.code === 'last-chunk-unknown')).to.have.length(6); // 8 tables - Badges, Tags
  });

  it('files present and the listing are combined: the copied chunks are present, the rest missing', () => {
    const dir = copy('mysql__mysql-shell__dump_instance_8.0.21');
    // Pretend world.City was dumped in three chunks and only the last one was copied here.
    fs.renameSync(path.join(dir, 'world@City@@0.tsv.zst'), path.join(dir, 'world@City@@2.tsv.zst'));
    fs.renameSync(path.join(dir, 'world@City@@0.tsv.zst.idx'), path.join(dir, 'world@City@@2.tsv.zst.idx'));
    const listing = listingFile(['world@City@0.tsv.zst', 'world@City@1.tsv.zst', 'world@City@@2.tsv.zst']);
    const r = inspectOk(dir, { listing });
    const city = tableEntry(r.value, 'world', 'City');
    expect(city.chunkSource).to.equal('files+listing');
    expect(city.chunks.map((c) => c.state)).to.deep.equal(['missing', 'missing', 'present']);
    expect(r.stdout).to.match(/world\.City\s+1\/3\s+0\s+2\s+0/);
  });

  it('a listing file that does not exist is an error naming it', () => {
    const r = inspect(realDump(DUMP), { listing: '/nonexistent/listing.txt' });
    expect(r.error.message).to.include('The listing file /nonexistent/listing.txt (options.listing) does not exist');
  });
});

describe('restore.inspect: partitions and gzip (format 2.0.1, changed copies)', () => {
  // FedeCapo00's only table, rewritten as a table with two partitions, each chunked on its own.
  function partitionedCopy() {
    const dir = copy('FedeCapo00__Database');
    const tjFile = path.join(dir, 'test@test_table.json');
    const tj = JSON.parse(fs.readFileSync(tjFile, 'utf8'));
    tj.partitions = ['p0', 'p 1'];
    tj.basenames = { p0: 'test@test_table@p0', 'p 1': 'test@test_table@p%201' };
    tj.primaryIndex = ['id'];
    fs.writeFileSync(tjFile, JSON.stringify(tj));
    const data = path.join(dir, 'test@test_table@0.tsv.zst');
    fs.copyFileSync(data, path.join(dir, 'test@test_table@p0@0.tsv.zst'));
    fs.writeFileSync(path.join(dir, 'test@test_table@p0@@1.tsv.zst'), SHELL_EMPTY_FRAME);
    fs.copyFileSync(data, path.join(dir, 'test@test_table@p%201@@0.tsv.zst'));
    fs.unlinkSync(data);
    fs.unlinkSync(path.join(dir, 'test@test_table@@1.tsv.zst'));
    const done = facts.readJson(dir, '@.done.json');
    done.chunkFileBytes = { 'test@test_table@p0@0.tsv.zst': 2413, 'test@test_table@p0@@1.tsv.zst': 0,
      'test@test_table@p%201@@0.tsv.zst': 2413 };
    fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify(done));
    return dir;
  }

  it('one entry per partition, each with its own numbered chunks', () => {
    const r = inspectOk(partitionedCopy());
    expect(r.value.tables.map((t) => [t.table, t.partition])).to.deep.equal([['test_table', 'p0'], ['test_table', 'p 1']]);
    expect(tableEntry(r.value, 'test', 'test_table', 'p0').chunks).to.deep.equal([
      { index: 0, last: false, file: 'test@test_table@p0@0.tsv.zst', state: 'present', dataBytes: 2413 },
      { index: 1, last: true, file: 'test@test_table@p0@@1.tsv.zst', state: 'empty', dataBytes: 0 }]);
    expect(tableEntry(r.value, 'test', 'test_table', 'p 1').basename).to.equal('test@test_table@p%201');
    expect(r.value.totals).to.include({ tables: 1, partitions: 2, chunks: 3 });
    expect(r.value.loadable).to.equal(true);
    expect(r.stdout).to.include('test.test_table partition `p 1`');
  });

  it('gzip chunks: checked against the gzip magic, and an empty gzip member is empty', () => {
    const dir = copy('FedeCapo00__Database');
    const rows = spawnSync('zstd', ['-dc', path.join(dir, 'test@test_table@0.tsv.zst')]).stdout;
    fs.writeFileSync(path.join(dir, 'test@test_table@0.tsv.gz'), zlib.gzipSync(rows));
    fs.writeFileSync(path.join(dir, 'test@test_table@1.tsv.gz'), Buffer.alloc(4000)); // not a gzip member
    fs.writeFileSync(path.join(dir, 'test@test_table@@2.tsv.gz'), zlib.gzipSync(Buffer.alloc(0)));
    const tjFile = path.join(dir, 'test@test_table.json');
    const tj = JSON.parse(fs.readFileSync(tjFile, 'utf8'));
    fs.writeFileSync(tjFile, JSON.stringify({ ...tj, extension: 'tsv.gz', compression: 'gzip' }));
    fs.unlinkSync(path.join(dir, '@.done.json')); // no chunkFileBytes: the files make the list
    const r = inspectOk(dir);
    const t = tableEntry(r.value, 'test', 'test_table');
    expect(t.compression).to.equal('gzip');
    expect(t.chunks.map((c) => [c.file, c.state])).to.deep.equal([
      ['test@test_table@0.tsv.gz', 'present'], ['test@test_table@1.tsv.gz', 'corrupt'], ['test@test_table@@2.tsv.gz', 'empty']]);
    t.chunks.forEach((c) => expect(c.state).to.equal(facts.expectedState(dir, c.file, 'gzip', null)));
    expect(r.value.problems.map((p) => p.code)).to.deep.equal(['dump-incomplete', 'chunk-corrupt']);
  });

  it('two last chunks (@@1 and @@2): both shown, as conflicting files', () => {
    const dir = copy('FedeCapo00__Database');
    fs.copyFileSync(path.join(dir, 'test@test_table@@1.tsv.zst'), path.join(dir, 'test@test_table@@2.tsv.zst'));
    fs.unlinkSync(path.join(dir, '@.done.json'));
    const r = inspectOk(dir);
    const t = tableEntry(r.value, 'test', 'test_table');
    expect(t.chunks.map((c) => [c.file, c.last])).to.deep.equal([
      ['test@test_table@0.tsv.zst', false], ['test@test_table@@1.tsv.zst', true], ['test@test_table@@2.tsv.zst', true]]);
    expect(t.lastChunkKnown).to.equal(false);
    expect(r.value.problems.find((p) => p.code === 'chunks-conflict').message).to.include('2 chunks are marked last (@@1, @@2)');
  });
});
