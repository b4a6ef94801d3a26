'use strict';
// deferTableIndexes, approximated (loader-internals §6): the Shell parses CREATE TABLE; the stand-in
// relies on the SHOW CREATE TABLE layout the dumper writes (one definition per line, two spaces in).
//   fulltext: FULLTEXT keys are removed from CREATE TABLE and added after the table's data;
//   all:      every secondary key (KEY, UNIQUE, FULLTEXT, SPATIAL) too, except one starting with
//             the AUTO_INCREMENT column (the server needs it), and FOREIGN KEYs, which come back
//             at the end of the schema.
// PRIMARY KEY and CHECK constraints always stay.
const { quoteIdentifier } = require('../../sql-placeholders');

const DEFINITION = /^ {2}(\S.*?),?$/;
const SECONDARY = /^(UNIQUE |FULLTEXT |SPATIAL )?(KEY|INDEX) /i;
const FOREIGN = /^CONSTRAINT .* FOREIGN KEY /i;

function firstIndexColumn(def) {
  const m = /\(\s*`((?:[^`]|``)+)`/.exec(def);
  return m ? m[1].replace(/``/g, '`') : null;
}

function autoIncrementColumn(lines) {
  for (const line of lines) {
    const m = /^ {2}`((?:[^`]|``)+)` .*\bAUTO_INCREMENT\b/i.exec(line);
    if (m) return m[1].replace(/``/g, '`');
  }
  return null;
}

// Returns { sql, indexes: [definition], foreignKeys: [definition] } for one CREATE TABLE statement.
function splitDeferredIndexes(createSql, mode) {
  const none = { sql: createSql, indexes: [], foreignKeys: [] };
  if (mode === 'off' || !/^CREATE TABLE/i.test(createSql)) return none;
  const lines = createSql.split('\n');
  const open = lines.findIndex((l) => /\($/.test(l));
  const close = lines.findIndex((l, i) => i > open && /^\)/.test(l));
  if (open < 0 || close < 0) return none;
  const autoInc = autoIncrementColumn(lines.slice(open + 1, close));
  const kept = [];
  const indexes = [];
  const foreignKeys = [];
  for (const line of lines.slice(open + 1, close)) {
    const m = DEFINITION.exec(line);
    const def = m ? m[1] : null;
    if (def && /^FULLTEXT /i.test(def)) indexes.push(def);
    else if (def && mode === 'all' && SECONDARY.test(def) && firstIndexColumn(def) !== autoInc) indexes.push(def);
    else if (def && mode === 'all' && FOREIGN.test(def)) foreignKeys.push(def);
    else kept.push(line.replace(/,$/, ''));
  }
  if (!indexes.length && !foreignKeys.length) return none;
  const body = kept.map((l, i) => (i < kept.length - 1 ? `${l},` : l));
  return { sql: [...lines.slice(0, open + 1), ...body, ...lines.slice(close)].join('\n'), indexes, foreignKeys };
}

const tableName = (schema, table) => `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;

// FULLTEXT keys one per statement (the server builds one at a time), the rest in one ALTER.
function indexStatements(schema, table, indexes) {
  const fulltext = indexes.filter((d) => /^FULLTEXT /i.test(d));
  const rest = indexes.filter((d) => !/^FULLTEXT /i.test(d));
  const out = [];
  if (rest.length) out.push(`ALTER TABLE ${tableName(schema, table)} ${rest.map((d) => `ADD ${d}`).join(',')}`);
  for (const d of fulltext) out.push(`ALTER TABLE ${tableName(schema, table)} ADD ${d}`);
  return out;
}

function foreignKeyStatements(schema, table, foreignKeys) {
  return foreignKeys.length ? [`ALTER TABLE ${tableName(schema, table)} ${foreignKeys.map((d) => `ADD ${d}`).join(',')}`] : [];
}

// Name of a key or constraint definition, to tell which already exist on the target.
function keyName(def) {
  const m = /^(?:(?:UNIQUE|FULLTEXT|SPATIAL) )?(?:KEY|INDEX|CONSTRAINT) `((?:[^`]|``)+)`/i.exec(def);
  return m ? m[1].replace(/``/g, '`') : null;
}

module.exports = { splitDeferredIndexes, indexStatements, foreignKeyStatements, keyName };
