'use strict';
// The LOAD DATA statement the loader sends for one chunk (loader-internals §6): always LOCAL and
// REPLACE, dialect and columns from the table JSON `options`, decodeColumns through user variables.
const { quoteValue, quoteIdentifier } = require('../../sql-placeholders');

const q = (name) => quoteIdentifier(String(name));
const s = (text) => quoteValue(String(text));

function decodeExpression(column, how) {
  const fn = String(how).toUpperCase();
  if (fn === 'UNHEX' || fn === 'FROM_BASE64') return `${q(column)} = ${fn}(@${q(column)})`;
  throw new Error(`stand-in: decodeColumns '${how}' for column ${column} is not emulated`);
}

// table: { options }; target: { schema, table, partition }; charset: the session's character set.
function loadDataStatement(file, options, target, charset) {
  const decode = options.decodeColumns || {};
  const columns = (options.columns || []).map((c) => (decode[c] !== undefined ? `@${q(c)}` : q(c)));
  const sets = Object.entries(decode).map(([c, how]) => decodeExpression(c, how));
  const enclosed = options.fieldsEnclosedBy !== undefined ? options.fieldsEnclosedBy : '';
  const parts = [
    `LOAD DATA LOCAL INFILE ${s(file)} REPLACE INTO TABLE ${q(target.schema)}.${q(target.table)}`,
    target.partition ? `PARTITION (${q(target.partition)})` : null,
    `CHARACTER SET ${s(charset)}`,
    `FIELDS TERMINATED BY ${s(options.fieldsTerminatedBy !== undefined ? options.fieldsTerminatedBy : '\t')}`,
    `${options.fieldsOptionallyEnclosed ? 'OPTIONALLY ' : ''}ENCLOSED BY ${s(enclosed)}`,
    `ESCAPED BY ${s(options.fieldsEscapedBy !== undefined ? options.fieldsEscapedBy : '\\')}`,
    `LINES STARTING BY '' TERMINATED BY ${s(options.linesTerminatedBy !== undefined ? options.linesTerminatedBy : '\n')}`,
    columns.length ? `(${columns.join(', ')})` : null,
    sets.length ? `SET ${sets.join(', ')}` : null,
  ];
  return parts.filter(Boolean).join(' ');
}

// "Records: 3  Deleted: 1  Skipped: 0  Warnings: 0" → numbers.
function parseLoadInfo(info) {
  const num = (label) => {
    const m = new RegExp(`${label}:\\s*(\\d+)`).exec(info || '');
    return m ? Number(m[1]) : 0;
  };
  return { records: num('Records'), deleted: num('Deleted'), skipped: num('Skipped'), warnings: num('Warnings') };
}

module.exports = { loadDataStatement, parseLoadInfo };
