// The columns of a table as the dump's CREATE TABLE (<table base>.sql, SHOW CREATE TABLE text)
// gives them, so masks can be checked before the load changes anything. Also the same facts
// from the server's catalog, for tables whose DDL is not in the dump.
var createTableTexts = require('../dump/dump-texts.js').createTableTexts;

var STRING_TYPES = ['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'binary', 'varbinary',
  'tinyblob', 'blob', 'mediumblob', 'longblob'];

function unquote(q) { return q.slice(1, -1).replace(/``/g, '`'); }

var QUOTED = '`(?:[^`]|``)+`';
var COLUMN_LINE = new RegExp('^\\s+(' + QUOTED + ')\\s+([A-Za-z]+)(.*?),?$');
var UNIQUE_LINE = /^\s+(PRIMARY KEY|UNIQUE KEY)\b[^(]*\((.*)\)/;

// CREATE TABLE text → {columns: {name: {type, nullable, generated}}, unique: {name: true}} or null.
function parseCreateTable(sql) {
  var m = new RegExp('CREATE TABLE (?:IF NOT EXISTS )?' + QUOTED + ' \\(\\n([\\s\\S]*?)\\n\\)').exec(sql);
  if (!m) return null;
  var out = { columns: {}, unique: {} };
  m[1].split('\n').forEach(function (line) {
    var u = UNIQUE_LINE.exec(line);
    if (u) {
      (u[2].match(new RegExp(QUOTED, 'g')) || []).forEach(function (q) { out.unique[unquote(q)] = true; });
      return;
    }
    var c = COLUMN_LINE.exec(line);
    if (!c) return;
    out.columns[unquote(c[1])] = { type: c[2].toLowerCase(), nullable: !/\bNOT NULL\b/i.test(c[3]),
      generated: /\bGENERATED ALWAYS\b|\bAS \(/i.test(c[3]) };
  });
  return out;
}

// dump: the dump model; tables: [{schema, dumpSchema, table}] (lib/partial/load-objects.js) →
// {"schema.table" JSON key: parsed or null}.
function dumpTableColumns(host, dump, tables) {
  var textOf = createTableTexts(host, dump);
  var out = {};
  tables.forEach(function (t) {
    var text = textOf(t.dumpSchema, t.table);
    out[JSON.stringify([t.schema, t.table])] = text === null ? null : parseCreateTable(text);
  });
  return out;
}

// The same facts from the server (after the load), plus each string column's maximum length.
function serverTableColumns(host, schema, table) {
  var r = host.sql.run('SELECT COLUMN_NAME AS name, DATA_TYPE AS type, IS_NULLABLE AS nullable, EXTRA AS extra, ' +
    'CHARACTER_MAXIMUM_LENGTH AS maxLength FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?',
  [schema, table]).rows;
  if (!r.length) return null;
  var out = { columns: {}, unique: {} };
  r.forEach(function (c) {
    out.columns[String(c.name)] = { type: String(c.type).toLowerCase(), nullable: String(c.nullable) === 'YES',
      generated: /GENERATED/i.test(String(c.extra || '')), maxLength: c.maxLength === null ? null : Number(c.maxLength) };
  });
  host.sql.run('SELECT DISTINCT COLUMN_NAME AS name FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND ' +
    'TABLE_NAME = ? AND NON_UNIQUE = 0', [schema, table]).rows.forEach(function (c) { out.unique[String(c.name)] = true; });
  return out;
}

function isStringType(type) { return STRING_TYPES.indexOf(type) >= 0; }

module.exports = { parseCreateTable: parseCreateTable, dumpTableColumns: dumpTableColumns,
  serverTableColumns: serverTableColumns, isStringType: isStringType };
