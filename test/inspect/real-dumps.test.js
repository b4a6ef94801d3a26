'use strict';
// restore.inspect on every real MySQL Shell dump in ../shared/real-dumps, checked against facts
// computed from the files themselves (directory listing, the JSON metadata, zstd -dc).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { realDumpsDir } = require('../mysqlsh/contract-paths');
const { inspectOk, tableEntry } = require('./run-inspect');
const facts = require('./dump-facts');

const DUMPS = fs.readdirSync(realDumpsDir(), { withFileTypes: true })
  .filter((e) => e.isDirectory()).map((e) => e.name).sort();

function dumpPath(name) { return path.join(realDumpsDir(), name); }

describe('restore.inspect on every real dump', () => {
  it('finds the eight fixtures', () => {
    expect(DUMPS).to.have.length(8);
  });

  DUMPS.forEach((name) => {
    describe(name, () => {
      const dir = dumpPath(name);
      let r;
      before(function () {
        this.timeout(60000);
        r = inspectOk(dir);
      });

      it('reports the format, the dumper and whether the dump is complete', () => {
        const root = facts.readJson(dir, '@.json');
        expect(r.value.format).to.equal(root.version);
        expect(r.value.dumper).to.equal(root.dumper);
        expect(r.value.complete).to.equal(fs.existsSync(path.join(dir, '@.done.json')));
        expect(r.value.schemas.map((s) => s.schema)).to.deep.equal(root.schemas);
      });

      it('lists every table of the schema metadata, with its data files in chunk order', () => {
        const expected = facts.expectedChunks(dir);
        expect(r.value.tables.map((t) => [t.schema, t.table, t.partition || null]))
          .to.deep.equal(expected.map((t) => [t.schema, t.table, t.partition]));
        expected.forEach((t, i) => {
          const got = r.value.tables[i];
          expect(got.basename, `${t.schema}.${t.table}`).to.equal(t.base);
          if (t.files.length) {
            expect(got.chunks.map((c) => c.file), `${t.schema}.${t.table}`).to.deep.equal(t.files);
            expect(got.chunks.map((c) => c.index)).to.deep.equal(t.files.map((_, k) => k));
            expect(got.chunks.map((c) => c.last)).to.deep.equal(t.files.map((_, k) => k === t.files.length - 1));
          }
          if (t.recorded) expect(got.chunks.map((c) => c.dataBytes)).to.deep.equal(t.files.map((f) => t.recorded[f]));
        });
      });

      it('gives each data file the state its content shows', () => {
        const expected = facts.expectedChunks(dir);
        r.value.tables.forEach((got, i) => {
          got.chunks.forEach((c) => {
            const recorded = expected[i].recorded ? expected[i].recorded[c.file] : c.dataBytes;
            expect(c.state, c.file).to.equal(facts.expectedState(dir, c.file, expected[i].compression, recorded));
          });
        });
      });

      it('adds up the totals and prints one line per table', () => {
        const chunks = r.value.tables.flatMap((t) => t.chunks);
        expect(r.value.totals.chunks).to.equal(chunks.length);
        ['present', 'empty', 'stub', 'missing', 'corrupt'].forEach((s) => {
          expect(r.value.totals[s], s).to.equal(chunks.filter((c) => c.state === s).length);
        });
        expect(r.value.totals.tables).to.equal(r.value.tables.length);
        const onDisk = chunks.filter((c) => c.state !== 'missing')
          .reduce((n, c) => n + fs.statSync(path.join(dir, c.file)).size, 0);
        expect(r.value.totals.fileBytes).to.equal(onDisk);
        const lines = r.stdout.split('\n');
        r.value.tables.forEach((t) => {
          const shown = t.table.replace(/`/g, '``').replace(/\n/g, '\\n');
          expect(lines.filter((l) => l.startsWith(`${t.schema}.`) && l.includes(shown)), t.table).to.have.length.at.least(1);
        });
        expect(r.stdout).to.match(/Verdict: util\.loadDump would (load this dump|fail: )/);
      });

      it('calls the dump loadable exactly when it is complete and every data file is usable', () => {
        const usable = r.value.tables.every((t) => t.lastChunkKnown &&
          t.chunks.every((c) => c.state !== 'missing' && c.state !== 'corrupt'));
        expect(r.value.loadable).to.equal(r.value.complete && usable);
      });
    });
  });

  it('8.0.21 instance dump (format 1.0.0): 62 tables with their percent-encoded file names', () => {
    const r = inspectOk(dumpPath('mysql__mysql-shell__dump_instance_8.0.21'));
    expect(r.value.tables).to.have.length(62);
    expect(r.value.origin).to.equal('dumpInstance'); // 1.0.0 has no origin: the users list says so
    expect(tableEntry(r.value, 'crazy_names_db', 'new\nline').chunks[0].file).to.equal('crazy_names_db@new%0Aline.tsv.zst');
    expect(tableEntry(r.value, 'crazy_names_db', '\'"').chunks[0].file).to.equal('crazy_names_db@%27%22.tsv.zst');
    expect(tableEntry(r.value, 'crazy_names_db', 'foo`bar(').chunks[0].file).to.equal('crazy_names_db@foo%60bar%28.tsv.zst');
    expect(tableEntry(r.value, 'crazy_names_db', '`').basename).to.equal('crazy_names_db@%60');
    // Chunk sizes come from the .idx files (1.0.0 has no chunkFileBytes).
    const city = tableEntry(r.value, 'world', 'City');
    expect(city.chunks[0].dataBytes).to.equal(facts.idxBytes(dumpPath('mysql__mysql-shell__dump_instance_8.0.21'), 'world@City@@0.tsv.zst'));
    expect(city.primaryIndex).to.deep.equal(['ID']);
    expect(r.stdout).to.include('crazy_names_db.`new\\nline`');
    expect(r.value.loadable).to.equal(true);
  });

  it('zero-filled airportdb: every data file present is corrupt, the three absent ones are missing', () => {
    const dir = dumpPath('fortunewalla__airportdb__db_ffdb__PARTIAL_ZEROED_DATA');
    const r = inspectOk(dir);
    const recorded = Object.keys(facts.readJson(dir, '@.done.json').chunkFileBytes);
    const absent = recorded.filter((f) => !fs.existsSync(path.join(dir, f))).sort();
    expect(absent).to.have.length(3);
    const chunks = r.value.tables.flatMap((t) => t.chunks);
    expect(chunks.filter((c) => c.state === 'missing').map((c) => c.file).sort()).to.deep.equal(absent);
    expect(chunks.filter((c) => c.state !== 'missing').every((c) => c.state === 'corrupt')).to.equal(true);
    expect(r.value.totals.corrupt).to.equal(recorded.length - 3);
    expect(r.value.loadable).to.equal(false);
    const missingProblems = r.value.problems.filter((p) => p.code === 'chunk-missing');
    expect(missingProblems.map((p) => p.file).sort()).to.deep.equal(absent);
    expect(r.value.problems.filter((p) => p.code === 'chunk-corrupt')).to.have.length(recorded.length - 3);
    expect(r.stdout).to.include('Verdict: util.loadDump would fail: 3 data file(s) missing, 11 data file(s) corrupt.');
  });

  it('dump without @.done.json: complete false, not loadable, and why', () => {
    const dir = dumpPath('molnarfi93__Szakdoga__dump');
    const r = inspectOk(dir);
    expect(r.value.complete).to.equal(false);
    expect(r.value.loadable).to.equal(false);
    const p = r.value.problems.find((x) => x.code === 'dump-incomplete');
    expect(p.file).to.equal('@.done.json');
    expect(p.message).to.include('unfinished').and.include('Incomplete dump');
    expect(r.stdout).to.include('Complete:   NO: @.done.json is missing (unfinished dump)');
    // Files of a schema @.json does not list (left over from another dump) are pointed out.
    const leftovers = fs.readdirSync(dir).filter((f) => f.startsWith('timetable_database'));
    const unlisted = r.value.problems.find((x) => x.code === 'unlisted-files');
    expect(unlisted.message).to.include(`${leftovers.length} files belong to no schema listed in @.json`);
    expect(r.value.tables.every((t) => t.schema === 'timetable')).to.equal(true);
  });

  it('metadata without data files (format 1.0.0): the chunks of each table cannot be known', () => {
    const r = inspectOk(dumpPath('mysql__mysql-shell__test_dump1'));
    expect(r.value.tables).to.have.length(8);
    r.value.tables.forEach((t) => {
      expect(t.chunks).to.deep.equal([]);
      expect(t.lastChunkKnown).to.equal(false);
    });
    expect(r.value.problems.filter((p) => p.code === 'last-chunk-unknown')).to.have.length(8);
    expect(r.value.origin).to.equal(null);
    expect(r.stdout).to.include('pass options.listing');
  });

  it('table without a primary or unique key: says "latest" means nothing there', () => {
    const r = inspectOk(dumpPath('FedeCapo00__Database'));
    const t = tableEntry(r.value, 'test', 'test_table');
    expect(t.primaryIndex).to.deep.equal([]);
    expect(t.chunksOrderedByKey).to.equal(false);
    expect(t.chunks.map((c) => c.state)).to.deep.equal(['present', 'empty']);
    expect(r.stdout).to.include('no key: "latest" means nothing');
    expect(r.stdout).to.include('the highest-numbered chunks are not the newest rows');
  });

  it('format 1.0.x tables: compression and primary index read from options', () => {
    const r = inspectOk(dumpPath('molnarfi93__Szakdoga__dump'));
    const t = tableEntry(r.value, 'timetable', 'classes');
    expect(t.compression).to.equal('zstd');
    expect(t.primaryIndex).to.deep.equal([facts.readJson(dumpPath('molnarfi93__Szakdoga__dump'), 'timetable@classes.json').options.primaryIndex]);
  });

  it('rows and bytes where the dump records them (tableRows from 8.2)', () => {
    const dir = dumpPath('Akash242005__Recipe-app__database');
    const done = facts.readJson(dir, '@.done.json');
    const r = inspectOk(dir);
    const t = tableEntry(r.value, 'recipes', 'recipes');
    expect(t.rows).to.equal(done.tableRows.recipes.recipes);
    expect(t.dataBytes).to.equal(done.tableDataBytes.recipes.recipes);
    expect(r.value.totals.dataBytes).to.equal(done.dataBytes);
  });

  it('the same facts on V8 builds (8.0.30) and GraalJS builds (9.4.0) of the Shell', () => {
    const dir = dumpPath('mysql__mysql-shell__dump_instance_8.0.21');
    const v8 = inspectOk(dir, undefined, { version: '8.0.30' });
    const graal = inspectOk(dir, undefined, { version: '9.4.0' });
    expect(graal.value).to.deep.equal(v8.value);
    expect(graal.stdout).to.equal(v8.stdout);
    expect(v8.value.totals.chunks).to.equal(62);
  });
});
