'use strict';
// util.dumpSchemas of the stand-in on a realistic schema: the data files are what the Shell
// writes (key-range chunks, keyless split, partitions, encoded names, base64 BLOBs, .idx), a chunk
// loads by hand with LOAD DATA, and the whole dump loads back with util.loadDump row for row.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { DumpHarness, readJson, dataContent, idxValues, chunkFiles } = require('../support/dump-harness');
const { SEEDED_TABLES, quoteName: q } = require('../support/dump-seed');

const EMPTY_ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);
const MIB = 1024 * 1024;

// Rows as comparable text: binary columns hex-encoded, in key order.
function tableRows(h, schema, table, orderBy) {
  const cols = h.sql(`SELECT COLUMN_NAME, DATA_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '${schema}'
    AND TABLE_NAME = '${table.replace(/'/g, "''")}' ORDER BY ORDINAL_POSITION`).rows;
  const select = cols.map(([c, t]) => (/blob|binary|bit/.test(t) ? `HEX(${q(c)})` : `CAST(${q(c)} AS CHAR)`)).join(', ');
  return h.sql(`SELECT ${select} FROM ${q(schema)}.${q(table)} ORDER BY ${orderBy.map(q).join(', ')}`).rows;
}

function firstFields(content) {
  return content.toString('utf8').split('\n').filter(Boolean).map((line) => Number(line.split('\t')[0]));
}

describe('stand-in util.dumpSchemas: data files and round trip (format 2.0.1)', function () {
  this.timeout(300000);
  let h;
  const schema = `dump_rt_${process.pid}`;
  const copy = `${schema}_copy`;
  let dir;
  let base;

  before(() => {
    h = DumpHarness.seeded(schema, copy);
    dir = h.outputDir();
    h.dumpers('8.4.0').dumpSchemas([schema], dir, { bytesPerChunk: '128k' });
    base = readJson(dir, '@.json').basenames[schema];
  });
  after(() => h.cleanup());

  it('prints the Shell-like plan and summary', () => {
    const out = h.output();
    expect(out).to.include(`1 schemas will be dumped and within them 7 tables, 1 view, 1 event, 2 routines, 1 trigger.`);
    expect(out).to.include('Running data dump using 4 threads.');
    expect(out).to.match(/Schemas dumped: 1\nTables dumped: 7\nUncompressed data size: [\d.]+ [KM]B\nCompressed data size: /);
    expect(out).to.match(/Rows written: 49903\n/);
  });

  it('chunks orders into ascending id ranges of about bytesPerChunk, the last one @@N', () => {
    const files = chunkFiles(dir, `${base}@orders`);
    expect(files.length).to.be.at.least(6);
    files.forEach((f, i) => { expect(f.index).to.equal(i); expect(f.last).to.equal(i === files.length - 1); });
    const done = readJson(dir, '@.done.json');
    let previousMax = 0;
    for (const f of files) {
      const content = dataContent(path.join(dir, f.name));
      expect(done.chunkFileBytes[f.name]).to.equal(content.length);
      const ids = firstFields(content);
      expect(ids.length).to.be.above(0);
      expect(Math.min(...ids)).to.be.above(previousMax);
      expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
      previousMax = Math.max(...ids);
      if (!f.last) expect(content.length).to.be.within(100000, 200000);
    }
    expect(done.tableRows[schema].orders).to.equal(11400);
  });

  it('splits the keyless table in scan order and ends it with an empty @@N', () => {
    const files = chunkFiles(dir, `${base}@audit_log`);
    expect(files.length).to.be.at.least(3);
    files.forEach((f, i) => { expect(f.index).to.equal(i); expect(f.last).to.equal(i === files.length - 1); });
    const rows = files.map((f) => dataContent(path.join(dir, f.name)).toString().split('\n').filter(Boolean).length);
    expect(rows.slice(0, -1).every((n) => n > 0)).to.equal(true);
    expect(rows.reduce((a, b) => a + b)).to.equal(4000);
    const last = path.join(dir, files[files.length - 1].name);
    expect(fs.readFileSync(last)).to.deep.equal(EMPTY_ZSTD);
    expect(fs.readFileSync(`${last}.idx`)).to.deep.equal(Buffer.alloc(8));
    expect(readJson(dir, `${base}@audit_log.json`).primaryIndex).to.deep.equal([]);
    expect(readJson(dir, `${base}@audit_log.json`).chunking).to.equal(true);
  });

  it('dumps each partition on its own, numbered from 0, named from the table JSON basenames', () => {
    const meta = readJson(dir, `${base}@sales.json`);
    expect(meta.partitions).to.deep.equal(['p2024_01', 'p2024_02', 'p2024_03', 'pmax']);
    expect(meta.basenames.p2024_02).to.equal(`${base}@sales@p2024_02`);
    expect(fs.existsSync(path.join(dir, `${base}@sales@0.tsv.zst`))).to.equal(false);
    for (const p of ['p2024_01', 'p2024_02', 'p2024_03']) {
      const files = chunkFiles(dir, meta.basenames[p]);
      expect(files.length, p).to.be.at.least(2);
      expect(files[0].index).to.equal(0);
      expect(files[files.length - 1].last).to.equal(true);
    }
    expect(chunkFiles(dir, meta.basenames.pmax).map((f) => f.name)).to.deep.equal([`${base}@sales@pmax@@0.tsv.zst`]);
    expect(readJson(dir, '@.json').capabilities.map((c) => c.id)).to.deep.equal(['partition_awareness']);
  });

  it('percent-encodes names in file names and records them in the basenames maps', () => {
    const meta = readJson(dir, `${base}.json`);
    expect(meta.basenames['order items']).to.equal(`${base}@order%20items`);
    expect(meta.basenames["weird'name"]).to.equal(`${base}@weird%27name`);
    expect(meta.basenames['recent orders']).to.equal(`${base}@recent%20orders`);
    for (const f of [`${base}@order%20items.json`, `${base}@order%20items.sql`, `${base}@weird%27name@@0.tsv.zst`,
      `${base}@recent%20orders.pre.sql`, `${base}@recent%20orders.sql`, `${base}@orders.triggers.sql`]) {
      expect(fs.existsSync(path.join(dir, f)), f).to.equal(true);
    }
    // `order items` has a VARCHAR key: row-value ranges, still in key order across chunks.
    const codes = chunkFiles(dir, `${base}@order%20items`)
      .flatMap((f) => dataContent(path.join(dir, f.name)).toString().split('\n').filter(Boolean).map((l) => l.split('\t')[0]));
    expect(chunkFiles(dir, `${base}@order%20items`).length).to.be.at.least(2);
    expect(codes.length).to.equal(4000);
    expect(codes).to.deep.equal([...codes].sort());
  });

  it('writes binary columns base64-encoded with decodeColumns FROM_BASE64 and escapes text as the Shell', () => {
    const meta = readJson(dir, `${base}@orders.json`);
    expect(meta.options.decodeColumns).to.deep.equal({ photo: 'FROM_BASE64', flags: 'FROM_BASE64' });
    const first = dataContent(path.join(dir, `${base}@orders@0.tsv.zst`)).toString('utf8').split('\n');
    const row7 = first.find((l) => l.startsWith('7\t')).split('\t');
    expect(row7[3]).to.equal('a\\0b\\bc\\td\\ne\\rf\\Zg\\\\h Zoë ✓ 7');
    expect(first.find((l) => l.startsWith('10\t')).split('\t')[3]).to.equal('\\N');
    expect(first.find((l) => l.startsWith('3\t')).split('\t')[6]).to.equal('');
    const row6 = first.find((l) => l.startsWith('6\t')).split('\t');
    expect(Buffer.from(row6[6], 'base64').toString('hex')).to.equal(
      h.scalar(`SELECT LOWER(HEX(photo)) FROM ${q(schema)}.orders WHERE id = 6`));
  });

  it('writes .idx files: an offset each time the data passes another MiB, then the total', () => {
    for (const name of fs.readdirSync(dir).filter((n) => n.endsWith('.idx'))) {
      const values = idxValues(path.join(dir, name));
      const size = dataContent(path.join(dir, name.slice(0, -4))).length;
      expect(values[values.length - 1], name).to.equal(size);
      values.slice(0, -1).forEach((v, i) => expect(v).to.be.at.least((i + 1) * MIB));
    }
  });

  it('a chunk loads by hand with LOAD DATA LOCAL INFILE using the table JSON options', () => {
    const meta = readJson(dir, `${base}@orders.json`);
    h.sql(`CREATE TABLE ${q(schema)}.orders_by_hand LIKE ${q(schema)}.orders`);
    const cols = meta.options.columns.map((c) => (meta.options.decodeColumns[c] ? `@${c}` : q(c))).join(', ');
    const set = Object.entries(meta.options.decodeColumns).map(([c, fn]) => `${q(c)} = ${fn}(@${c})`).join(', ');
    const file = path.join(dir, `${base}@orders@1.tsv.zst`);
    h.sql(`LOAD DATA LOCAL INFILE '${file}' INTO TABLE ${q(schema)}.orders_by_hand CHARACTER SET utf8mb4
      FIELDS TERMINATED BY '\\t' ESCAPED BY '\\\\' LINES TERMINATED BY '\\n' (${cols}) SET ${set}`);
    const ids = firstFields(dataContent(file));
    const range = `id BETWEEN ${Math.min(...ids)} AND ${Math.max(...ids)}`;
    const a = h.sql(`SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, customer, amount, note, placed, shipped, HEX(photo), flags, rating)))
      FROM ${q(schema)}.orders_by_hand`).rows[0];
    const b = h.sql(`SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, customer, amount, note, placed, shipped, HEX(photo), flags, rating)))
      FROM ${q(schema)}.orders WHERE ${range}`).rows[0];
    expect(a).to.deep.equal(b);
    h.sql(`DROP TABLE ${q(schema)}.orders_by_hand`);
  });

  it('loads back with util.loadDump into another schema, row for row, with view, trigger, routines and event', () => {
    h.loader('8.4.0')(dir, { schema: copy, progressFile: '', showProgress: false });
    for (const [table, key] of Object.entries(SEEDED_TABLES)) {
      expect(tableRows(h, copy, table, key), table).to.deep.equal(tableRows(h, schema, table, key));
    }
    const objects = (type, col) => h.sql(`SELECT ${col} FROM information_schema.${type} WHERE ${type === 'TRIGGERS' ? 'TRIGGER_SCHEMA'
      : type === 'ROUTINES' ? 'ROUTINE_SCHEMA' : type === 'EVENTS' ? 'EVENT_SCHEMA' : 'TABLE_SCHEMA'} = '${copy}' ORDER BY 1`).rows.map((r) => r[0]);
    expect(objects('VIEWS', 'TABLE_NAME')).to.deep.equal(['recent orders']);
    expect(objects('TRIGGERS', 'TRIGGER_NAME')).to.deep.equal(['orders_bi']);
    expect(objects('ROUTINES', 'ROUTINE_NAME')).to.deep.equal(['order_total', 'purge_log']);
    expect(objects('EVENTS', 'EVENT_NAME')).to.deep.equal(['nightly_purge']);
    expect(h.sql(`SELECT COUNT(*) FROM ${q(copy)}.${q('recent orders')}`).rows[0][0])
      .to.equal(h.sql(`SELECT COUNT(*) FROM ${q(schema)}.${q('recent orders')}`).rows[0][0]);
  });
});
