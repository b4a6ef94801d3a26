// The `relations` option: foreign keys the schema does not declare (many Rails, Django and Laravel
// schemas declare none), as users write them: {"shop.orders.customer_id": "shop.customers.id"},
// a multi-column key as {"shop.shipments.(order_id, line)": "shop.order_items.(order_id, line)"},
// or on the command line "shop.orders.customer_id:shop.customers.id,shop.x.(a, b):shop.y.(c, d)".
// They take part in orphans ("parents", "delete", "report") and masks exactly like declared keys.
// Parsed before anything is read; checked against the dump's CREATE TABLE in the preflight.
var UserError = require('../core/user-error.js').UserError;
var splitName = require('../dump/object-names.js').splitName;
var displayTable = require('../format/display-name.js').displayTable;
var closestName = require('./closest-name.js').closestName;
var loaded = require('./loaded-table.js');

var EXAMPLE = 'e.g. {"shop.orders.customer_id": "shop.customers.id"} or shop.orders.customer_id:shop.customers.id';

function bad(text, why) {
  return new UserError('OPTION_INVALID', 'relations: ' + JSON.stringify(text) + ' ' + why + '.');
}

// Positions in text of `ch` outside backticks and parentheses.
function splitOutside(text, ch) {
  var parts = [];
  var quoted = false;
  var depth = 0;
  var cur = '';
  for (var i = 0; i < text.length; i++) {
    var c = text[i];
    if (c === '`') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    if (c === ch && !quoted && depth === 0) { parts.push(cur); cur = ''; } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function unquoteColumn(text, whole) {
  var s = text.trim();
  if (/^`(?:[^`]|``)+`$/.test(s)) return s.slice(1, -1).replace(/``/g, '`');
  if (s === '' || /[`(),]/.test(s)) throw bad(whole, 'has a column list that is not (column, column, …)');
  return s;
}

// "schema.table.column" or "schema.table.(a, b)" → {schema, table, columns}.
function parseSide(text) {
  var s = String(text).trim();
  var parts;
  var columns;
  if (/\)$/.test(s)) {
    var open = s.lastIndexOf('.(');
    if (open < 0) throw bad(text, 'must be schema.table.column or schema.table.(column, column)');
    parts = splitName(s.slice(0, open), 'relations');
    columns = splitOutside(s.slice(open + 2, -1), ',').map(function (c) { return unquoteColumn(c, text); });
  } else {
    parts = splitName(s, 'relations');
    if (parts.length !== 3) throw bad(text, 'must be schema.table.column or schema.table.(column, column)');
    columns = [parts.pop()];
  }
  if (parts.length !== 2 || parts.indexOf('*') >= 0 || columns.indexOf('*') >= 0) {
    throw bad(text, 'must name one table and its column(s): schema.table.column or schema.table.(column, column)');
  }
  columns.forEach(function (c, i) {
    if (columns.indexOf(c) !== i) throw bad(text, 'names the column ' + c + ' twice');
  });
  return { schema: parts[0], table: parts[1], columns: columns };
}

function entriesOfText(text) {
  return splitOutside(text, ',').filter(function (e) { return e.trim() !== ''; }).map(function (e) {
    var sides = splitOutside(e, ':');
    if (sides.length !== 2) throw bad(e.trim(), 'must be child:parent, ' + EXAMPLE);
    return [sides[0], sides[1]];
  });
}

// value: the option as given (null/undefined/'' = none) → [{name, schema, table, columns, refSchema,
// refTable, refColumns}].
function parseRelations(value) {
  if (value === undefined || value === null || value === '') return [];
  var entries;
  if (typeof value === 'string') entries = entriesOfText(value);
  else if (typeof value === 'object' && !Array.isArray(value)) {
    entries = Object.keys(value).map(function (k) {
      if (typeof value[k] !== 'string') throw bad(k, 'must map to the referenced column(s) as a string, ' + EXAMPLE);
      return [k, value[k]];
    });
  } else {
    throw new UserError('OPTION_INVALID', 'relations must be {"schema.table.column": "schema.table.column"} or ' +
      '"child:parent,…", not ' + JSON.stringify(value) + '.');
  }
  var seen = {};
  return entries.map(function (e) {
    var child = parseSide(e[0]);
    var parent = parseSide(e[1]);
    var name = e[0].trim() + ' -> ' + e[1].trim();
    if (child.columns.length !== parent.columns.length) {
      throw bad(name, 'has ' + child.columns.length + ' column(s) on one side and ' + parent.columns.length +
        ' on the other');
    }
    var id = JSON.stringify([child, parent]);
    if (seen[id]) throw bad(name, 'is given twice');
    seen[id] = true;
    return { name: name, schema: child.schema, table: child.table, columns: child.columns, refSchema: parent.schema,
      refTable: parent.table, refColumns: parent.columns };
  });
}

// The table a relation side names: a table of this load (by the schema it is loaded into, or its
// name in the dump), else one the server already has (known(schema, table) → true), else an error.
// Returns {schema, table, loaded} with the schema the table is in on the server.
function sideTable(rel, schema, table, tables, known, role) {
  var found = loaded.loadedTable(tables, schema, table);
  if (found) return { schema: found.schema, table: found.table, loaded: true };
  if (role === 'parent' && known(schema, table)) return { schema: schema, table: table, loaded: false };
  var near = closestName(schema + '.' + table, loaded.loadedTableNames(tables));
  throw new UserError('NOT_IN_DUMP', 'relations: ' + rel.name + ' names the table ' + displayTable(schema, table) + ', which is not in ' +
    'this load' + (role === 'parent' ? ' nor on the server' : '') + (near ? ' (did you mean ' + near + '?)' : '') +
    '. Nothing was changed.');
}

function checkColumns(rel, side, columns, info) {
  columns.forEach(function (c) {
    if (Object.prototype.hasOwnProperty.call(info.columns, c)) return;
    var near = closestName(c, Object.keys(info.columns));
    throw new UserError('NOT_IN_DUMP', 'relations: ' + rel.name + ': the table ' + displayTable(side.schema, side.table) + ' has no column ' +
      JSON.stringify(c) + (near ? ' (did you mean ' + near + '?)' : '') + '. Nothing was changed.');
  });
}

// Before anything changes: every table and column a relation names exists. rels from
// parseRelations; tables: the loaded tables (lib/partial/load-objects.js); columnsOf(schema, table,
// loaded) → lib/snapshot/table-ddl.js facts or null (unknown: checked after the load); known(schema,
// table) → whether the server has the table. Returns the relations whose columns were unknown.
function checkRelations(rels, tables, columnsOf, known) {
  var unchecked = [];
  rels.forEach(function (rel) {
    var child = sideTable(rel, rel.schema, rel.table, tables, known, 'child');
    var parent = sideTable(rel, rel.refSchema, rel.refTable, tables, known, 'parent');
    var ci = columnsOf(child.schema, child.table, true);
    var pi = columnsOf(parent.schema, parent.table, parent.loaded);
    if (ci) checkColumns(rel, child, rel.columns, ci);
    if (pi) checkColumns(rel, parent, rel.refColumns, pi);
    if (!ci || !pi) unchecked.push(rel);
  });
  return unchecked;
}

// The relations as keys of the server's tables (the schema they are loaded into), in the shape of
// lib/snapshot/foreign-keys.js: {name, schema, table, columns, refSchema, refTable, refColumns, virtual}.
function relationKeys(rels, tables, known) {
  return rels.map(function (rel) {
    var child = sideTable(rel, rel.schema, rel.table, tables, known, 'child');
    var parent = sideTable(rel, rel.refSchema, rel.refTable, tables, function () { return true; }, 'parent');
    return { name: 'relation ' + rel.name, schema: child.schema, table: child.table, columns: rel.columns.slice(),
      refSchema: parent.schema, refTable: parent.table, refColumns: rel.refColumns.slice(), virtual: true };
  });
}

module.exports = { parseRelations: parseRelations, checkRelations: checkRelations, relationKeys: relationKeys };
