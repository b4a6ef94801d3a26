// Masking personal data: the mask expressions, and the masks applied after the load (one set-based
// UPDATE per table; most masks are applied while loading instead: lib/snapshot/load-masks.js, with
// the same expressions over what LOAD DATA read). Every kind is a function of (key, value) only, through
// SHA2(key 0x00 value): equal values give equal masks across columns and tables within one
// load, so masked values stay joinable. Columns linked by foreign keys form one group that gets
// the same mask (naming one column masks its whole group), so a masked key keeps its
// references. Results are cut to the shortest column of the group (CHARACTER_MAXIMUM_LENGTH).
// NULL stays NULL, except for the kind null, which writes NULL everywhere.
var UserError = require('../core/user-error.js').UserError;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var closestName = require('../options/closest-name.js').closestName;
var loaded = require('../options/loaded-table.js');
var tableDdl = require('./table-ddl.js');
var maskKey = require('./mask-key.js');

var FIRST = ['Ada', 'Alan', 'Anna', 'Ben', 'Carla', 'David', 'Eva', 'Frank', 'Grace', 'Hugo', 'Ines', 'Jan', 'Kim',
  'Lena', 'Marco', 'Nina', 'Omar', 'Paula', 'Quinn', 'Rosa', 'Sam', 'Tara', 'Ugo', 'Vera', 'Will', 'Xena', 'Yuri',
  'Zoe', 'Leo', 'Mia', 'Noah', 'Ida'];
var LAST = ['Smith', 'Jones', 'Brown', 'Garcia', 'Miller', 'Davis', 'Lopez', 'Wilson', 'Moore', 'Taylor', 'Clark',
  'Lewis', 'Walker', 'Young', 'King', 'Wright', 'Hill', 'Green', 'Baker', 'Adams', 'Nelson', 'Carter', 'Mitchell',
  'Perez', 'Roberts', 'Turner', 'Phillips', 'Campbell', 'Parker', 'Evans', 'Edwards', 'Collins'];
var LONG = 1 << 24; // longer limits (TEXT types) need no cut: no kind writes that much more than the value

function tableId(schema, table) { return JSON.stringify([schema, table]); }
function columnId(schema, table, column) { return JSON.stringify([schema, table, column]); }

// The loaded table a mask names: by the schema it is loaded into, or its name in the dump.
function findTable(spec, tables) {
  var found = loaded.loadedTable(tables, spec.schema, spec.table);
  if (found) return found;
  var near = closestName(spec.schema + '.' + spec.table, loaded.loadedTableNames(tables));
  throw new UserError('NOT_IN_DUMP', 'mask: ' + spec.name + ' names the table ' + displayTable(spec.schema, spec.table) + ', which is not ' +
    'in this load' + (near ? ' (did you mean ' + near + '?)' : '') + '. Nothing was changed.');
}

// The problem of masking column info c with spec, or null.
function columnProblem(spec, c) {
  if (c.generated) return 'is a generated column: mask the columns it is computed from';
  if (spec.kind === 'null' && !c.nullable) return 'is NOT NULL: use another kind than null';
  if (spec.kind !== 'null' && spec.kind !== 'fixed' && !tableDdl.isStringType(c.type)) {
    return 'is of type ' + c.type + ': the kind ' + spec.kind + ' needs a character or binary column (use fixed:<value> or null)';
  }
  return null;
}

// specs: lib/options/mask-spec.js parseMask; tables: the loaded tables; columnsOf(table) → the
// lib/snapshot/table-ddl.js facts or null (unknown). Throws a UserError naming the first wrong
// table, column or kind; returns the specs whose table's columns were unknown.
function checkMasks(specs, tables, columnsOf) {
  var unchecked = [];
  specs.forEach(function (spec) {
    var t = findTable(spec, tables);
    var info = columnsOf(t);
    if (!info) {
      unchecked.push(spec);
      return;
    }
    var c = Object.prototype.hasOwnProperty.call(info.columns, spec.column) ? info.columns[spec.column] : null;
    if (!c) {
      var near = closestName(spec.column, Object.keys(info.columns));
      throw new UserError('NOT_IN_DUMP', 'mask: ' + spec.name + ': the table ' + displayTable(t.schema, t.table) + ' has no column ' +
        JSON.stringify(spec.column) + (near ? ' (did you mean ' + near + '?)' : '') + '. Nothing was changed.');
    }
    var problem = columnProblem(spec, c);
    if (problem) throw new UserError('MASK_UNSUITED', 'mask: ' + spec.name + ' ' + problem + '. Nothing was changed.');
  });
  return unchecked;
}

// Groups of columns joined by foreign keys between loaded tables (union-find on column ids).
function keyGroups(fks) {
  var parent = {};
  function find(x) {
    if (parent[x] === undefined) parent[x] = x;
    while (parent[x] !== x) x = parent[x];
    return x;
  }
  fks.forEach(function (fk) {
    if (!fk.refLoaded) return;
    fk.columns.forEach(function (c, i) {
      var a = find(columnId(fk.schema, fk.table, c));
      var b = find(columnId(fk.refSchema, fk.refTable, fk.refColumns[i]));
      if (a !== b) parent[a] = b;
    });
  });
  var groups = {};
  Object.keys(parent).forEach(function (x) { (groups[find(x)] = groups[find(x)] || []).push(x); });
  var of = {};
  Object.keys(groups).forEach(function (g) { groups[g].forEach(function (x) { of[x] = groups[g]; }); });
  return of;
}

// After the load, before any UPDATE: the masks to apply, one per column, each with the server's
// facts. Follows foreign keys; refuses two different kinds in one group. Returns
// {masks: [{schema, table, column, kind, value, follows, unique, maxLength}], notes: [text]}.
function resolveMasks(host, specs, tables, fks) {
  var infoCache = {};
  function info(schema, table) {
    var k = tableId(schema, table);
    if (!infoCache[k]) infoCache[k] = tableDdl.serverTableColumns(host, schema, table) || { columns: {}, unique: {} };
    return infoCache[k];
  }
  checkMasks(specs, tables, function (t) { return tableDdl.serverTableColumns(host, t.schema, t.table); });
  var groupOf = keyGroups(fks);
  var chosen = {};
  var order = [];
  specs.forEach(function (spec) {
    var t = findTable(spec, tables);
    var id = columnId(t.schema, t.table, spec.column);
    (groupOf[id] || [id]).forEach(function (member) {
      var prev = chosen[member];
      if (prev && (prev.kind !== spec.kind || prev.value !== spec.value)) {
        throw new UserError('OPTION_CONFLICT', 'mask: ' + spec.name + ' (' + spec.kind + ') and ' + prev.name + ' (' + prev.kind + ') are ' +
          'linked by foreign keys, so they need the same kind (a different mask would break the references). ' +
          'The data is loaded; nothing was masked and no orphan was removed.');
      }
      if (prev && !prev.follows) return;
      if (!prev) order.push(member);
      chosen[member] = { name: spec.name, kind: spec.kind, value: spec.value, follows: member === id ? null : spec.name };
    });
  });
  var notes = [];
  fks.forEach(function (fk) {
    if (fk.refLoaded) return;
    fk.columns.forEach(function (c) {
      if (chosen[columnId(fk.schema, fk.table, c)]) {
        notes.push(displayTable(fk.schema, fk.table) + '.' + c + ' is masked but references ' +
          displayTable(fk.refSchema, fk.refTable) + ', which is not part of this load: those references no longer match');
      }
    });
  });
  var masks = order.map(function (id) {
    var p = JSON.parse(id);
    var group = groupOf[id] || [id];
    var c = info(p[0], p[1]).columns[p[2]];
    if (!c) throw new UserError('NOT_IN_DUMP', 'mask: ' + chosen[id].name + ': the column ' + p[2] + ' of ' + displayTable(p[0], p[1]) + ' is missing.');
    var problem = columnProblem(chosen[id], c);
    if (problem) {
      throw new UserError('MASK_UNSUITED', 'mask: ' + displayTable(p[0], p[1]) + '.' + p[2] + ' (masked because ' + chosen[id].name +
        ' references it or is referenced by it) ' + problem + '. The data is loaded; nothing was masked.');
    }
    var lengths = group.map(function (g) {
      var q = JSON.parse(g);
      var gc = info(q[0], q[1]).columns[q[2]];
      return gc && gc.maxLength !== null && gc.maxLength !== undefined ? gc.maxLength : LONG;
    });
    return { schema: p[0], table: p[1], column: p[2], kind: chosen[id].kind, value: chosen[id].value,
      follows: chosen[id].follows, maxLength: Math.min.apply(null, [c.maxLength || LONG].concat(lengths)),
      unique: group.length > 1 || group.some(function (g) { var q = JSON.parse(g); return info(q[0], q[1]).unique[q[2]] === true; }) };
  });
  return { masks: masks, notes: notes };
}

function hashOf(value) {
  return 'SHA2(CONCAT(CAST(@restore_mask_key AS BINARY), 0x00, CAST(' + value + ' AS BINARY)), 256)';
}

function listPick(h, from, names) {
  return 'ELT(1 + CONV(SUBSTRING(' + h + ', ' + from + ', 4), 16, 10) % ' + names.length + ', ' +
    names.map(function (n) { return "'" + n + "'"; }).join(', ') + ')';
}

// A text as a literal whatever the loader session's sql_mode (NO_BACKSLASH_ESCAPES): its UTF-8 bytes in hex.
function utf8Literal(text) {
  var hex = '';
  unescape(encodeURIComponent(String(text))).split('').forEach(function (ch) {
    hex += (ch.charCodeAt(0) < 16 ? '0' : '') + ch.charCodeAt(0).toString(16);
  });
  return "CONVERT(X'" + hex + "' USING utf8mb4)";
}

// The SQL expression writing mask m over its column, and the arguments of its placeholders.
// value: the SQL of the value masked (the column itself after the load; in the load, the
// LOAD DATA variable the field was read into: lib/snapshot/load-masks.js), then the fixed value is
// written as a literal (no placeholders).
function maskExpression(m, value) {
  // A column without a length (int, datetime) has maxLength null: no cut (LEFT(x, NULL) is NULL).
  var cut = typeof m.maxLength === 'number' && m.maxLength < LONG;
  var col = value || quoteIdentifier(m.column);
  var h = hashOf(col);
  var e;
  if (m.kind === 'null') return { sql: 'NULL', args: [] };
  if (m.kind === 'fixed') {
    if (m.value === null) return { sql: 'NULL', args: [] };
    var lit = value ? utf8Literal(m.value) : '?';
    var v = cut ? 'LEFT(' + lit + ', ' + m.maxLength + ')' : lit;
    return { sql: 'CASE WHEN ' + col + ' IS NULL THEN NULL ELSE ' + v + ' END', args: value ? [] : [m.value] };
  }
  if (m.kind === 'hash') e = h;
  else if (m.kind === 'email') e = "CONCAT('user_', LEFT(" + h + ", 16), '@example.com')";
  else if (m.kind === 'phone') e = "CONCAT('+1-555-', LPAD(CONV(LEFT(" + h + ', 8), 16, 10) % 10000000, 7, \'0\'))';
  else if (m.kind === 'name') {
    e = 'CONCAT(' + listPick(h, 1, FIRST) + ", ' ', " + listPick(h, 5, LAST) +
      (m.unique ? ", ' ', SUBSTRING(" + h + ', 9, 16)' : '') + ')';
  } else if (m.kind === 'text') {
    e = "LEFT(CONCAT('Lorem ', LEFT(" + h + ", 8), ' ipsum dolor sit amet ', REPEAT('consectetur adipiscing elit sed do " +
      "eiusmod tempor ', 1 + CHAR_LENGTH(" + col + ') DIV 40)), CHAR_LENGTH(' + col + '))';
  } else if (m.kind === 'digits') {
    var parts = [0, 1, 2, 3, 4].map(function (i) {
      return 'LPAD(CONV(SUBSTRING(' + h + ', ' + (12 * i + 1) + ', 12), 16, 10) % 100000000000000, 14, \'0\')';
    });
    e = 'LEFT(REPEAT(CONCAT(' + parts.join(', ') + '), 1 + CHAR_LENGTH(' + col + ') DIV 70), CHAR_LENGTH(' + col + '))';
  } else throw new Error('unknown mask kind ' + m.kind);
  return { sql: cut ? 'LEFT(' + e + ', ' + m.maxLength + ')' : e, args: [] };
}

function longest(names) { return Math.max.apply(null, names.map(function (n) { return n.length; })); }

// Whether mask m (kind, maxLength, unique) gives distinct values for distinct originals (64 bits
// of the keyed hash survive the cut, or NULL): a unique column may be masked while it is loaded.
function keepsDistinct(m) {
  var room = m.maxLength === null || m.maxLength === undefined ? LONG : m.maxLength;
  if (m.kind === 'null') return true;
  if (m.kind === 'email') return room >= 'user_@example.com'.length + 16;
  if (m.kind === 'hash') return room >= 16;
  if (m.kind === 'name') return !!m.unique && room >= longest(FIRST) + longest(LAST) + 2 + 16;
  return false;
}

// masks from resolveMasks; key: {maskKey (the user's, or null: a random one made on the server), held
// (the key of masks applied while loading is held already), rowEvents (lib/snapshot/mask-key.js)}.
// One UPDATE per table. Returns
// {seconds, keySource, tables: [{schema, table, columns: [{column, kind, follows}], rows, seconds, updateTriggers}]}.
function applyMasks(host, masks, key, keySource) {
  var t0 = Date.now();
  var byTable = {};
  var order = [];
  masks.forEach(function (m) {
    var k = tableId(m.schema, m.table);
    if (!byTable[k]) { byTable[k] = []; order.push(k); }
    byTable[k].push(m);
  });
  var source = keySource || (key.maskKey === null || key.maskKey === undefined ? 'random, this load only' : 'maskKey');
  if (!masks.length) return { seconds: 0, keySource: source, tables: [] };
  var tables = [];
  maskKey.withKey(host, key, key.rowEvents || null, function () {
    order.forEach(function (k) {
      var ms = byTable[k];
      var s = ms[0].schema;
      var t = ms[0].table;
      var args = [];
      var sets = ms.map(function (m) {
        var x = maskExpression(m);
        args = args.concat(x.args);
        return quoteIdentifier(m.column) + ' = ' + x.sql;
      });
      var triggers = Number(host.sql.run('SELECT COUNT(*) AS n FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = ? ' +
        "AND EVENT_OBJECT_TABLE = ? AND EVENT_MANIPULATION = 'UPDATE'", [s, t]).rows[0].n);
      var started = Date.now();
      var r;
      try {
        r = host.sql.run('UPDATE ' + quoteTable(s, t) + ' SET ' + sets.join(', '), args);
      } catch (e) {
        if (!e || !e.isSqlError) throw e;
        // Personal data is still there: say so plainly, with what was masked already.
        throw new UserError('MASK_FAILED', 'Masking ' + displayTable(s, t) + ' failed: ' + e.message + '. The data is loaded but NOT ' +
          'masked' + (tables.length ? ' (masked already: ' + tables.map(function (x) { return displayTable(x.schema, x.table); })
          .join(', ') + ')' : '') + ': do not hand it out. Change the mask (e.g. hash for a unique column) and load again.');
      }
      tables.push({ schema: s, table: t, rows: Number(r.affected || 0), seconds: (Date.now() - started) / 1000,
        updateTriggers: triggers, columns: ms.map(function (m) {
          return { column: m.column, kind: m.kind, follows: m.follows, maxLength: m.maxLength < LONG ? m.maxLength : null };
        }) });
    });
  });
  return { seconds: (Date.now() - t0) / 1000, keySource: source, tables: tables };
}

module.exports = { checkMasks: checkMasks, resolveMasks: resolveMasks, applyMasks: applyMasks, maskExpression: maskExpression,
  keepsDistinct: keepsDistinct, columnProblem: columnProblem, findTable: findTable, keyGroups: keyGroups };
