'use strict';
// Rows in the Shell's default dialect: fields separated by a tab, rows ended by a newline,
// NULL as \N, and `\` escaping NUL, backspace, newline, carriage return, tab, Ctrl-Z and `\`.
// Binary columns arrive already base64-encoded (TO_BASE64, wrapped lines and all) and are
// escaped like any other text, as the Shell does.

const ESCAPES = { '\0': '\\0', '\b': '\\b', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\x1a': '\\Z', '\\': '\\\\' };
const NEEDS_ESCAPE = /[\0\b\n\r\t\x1a\\]/g;

function encodeField(value) {
  if (value === null || value === undefined) return '\\N';
  return String(value).replace(NEEDS_ESCAPE, (c) => ESCAPES[c]);
}

function encodeRow(values) {
  return `${values.map(encodeField).join('\t')}\n`;
}

module.exports = { encodeRow, encodeField };
