'use strict';
// The lines util.loadDump prints at the end of a run (loader-internals §9), and the number formats
// they use (sizes in powers of 1000, "K"/"M"/"B" row counts, durations in sec/min/h).

function formatBytes(n) {
  if (n < 1000) return `${n} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB', 'PB'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v.toFixed(2)} ${units[i]}`;
}

function formatRate(bytesPerSecond) {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = bytesPerSecond;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v.toFixed(2)} ${units[i]}/s`;
}

function formatCount(n) {
  if (n < 1000) return String(n);
  const units = ['K', 'M', 'B'];
  let v = n;
  let i = -1;
  while (v >= 1000 && i < units.length - 1) { v /= 1000; i++; }
  return `${v.toFixed(2)}${units[i]}`;
}

function formatSeconds(ms) {
  const total = Math.round(ms / 1000);
  if (total < 60) return `${total} sec`;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return h ? `${h} hours ${m} min ${s} sec` : `${m} min ${s} sec`;
}

// stats: { chunks, rows, bytes, tables, schemas, dataMs, totalMs, ddlFiles, ddlMs, replaced,
//          errors, warnings, rowsPreviouslyLoaded, resuming }
function summaryLines(stats) {
  const lines = [];
  if (stats.rows === 0) {
    lines.push(stats.resuming ? 'There was no remaining data left to be loaded.' : 'No data loaded.');
  } else {
    const rate = stats.dataMs > 0 ? (stats.bytes * 1000) / stats.dataMs : stats.bytes;
    lines.push(`${stats.chunks} chunks (${formatCount(stats.rows)} rows, ${formatBytes(stats.bytes)}) for ${stats.tables} tables in ${stats.schemas} schemas were loaded in ${formatSeconds(stats.dataMs)} (avg throughput ${formatRate(rate)})`);
  }
  if (stats.ddlFiles) lines.push(`${stats.ddlFiles} DDL files were executed in ${formatSeconds(stats.ddlMs)}.`);
  if (stats.rows > 0) lines.push(`Data load duration: ${formatSeconds(stats.dataMs)}`);
  lines.push(`Total duration: ${formatSeconds(stats.totalMs)}`);
  if (stats.replaced > 0) lines.push(`${stats.replaced} rows were replaced`);
  lines.push(stats.errors
    ? `${stats.errors} errors and ${stats.warnings} warnings were reported during the load.`
    : `${stats.warnings} warnings were reported during the load.`);
  return lines;
}

module.exports = { summaryLines, formatBytes, formatCount, formatSeconds, formatRate };
