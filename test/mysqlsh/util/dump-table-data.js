'use strict';
// The data files of one table (or partition) — loader-internals §4:
// * with an index: ascending key ranges of about bytesPerChunk each, `@0 … @@N`, rows in index
//   order; `col BETWEEN a AND b` on the first column when it is an integer, row-value ranges on
//   the whole index otherwise; rows whose nullable unique key is NULL go to chunk 0;
// * without one: a single unordered SELECT cut every bytesPerChunk bytes, then an always-empty
//   last `@@N` (Shells before 8.0.32 wrote one un-chunked file instead);
// * chunking off: one `<base>.<ext>` file.
const { quoteValue, quoteIdentifier } = require('../sql-placeholders');
const { rows, firstValue } = require('./dump-catalog');
const { isIntegerColumn } = require('./dump-index-choice');
const { encodeRow } = require('./dump-tsv');
const { DataFile } = require('./dump-data-file');
const { dataFileName } = require('./dump-names');

const id = (v) => quoteIdentifier(v, 0);

// Column types written base64-encoded and decoded on load with FROM_BASE64 (the Shell's choice,
// seen in every real dump's decodeColumns).
const BINARY_TYPES = new Set(['binary', 'varbinary', 'tinyblob', 'blob', 'mediumblob', 'longblob', 'bit',
  'geometry', 'point', 'linestring', 'polygon', 'multipoint', 'multilinestring', 'multipolygon',
  'geometrycollection', 'geomcollection']);
const NUMERIC_TYPES = new Set(['decimal', 'float', 'double', 'real']);
// Rows measured to estimate how many fit in one chunk.
const SAMPLE_ROWS = 1000;

function isBinaryColumn(column) { return BINARY_TYPES.has(column.dataType); }

// Every value reaches the dump as the server's own text in the session character set: CAST … AS
// CHAR keeps the driver from turning numbers, dates and JSON into JS values.
function selectExpr(column) {
  if (isBinaryColumn(column)) return `TO_BASE64(${id(column.name)})`;
  return `CAST(${id(column.name)} AS CHAR)`;
}

function boundaryExpr(column) {
  if (isBinaryColumn(column)) return `HEX(${id(column.name)})`;
  return `CAST(${id(column.name)} AS CHAR)`;
}

function boundaryLiteral(column, value) {
  if (isBinaryColumn(column)) return `X'${value}'`;
  if (isIntegerColumn(column) || NUMERIC_TYPES.has(column.dataType)) return value;
  return quoteValue(value, 0);
}

function whereClause(...conditions) {
  const c = conditions.filter(Boolean);
  return c.length ? ` WHERE ${c.join(' AND ')}` : '';
}

class TableDataDumper {
  // t: {schema, name, partition|null, basename, columns, index|null, where|null}
  constructor(session, t, { settings, dir, extension, keylessChunked }) {
    this.session = session;
    this.t = t;
    this.settings = settings;
    this.dir = dir;
    this.extension = extension;
    this.keylessChunked = keylessChunked;
    this.source = `${id(t.schema)}.${id(t.name)}${t.partition === null ? '' : ` PARTITION (${id(t.partition)})`}`;
    this.select = t.columns.map(selectExpr).join(', ');
    this.order = t.index ? ` ORDER BY ${t.index.columns.map((c) => id(c.name)).join(', ')}` : '';
  }

  // Whether this table is written in chunks (also what its JSON records as `chunking`).
  get chunked() {
    return this.settings.chunking && (this.t.index !== null || this.keylessChunked);
  }

  // Writes every file; returns [{name, dataBytes, fileBytes, rows}].
  run() {
    if (!this.chunked) return [this.writeRange(dataFileName(this.t.basename, this.extension, null), null, true)];
    if (!this.t.index) return this.writeKeyless();
    const ranges = this.t.index.integer ? this.integerRanges() : this.rowValueRanges();
    return ranges.map((cond, i) =>
      this.writeRange(dataFileName(this.t.basename, this.extension, i, i === ranges.length - 1), cond, true));
  }

  newFile(name) {
    return new DataFile(this.dir, name, {
      compression: this.settings.compression, level: this.settings.compressionLevel, encoding: this.settings.fileEncoding,
    });
  }

  writeRange(name, condition, ordered) {
    const file = this.newFile(name);
    const sql = `SELECT ${this.select} FROM ${this.source}${whereClause(condition, this.t.where)}${ordered ? this.order : ''}`;
    for (const r of rows(this.session, sql)) file.addRow(encodeRow(r));
    return file.finish();
  }

  writeKeyless() {
    const results = [];
    let file = null;
    for (const r of rows(this.session, `SELECT ${this.select} FROM ${this.source}${whereClause(this.t.where)}`)) {
      if (!file) file = this.newFile(dataFileName(this.t.basename, this.extension, results.length, false));
      file.addRow(encodeRow(r));
      if (file.bytes >= this.settings.bytesPerChunk) { results.push(file.finish()); file = null; }
    }
    if (file) results.push(file.finish());
    results.push(this.newFile(dataFileName(this.t.basename, this.extension, results.length, true)).finish());
    return results;
  }

  rowsPerChunk() {
    const sample = rows(this.session,
      `SELECT ${this.select} FROM ${this.source}${whereClause(this.t.where)}${this.order} LIMIT ${SAMPLE_ROWS}`);
    if (!sample.length) return 1;
    const bytes = sample.reduce((n, r) => n + Buffer.byteLength(encodeRow(r), this.settings.fileEncoding), 0);
    return Math.max(1, Math.floor(this.settings.bytesPerChunk / (bytes / sample.length)));
  }

  nullKeyCondition() {
    if (!this.t.index.nullable) return null;
    return this.t.index.columns.filter((c) => c.nullable).map((c) => `${id(c.name)} IS NULL`).join(' OR ');
  }

  integerRanges() {
    const col = id(this.t.index.columns[0].name);
    const [min, max] = rows(this.session,
      `SELECT CAST(MIN(${col}) AS CHAR), CAST(MAX(${col}) AS CHAR) FROM ${this.source}${whereClause(this.t.where)}`)[0];
    const nullKeys = this.nullKeyCondition();
    if (min === null) return [nullKeys];
    const perChunk = this.rowsPerChunk();
    const last = BigInt(max);
    const ranges = [];
    let begin = BigInt(min);
    for (;;) {
      const found = firstValue(this.session, `SELECT CAST(${col} AS CHAR) FROM ${this.source}`
        + `${whereClause(`${col} >= ${begin}`, this.t.where)} ORDER BY ${col} LIMIT ${perChunk - 1}, 1`);
      const end = found === null || BigInt(found) > last ? last : BigInt(found);
      ranges.push(`${col} BETWEEN ${begin} AND ${end}`);
      if (end >= last) break;
      begin = end + 1n;
    }
    if (nullKeys) ranges[0] = `(${ranges[0]} OR ${nullKeys})`;
    return ranges;
  }

  rowValueRanges() {
    const cols = this.t.index.columns;
    const tuple = cols.length === 1 ? id(cols[0].name) : `(${cols.map((c) => id(c.name)).join(', ')})`;
    const literal = (values) => {
      const parts = values.map((v, i) => boundaryLiteral(cols[i], v));
      return cols.length === 1 ? parts[0] : `(${parts.join(', ')})`;
    };
    const nullKeys = this.nullKeyCondition();
    const notNull = nullKeys ? `NOT (${nullKeys})` : null;
    const perChunk = this.rowsPerChunk();
    const ranges = [];
    let lower = null;
    for (;;) {
      const from = lower === null ? null : `${tuple} > ${lower}`;
      const end = rows(this.session, `SELECT ${cols.map(boundaryExpr).join(', ')} FROM ${this.source}`
        + `${whereClause(from, notNull, this.t.where)}${this.order} LIMIT ${perChunk - 1}, 1`)[0];
      const endLiteral = end ? literal(end) : null;
      const more = end && firstValue(this.session, `SELECT 1 FROM ${this.source}`
        + `${whereClause(`${tuple} > ${endLiteral}`, notNull, this.t.where)} LIMIT 1`);
      if (!more) { ranges.push(from); break; }
      ranges.push([from, `${tuple} <= ${endLiteral}`].filter(Boolean).join(' AND '));
      lower = endLiteral;
    }
    if (nullKeys) ranges[0] = ranges[0] ? `(${ranges[0]} OR ${nullKeys})` : null;
    return ranges;
  }
}

module.exports = { TableDataDumper, isBinaryColumn, selectExpr };
