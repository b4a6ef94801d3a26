'use strict';
// util.loadDump of the stand-in against real dumps and the real MariaDB: rows loaded, data-file
// discovery, the Shell's errors and messages (mysqlsh-contract README §3, loader-internals).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { LoadDumpHarness, harnessPerTest, rowsInDataFile } = require('../support/load-dump-harness');
const { rowsFrom } = require('../support/chunked-dump-writer');

const { thrown } = LoadDumpHarness;
const unique = (prefix) => `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;

// Rows per table, from the data files the dump metadata names (counted without the loader).
function rowsPerTable(dir, schema) {
  const schemaJson = JSON.parse(fs.readFileSync(path.join(dir, `${schema}.json`), 'utf8'));
  const counts = {};
  for (const table of schemaJson.tables) {
    const base = schemaJson.basenames[table];
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.tsv.zst')
      && (f === `${base}.tsv.zst` || f.startsWith(`${base}@`)) && !f.slice(base.length + 1).includes('@', 2));
    counts[table] = files.reduce((n, f) => n + rowsInDataFile(path.join(dir, f)), 0);
  }
  return counts;
}

function tableCounts(h, schema, tables) {
  const counts = {};
  for (const t of tables) counts[t] = Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.\`${t}\``));
  return counts;
}

describe('util.loadDump stand-in: real dumps into MariaDB', function () {
  this.timeout(300000);
  let h;
  harnessPerTest((x) => { h = x; });

  for (const [fixture, schema] of [['fortunewalla__dvdstore__mysql_ds2', 'ds2'],
    ['danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA', 'veterinariadb']]) {
    it(`loads ${fixture}: every table holds the rows of its data files`, () => {
      expect(h.schemaExists(schema), `schema ${schema} already exists on the test server`).to.equal(false);
      h.own(schema);
      const dir = h.copyRealDump(fixture);
      const expected = rowsPerTable(dir, schema);
      expect(Object.values(expected).reduce((a, b) => a + b, 0)).to.be.greaterThan(0);
      const loadDump = h.loader('8.4.0');
      try {
        expect(loadDump(dir, { progressFile: '' })).to.equal(undefined);
      } catch (e) {
        throw new Error(`${e.message}\n${h.output()}`); // the loader's own lines say what failed
      }
      expect(tableCounts(h, schema, Object.keys(expected))).to.deep.equal(expected);
      expect(h.lines[0]).to.equal(`Loading DDL and Data from '${dir}' using 4 threads.`);
      expect(h.output()).to.match(/\d+ chunks \([\d.K]+ rows, [\d.]+ \w+\) for \d+ tables in 1 schemas were loaded in \d+ sec \(avg throughput [\d.]+ \w+\/s\)/);
      expect(h.lines[h.lines.length - 1]).to.equal('0 warnings were reported during the load.');
    });
  }

  it('ds2: routines from the schema script, FULLTEXT index re-added after the data (deferTableIndexes default)', () => {
    h.own('ds2');
    const dir = h.copyRealDump('fortunewalla__dvdstore__mysql_ds2');
    h.loader('8.4.0')(dir, { progressFile: '' });
    expect(h.scalar("SELECT COUNT(*) FROM information_schema.routines WHERE routine_schema = 'ds2' AND routine_name = 'NEW_CUSTOMER'")).to.equal(1);
    expect(h.scalar("SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = 'ds2' AND table_name = 'products' AND index_type = 'FULLTEXT'")).to.be.greaterThan(0);
    const create = h.statements.find((s) => /CREATE TABLE IF NOT EXISTS `products`/.test(s));
    expect(create).to.not.match(/FULLTEXT/);
    expect(h.statements).to.include('ALTER TABLE `ds2`.`products` ADD FULLTEXT KEY `IX_PROD_TITLE` (`TITLE`)');
  });

  it('the airportdb dump with zeroed data files fails at its first data file with the zstd reader error', () => {
    expect(h.schemaExists('ffdb')).to.equal(false);
    h.own('ffdb');
    const dir = h.copyRealDump('fortunewalla__airportdb__db_ffdb__PARTIAL_ZEROED_DATA');
    const err = thrown(() => h.loader('9.1.0')(dir, { progressFile: '' }));
    expect(err.message).to.equal('Error loading dump');
    expect(h.lines.filter((l) => l.startsWith('ERROR: '))[0])
      .to.match(/^ERROR: \[Worker000\]: ffdb@airline@@0\.tsv\.zst: MySQL Error 2000 \(00000\): zstd\.read: Unknown frame descriptor: LOAD DATA LOCAL INFILE /);
    expect(h.lines).to.include('No data loaded.');
    expect(h.sql('SHOW TABLES FROM ffdb').rows).to.have.length(14);
  });

  it('the Szakdoga dump has no @.done.json: Incomplete dump, nothing created', () => {
    const dir = h.copyRealDump('molnarfi93__Szakdoga__dump');
    const err = thrown(() => h.loader('8.4.0')(dir));
    expect(err.message).to.equal('Util.loadDump: Incomplete dump');
    expect(h.statements.filter((s) => /^(CREATE|LOAD)/.test(s))).to.deep.equal([]);
  });

  it('the `schema` option loads a single-schema dump under another name', () => {
    const target = unique('ld_vet');
    h.own(target);
    const dir = h.copyRealDump('danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA');
    h.loader('8.4.0')(dir, { progressFile: '', schema: target });
    expect(h.scalar(`SELECT COUNT(*) FROM \`${target}\`.clientes`)).to.equal(rowsPerTable(dir, 'veterinariadb').clientes);
    expect(h.schemaExists('veterinariadb')).to.equal(false);
  });
});

describe('util.loadDump stand-in: chunk discovery on a hand-made chunked dump', function () {
  this.timeout(120000);
  let h;
  harnessPerTest((x) => { h = x; });

  // Five chunks of ten rows: @0 … @3 and @@4.
  function fiveChunkDump(schema) {
    const dir = h.writeDump({
      schema,
      tables: [{ name: 't', columns: [['id', 'int NOT NULL'], ['v', 'varchar(20)']], primaryKey: ['id'],
        chunks: [0, 1, 2, 3, 4].map((c) => rowsFrom(c * 10 + 1, 10)) }],
    });
    return dir;
  }

  it('with chunk 2 of 0..4 missing it loads chunks 0-1, then fails as a corrupted dump', () => {
    const schema = unique('ld_gap');
    h.own(schema);
    const dir = fiveChunkDump(schema);
    fs.unlinkSync(path.join(dir, `${schema}@t@2.tsv.zst`));
    const err = thrown(() => h.loader('8.4.0')(dir));
    expect(err.message).to.equal('Util.loadDump: Dump directory is corrupted, some of the data files are missing');
    expect(err.code).to.equal(53030);
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(20);
    expect(Number(h.scalar(`SELECT MAX(id) FROM \`${schema}\`.t`))).to.equal(20);
    // chunks 3 and @@4 are never probed after the gap
    expect(h.statements.filter((s) => /^LOAD DATA/.test(s)).map((s) => /@(@?\d+)\.tsv\.zst/.exec(s)[1])).to.deep.equal(['0', '1']);
    const progress = fs.readFileSync(fs.readdirSync(dir).filter((f) => f.startsWith('load-progress.')).map((f) => path.join(dir, f))[0], 'utf8');
    const done = progress.split('\n').filter(Boolean).map(JSON.parse).filter((e) => e.op === 'TABLE-DATA' && e.done).map((e) => e.chunk);
    expect(done).to.deep.equal([0, 1]);
  });

  it('with every chunk present it loads all five', () => {
    const schema = unique('ld_all');
    h.own(schema);
    const dir = fiveChunkDump(schema);
    h.loader('8.4.0')(dir, { progressFile: '' });
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(50);
    expect(h.output()).to.include('5 chunks (50 rows, ');
  });

  it('only the un-chunked file is loaded when it exists beside numbered chunks', () => {
    const schema = unique('ld_whole');
    h.own(schema);
    const dir = fiveChunkDump(schema);
    fs.copyFileSync(path.join(dir, `${schema}@t@0.tsv.zst`), path.join(dir, `${schema}@t.tsv.zst`));
    h.loader('8.4.0')(dir, { progressFile: '' });
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(10);
  });

  it('each partition is discovered on its own, numbered from 0, and loaded with PARTITION (…)', () => {
    const schema = unique('ld_part');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [{
      name: 'p', columns: [['id', 'int NOT NULL'], ['v', 'varchar(20)']], primaryKey: ['id'],
      partitionBy: 'RANGE (`id`)\n(PARTITION p0 VALUES LESS THAN (100) ENGINE = InnoDB,\n PARTITION p1 VALUES LESS THAN MAXVALUE ENGINE = InnoDB)',
      partitions: [{ name: 'p0', chunks: [rowsFrom(1, 5), rowsFrom(6, 5)] }, { name: 'p1', chunks: [rowsFrom(100, 3), rowsFrom(200, 1)] }],
    }] });
    fs.unlinkSync(path.join(dir, `${schema}@p@p1@@1.tsv.zst`));
    const err = thrown(() => h.loader('8.4.0')(dir, { progressFile: '' }));
    expect(err.message).to.equal('Util.loadDump: Dump directory is corrupted, some of the data files are missing');
    const loads = h.statements.filter((s) => /^LOAD DATA/.test(s));
    expect(loads.map((s) => /@(p\d@@?\d)\.tsv\.zst' REPLACE INTO TABLE `[^`]+`\.`p` PARTITION \(`(p\d)`\)/.exec(s).slice(1)))
      .to.deep.equal([['p0@0', 'p0'], ['p0@@1', 'p0'], ['p1@0', 'p1']]);
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.p PARTITION (p0)`))).to.equal(10);
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.p PARTITION (p1)`))).to.equal(3);
  });

  it('a dump with only empty chunks prints "No data loaded."', () => {
    const schema = unique('ld_empty');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [
      { name: 'a', columns: [['id', 'int NOT NULL']], primaryKey: ['id'], chunks: [[], []] },
      { name: 'b', columns: [['id', 'int']], chunks: [[]], chunking: false },
    ] });
    fs.writeFileSync(path.join(dir, `${schema}@a@0.tsv.zst`), '');
    h.loader('8.4.0')(dir, { progressFile: '' });
    expect(h.lines).to.include('No data loaded.');
    expect(h.output()).to.not.match(/chunks \(/);
    expect(h.statements.filter((s) => /^LOAD DATA/.test(s))).to.have.length(3);
  });

  it('a .zst chunk that is not zstd fails with the zstd reader error', () => {
    const schema = unique('ld_badzst');
    h.own(schema);
    const dir = fiveChunkDump(schema);
    fs.writeFileSync(path.join(dir, `${schema}@t@1.tsv.zst`), 'badfile');
    const err = thrown(() => h.loader('9.1.0')(dir, { progressFile: '' }));
    expect(err.message).to.equal('Error loading dump');
    expect(h.output()).to.include(`ERROR: [Worker000]: ${schema}@t@1.tsv.zst: MySQL Error 2000 (00000): zstd.read: Unknown frame descriptor`);
    expect(h.lines).to.include('ERROR: Aborting load...');
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(10);
  });

  it('re-running with the same progress file skips DONE chunks, even when the file changed', () => {
    const schema = unique('ld_resume');
    h.own(schema);
    const dir = fiveChunkDump(schema);
    const progressFile = path.join(h.tmpDir(), 'progress.json');
    h.loader('8.4.0')(dir, { progressFile });
    // chunk 0 now holds other rows: a resume must not read it again
    const other = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int']], chunks: [rowsFrom(1000, 3), []] }] });
    fs.copyFileSync(path.join(other, `${schema}@t@0.tsv.zst`), path.join(dir, `${schema}@t@0.tsv.zst`));
    h.loader('8.4.0')(dir, { progressFile });
    expect(h.lines).to.include('NOTE: Load progress file detected. Load will be resumed from where it was left, assuming no external updates were made.');
    expect(h.lines).to.include("NOTE: You may enable the 'resetProgress' option to discard progress for this MySQL instance and force it to be completely reloaded.");
    expect(h.lines).to.include('There was no remaining data left to be loaded.');
    expect(h.statements.filter((s) => /^LOAD DATA/.test(s))).to.have.length(0);
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(50);
    // a fresh progress file reloads (REPLACE) and adds the new rows
    h.loader('8.4.0')(dir, { progressFile: '', ignoreExistingObjects: true });
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t WHERE id >= 1000`))).to.equal(3);
  });
});

describe('util.loadDump stand-in: checks before loading', function () {
  this.timeout(120000);
  let h;
  harnessPerTest((x) => { h = x; });

  function smallDump(schema) {
    const dir = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int NOT NULL']], primaryKey: ['id'], chunks: [rowsFrom(1, 3).map((r) => r.split('\t')[0]), []] }] });
    return dir;
  }

  it('an unknown option: exact text for 8.4.0 and 9.1.0', () => {
    const dir = smallDump(unique('ld_opt'));
    expect(thrown(() => h.loader('8.4.0')(dir, { bogus: 1, threads: 2, Threads: 1 })).message)
      .to.equal('Util.loadDump: Argument #2: Invalid options: Threads, bogus');
    const err = thrown(() => h.loader('9.1.0')(dir, { bogus: 1 }));
    expect(err.message).to.equal('Argument #2: Invalid options: bogus');
    expect(h.statements).to.deep.equal([]);
  });

  it('dropExistingObjects is an unknown option before 9.1.0', () => {
    const dir = smallDump(unique('ld_drop'));
    expect(thrown(() => h.loader('9.0.1')(dir, { dropExistingObjects: true })).message)
      .to.equal('Util.loadDump: Argument #2: Invalid options: dropExistingObjects');
    expect(thrown(() => h.loader('9.1.0')(dir, { dropExistingObjects: true, ignoreExistingObjects: true })).message)
      .to.equal("Argument #2: The 'dropExistingObjects' and 'ignoreExistingObjects' options cannot be both set to true.");
  });

  it('wrong option types and values are reported as the Shell does', () => {
    const dir = smallDump(unique('ld_types'));
    const load = h.loader('8.4.0');
    expect(thrown(() => load(dir, { includeSchemas: '*' })).message)
      .to.equal("Util.loadDump: Argument #2: Option 'includeSchemas' is expected to be of type Array, but is String");
    expect(thrown(() => load(dir, { analyzeTables: 'xxx' })).message)
      .to.equal("Util.loadDump: Argument #2: Invalid value 'xxx' for analyzeTables option, allowed values: 'histogram', 'off' and 'on'.");
    expect(thrown(() => load(dir, { waitDumpTimeout: '???' })).message)
      .to.equal("Util.loadDump: Argument #2: Option 'waitDumpTimeout' Float expected, but value is String");
    expect(thrown(() => load(dir, { loadDdl: 0, loadData: 0 })).message)
      .to.equal('Util.loadDump: Argument #2: At least one of loadData, loadDdl or loadUsers options must be enabled');
    expect(thrown(() => load(123)).message).to.equal('Util.loadDump: Argument #1 is expected to be a string');
    expect(thrown(() => load(path.join(dir, 'nothing-here'))).message)
      .to.equal(`Util.loadDump: Cannot open file '${path.join(dir, 'nothing-here', '@.json')}': No such file or directory`);
  });

  it('local_infile OFF fails before anything is loaded', () => {
    const schema = unique('ld_infile');
    h.own(schema);
    const dir = smallDump(schema);
    const before = h.scalar('SELECT @@GLOBAL.local_infile');
    h.sql('SET GLOBAL local_infile = 0');
    try {
      const err = thrown(() => h.loader('8.4.0')(dir));
      expect(err.message).to.equal('Util.loadDump: local_infile disabled in server');
      expect(err.code).to.equal(53025);
      expect(h.lines).to.deep.equal(["ERROR: The 'local_infile' global system variable must be set to ON in the target server, after the server is verified to be trusted."]);
    } finally {
      h.sql(`SET GLOBAL local_infile = ${Number(before) ? 1 : 0}`);
    }
    expect(h.schemaExists(schema)).to.equal(false);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('load-progress'))).to.deep.equal([]);
  });

  it('without @.done.json: Incomplete dump, or Dump timeout with waitDumpTimeout', () => {
    const schema = unique('ld_incomplete');
    h.own(schema);
    const dir = smallDump(schema);
    fs.unlinkSync(path.join(dir, '@.done.json'));
    const err = thrown(() => h.loader('9.1.0')(dir));
    expect(err.message).to.equal('Incomplete dump');
    expect(err.code).to.equal(53008);
    expect(h.lines).to.include("ERROR: Dump is not yet finished. Use the 'waitDumpTimeout' option to enable concurrent load and set a timeout for when we need to wait for new data to become available.");
    const t0 = Date.now();
    const timeout = thrown(() => h.loader('9.1.0')(dir, { waitDumpTimeout: 0.5 }));
    expect(timeout.message).to.equal('Dump timeout');
    expect(Date.now() - t0).to.be.at.least(500);
    expect(h.lines).to.include('WARNING: Timeout while waiting for dump to finish. Imported data may be incomplete.');
    expect(h.schemaExists(schema)).to.equal(false);
  });

  it('a Shell older than the dump format refuses it (2.0.1 needs 8.0.27+)', () => {
    const dir = smallDump(unique('ld_ver'));
    const err = thrown(() => h.loader('8.0.26')(dir));
    expect(err.message).to.equal('Util.loadDump: Unsupported dump version');
    expect(err.code).to.equal(53006);
    expect(h.lines).to.include('ERROR: Dump format has version 2.0.1 which is not supported by this version of MySQL Shell. Please upgrade MySQL Shell to use it.');
  });

  it('a missing table metadata file: the dump directory is corrupted', () => {
    const schema = unique('ld_meta');
    const dir = smallDump(schema);
    fs.unlinkSync(path.join(dir, `${schema}@t.sql`));
    const err = thrown(() => h.loader('9.1.0')(dir, { progressFile: '' }));
    expect(err.message).to.equal('Dump directory is corrupted, some of the metadata files are missing');
    expect(err.code).to.equal(53029);
  });

  it('existing objects: one ERROR line each, then Duplicate objects found in destination database', () => {
    const schema = unique('ld_dup');
    h.own(schema);
    const dir = smallDump(schema);
    h.sql(`CREATE DATABASE \`${schema}\``);
    h.sql(`CREATE TABLE \`${schema}\`.t (x int)`);
    const err = thrown(() => h.loader('8.4.0')(dir, { progressFile: '' }));
    expect(err.message).to.equal("Util.loadDump: While 'Scanning metadata': Duplicate objects found in destination database");
    expect(err.code).to.equal(53021);
    expect(h.lines).to.include(`ERROR: Schema \`${schema}\` already contains a table named \`t\``);
    expect(h.lines).to.include('ERROR: One or more objects in the dump already exist in the destination database. You must either DROP these objects or exclude them from the load.');
    expect(h.statements.filter((s) => /^(LOAD|CREATE)/.test(s))).to.deep.equal([]);
    // ignoreExistingObjects: table DDL skipped, data loaded into the existing table
    h.sql(`ALTER TABLE \`${schema}\`.t CHANGE x id int NOT NULL PRIMARY KEY`);
    h.loader('9.1.0')(dir, { progressFile: '', ignoreExistingObjects: true });
    expect(h.lines).to.include(`NOTE: Schema \`${schema}\` already contains a table named \`t\`, ignoring...`);
    expect(Number(h.scalar(`SELECT COUNT(*) FROM \`${schema}\`.t`))).to.equal(3);
    // dropExistingObjects (9.1+): the table is dropped and created again from the dump
    h.sql(`ALTER TABLE \`${schema}\`.t ADD COLUMN extra int`);
    h.loader('9.1.0')(dir, { progressFile: '', dropExistingObjects: true });
    expect(h.sql(`SHOW COLUMNS FROM \`${schema}\`.t`).rows.map((r) => r[0])).to.deep.equal(['id']);
  });

  it('checksum:true needs a dump made with checksums (8.3.0+)', () => {
    const dir = smallDump(unique('ld_sum'));
    expect(thrown(() => h.loader('8.3.0')(dir, { checksum: true, progressFile: '' })).message)
      .to.equal("Util.loadDump: The 'checksum' option cannot be used when the dump does not contain checksum information.");
    expect(thrown(() => h.loader('8.2.0')(dir, { checksum: true })).message)
      .to.equal('Util.loadDump: Argument #2: Invalid options: checksum');
  });
});
