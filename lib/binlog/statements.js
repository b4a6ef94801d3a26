// What a statement of a binary log does to tables, read from its text: the statements that lose
// rows or columns (DROP TABLE / DATABASE, TRUNCATE, ALTER TABLE … DROP). Names are given back
// schema-qualified (the event's default schema where the text has none); anything else is null.

// Tokens: quoted names, strings, words and single characters; comments dropped.
function tokens(text) {
  var out = [];
  var re = /\s+|\/\*[\s\S]*?\*\/|--[^\n]*|#[^\n]*|`((?:[^`]|``)*)`|'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.|"")*"|[A-Za-z0-9_$]+|./g;
  var m;
  while ((m = re.exec(text)) !== null) {
    var t = m[0];
    if (/^\s/.test(t) || t.indexOf('/*') === 0 || t.indexOf('--') === 0 || t[0] === '#') continue;
    if (m[1] !== undefined) out.push({ name: m[1].replace(/``/g, '`') });
    else if (t[0] === '\'' || t[0] === '"') out.push({ string: true });
    else out.push({ word: t.toUpperCase(), name: /^[A-Za-z0-9_$]+$/.test(t) ? t : undefined });
  }
  return out;
}

// A [schema.]name at i: {name: "schema.table", next: index after it}.
function qualified(list, i, schema) {
  var a = list[i];
  if (!a || a.name === undefined) return null;
  if (list[i + 1] && list[i + 1].word === '.' && list[i + 2] && list[i + 2].name !== undefined) {
    return { schema: a.name, table: list[i + 2].name, next: i + 3 };
  }
  return { schema: schema, table: a.name, next: i + 1 };
}

function words(list, i, expected) {
  for (var k = 0; k < expected.length; k++) if (!list[i + k] || list[i + k].word !== expected[k]) return false;
  return true;
}

function tableNames(list, i, schema) {
  var names = [];
  while (i < list.length) {
    var q = qualified(list, i, schema);
    if (!q) break;
    names.push(q.schema + '.' + q.table);
    if (!list[q.next] || list[q.next].word !== ',') break;
    i = q.next + 1;
  }
  return names;
}

// {kind: 'drop-table' | 'drop-database' | 'truncate' | 'alter-drop', tables: ["s.t"], schema} or null.
function classify(text, schema) {
  var list = tokens(text);
  var i = 0;
  if (words(list, 0, ['DROP', 'TABLE']) || words(list, 0, ['DROP', 'TEMPORARY', 'TABLE'])) {
    if (list[1].word === 'TEMPORARY') return null; // a session's own table: no rows of anyone else's
    i = words(list, 2, ['IF', 'EXISTS']) ? 4 : 2;
    return { kind: 'drop-table', tables: tableNames(list, i, schema), schema: null };
  }
  if (words(list, 0, ['DROP', 'DATABASE']) || words(list, 0, ['DROP', 'SCHEMA'])) {
    i = words(list, 2, ['IF', 'EXISTS']) ? 4 : 2;
    var s = list[i] && list[i].name;
    return s === undefined ? null : { kind: 'drop-database', tables: [], schema: s };
  }
  if (words(list, 0, ['TRUNCATE'])) {
    i = words(list, 1, ['TABLE']) ? 2 : 1;
    return { kind: 'truncate', tables: tableNames(list, i, schema), schema: null };
  }
  if (words(list, 0, ['ALTER', 'TABLE']) || words(list, 0, ['ALTER', 'ONLINE', 'TABLE'])) {
    var q = qualified(list, list[1].word === 'ONLINE' ? 3 : 2, schema);
    if (!q) return null;
    for (var k = q.next; k < list.length; k++) {
      if (list[k].word === 'DROP') return { kind: 'alter-drop', tables: [q.schema + '.' + q.table], schema: null };
    }
  }
  return null;
}

// Whether "schema.table" is chosen by patterns ("schema.table", "schema.*"); no patterns: all.
function tableChosen(name, patterns) {
  if (!patterns || !patterns.length) return true;
  var schema = name.slice(0, name.indexOf('.'));
  return patterns.some(function (p) { return p === name || p === schema + '.*'; });
}

// Whether a whole schema holds chosen tables (for DROP DATABASE).
function schemaChosen(schema, patterns) {
  if (!patterns || !patterns.length) return true;
  return patterns.some(function (p) { return p.slice(0, p.indexOf('.')) === schema; });
}

module.exports = { classify: classify, tableChosen: tableChosen, schemaChosen: schemaChosen, tokens: tokens };
