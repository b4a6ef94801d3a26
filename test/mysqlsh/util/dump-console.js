'use strict';
// What util.dump* prints, in the Shell's words (taken from its outputs quoted in the manual,
// blog posts and its own test expectations): the plan, the stages, and the closing summary.
const { formatBytes, formatThroughput, formatDuration } = require('./dump-byte-units');

const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function planLine(origin, counts) {
  if (origin === 'dumpTables') return `${counts.tables} tables and ${counts.views} views will be dumped.`;
  const parts = [plural(counts.tables, 'table', 'tables'), plural(counts.views, 'view', 'views')];
  if (counts.events) parts.push(plural(counts.events, 'event', 'events'));
  if (counts.routines) parts.push(plural(counts.routines, 'routine', 'routines'));
  if (counts.triggers) parts.push(plural(counts.triggers, 'trigger', 'triggers'));
  const schemas = origin === 'dumpInstance'
    ? `${counts.schemas} out of ${counts.totalSchemas} schemas` : `${counts.schemas} schemas`;
  return `${schemas} will be dumped and within them ${parts.join(', ')}.`;
}

function createDumpConsole(out) {
  return {
    status: (line) => out.print(line),
    note: (line) => out.note(line),
    warn: (line) => out.warn(line),
    plan(origin, counts) { out.print(planLine(origin, counts)); },
    users(chosen, total) { out.print(`${chosen} out of ${total} users will be dumped.`); },
    // stats: {dumpMs, totalMs, schemas, tables, dataBytes, fileBytes, rows, compressed}
    summary(s) {
      out.print(`Dump duration: ${formatDuration(s.dumpMs)}`);
      out.print(`Total duration: ${formatDuration(s.totalMs)}`);
      out.print(`Schemas dumped: ${s.schemas}`);
      out.print(`Tables dumped: ${s.tables}`);
      out.print(`${s.compressed ? 'Uncompressed data size' : 'Data size'}: ${formatBytes(s.dataBytes)}`);
      if (s.compressed) {
        out.print(`Compressed data size: ${formatBytes(s.fileBytes)}`);
        out.print(`Compression ratio: ${(s.dataBytes / Math.max(s.fileBytes, 1)).toFixed(1)}`);
      }
      out.print(`Rows written: ${s.rows}`);
      out.print(`Bytes written: ${formatBytes(s.fileBytes)}`);
      const seconds = s.dumpMs / 1000;
      out.print(`Average ${s.compressed ? 'uncompressed ' : ''}throughput: ${formatThroughput(s.dataBytes, seconds)}`);
      if (s.compressed) out.print(`Average compressed throughput: ${formatThroughput(s.fileBytes, seconds)}`);
    },
  };
}

module.exports = { createDumpConsole, planLine };
