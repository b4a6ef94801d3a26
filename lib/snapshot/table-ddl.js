// The columns of a table as the dump's CREATE TABLE (<table base>.sql, SHOW CREATE TABLE text)
// gives them, so masks can be checked before the load changes anything. Also the same facts
// from the server's catalog, for tables whose DDL is not in the dump.
var createTableTexts = require('../dump/dump-texts.js').createTableTexts;
var dumpText = require('../dump/dump-texts.js').dumpText;
var tableFinder = require('../dump/dump-catalog.js').tableFinder;

var STRING_TYPES = ['char', 'varchar', 'tinytext', 'text', 'mediumtext', 'longtext', 'binary', 'varbinary',
  'tinyblob', 'blob', 'mediumblob', 'longblob'];

function unquote(q) { return q.slice(1, -1).replace(/``/g, '`'); }

var QUOTED = '`(?:[^`]|``)+`';
var COLUMN_LINE = new RegExp('^\\s+(' + QUOTED + ')\\s+([A-Za-z]+)(.*?),?$');
var UNIQUE_LINE = /^\s+(PRIMARY KEY|UNIQUE KEY)\b[^(]*\((.*)\)/;
var FK_LINE = new RegExp('^\\s+CONSTRAINT (' + QUOTED + ') FOREIGN KEY \\(([^)]*)\\) REFERENCES (?:(' + QUOTED + ')\\.)?(' +
  QUOTED + ') \\(([^)]*)\\)');
// CHARACTER_MAXIMUM_LENGTH of the types without a length in parentheses.
var TEXT_LENGTHS = { tinytext: 255, tinyblob: 255, text: 65535, blob: 65535, mediumtext: 16777215, mediumblob: 16777215,
  longtext: 4294967295, longblob: 4294967295 };

function quotedList(text) { return (text.match(new RegExp(QUOTED, 'g')) || []).map(unquote); }

// CREATE TABLE text → {columns: {name: {type, nullable, generated, maxLength}}, unique: {name: true}, primary: [column],
// foreignKeys: [{name, columns, refSchema (null: the table's own schema), refTable, refColumns}]} or null.
function parseCreateTable(sql) {
  var m = new RegExp('CREATE TABLE (?:IF NOT EXISTS )?' + QUOTED + ' \\(\\n([\\s\\S]*?)\\n\\)').exec(sql);
  if (!m) return null;
  var out = { columns: {}, unique: {}, primary: [], foreignKeys: [] };
  m[1].split('\n').forEach(function (line) {
    var u = UNIQUE_LINE.exec(line);
    if (u) {
      quotedList(u[2]).forEach(function (name) { out.unique[name] = true; });
      if (u[1] === 'PRIMARY KEY') out.primary = quotedList(u[2]);
      return;
    }
    var f = FK_LINE.exec(line);
    if (f) {
      out.foreignKeys.push({ name: unquote(f[1]), columns: quotedList(f[2]), refSchema: f[3] ? unquote(f[3]) : null,
        refTable: unquote(f[4]), refColumns: quotedList(f[5]) });
      return;
    }
    var c = COLUMN_LINE.exec(line);
    if (!c) return;
    var type = c[2].toLowerCase();
    var n = /^\((\d+)\)/.exec(c[3]);
    out.columns[unquote(c[1])] = { type: type, nullable: !/\bNOT NULL\b/i.test(c[3]),
      generated: /\bGENERATED ALWAYS\b|\bAS \(/i.test(c[3]),
      maxLength: TEXT_LENGTHS[type] || (n && /char|binary/.test(type) ? Number(n[1]) : null) };
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

// dump: the dump model; tables as for dumpTableColumns → {"[schema, table]" JSON key: {name: its
// table JSON's file name, json: that document (as the model kept it, else read again), or null when
// the dump lacks it}} (tables the dump lacks: none).
function dumpTableJsons(host, dump, tables) {
  var find = tableFinder(dump.tables);
  var out = {};
  tables.forEach(function (t) {
    var d = find(t.dumpSchema, t.table);
    var text = d && d.json === null && d.settings !== null ? dumpText(host, dump, d.metadataFile) : null;
    if (d) out[JSON.stringify([t.schema, t.table])] = { name: d.metadataFile, json: d.json !== null ? d.json : text === null ? null : JSON.parse(text) };
  });
  return out;
}

// Calls fn(t, fk, ref) for each foreign key of the dump's DDL of each loaded table t (ddl: from
// dumpTableColumns): fk as parseCreateTable gives it, ref the loaded table it references (found by
// its name in the dump), or null when that table is not in this load.
function eachDumpForeignKey(tables, ddl, fn) {
  var byDump = {};
  tables.forEach(function (t) { byDump[JSON.stringify([t.dumpSchema, t.table])] = t; });
  tables.forEach(function (t) {
    var d = ddl[JSON.stringify([t.schema, t.table])];
    (d ? d.foreignKeys : []).forEach(function (fk) {
      var ref = byDump[JSON.stringify([fk.refSchema === null ? t.dumpSchema : fk.refSchema, fk.refTable])];
      fn(t, fk, ref === undefined ? null : ref);
    });
  });
}

// → function (t: a loaded table) → the triggers of its table in the dump (its <table base>.triggers.sql,
// SHOW CREATE TRIGGER texts in version comments): [{name, timing, event, body}] ([] without the file).
var TRIGGER_NAME = '(?:' + QUOTED + '|[\\w$]+)';
var TRIGGER_HEAD = new RegExp('\\bTRIGGER\\s+(?:' + TRIGGER_NAME + '\\s*\\.\\s*)?(' + TRIGGER_NAME + ')\\s+(BEFORE|AFTER)\\s+' +
  '(INSERT|UPDATE|DELETE)\\s+ON\\s+\\S+\\s+FOR\\s+EACH\\s+ROW\\s+(?:(?:FOLLOWS|PRECEDES)\\s+' + TRIGGER_NAME + '\\s+)?([\\s\\S]*?)\\s*\\*\\/\\s*;;', 'gi');

function dumpTableTriggers(host, dump) {
  var find = tableFinder(dump.tables);
  return function (t) {
    var d = find(t.dumpSchema, t.table);
    var text = d ? dumpText(host, dump, d.basename + '.triggers.sql') : null;
    var out = [];
    var m;
    TRIGGER_HEAD.lastIndex = 0;
    while (text !== null && (m = TRIGGER_HEAD.exec(text)) !== null) {
      out.push({ name: m[1].charAt(0) === '`' ? unquote(m[1]) : m[1], timing: m[2].toUpperCase(), event: m[3].toUpperCase(), body: m[4] });
    }
    return out;
  };
}

function isStringType(type) { return STRING_TYPES.indexOf(type) >= 0; }

module.exports = { parseCreateTable: parseCreateTable, dumpTableColumns: dumpTableColumns, dumpTableJsons: dumpTableJsons, eachDumpForeignKey: eachDumpForeignKey,
  serverTableColumns: serverTableColumns, isStringType: isStringType, dumpTableTriggers: dumpTableTriggers };
