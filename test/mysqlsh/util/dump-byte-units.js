'use strict';
// Byte counts as the Shell reads and prints them: option strings like "64M" use decimal units
// (k = 1000, so the default 64M is the 64000000 seen in real @.json files); sizes and rates in
// the summary are printed with two decimals on the same decimal scale.

const UNIT = { k: 1000, K: 1000, M: 1000 * 1000, G: 1000 * 1000 * 1000 };

// Returns a Number of bytes, or throws an Error whose message is the Shell's text.
function parseByteSize(text) {
  const m = /^\s*[+-]?\d+/.exec(text);
  const wrong = () => new Error(`Wrong input number "${text}"`);
  if (!m) throw wrong();
  if (text.includes('-')) throw new Error(`Input number "${text}" cannot be negative`);
  if (text.includes('.') || text.includes(',')) throw wrong();
  let bytes = Number(m[0].replace('+', '').trim());
  for (let i = text.length - 1; i >= 0; i--) {
    const c = text[i];
    if (/\d/.test(c)) break;
    if (!UNIT[c]) throw wrong();
    bytes *= UNIT[c];
  }
  return bytes;
}

const SCALE = ['', 'K', 'M', 'G', 'T', 'P'];

function scaled(value) {
  let v = value;
  let i = 0;
  while (v >= 1000 && i < SCALE.length - 1) { v /= 1000; i++; }
  return { v, unit: SCALE[i] };
}

function formatBytes(bytes) {
  if (bytes < 1000) return `${bytes} bytes`;
  const { v, unit } = scaled(bytes);
  return `${v.toFixed(2)} ${unit}B`;
}

function formatThroughput(bytes, seconds) {
  const { v, unit } = scaled(seconds >= 1 ? bytes / seconds : bytes);
  return `${v.toFixed(2)} ${unit}B/s`;
}

function formatDuration(ms) {
  const total = Math.floor(ms / 1000);
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}s`;
}

module.exports = { parseByteSize, formatBytes, formatThroughput, formatDuration };
