'use strict';
// util.loadDump stand-in: the dump's DDL really executed (statement splitting, DELIMITER, views,
// triggers, routines, events), the MariaDB rewrite list, filters, and the session statements.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { LoadDumpHarness, harnessPerTest, rowsInDataFile } = require('../support/load-dump-harness');
const { rowsFrom } = require('../support/chunked-dump-writer');
const { splitStatements } = require('../mysqlsh/util/loader/ddl-script');
const { REWRITES, rewriteForMariaDb } = require('../mysqlsh/util/mariadb-ddl-rewrites');
const { realDumpsDir } = require('../mysqlsh/contract-paths');
const { makeMysql84Personality, stateSql } = require('../mysqlsh/personality-mysql84');

const { thrown } = LoadDumpHarness;
const unique = (prefix) => `${prefix}_${process.pid}_${Math.floor(Math.random() * 1e6)}`;
const realFile = (dump, file) => fs.readFileSync(path.join(realDumpsDir(), dump, file), 'utf8');

describe('util.loadDump stand-in: splitting DDL scripts', () => {
  it('a routine between DELIMITER ;; lines is one statement; DELIMITER is never sent', () => {
    const statements = splitStatements(realFile('fortunewalla__dvdstore__mysql_ds2', 'ds2.sql'));
    expect(statements[0].sql).to.match(/^CREATE DATABASE \/\*!32312 IF NOT EXISTS\*\/ `ds2` /);
    expect(statements[1].sql).to.equal('USE ds2');
    const proc = statements.filter((s) => /^CREATE DEFINER=`remo`@`localhost` PROCEDURE `NEW_CUSTOMER`/.test(s.sql));
    expect(proc).to.have.length(1);
    expect(proc[0].sql).to.match(/END IF;\n\s+END$/);
    expect(proc[0].section).to.deep.equal({ type: 'procedure', name: 'ds2.NEW_CUSTOMER' });
    expect(statements.some((s) => /DELIMITER/i.test(s.sql))).to.equal(false);
    // CREATE DATABASE, USE, DROP PROCEDURE, 8 SETs, CREATE PROCEDURE, 4 SETs
    expect(statements).to.have.length(16);
  });

  it('terminators inside quotes, backticks and comments do not split; comment-only text is dropped', () => {
    const sql = "-- header;\nCREATE TABLE `a;b` (c varchar(3) DEFAULT ';', d int COMMENT \"x;y\") /* no; split */;\n# tail;\n"
      + 'DELIMITER $$\nCREATE TRIGGER t BEFORE INSERT ON `a;b` FOR EACH ROW BEGIN SET @x = 1; END$$\nDELIMITER ;\n'
      + "INSERT INTO `a;b` VALUES ('it''s; \\' ok', 2);\n-- end\n";
    expect(splitStatements(sql).map((s) => s.sql)).to.deep.equal([
      "CREATE TABLE `a;b` (c varchar(3) DEFAULT ';', d int COMMENT \"x;y\") /* no; split */",
      'CREATE TRIGGER t BEFORE INSERT ON `a;b` FOR EACH ROW BEGIN SET @x = 1; END',
      "INSERT INTO `a;b` VALUES ('it''s; \\' ok', 2)",
    ]);
  });

  it('an event section of a 1.0.0 dump keeps its statements tagged', () => {
    const statements = splitStatements(realFile('mysql__mysql-shell__dump_instance_8.0.21', 'all_features.sql'));
    const tagged = statements.filter((s) => s.section && s.section.type === 'event');
    expect(tagged.map((s) => s.section.name)).to.satisfy((names) => names.every((n) => n === 'all_features.myevent'));
    expect(tagged.some((s) => /CREATE DEFINER=`root`@`localhost` EVENT IF NOT EXISTS `myevent`/.test(s.sql))).to.equal(true);
    expect(statements[statements.length - 1].section).to.equal(null);
  });
});

describe('util.loadDump stand-in: MariaDB rewrites of MySQL 8 DDL', function () {
  this.timeout(60000);
  let h;
  let schema;
  beforeEach(() => {
    h = new LoadDumpHarness();
    schema = unique('ld_rw');
    h.own(schema);
    h.sql(`CREATE DATABASE \`${schema}\``);
  });
  afterEach(() => h.cleanup());

  for (const rw of REWRITES) {
    it(`${rw.id}: MariaDB rejects the statement as written and accepts it rewritten`, () => {
      h.sql(`USE \`${schema}\``);
      expect(() => h.sql(rw.example)).to.throw();
      const rewritten = rewriteForMariaDb(rw.example);
      expect(rewritten.applied).to.deep.equal([rw.id]);
      h.sql(rewritten.sql);
      for (const fixture of rw.fixtures) {
        const names = fs.readdirSync(path.join(realDumpsDir(), fixture)).filter((f) => f.endsWith('.sql'));
        expect(names.some((f) => rw.pattern.test(realFile(fixture, f))), `${fixture} needs ${rw.id}`).to.equal(true);
        rw.pattern.lastIndex = 0;
      }
    });
  }

  it('MySQL 8 DDL that is not on the list fails the load; nothing is skipped', () => {
    const dir = h.writeDump({ schema, tables: [{ name: 'f', columns: [['id', 'int NOT NULL']], primaryKey: ['id'],
      extraDdl: ['  KEY `fx` ((`id` + 1))'], chunks: [['1']] }] });
    const err = thrown(() => h.loader('9.1.0')(dir, { progressFile: '', deferTableIndexes: 'off' }));
    expect(err.message).to.equal('Error loading dump');
    expect(h.output()).to.match(/ERROR: \[Worker000\]: Error processing table `ld_rw_\d+_\d+`\.`f`: MySQL Error 1064 \(42000\): You have an error in your SQL syntax; [\s\S]*: CREATE TABLE IF NOT EXISTS `f` \(\n/);
    expect(h.sql(`SHOW TABLES FROM \`${schema}\``).rows).to.deep.equal([]);
  });
});

describe('util.loadDump stand-in: a 1.0.0 instance dump with views, triggers, events, odd names', function () {
  this.timeout(300000);
  let h;
  harnessPerTest((x) => { h = x; });

  it('creates every object and loads every row (decodeColumns, percent-encoded names, un-chunked files)', () => {
    const schemas = ['all_features', 'all_features2', 'crazy_names_db', 'xtest'];
    schemas.forEach((s) => expect(h.schemaExists(s), s).to.equal(false));
    h.own(...schemas);
    const dir = h.copyRealDump('mysql__mysql-shell__dump_instance_8.0.21');
    h.loader('8.4.0')(dir, { includeSchemas: schemas, progressFile: '' });
    for (const s of schemas) {
      const meta = JSON.parse(fs.readFileSync(path.join(dir, `${s}.json`), 'utf8'));
      for (const t of meta.tables) {
        const base = meta.basenames[t];
        const files = [`${base}.tsv.zst`, `${base}@@0.tsv.zst`].filter((f) => fs.existsSync(path.join(dir, f)));
        const expected = files.reduce((n, f) => n + rowsInDataFile(path.join(dir, f)), 0);
        const actual = Number(h.scalar(`SELECT COUNT(*) FROM \`${s}\`.\`${t.replace(/`/g, '``')}\``));
        expect(actual, `${s}.${t}`).to.equal(expected);
      }
      const views = h.sql(`SELECT TABLE_NAME FROM information_schema.views WHERE TABLE_SCHEMA = '${s}'`).rows.map((r) => r[0]).sort();
      expect(views, `${s} views`).to.deep.equal([...meta.views].sort());
    }
    expect(h.scalar("SELECT COUNT(*) FROM information_schema.triggers WHERE TRIGGER_SCHEMA = 'all_features' AND TRIGGER_NAME = 'mytrigger'")).to.equal(1);
    expect(h.scalar("SELECT COUNT(*) FROM information_schema.events WHERE EVENT_SCHEMA = 'all_features' AND EVENT_NAME = 'myevent'")).to.equal(1);
    expect(h.output()).to.include('Executing common preamble SQL');
    expect(h.output()).to.include('Executing common postamble SQL');
  });
});

describe('util.loadDump stand-in: filters and what the loader sends', function () {
  this.timeout(120000);
  let h;
  harnessPerTest((x) => { h = x; });

  it('includeTables with backticks and excludeRoutines: only those objects are created', () => {
    h.own('ds2');
    const dir = h.copyRealDump('fortunewalla__dvdstore__mysql_ds2');
    h.loader('8.4.0')(dir, { progressFile: '', includeTables: ['`ds2`.`categories`', 'ds2.inventory', 'nowhere.t'], excludeRoutines: ['ds2.NEW_CUSTOMER'] });
    expect(h.sql('SHOW TABLES FROM ds2').rows.map((r) => r[0]).sort()).to.deep.equal(['categories', 'inventory']);
    expect(h.scalar("SELECT COUNT(*) FROM information_schema.routines WHERE ROUTINE_SCHEMA = 'ds2'")).to.equal(0);
    expect(h.scalar('SELECT COUNT(*) FROM ds2.categories')).to.equal(16);
  });

  it('conflicting filters: one ERROR line each, then Conflicting filtering options', () => {
    const dir = h.writeDump({ schema: unique('ld_flt'), tables: [{ name: 't', columns: [['id', 'int']], chunks: [[]] }] });
    let err = thrown(() => h.loader('8.4.0')(dir, { excludeSchemas: ['a'], includeTables: ['a.t', 'b.t'], excludeTables: ['b.t'] }));
    expect(err.message).to.equal('Util.loadDump: Argument #2: Conflicting filtering options');
    expect(h.lines).to.deep.equal([
      'ERROR: Both includeTables and excludeTables options contain a table `b`.`t`.',
      'ERROR: The includeTables option contains a table `a`.`t` which refers to an excluded schema.',
    ]);
    err = thrown(() => h.loader('9.6.0')(dir, { includeSchemas: ['x', 'y'], excludeSchemas: ['y'], includeEvents: ['z.e'] }));
    expect(err.message).to.equal('Argument #2: Conflicting filtering options');
    expect(h.lines).to.deep.equal([
      'ERROR: Both includeSchemas and excludeSchemas options contain a schema `y`.',
      'ERROR: The includeEvents option contains an event `z`.`e` which refers to a schema which was not included.',
    ]);
    expect(thrown(() => h.loader('9.1.0')(dir, { includeTables: ['justatable'] })).message)
      .to.equal("Argument #2: The table to be included must be in the following form: schema.table, with optional backtick quotes, wrong value: 'justatable'.");
    expect(thrown(() => h.loader('9.1.0')(dir, { excludeTriggers: ['schema.@'] })).message)
      .to.equal("Argument #2: Failed to parse trigger to be excluded 'schema.@': Invalid character in identifier");
  });

  it('skipBinlog, sessionInitSql and analyzeTables reach the loading session; dryRun changes nothing', () => {
    const schema = unique('ld_sess');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int NOT NULL'], ['v', 'varchar(20)']], primaryKey: ['id'], chunks: [rowsFrom(1, 5), []] }] });
    h.loader('8.4.0')(dir, { dryRun: true });
    expect(h.lines).to.include('dryRun enabled, no changes will be made.');
    expect(h.schemaExists(schema)).to.equal(false);
    expect(h.statements.filter((s) => /^(CREATE|LOAD|ALTER|DROP|INSERT)/i.test(s))).to.deep.equal([]);
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('load-progress'))).to.deep.equal([]);

    h.loader('8.4.0')(dir, { skipBinlog: true, analyzeTables: 'on', sessionInitSql: ['SET @standin_init = 1'] });
    const s = h.statements;
    expect(s.indexOf('SET sql_log_bin=0')).to.be.within(0, s.findIndex((x) => /^LOAD DATA/.test(x)));
    expect(s).to.include('SET @standin_init = 1');
    expect(s).to.include(`ANALYZE TABLE \`${schema}\`.\`t\``);
    expect(s.filter((x) => /^LOAD DATA/.test(x))[0]).to.match(new RegExp(
      `^LOAD DATA LOCAL INFILE '.*${schema}@t@0\\.tsv\\.zst' REPLACE INTO TABLE \`${schema}\`\\.\`t\` CHARACTER SET 'utf8mb4' `
      + "FIELDS TERMINATED BY '\\\\t' ENCLOSED BY '' ESCAPED BY '\\\\\\\\' LINES STARTING BY '' TERMINATED BY '\\\\n' \\(`id`, `v`\\)$"));
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('load-progress.') && f.endsWith('.json'))).to.have.length(1);
  });

  it('never touches the redo log; only a NOTE at the end when it is off (MySQL 8.4 personality)', () => {
    const schema = unique('ld_redo');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int']], chunks: [['1']] }] });
    const personality = makeMysql84Personality();
    stateSql('redo_log', 'OFF').forEach((s) => h.sql(s));
    try {
      h.loader('8.4.0', { sqlHooks: [personality] })(dir, { progressFile: '', threads: 1 });
    } finally {
      stateSql('redo_log', 'ON').forEach((s) => h.sql(s));
    }
    expect(h.lines[0]).to.equal(`Loading DDL and Data from '${dir}' using 1 thread.`);
    expect(h.lines).to.include('NOTE: The redo log is currently disabled, which causes MySQL to not be crash safe! Do not forget to enable it again before putting this instance in production.');
    expect(h.statements.filter((s) => /REDO_LOG/i.test(s) && !/Innodb_redo_log_enabled/.test(s))).to.deep.equal([]);
    h.loader('8.4.0', { sqlHooks: [personality] })(dir, { progressFile: '', ignoreExistingObjects: true });
    expect(h.output()).to.not.include('redo log');
  });

  it('deferTableIndexes all: keys and foreign keys come after the data', () => {
    const target = unique('ld_defer');
    h.own(target);
    const dir = h.copyRealDump('danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA');
    h.loader('8.4.0')(dir, { progressFile: '', schema: target, deferTableIndexes: 'all' });
    const create = h.statements.find((s) => /^CREATE TABLE IF NOT EXISTS `citas`/.test(s));
    expect(create).to.not.match(/KEY `id_mascota`|FOREIGN KEY/);
    const lastLoad = h.statements.map((s) => /^LOAD DATA/.test(s)).lastIndexOf(true);
    const fk = h.statements.findIndex((s) => /^ALTER TABLE `[^`]+`\.`citas` ADD CONSTRAINT `citas_ibfk_1` FOREIGN KEY/.test(s));
    expect(fk).to.be.greaterThan(lastLoad);
    // citas 2, mascotas 1, tratamientos 1
    expect(h.scalar(`SELECT COUNT(*) FROM information_schema.referential_constraints WHERE CONSTRAINT_SCHEMA = '${target}'`)).to.equal(4);
    expect(h.scalar(`SELECT COUNT(*) FROM information_schema.statistics WHERE TABLE_SCHEMA = '${target}' AND INDEX_NAME = 'id_mascota'`)).to.be.greaterThan(0);
  });

  it('resetProgress discards the progress file; the existing objects then stop the load', () => {
    const schema = unique('ld_reset');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int NOT NULL']], primaryKey: ['id'], chunks: [['1', '2']] }] });
    h.loader('9.1.0')(dir);
    const err = thrown(() => h.loader('9.1.0')(dir, { resetProgress: true }));
    expect(h.lines).to.include("NOTE: Load progress file detected for the instance but 'resetProgress' option was enabled. Load progress will be discarded and the whole dump will be reloaded.");
    expect(err.message).to.equal("While 'Checking for pre-existing objects': Duplicate objects found in destination database");
    expect(h.lines).to.include("ERROR: One or more objects in the dump already exist in the destination database. You must either exclude these objects from the load, enable the 'dropExistingObjects' option to drop them automatically, or enable the 'ignoreExistingObjects' option to ignore them.");
  });

  it('a progress file written for another server is refused', () => {
    const schema = unique('ld_uuid');
    h.own(schema);
    const dir = h.writeDump({ schema, tables: [{ name: 't', columns: [['id', 'int']], chunks: [['1']] }] });
    const progressFile = path.join(h.tmpDir(), 'p.json');
    fs.writeFileSync(progressFile, '{"op":"SERVER-UUID","done":true,"timestamp":1,"uuid":"00000000-0000-0000-0000-000000000001"}\n');
    const err = thrown(() => h.loader('9.1.0')(dir, { progressFile }));
    expect(err.message).to.match(/^Progress file was created for a server with UUID 00000000-0000-0000-0000-000000000001, while the target server has UUID: [0-9a-f-]{36}$/);
    expect(err.code).to.equal(53027);
    expect(h.schemaExists(schema)).to.equal(false);
  });

  it('the schema option needs exactly one schema', () => {
    const dir = h.copyRealDump('mysql__mysql-shell__dump_instance_8.0.21');
    const err = thrown(() => h.loader('8.4.0')(dir, { schema: 'x', includeSchemas: ['world', 'test'], progressFile: '' }));
    expect(err.message).to.equal('Util.loadDump: Invalid option: schema.');
    expect(h.lines).to.include("ERROR: The 'schema' option can only be used when loading a single schema, but 2 will be loaded.");
  });
});
