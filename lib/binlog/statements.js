// What a statement of a binary log names, read from its text: the one reader restore.binlogs' dangerous
// events (classify) and the replay's filter (lib/binlog/replay-filter.js) both use. Names are given back
// schema-qualified (the event's default schema where the text has none). A statement this does not read
// is null: the caller says so, it never guesses.

// Tokens: quoted names, strings, words and single characters; comments dropped (a /*!NNNNN … */ kept: the
// server runs what it holds).
function tokens(text) {
  var out = [];
  var re = /\s+|\/\*![0-9]{0,6}|\*\/|\/\*[\s\S]*?\*\/|--[^\n]*|#[^\n]*|`((?:[^`]|``)*)`|'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)"|[A-Za-z0-9_$]+|./g;
  var m;
  while ((m = re.exec(text)) !== null) {
    var t = m[0];
    if (/^\s/.test(t) || t.indexOf('/*!') === 0 || t === '*/' || t.indexOf('/*') === 0 || t.indexOf('--') === 0 || t[0] === '#') continue;
    if (m[1] !== undefined) out.push({ name: m[1].replace(/``/g, '`') });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ string: true, value: m[2] !== undefined ? m[2] : m[3] });
    else out.push({ word: t.toUpperCase(), name: /^[A-Za-z0-9_$]+$/.test(t) ? t : undefined });
  }
  return out;
}

// A [schema.]name at i: {schema, table, next: index after it}; null when no name is there.
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

function full(q) { return q.schema + '.' + q.table; }

// Names separated by commas from i: {names: ["s.t"], next}.
function nameList(list, i, schema) {
  var names = [];
  while (i < list.length) {
    var q = qualified(list, i, schema);
    if (!q) break;
    names.push(full(q));
    i = q.next;
    if (!list[i] || list[i].word !== ',') break;
    i++;
  }
  return { names: names, next: i };
}

function tableNames(list, i, schema) { return nameList(list, i, schema).names; }

// IF EXISTS / IF NOT EXISTS at i: the index after it.
function skipIf(list, i) {
  if (words(list, i, ['IF', 'EXISTS'])) return i + 2;
  if (words(list, i, ['IF', 'NOT', 'EXISTS'])) return i + 3;
  return i;
}

// An account ('u'@'h', u@h, CURRENT_USER[()]) at i: the index after it.
function skipAccount(list, i) {
  if (list[i] && list[i].word === 'CURRENT_USER') return words(list, i + 1, ['(', ')']) ? i + 3 : i + 1;
  i++;
  if (list[i] && list[i].word === '@') i += 2;
  return i;
}

// After CREATE / ALTER: the clauses before the object's kind (OR REPLACE, ALGORITHM = x, DEFINER = account,
// SQL SECURITY x, UNIQUE / FULLTEXT / SPATIAL, TEMPORARY, AGGREGATE, ONLINE / OFFLINE). {i, temporary}.
function skipModifiers(list, i) {
  var temporary = false;
  for (;;) {
    var w = list[i] && list[i].word;
    if (w === 'OR' && list[i + 1] && list[i + 1].word === 'REPLACE') i += 2;
    else if (w === 'ALGORITHM' && list[i + 1] && list[i + 1].word === '=') i += 3;
    else if (w === 'DEFINER' && list[i + 1] && list[i + 1].word === '=') i = skipAccount(list, i + 2);
    else if (w === 'SQL' && list[i + 1] && list[i + 1].word === 'SECURITY') i += 3;
    else if (w === 'SPATIAL' && list[i + 1] && list[i + 1].word === 'REFERENCE') return { i: i, temporary: false };
    else if (w === 'UNIQUE' || w === 'FULLTEXT' || w === 'SPATIAL' || w === 'AGGREGATE' || w === 'ONLINE' || w === 'OFFLINE') i++;
    else if (w === 'TEMPORARY') { temporary = true; i++; } else return { i: i, temporary: temporary };
  }
}

var ACCOUNT_OBJECTS = { USER: true, ROLE: true };
var ROUTINE = { PROCEDURE: 'routine', FUNCTION: 'routine', EVENT: 'event' };
var ANALYZE = { ANALYZE: true, OPTIMIZE: true, REPAIR: true, CHECK: true, CHECKSUM: true };
var DATABASE_OPTIONS = { DEFAULT: true, CHARACTER: true, CHARSET: true, COLLATE: true, ENCRYPTION: true, READ: true };

function result(kind, extra) {
  var r = Object.assign({ kind: kind, tables: [], reads: [], renames: [], schemas: [], objects: [], account: false, accounts: null, on: null,
    xa: null, changes: false }, extra || {});
  if (!r.written) r.written = r.changes ? r.tables : [];
  return r;
}

// What a statement names: {kind, tables: ["s.t"] (tables and views it changes or reads), reads (a view's query's
// tables), renames ([["s.old", "s.new"]]), schemas: ["s"] (whole schemas: CREATE / ALTER / DROP DATABASE), objects:
// [{type: 'routine' | 'event' | 'trigger', schema, name, table: "s.t" | null (a trigger's, when the text says)}],
// account (an account statement), accounts ([{user, host}] it changes, null when not read), on ({schema, table | null,
// routine | null}: a GRANT / REVOKE's object), xa ({verb, xid}), changes (the tables' rows or definition change: table
// and index DDL), written (those tables: not CREATE TABLE … LIKE's model)}, or null when not read. kind:
// 'create-table', 'drop-table', 'alter-table', 'alter-drop', 'truncate', 'rename-table', 'create-index', 'drop-index',
// 'maintenance', 'view', 'trigger', 'routine', 'event', 'create-database', 'drop-database', 'alter-database', 'account',
// 'flush', 'xa', 'temporary', 'loadable-function', 'control'.
function read(text, schema) {
  var list = tokens(String(text));
  var w0 = list[0] && list[0].word;
  var i;
  var q;
  if (!w0) return null;
  if (w0 === 'XA') {
    var verb = list[1] && list[1].word;
    if (!verb) return null;
    var xid = String(text).trim().replace(/^XA\s+\w+\s*/i, '').replace(/\s+(ONE\s+PHASE|SUSPEND(\s+FOR\s+MIGRATE)?|JOIN|RESUME)\s*$/i, '')
      .replace(/\s+/g, '');
    return result('xa', { xa: { verb: verb === 'BEGIN' ? 'START' : verb, xid: xid.toLowerCase() } });
  }
  // A transaction's own control (a reader may keep them among its statements): names nothing.
  if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)$/.test(w0)) return result('control');
  if (w0 === 'GRANT' || w0 === 'REVOKE') return grant(list, schema);
  if (w0 === 'SET' && (words(list, 1, ['PASSWORD']) || words(list, 1, ['DEFAULT', 'ROLE']))) {
    return result('account', { account: true, accounts: accountsOf(list, w0) });
  }
  if (w0 === 'FLUSH') {
    i = list[1] && (list[1].word === 'NO_WRITE_TO_BINLOG' || list[1].word === 'LOCAL') ? 2 : 1;
    if (words(list, i, ['PRIVILEGES'])) return result('account', { account: true, accounts: [] });
    if (words(list, i, ['TABLES']) || words(list, i, ['TABLE'])) return result('flush', { tables: tableNames(list, i + 1, schema) });
    return result('flush');
  }
  if (ANALYZE[w0]) {
    i = list[1] && (list[1].word === 'NO_WRITE_TO_BINLOG' || list[1].word === 'LOCAL') ? 2 : 1;
    if (!words(list, i, ['TABLE']) && !words(list, i, ['TABLES'])) return null;
    var m = tableNames(list, i + 1, schema);
    return m.length ? result('maintenance', { tables: m }) : null;
  }
  if (w0 === 'TRUNCATE') {
    var t = tableNames(list, words(list, 1, ['TABLE']) ? 2 : 1, schema);
    return t.length === 1 ? result('truncate', { tables: t, changes: true }) : null;
  }
  if (w0 === 'RENAME') {
    if (list[1] && ACCOUNT_OBJECTS[list[1].word]) return result('account', { account: true, accounts: accountsOf(list, w0) });
    if (!words(list, 1, ['TABLE']) && !words(list, 1, ['TABLES'])) return null;
    var names = [];
    var renames = [];
    i = 2;
    for (;;) {
      var a = qualified(list, i, schema);
      if (!a || !words(list, a.next, ['TO'])) return null;
      var b = qualified(list, a.next + 1, schema);
      if (!b) return null;
      names.push(full(a), full(b));
      renames.push([full(a), full(b)]);
      i = b.next;
      if (!list[i] || list[i].word !== ',') break;
      i++;
    }
    return result('rename-table', { tables: names, renames: renames, changes: true });
  }
  if (w0 !== 'CREATE' && w0 !== 'ALTER' && w0 !== 'DROP') return null;
  var mod = w0 === 'DROP' ? { i: list[1] && list[1].word === 'TEMPORARY' ? 2 : 1, temporary: list[1] && list[1].word === 'TEMPORARY' }
    : skipModifiers(list, 1);
  i = mod.i;
  var what = list[i] && list[i].word;
  if (!what) return null;
  if (ACCOUNT_OBJECTS[what]) return result('account', { account: true, accounts: accountsOf(list, w0) });
  if (what === 'TABLE') {
    // A session's own table: no rows of anyone's; on a ROW source only DROP TEMPORARY TABLE IF EXISTS is logged.
    if (mod.temporary) return result('temporary');
    i = skipIf(list, i + 1);
    if (w0 === 'DROP') {
      var d = tableNames(list, i, schema);
      return d.length ? result('drop-table', { tables: d, changes: true }) : null;
    }
    q = qualified(list, i, schema);
    if (!q) return null;
    if (w0 === 'CREATE') {
      // CREATE TABLE t LIKE s: the copied table is read too.
      var k = list[q.next] && list[q.next].word === '(' ? q.next + 1 : q.next;
      var like = list[k] && list[k].word === 'LIKE' ? qualified(list, k + 1, schema) : null;
      return result('create-table', { tables: [full(q)].concat(like ? [full(like)] : []), written: [full(q)], changes: true });
    }
    var out = [full(q)];
    var moved = [];
    var drops = false;
    for (var n = q.next; n < list.length; n++) {
      var wn = list[n].word;
      if (wn === 'DROP') drops = true;
      // RENAME [TO | AS] new (not RENAME COLUMN / INDEX / KEY): the new name, in the default schema when unqualified.
      if (wn === 'RENAME' && !(list[n + 1] && /^(COLUMN|INDEX|KEY)$/.test(list[n + 1].word))) {
        var r = qualified(list, list[n + 1] && (list[n + 1].word === 'TO' || list[n + 1].word === 'AS') ? n + 2 : n + 1, schema);
        if (!r) return null;
        out.push(full(r));
        moved.push([full(q), full(r)]);
      }
      if (wn === 'EXCHANGE') {
        for (var e = n; e < list.length; e++) {
          if (words(list, e, ['WITH', 'TABLE'])) {
            var x = qualified(list, e + 2, schema);
            if (!x) return null;
            out.push(full(x));
            break;
          }
        }
      }
    }
    return result(drops ? 'alter-drop' : 'alter-table', { tables: out, renames: moved, changes: true });
  }
  if (what === 'INDEX') {
    for (var o = i + 1; o < list.length; o++) {
      if (list[o].word === 'ON') {
        q = qualified(list, o + 1, schema);
        return q ? result(w0 === 'DROP' ? 'drop-index' : 'create-index', { tables: [full(q)], changes: true }) : null;
      }
    }
    return null;
  }
  if (what === 'VIEW') {
    var v = w0 === 'DROP' ? tableNames(list, skipIf(list, i + 1), schema) : tableNames(list, i + 1, schema).slice(0, 1);
    return v.length ? result('view', { tables: v, reads: w0 === 'DROP' ? [] : viewReads(list, i + 1, schema) }) : null;
  }
  if (what === 'TRIGGER') {
    q = qualified(list, skipIf(list, i + 1), schema);
    if (!q) return null;
    var trig = { type: 'trigger', schema: q.schema, name: q.table, table: null };
    if (w0 === 'CREATE') {
      // … {BEFORE | AFTER} {INSERT | UPDATE | DELETE} ON table: the table is in the trigger's schema.
      if (!words(list, q.next + 2, ['ON'])) return null;
      var on = qualified(list, q.next + 3, q.schema);
      if (!on) return null;
      trig.table = full(on);
    }
    return result('trigger', { objects: [trig], tables: trig.table ? [trig.table] : [] });
  }
  if (ROUTINE[what]) {
    q = qualified(list, skipIf(list, i + 1), schema);
    if (!q) return null;
    // CREATE FUNCTION f RETURNS type SONAME 'lib': a loadable function, the server's, of no schema.
    if (what === 'FUNCTION' && list.some(function (tk) { return tk.word === 'SONAME'; })) return result('loadable-function');
    if (q.schema === null || q.schema === undefined || q.schema === '') return null;
    var objs = [{ type: ROUTINE[what], schema: q.schema, name: q.table, table: null }];
    // ALTER EVENT e … RENAME TO other: the new name too.
    for (var p = q.next; what === 'EVENT' && p < list.length; p++) {
      if (words(list, p, ['RENAME', 'TO'])) {
        var ren = qualified(list, p + 2, schema);
        if (!ren) return null;
        objs.push({ type: 'event', schema: ren.schema, name: ren.table, table: null });
      }
    }
    return result(ROUTINE[what], { objects: objs });
  }
  if (what === 'DATABASE' || what === 'SCHEMA') {
    i = skipIf(list, i + 1);
    var s = list[i] && list[i].name !== undefined && !(w0 === 'ALTER' && list[i].word && DATABASE_OPTIONS[list[i].word]) ? list[i].name : null;
    if (s === null && w0 === 'ALTER' && schema) s = schema;
    return s === null ? null : result(w0.toLowerCase() + '-database', { schemas: [s] });
  }
  return null;
}

// The tables a view's query reads, from AS on: the names after FROM / JOIN (and the commas of a FROM list), and
// the tables of schema.table.column references. What a name in a subquery's alias or a column shadows is not told
// apart: a view over a table the load leaves out is what the caller looks for.
var FROM_ENDS = { WHERE: true, GROUP: true, ORDER: true, HAVING: true, LIMIT: true, UNION: true, WINDOW: true, SELECT: true };
function viewReads(list, i, schema) {
  var out = [];
  var push = function (n) { if (out.indexOf(n) < 0) out.push(n); };
  while (i < list.length && list[i].word !== 'AS') i++;
  var inFrom = false;
  for (var k = i + 1; k < list.length; k++) {
    var w = list[k].word;
    var three = list[k].name !== undefined && words(list, k + 1, ['.']) && list[k + 2] && list[k + 2].name !== undefined &&
      words(list, k + 3, ['.']) && list[k + 4] && list[k + 4].name !== undefined;
    if (three) { push(list[k].name + '.' + list[k + 2].name); k += 4; continue; }
    if (w === 'FROM' || w === 'JOIN') { inFrom = true; } else if (w && FROM_ENDS[w]) inFrom = false;
    if ((w === 'FROM' || w === 'JOIN' || (w === ',' && inFrom)) && list[k + 1] && list[k + 1].word !== '(') {
      var q = qualified(list, k + 1, schema);
      if (q && q.schema) push(full(q));
    }
  }
  return out;
}

// An account at i ('u'@'h', `u`@`h`, u@h; no host: '%'): {user, host, next}, or null (CURRENT_USER, USER(), nothing there).
function account(list, i) {
  var a = list[i];
  if (!a || a.word === 'CURRENT_USER' || (a.word === 'USER' && words(list, i + 1, ['(']))) return null;
  var user = a.string ? a.value.replace(/''/g, '\'') : a.name;
  if (user === undefined) return null;
  if (!words(list, i + 1, ['@'])) return { user: user, host: '%', next: i + 1 };
  var h = list[i + 2];
  var host = h && (h.string ? h.value.replace(/''/g, '\'') : h.name);
  return host === undefined ? null : { user: user, host: host, next: i + 3 };
}

// Accounts separated by commas from i ([{user, host}], or null when one is not read). specs: CREATE / ALTER USER's,
// each followed by its authentication options, up to DEFAULT ROLE (whose roles are not the accounts changed).
function accountList(list, i, specs) {
  var out = [];
  for (;;) {
    var a = account(list, i);
    if (!a) return null;
    out.push({ user: a.user, host: a.host });
    i = a.next;
    while (specs && i < list.length && list[i].word !== ',' && !words(list, i, ['DEFAULT', 'ROLE'])) i++;
    if (!list[i] || list[i].word !== ',') return out;
    i++;
  }
}

// The accounts an account statement changes (list: its tokens, w0 its first word), or null when not read.
function accountsOf(list, w0) {
  var i;
  if (w0 === 'FLUSH') return [];
  if (w0 === 'SET') {
    if (words(list, 1, ['PASSWORD'])) { var a = words(list, 2, ['FOR']) ? account(list, 3) : null; return a ? [{ user: a.user, host: a.host }] : null; }
    for (i = 3; i < list.length; i++) if (list[i].word === 'TO') return accountList(list, i + 1, false);
    return null;
  }
  if (w0 === 'GRANT' || w0 === 'REVOKE') {
    var to = w0 === 'GRANT' ? 'TO' : 'FROM';
    for (i = 1; i < list.length; i++) if (list[i].word === to) return accountList(list, i + 1, false);
    return null;
  }
  if (w0 === 'RENAME') {
    var out = [];
    i = 2;
    for (;;) {
      var from = account(list, i);
      var into = from && words(list, from.next, ['TO']) ? account(list, from.next + 1) : null;
      if (!into) return null;
      out.push({ user: from.user, host: from.host }, { user: into.user, host: into.host });
      i = into.next;
      if (!list[i] || list[i].word !== ',') return out;
      i++;
    }
  }
  // CREATE / ALTER / DROP USER | ROLE
  for (i = 1; i < list.length && list[i].word !== 'USER' && list[i].word !== 'ROLE'; i++);
  var role = list[i] && list[i].word === 'ROLE';
  return accountList(list, skipIf(list, i + 1), w0 !== 'DROP' && !role);
}

// GRANT / REVOKE: an account statement; its object (ON [TABLE | FUNCTION | PROCEDURE] level) read when
// it names a schema or a table. GRANT PROXY ON account, and roles (no ON), name only accounts.
function grant(list, schema) {
  var out = result('account', { account: true, accounts: accountsOf(list, list[0].word) });
  if (list[1] && list[1].word === 'PROXY') return out;
  if (words(list, 1, ['IF', 'EXISTS'])) list = list.slice(0, 1).concat(list.slice(3));
  var at = -1;
  for (var i = 1; i < list.length; i++) {
    if (list[i].word === 'ON') { at = i; break; }
    if (list[i].word === 'TO' || list[i].word === 'FROM') return out;
  }
  if (at < 0) return out;
  var k = at + 1;
  var type = list[k] && /^(TABLE|FUNCTION|PROCEDURE)$/.test(list[k].word) ? list[k++].word : 'TABLE';
  var star = function (tk) { return tk && tk.word === '*'; };
  if (star(list[k])) {
    // * (the default schema's), *.* (the server's): only *.* names no schema.
    if (words(list, k + 1, ['.']) && star(list[k + 2])) return out;
    if (!schema) return null;
    out.on = { schema: schema, table: null, routine: null };
    return out;
  }
  var a = list[k];
  if (!a || a.name === undefined) return null;
  if (words(list, k + 1, ['.']) && star(list[k + 2])) { out.on = { schema: a.name, table: null, routine: null }; return out; }
  var q = qualified(list, k, schema);
  if (!q || !q.schema) return null;
  out.on = type === 'TABLE' ? { schema: q.schema, table: q.table, routine: null } : { schema: q.schema, table: null, routine: q.table };
  return out;
}

// The statements that lose rows or columns, for restore.binlogs: {kind: 'drop-table' | 'drop-database' | 'truncate' |
// 'alter-drop', tables: ["s.t"], schema} or null.
function classify(text, schema) {
  var r = read(text, schema);
  if (!r) return null;
  if (r.kind === 'drop-table' || r.kind === 'truncate') return { kind: r.kind, tables: r.tables, schema: null };
  if (r.kind === 'alter-drop') return { kind: r.kind, tables: r.tables.slice(0, 1), schema: null };
  if (r.kind === 'drop-database') return { kind: r.kind, tables: [], schema: r.schemas[0] };
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

module.exports = { read: read, classify: classify, tableChosen: tableChosen, schemaChosen: schemaChosen, tokens: tokens };
