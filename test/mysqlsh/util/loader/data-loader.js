'use strict';
// Loads the data files of one table (every partition), chunk by chunk, with LOAD DATA LOCAL INFILE
// … REPLACE, recording each chunk in the progress log (TABLE-DATA, done chunks skipped).
const fs = require('fs');
const { discoverChunks } = require('./chunk-discovery');
const { uncompressedSize, readProblem } = require('./chunk-file');
const { loadDataStatement, parseLoadInfo } = require('./load-data-statement');
const { mysqlErrorText } = require('./loader-session');
const { LoadAborted } = require('./ddl-runner');
const { qualified } = require('./load-filters');

const WORKER = '[Worker000]: ';

class DataLoader {
  // stats: { chunks, rows, bytes, replaced, warnings, errors, tablesLoaded:Set, schemasLoaded:Set };
  // ddl: the DdlRunner, for the statements around the data (TRUNCATE on resume).
  constructor({ session, out, dumpDir, progress, charset, chunkFileBytes, stats, ddl }) {
    Object.assign(this, { session, out, dumpDir, progress, charset, chunkFileBytes, stats, ddl });
  }

  // Which chunks of each data unit exist (one listing, §2.1).
  discover(table) {
    return table.units.map((unit) => ({
      unit,
      ...(table.includesData
        ? discoverChunks(this.dumpDir.listing, unit.basename, table.extension, table.chunking)
        : { chunks: [], complete: true }),
    }));
  }

  // Loads what exists; returns true when every unit of the table was complete.
  loadTable(table, target) {
    let complete = true;
    let truncated = false;
    for (const found of this.discover(table)) {
      if (!found.complete) complete = false;
      for (const chunk of found.chunks) {
        const step = { op: 'TABLE-DATA', schema: target, table: table.name, partition: found.unit.partition, chunk: chunk.id };
        const status = this.progress.status(step);
        if (status === 'DONE') continue;
        if (status === 'INTERRUPTED' && !table.primaryIndex.length && !truncated) {
          const name = qualified([target, table.name]);
          this.out.note(`Truncating table ${name} because of resume and it has no PK or equivalent key`);
          this.ddl.execute(`TRUNCATE TABLE ${name}`, `table ${name}`, WORKER);
          truncated = true;
        }
        this.loadChunk(table, target, found.unit, chunk, step);
      }
    }
    return complete;
  }

  loadChunk(table, target, unit, chunk, step) {
    const full = this.dumpDir.file(chunk.file);
    const sql = loadDataStatement(full, table.options, { schema: target, table: table.name, partition: unit.partition }, this.charset);
    const fail = (text) => {
      this.stats.errors++;
      this.out.error(`${WORKER}${chunk.file}: ${text}: ${sql}`);
      throw new LoadAborted(chunk.file);
    };
    const bytes = uncompressedSize(full, chunk.file, this.chunkFileBytes);
    this.progress.start(step);
    const problem = readProblem(full, table.compression);
    if (problem) fail(`MySQL Error 2000 (00000): ${problem}`);
    let result;
    try {
      result = this.session.execute(sql);
    } catch (e) {
      fail(mysqlErrorText(e));
    }
    const info = parseLoadInfo(result.info);
    if (result.warningCount) this.reportWarnings(chunk.file);
    this.progress.done(step, { rows: info.records, bytes, raw_bytes: fs.statSync(full).size });
    this.stats.chunks++;
    this.stats.rows += info.records;
    this.stats.bytes += bytes;
    this.stats.replaced += info.deleted;
    this.stats.tablesLoaded.add(`${target}\u0000${table.name}`);
    this.stats.schemasLoaded.add(target);
  }

  reportWarnings(file) {
    for (const [level, code, message] of this.session.execute('SHOW WARNINGS').rows) {
      this.stats.warnings++;
      this.out.warn(`${WORKER}${file} ${String(level).toLowerCase()} ${code}: ${message}`);
    }
  }
}

module.exports = { DataLoader };
