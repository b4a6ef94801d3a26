'use strict';
// Writes a small format-2.0.1 dump directory by hand, the way util.dumpSchemas lays it out
// (mysqlsh-contract README §2, loader-internals §1): JSON metadata, DDL, zstd TSV chunks
// `@0 … @@N` (or one un-chunked file) with their .idx, and @.done.json written last.
// There is no multi-chunk real fixture; tests build one with this.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const SHELL_EMPTY_ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]);
const DUMPER = 'mysqlsh Ver 8.0.33 for Linux on x86_64 - for MySQL 8.0.33 (MySQL Community Server (GPL))';
const HEADER = '-- MySQLShell dump 2.0.1  Distrib Ver 8.0.33 for Linux on x86_64 - for MySQL 8.0.33 (MySQL Community Server (GPL)), for Linux (x86_64)\n--\n-- Host: localhost\n-- ------------------------------------------------------\n-- Server version\t8.0.33\n';

// File-name encoding of schema/table names (loader-internals §1.2): reserved ASCII bytes become
// %XX, non-ASCII bytes stay.
const RESERVED = '!"#$%&\'()*+,/:;<=>?@[\\]^`{|}';
function encodeName(name) {
  const bytes = [];
  for (const b of Buffer.from(name, 'utf8')) {
    if (b <= 0x20 || b === 0x7f || (b < 0x80 && RESERVED.includes(String.fromCharCode(b)))) {
      bytes.push(...Buffer.from(`%${b.toString(16).toUpperCase().padStart(2, '0')}`));
    } else {
      bytes.push(b);
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

const q = (name) => '`' + name.replace(/`/g, '``') + '`';

function zstdCompress(text) {
  if (!text.length) return SHELL_EMPTY_ZSTD;
  const r = spawnSync('zstd', ['-q', '-c'], { input: text });
  if (r.status !== 0) throw new Error(`zstd failed: ${r.stderr}`);
  return r.stdout;
}

function idxFor(size) {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(size));
  return b;
}

// Data files of one table or partition: `<base>@0 … <base>@@N`, or `<base>` when not chunked.
function writeChunks(dir, base, chunks, chunking, done) {
  let bytes = 0;
  let rows = 0;
  chunks.forEach((lines, i) => {
    const text = lines.length ? `${lines.join('\n')}\n` : '';
    let file = `${base}.tsv.zst`;
    if (chunking) file = i === chunks.length - 1 ? `${base}@@${i}.tsv.zst` : `${base}@${i}.tsv.zst`;
    fs.writeFileSync(path.join(dir, file), zstdCompress(Buffer.from(text)));
    fs.writeFileSync(path.join(dir, `${file}.idx`), idxFor(Buffer.byteLength(text)));
    done.chunkFileBytes[file] = Buffer.byteLength(text);
    bytes += Buffer.byteLength(text);
    rows += lines.length;
  });
  return { bytes, rows };
}

// table: { name, columns: [[name, type]], primaryKey: [names], chunks: [[tsvLine, …], …],
//          chunking (default true), extraDdl (lines inside CREATE TABLE),
//          partitionBy ('RANGE (id) (…)') with partitions: [{ name, chunks }] instead of chunks }
function writeTable(dir, schema, schemaBase, table, done) {
  const base = `${schemaBase}@${encodeName(table.name)}`;
  const chunking = table.chunking !== false;
  const partitions = table.partitions || [];
  const json = {
    options: {
      schema, table: table.name, columns: table.columns.map((c) => c[0]), defaultCharacterSet: 'utf8mb4',
      fieldsTerminatedBy: '\t', fieldsEnclosedBy: '', fieldsOptionallyEnclosed: false, fieldsEscapedBy: '\\', linesTerminatedBy: '\n',
    },
    triggers: [], includesData: true, includesDdl: true, extension: 'tsv.zst', chunking, compression: 'zstd',
    primaryIndex: table.primaryKey || [], partitions: partitions.map((p) => p.name),
    basenames: Object.fromEntries(partitions.map((p) => [p.name, `${base}@${encodeName(p.name)}`])),
  };
  fs.writeFileSync(path.join(dir, `${base}.json`), JSON.stringify(json, null, 4));
  const defs = table.columns.map(([n, t]) => `  ${q(n)} ${t}`);
  if (table.primaryKey && table.primaryKey.length) defs.push(`  PRIMARY KEY (${table.primaryKey.map(q).join(',')})`);
  defs.push(...(table.extraDdl || []));
  const partitionBy = table.partitionBy ? `\n/*!50100 PARTITION BY ${table.partitionBy} */` : '';
  fs.writeFileSync(path.join(dir, `${base}.sql`), `${HEADER}\nCREATE TABLE IF NOT EXISTS ${q(table.name)} (\n${defs.join(',\n')}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4${partitionBy};\n`);
  let tableBytes = 0;
  let tableRows = 0;
  const units = partitions.length ? partitions.map((p) => [json.basenames[p.name], p.chunks]) : [[base, table.chunks]];
  for (const [unitBase, chunks] of units) {
    const written = writeChunks(dir, unitBase, chunks, chunking, done);
    tableBytes += written.bytes;
    tableRows += written.rows;
  }
  done.tableDataBytes[schema][table.name] = tableBytes;
  done.tableRows[schema][table.name] = tableRows;
  done.dataBytes += tableBytes;
  return base;
}

// spec: { schema, tables: [table], checksum (bool, written to @.json) }. Returns the file names by table.
function writeChunkedDump(dir, spec) {
  fs.mkdirSync(dir, { recursive: true });
  const schemaBase = encodeName(spec.schema);
  const root = {
    dumper: DUMPER, version: '2.0.1', origin: 'dumpSchemas', schemas: [spec.schema], basenames: { [spec.schema]: schemaBase },
    defaultCharacterSet: 'utf8mb4', tzUtc: true, bytesPerChunk: 131072, user: 'root', hostname: 'localhost',
    server: 'localhost', serverVersion: '8.0.33', gtidExecuted: '', gtidExecutedInconsistent: false, consistent: true,
    compatibilityOptions: [], capabilities: [], begin: '2024-01-01 00:00:00',
  };
  if (spec.checksum !== undefined) root.checksum = spec.checksum;
  fs.writeFileSync(path.join(dir, '@.json'), JSON.stringify(root, null, 4));
  fs.writeFileSync(path.join(dir, '@.sql'), HEADER);
  fs.writeFileSync(path.join(dir, '@.post.sql'), HEADER);
  const done = { end: '2024-01-01 00:00:01', dataBytes: 0, tableDataBytes: { [spec.schema]: {} }, tableRows: { [spec.schema]: {} }, chunkFileBytes: {} };
  const basenames = {};
  for (const t of spec.tables) basenames[t.name] = writeTable(dir, spec.schema, schemaBase, t, done);
  fs.writeFileSync(path.join(dir, `${schemaBase}.json`), JSON.stringify({
    schema: spec.schema, includesDdl: true, includesViewsDdl: true, includesData: true,
    tables: spec.tables.map((t) => t.name), views: [], events: [], functions: [], procedures: [], basenames,
  }, null, 4));
  fs.writeFileSync(path.join(dir, `${schemaBase}.sql`), `${HEADER}\nCREATE DATABASE /*!32312 IF NOT EXISTS*/ ${q(spec.schema)} /*!40100 DEFAULT CHARACTER SET utf8mb4 */;\n\nUSE ${q(spec.schema)};\n`);
  fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify(done, null, 4));
  return basenames;
}

// `count` rows "<id>\t<label>" starting at `first`.
function rowsFrom(first, count, label = 'row') {
  return Array.from({ length: count }, (_, i) => `${first + i}\t${label}${first + i}`);
}

module.exports = { writeChunkedDump, encodeName, rowsFrom, SHELL_EMPTY_ZSTD };
