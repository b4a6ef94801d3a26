'use strict';
// util.dump* options of the stand-in behave as the Shell documents them (loader-internals §5.2),
// and its errors carry the Shell's texts (from mysql-shell's own dump tests).
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { DumpHarness, readJson, dataContent, idxValues, chunkFiles } = require('../support/dump-harness');

const MIB = 1024 * 1024;

describe('stand-in util.dump* options and errors', function () {
  this.timeout(300000);
  let h;
  const schema = `dump_opt_${process.pid}`;
  const thrown = (fn) => DumpHarness.thrown(fn);
  const files = (dir) => fs.readdirSync(dir);

  before(() => { h = DumpHarness.seeded(schema); });
  after(() => h.cleanup());

  function dumpSchema(options, version = '8.4.0') {
    const dir = h.outputDir();
    h.dumpers(version).dumpSchemas([schema], dir, options);
    return dir;
  }

  it('dryRun prints what would be dumped and writes nothing', () => {
    const dir = h.outputDir();
    h.dumpers().dumpSchemas([schema], dir, { dryRun: true });
    expect(fs.existsSync(dir)).to.equal(false);
    expect(h.lines[0]).to.equal('dryRun enabled, no locks will be acquired and no files will be created.');
    expect(h.lines).to.include('1 schemas will be dumped and within them 7 tables, 1 view, 1 event, 2 routines, 1 trigger.');
    expect(h.lines).to.include(`Data dump for table \`${schema}\`.\`orders\` will be chunked using column \`id\``);
    expect(h.lines).to.include(`Data dump for table \`${schema}\`.\`sales\` will be chunked using columns \`id\`, \`sold_on\``);
    expect(h.output()).not.to.include('Schemas dumped');
  });

  it('ddlOnly writes DDL and metadata but no data files', () => {
    const dir = dumpSchema({ ddlOnly: true });
    expect(files(dir).filter((f) => /\.tsv/.test(f))).to.deep.equal([]);
    expect(readJson(dir, `${schema}.json`).includesData).to.equal(false);
    expect(readJson(dir, `${schema}@orders.json`).includesData).to.equal(false);
    expect(readJson(dir, '@.done.json')).to.include({ dataBytes: 0 });
    expect(files(dir)).to.include.members(['@.sql', '@.post.sql', `${schema}.sql`, `${schema}@orders.sql`, `${schema}@orders.triggers.sql`]);
  });

  it('dataOnly writes data and metadata but no SQL file', () => {
    const dir = dumpSchema({ dataOnly: true });
    expect(files(dir).filter((f) => f.endsWith('.sql'))).to.deep.equal([]);
    const s = readJson(dir, `${schema}.json`);
    expect(s.includesDdl).to.equal(false);
    expect(Object.keys(s)).not.to.include.members(['views', 'events', 'functions', 'procedures']);
    expect(readJson(dir, `${schema}@orders.json`)).not.to.have.property('triggers');
    expect(chunkFiles(dir, `${schema}@orders`).length).to.be.above(0);
  });

  it('where limits the rows and is recorded in the table JSON (dumpTables)', () => {
    const dir = h.outputDir();
    h.dumpers().dumpTables(schema, ['orders', 'recent orders'], dir, { where: { [`${schema}.orders`]: 'id <= 100' } });
    const rows = chunkFiles(dir, `${schema}@orders`).flatMap((f) => dataContent(path.join(dir, f.name)).toString().split('\n').filter(Boolean));
    expect(rows.length).to.equal(100);
    expect(readJson(dir, `${schema}@orders.json`).where).to.equal('(id <= 100)');
    expect(readJson(dir, '@.json').origin).to.equal('dumpTables');
    expect(readJson(dir, `${schema}.json`).views).to.deep.equal(['recent orders']);
    expect(readJson(dir, `${schema}.json`)).not.to.have.property('events');
    expect(h.lines).to.include('1 tables and 1 views will be dumped.');
    expect(thrown(() => h.dumpers().dumpTables(schema, ['orders'], h.outputDir(), { where: { [`${schema}.orders`]: 'id <= (100' } })).message)
      .to.equal(`Util.dumpTables: Argument #4: Malformed condition used for table '${schema}'.'orders': id <= (100`);
    expect(thrown(() => h.dumpers().dumpTables(schema, ['orders'], h.outputDir(), { where: { orders: '1' } })).message)
      .to.equal("Util.dumpTables: Argument #4: The table name key of the 'where' option must be in the following form: schema.table, with optional backtick quotes, wrong value: 'orders'.");
  });

  it('partitions limits a table to the partitions named; an unknown one is an error', () => {
    const dir = h.outputDir();
    h.dumpers().dumpTables(schema, ['sales'], dir, { partitions: { [`${schema}.sales`]: ['p2024_02'] } });
    const meta = readJson(dir, `${schema}@sales.json`);
    expect(meta.partitions).to.deep.equal(['p2024_02']);
    expect(files(dir).filter((f) => f.endsWith('.zst')).every((f) => f.startsWith(`${schema}@sales@p2024_02@`))).to.equal(true);
    const e = thrown(() => h.dumpers().dumpTables(schema, ['sales'], h.outputDir(), { partitions: { [`${schema}.sales`]: ['p9'] } }));
    expect(e.message).to.equal('Util.dumpTables: Invalid partitions');
    expect(h.lines).to.include(`ERROR: Following partitions were not found in table '${schema}'.'sales': 'p9'`);
  });

  it('dumpTables with all: true dumps every table and view; generated columns carry no data', () => {
    const dir = h.outputDir();
    h.dumpers().dumpTables(schema, [], dir, { all: true, ddlOnly: true });
    const s = readJson(dir, `${schema}.json`);
    expect(s.tables.length).to.equal(7);
    expect(s.views).to.deep.equal(['recent orders']);
    expect(readJson(dir, `${schema}@orders.json`).options.columns).not.to.include('amount_cents');
  });

  it('include/exclude filters select tables, triggers, routines and events', () => {
    const dir = dumpSchema({ excludeTables: [`${schema}.audit_log`, `\`${schema}\`.\`order items\``], excludeTriggers: [`${schema}.orders`],
      events: false, excludeRoutines: [`${schema}.purge_log`] });
    const s = readJson(dir, `${schema}.json`);
    expect(s.tables).not.to.include.members(['audit_log', 'order items']);
    expect(s).not.to.have.property('events');
    expect(s.procedures).to.deep.equal([]);
    expect(s.functions).to.deep.equal(['order_total']);
    expect(files(dir).filter((f) => f.includes('audit_log') || f.includes('triggers'))).to.deep.equal([]);
    expect(fs.readFileSync(path.join(dir, `${schema}.sql`), 'utf8')).not.to.include('Dumping events');
    const only = dumpSchema({ includeTables: [`${schema}.orders`] });
    expect(readJson(only, `${schema}.json`).tables).to.deep.equal(['orders']);
    expect(thrown(() => dumpSchema({ includeTables: [`${schema}.orders`], excludeTables: [`\`${schema}\`.orders`] })).message)
      .to.equal('Util.dumpSchemas: Conflicting filtering options');
    expect(h.lines).to.include(`ERROR: Both includeTables and excludeTables options contain a table \`${schema}\`.\`orders\`.`);
    expect(thrown(() => dumpSchema({ excludeTables: ['orders'] })).message).to.equal(
      "Util.dumpSchemas: Argument #3: The table to be excluded must be in the following form: schema.table, with optional backtick quotes, wrong value: 'orders'.");
  });

  it('chunking: false writes one <base>.<ext> per table or partition, with MiB .idx entries', () => {
    const dir = dumpSchema({ chunking: false });
    expect(chunkFiles(dir, `${schema}@orders`).map((f) => f.name)).to.deep.equal([`${schema}@orders.tsv.zst`]);
    expect(readJson(dir, `${schema}@orders.json`).chunking).to.equal(false);
    expect(files(dir)).to.include(`${schema}@sales@p2024_02.tsv.zst`);
    const idx = idxValues(path.join(dir, `${schema}@orders.tsv.zst.idx`));
    const size = dataContent(path.join(dir, `${schema}@orders.tsv.zst`)).length;
    expect(size).to.be.above(MIB);
    expect(idx[0]).to.be.within(MIB, MIB + 500);
    expect(idx[idx.length - 1]).to.equal(size);
    expect(thrown(() => dumpSchema({ chunking: false, bytesPerChunk: '1M' })).message).to.equal(
      "Util.dumpSchemas: Argument #3: The option 'bytesPerChunk' cannot be used if the 'chunking' option is set to false.");
  });

  it('bytesPerChunk takes k/M/G decimal units, at least 128k, with the Shell errors', () => {
    expect(readJson(dumpSchema({ bytesPerChunk: '1M', ddlOnly: true }), '@.json').bytesPerChunk).to.equal(1000000);
    expect(readJson(dumpSchema({ ddlOnly: true }), '@.json').bytesPerChunk).to.equal(64000000);
    const err = (value) => thrown(() => dumpSchema({ bytesPerChunk: value })).message;
    expect(err('127k')).to.equal("Util.dumpSchemas: Argument #3: The value of 'bytesPerChunk' option must be greater than or equal to 128k.");
    expect(err('127999')).to.equal("Util.dumpSchemas: Argument #3: The value of 'bytesPerChunk' option must be greater than or equal to 128k.");
    expect(err('2Mhz')).to.equal('Util.dumpSchemas: Argument #3: Wrong input number "2Mhz"');
    expect(err('0.1k')).to.equal('Util.dumpSchemas: Argument #3: Wrong input number "0.1k"');
    expect(err('-1G')).to.equal('Util.dumpSchemas: Argument #3: Input number "-1G" cannot be negative');
    expect(err('')).to.equal("Util.dumpSchemas: Argument #3: The option 'bytesPerChunk' cannot be set to an empty string.");
  });

  it('compression none, gzip and zstd;level=N', () => {
    const none = dumpSchema({ compression: 'none', includeTables: [`${schema}.orders`], bytesPerChunk: '128k' });
    const plain = chunkFiles(none, `${schema}@orders`, 'tsv');
    expect(plain.length).to.be.above(1);
    expect(fs.readFileSync(path.join(none, plain[0].name), 'utf8')).to.match(/^1\tcustomer 1\t/);
    expect(readJson(none, `${schema}@orders.json`)).to.include({ extension: 'tsv', compression: 'none' });
    expect(h.lines.filter((l) => /^(Uncompressed data|Data|Compressed data) size: /.test(l)).map((l) => l.split(':')[0])).to.deep.equal(['Data size']);
    const gz = dumpSchema({ compression: 'gzip', includeTables: [`${schema}.orders`], bytesPerChunk: '128k' });
    const gzFiles = chunkFiles(gz, `${schema}@orders`, 'tsv.gz');
    expect(dataContent(path.join(gz, gzFiles[0].name))).to.deep.equal(fs.readFileSync(path.join(none, plain[0].name)));
    expect(readJson(gz, `${schema}@orders.json`)).to.include({ extension: 'tsv.gz', compression: 'gzip' });
    const z5 = dumpSchema({ compression: 'zstd;level=5', includeTables: [`${schema}.orders`] });
    expect(readJson(z5, `${schema}@orders.json`).compression).to.equal('zstd');
    expect(thrown(() => dumpSchema({ compression: 'lz4' })).message).to.equal('Util.dumpSchemas: Argument #3: Unknown compression type: lz4');
  });

  it('names missing schemas and tables with the Shell texts', () => {
    const d = h.dumpers();
    let e = thrown(() => d.dumpSchemas(['nope_b', schema, 'nope_a'], h.outputDir()));
    expect(e.message).to.equal("Util.dumpSchemas: Following schemas were not found in the database: 'nope_a', 'nope_b'");
    expect(e.error.type).to.equal('ArgumentError');
    expect(thrown(() => d.dumpSchemas([], h.outputDir())).message).to.equal("Util.dumpSchemas: The 'schemas' parameter cannot be an empty list.");
    expect(thrown(() => d.dumpTables(schema, ['orders', 'nope'], h.outputDir())).message)
      .to.equal(`Util.dumpTables: Following tables were not found in the schema '${schema}': 'nope'`);
    expect(thrown(() => d.dumpTables('nope', ['orders'], h.outputDir())).message)
      .to.equal("Util.dumpTables: The requested schema 'nope' was not found in the database.");
    expect(thrown(() => d.dumpTables(schema, [], h.outputDir())).message).to.equal("Util.dumpTables: The 'tables' parameter cannot be an empty list.");
    expect(thrown(() => d.dumpTables(schema, ['orders'], h.outputDir(), { all: true })).message)
      .to.equal("Util.dumpTables: When the 'all' parameter is set to true, the 'tables' parameter must be an empty list.");
    expect(thrown(() => h.dumpers('9.1.0').dumpSchemas(['nope'], h.outputDir())).message)
      .to.equal("Following schemas were not found in the database: 'nope'");
  });

  it('refuses a directory that holds files, with the Shell text; an empty one is fine', () => {
    const cwd = h.tmpDir('dump-cwd-');
    fs.mkdirSync(path.join(cwd, 'used'));
    fs.writeFileSync(path.join(cwd, 'used', 'x.txt'), 'x');
    const e = thrown(() => h.dumpers('8.4.0', cwd).dumpSchemas([schema], 'used', { ddlOnly: true }));
    expect(e.message).to.equal(`Util.dumpSchemas: Cannot proceed with the dump, the specified directory 'used' already exists at the target location ${path.join(cwd, 'used')} and is not empty.`);
    expect(e.error.type).to.equal('ArgumentError');
    fs.mkdirSync(path.join(cwd, 'empty'));
    h.dumpers('8.4.0', cwd).dumpSchemas([schema], 'empty', { ddlOnly: true });
    expect(files(path.join(cwd, 'empty'))).to.include('@.done.json');
  });

  it('checks option names, values and conflicts', () => {
    const err = (o) => thrown(() => dumpSchema(o)).message;
    expect(err({ bogus: 1 })).to.equal('Util.dumpSchemas: Argument #3: Invalid options: bogus');
    expect(err({ users: true })).to.equal('Util.dumpSchemas: Argument #3: Invalid options: users');
    expect(err({ threads: 0 })).to.equal("Util.dumpSchemas: Argument #3: The value of 'threads' option must be greater than 0.");
    expect(err({ ddlOnly: true, dataOnly: true })).to.equal("Util.dumpSchemas: Argument #3: The 'ddlOnly' and 'dataOnly' options cannot be both set to true.");
    expect(err({ compatibility: ['nope'] })).to.equal('Util.dumpSchemas: Argument #3: Unknown compatibility option: nope');
    expect(err({ compatibility: ['ignore_missing_pks', 'create_invisible_pks'] })).to.equal(
      "Util.dumpSchemas: Argument #3: The 'create_invisible_pks' and 'ignore_missing_pks' compatibility options cannot be used at the same time.");
  });

  it('records consistent, ocimds, compatibility and threads', () => {
    const dir = dumpSchema({ consistent: false, ocimds: true, compatibility: ['strip_definers', 'create_invisible_pks'], threads: 2, ddlOnly: true });
    const root = readJson(dir, '@.json');
    expect(root).to.include({ consistent: false, mdsCompatibility: true });
    expect(root.compatibilityOptions).to.deep.equal(['create_invisible_pks', 'strip_definers']);
    expect(root.options).to.deep.equal({ consistent: false, ocimds: true, compatibility: ['strip_definers', 'create_invisible_pks'], threads: 2, ddlOnly: true });
    expect(h.lines).not.to.include('Acquiring global read lock');
    expect(h.lines).to.include('Running data dump using 2 threads.');
  });

  it('dumpInstance dumps the accounts and leaves out the system schemas', () => {
    const dir = h.outputDir();
    h.dumpers().dumpInstance(dir, { includeSchemas: [schema], ddlOnly: true });
    const root = readJson(dir, '@.json');
    expect(root.origin).to.equal('dumpInstance');
    expect(root.schemas).to.deep.equal([schema]);
    expect(root.users).to.include("'root'@'localhost'");
    expect(root.users.some((u) => u.startsWith("'mariadb.sys'"))).to.equal(false);
    const users = fs.readFileSync(path.join(dir, '@.users.sql'), 'utf8');
    expect(users).to.match(/-- begin user root@localhost\nCREATE USER IF NOT EXISTS `root`@`localhost`/);
    expect(users).to.include('-- begin grants root@localhost\nGRANT ALL PRIVILEGES ON *.* TO `root`@`localhost`');
    expect(h.output()).to.match(/1 out of \d+ schemas will be dumped and within them 7 tables/);
    expect(h.output()).to.match(new RegExp(`${root.users.length} out of \\d+ users will be dumped.`));
    expect(thrown(() => h.dumpers().dumpInstance(h.outputDir(), { users: false, excludeUsers: ['root'] })).message)
      .to.equal("Util.dumpInstance: Argument #2: The 'excludeUsers' option cannot be used if the 'users' option is set to false.");
  });

  it('writes the layout of the emulated Shell version (format 1.0.0 … 2.0.1)', () => {
    const formats = { '8.0.21': '1.0.0', '8.0.22': '1.0.1', '8.0.26': '1.0.2', '8.0.27': '2.0.1' };
    for (const [version, format] of Object.entries(formats)) {
      const dir = dumpSchema({ ddlOnly: true }, version);
      const root = readJson(dir, '@.json');
      expect(root.version, version).to.equal(format);
      const table = readJson(dir, `${schema}@orders.json`);
      expect(table.options.primaryIndex, version).to.equal(version === '8.0.27' ? undefined : 'id');
      expect(table.primaryIndex, version).to.deep.equal(version >= '8.0.26' ? ['id'] : undefined);
      expect('bytesPerChunk' in root, version).to.equal(version !== '8.0.21');
      expect('origin' in root, version).to.equal(version >= '8.0.23');
    }
  });
});
