// What a user chose from a dump, the same for restore.plan, restore.stub and restore.load:
// loadDump's include/exclude filters, plus `latest` — the newest N chunks of a table (per
// partition for partitioned tables), of every table of a schema ("shop.*"), or of all ("*");
// 0 chunks creates the table and loads none of its rows. `since` — the rows of a table at or after
// a point of one column (lib/options/since-spec.js; its boundary chunk: lib/partial/since-boundary.js).
var UserError = require('../core/user-error.js').UserError;
var splitName = require('../dump/object-names.js').splitName;
var splitList = require('../dump/object-names.js').splitList;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var parseSince = require('../options/since-spec.js').parseSince;

function stringList(options, key) {
  var v = options[key];
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') v = v.split(',').filter(function (s) { return s.trim() !== ''; });
  if (!Array.isArray(v)) throw new UserError('OPTION_INVALID', 'Option ' + key + ' must be a list of names, e.g. ["shop"].',
    { option: key });
  return v.map(function (x) {
    if (typeof x !== 'string') throw new UserError('OPTION_INVALID', 'Option ' + key + ' must hold names (strings), got ' + JSON.stringify(x) + '.',
      { option: key });
    return x.trim();
  });
}

function schemaName(text, key) {
  var parts = splitName(text, key);
  if (parts.length !== 1) throw new UserError('OPTION_INVALID', key + ': ' + JSON.stringify(text) + ' is not a schema name (no dots, or quote it with backticks).',
    { option: key });
  return parts[0];
}

function tableName(text, key) {
  var parts = splitName(text, key);
  if (parts.length !== 2) {
    throw new UserError('OPTION_INVALID', key + ': ' + JSON.stringify(text) + ' must be schema.table (backticks allowed, e.g. `my db`.`my table`).',
      { option: key });
  }
  return { schema: parts[0], table: parts[1] };
}

function count(v, where) {
  var n = typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !(n >= 0) || !isFinite(n) || Math.floor(n) !== n) {
    throw new UserError('OPTION_INVALID', 'latest: ' + where + ' needs a whole number of chunks (0 = the table without data), got ' +
      (typeof v === 'number' ? String(v) : JSON.stringify(v)) + '.', { option: 'latest' });
  }
  return n;
}

// "shop.events:3,shop.*:1" (the command line form) → [[pattern, n], ...]. A colon inside
// backticks belongs to the name.
function parseLatestText(text) {
  var entries = splitList(text);
  return entries.map(function (e) {
    var colon = e.lastIndexOf(':');
    if (colon < 0 || e.indexOf('`', colon) >= 0) {
      if (/^\d+$/.test(e)) return ['*', e];
      throw new UserError('OPTION_INVALID', 'latest: ' + JSON.stringify(e) + ' must be name:count, e.g. shop.events:3 or shop.*:1.',
        { option: 'latest' });
    }
    var name = e.slice(0, colon).trim();
    if (/:/.test(name.replace(/`[^`]*`/g, ''))) {
      throw new UserError('OPTION_INVALID', 'latest: ' + JSON.stringify(e) + ' must be name:count, e.g. shop.events:3 or shop.*:1 (one colon; ' +
        'quote a name holding a colon with backticks).', { option: 'latest' });
    }
    return [name, e.slice(colon + 1).trim()];
  });
}

// One `latest` rule: {schema|'*', table|'*', partition|null, count}.
function latestRule(pattern, n) {
  var where = JSON.stringify(pattern);
  if (pattern === '*') return { schema: '*', table: '*', partition: null, count: count(n, where) };
  var parts = splitName(pattern, 'latest');
  if (parts.length < 2 || parts.length > 3) {
    throw new UserError('OPTION_INVALID', 'latest: ' + where + ' must be "*", "schema.*", "schema.table" or "schema.table.partition".',
      { option: 'latest' });
  }
  if (parts[0] === '*') throw new UserError('OPTION_INVALID', 'latest: ' + where + ': name the schema ("*" alone means every table).',
    { option: 'latest' });
  if (parts[1] === '*' && parts.length === 3) throw new UserError('OPTION_INVALID', 'latest: ' + where + ': a partition needs a table name.',
    { option: 'latest' });
  return { schema: parts[0], table: parts[1], partition: parts.length === 3 ? parts[2] : null, count: count(n, where) };
}

function parseLatest(v) {
  if (v === undefined || v === null) return [];
  if (typeof v === 'number') return [latestRule('*', v)];
  if (typeof v === 'string') {
    return parseLatestText(v).map(function (e) { return latestRule(e[0], e[1]); });
  }
  if (Array.isArray(v)) {
    return v.reduce(function (all, x) { return all.concat(parseLatest(x)); }, []);
  }
  if (typeof v === 'object') {
    return Object.keys(v).map(function (k) { return latestRule(k, v[k]); });
  }
  throw new UserError('OPTION_INVALID', 'latest must be a number, {"schema.table": n}, or "schema.table:n,schema.*:n".',
    { option: 'latest' });
}

// options: any dictionary; only the selection keys are read.
function parseSelection(options) {
  var o = options || {};
  var sel = {
    includeSchemas: stringList(o, 'includeSchemas').map(function (s) { return schemaName(s, 'includeSchemas'); }),
    excludeSchemas: stringList(o, 'excludeSchemas').map(function (s) { return schemaName(s, 'excludeSchemas'); }),
    includeTables: stringList(o, 'includeTables').map(function (s) { return tableName(s, 'includeTables'); }),
    excludeTables: stringList(o, 'excludeTables').map(function (s) { return tableName(s, 'excludeTables'); }),
    latest: parseLatest(o.latest),
    since: parseSince(o.since),
    sinceExact: flag(o, 'sinceExact', true),
    sinceScan: flag(o, 'sinceScan', false),
    sinceTargets: null, // filled once the boundaries are found (since-boundary.js resolveSince)
  };
  if (!sel.since.length && (o.sinceExact !== undefined || o.sinceScan)) {
    throw new UserError('OPTION_CONFLICT', (o.sinceScan ? 'sinceScan' : 'sinceExact') + ' is for since: name a table\'s column with since, or leave it out.');
  }
  if (sel.sinceScan && !sel.sinceExact) {
    throw new UserError('OPTION_CONFLICT', 'sinceScan reads every chunk to make since exact; sinceExact: false asks for an approximate ' +
      'slice from the chunks\' first rows: give one of them.', { options: ['sinceScan', 'sinceExact'] });
  }
  refuseDuplicates(sel);
  sel.includeTables.forEach(function (t) {
    if (sel.excludeTables.some(function (x) { return x.schema === t.schema && x.table === t.table; })) {
      throw new UserError('OPTION_CONFLICT', 'Both includeTables and excludeTables name ' + quoteTable(t.schema, t.table) + ': keep it in one of them.',
        { options: ['includeTables', 'excludeTables'] });
    }
    if (sel.excludeSchemas.indexOf(t.schema) >= 0) {
      throw new UserError('OPTION_CONFLICT', 'includeTables names ' + quoteTable(t.schema, t.table) + ', whose schema is in excludeSchemas.',
        { options: ['includeTables', 'excludeSchemas'] });
    }
  });
  refuseLatestOutside(sel);
  refuseSinceConflicts(sel);
  return sel;
}

function flag(o, key, dflt) {
  var v = o[key];
  if (v === undefined || v === null) return dflt;
  if (v === 'true' || v === 'false') v = v === 'true';
  if (typeof v !== 'boolean') throw new UserError('OPTION_INVALID', 'Option ' + key + ' must be true or false, got ' + JSON.stringify(v) + '.',
    { option: key });
  return v;
}

// since on a table the filters leave out, or that latest names by its own name, contradicts itself.
function refuseSinceConflicts(sel) {
  sel.since.forEach(function (r) {
    if (!isTableChosen(sel, r.schema, r.table)) {
      throw new UserError('OPTION_CONFLICT', 'since names ' + r.name + ', whose table the include/exclude options leave out of the load: ' +
        'remove it from since, or change the filters.');
    }
    sel.latest.forEach(function (l) {
      if (l.schema === r.schema && l.table === r.table) {
        throw new UserError('OPTION_CONFLICT', 'latest and since both name ' + quoteTable(r.schema, r.table) + ': choose one for it ' +
          '(latest counts chunks, since finds a point in time).', { options: ['latest', 'since'] });
      }
    });
  });
}

// The since boundary of a table or partition once found ({boundary, …}), else null.
function sinceOf(sel, schema, table, partition) {
  if (!sel.sinceTargets) return null;
  var f = sel.sinceTargets[JSON.stringify([schema, table, partition])];
  return f || null;
}

// What a selection chooses, for the load view's identity (the same selection of the same dump
// reuses, and resumes, its view): since by its rules and boundaries, not by how they were found.
function selectionIdentity(sel) {
  var id = Object.assign({}, sel, { sinceFacts: undefined, sinceReader: undefined, sinceTargets: undefined });
  if (sel.sinceTargets) {
    id.sinceBoundaries = Object.keys(sel.sinceTargets).sort().map(function (k) { return [k, sel.sinceTargets[k].boundary]; });
  }
  return id;
}

// Whether since names the table (its boundary found or not).
function hasSince(sel, schema, table) {
  return sel.since.some(function (r) { return r.schema === schema && r.table === table; });
}

// The same name twice in one list (or one latest pattern twice) means nothing or contradicts itself.
function refuseDuplicates(sel) {
  [['includeSchemas', function (s) { return s; }], ['excludeSchemas', function (s) { return s; }],
    ['includeTables', function (t) { return quoteTable(t.schema, t.table); }],
    ['excludeTables', function (t) { return quoteTable(t.schema, t.table); }],
    ['latest', describeRule]].forEach(function (k) {
    var seen = {};
    sel[k[0]].forEach(function (x) {
      var key = k[1](x);
      if (seen[key]) throw new UserError('OPTION_CONFLICT', k[0] + ' names ' + key + ' twice: give each once.');
      seen[key] = true;
    });
  });
}

// A latest rule for a table (or schema) the filters leave out would choose nothing: a mistake.
function refuseLatestOutside(sel) {
  sel.latest.forEach(function (r) {
    if (r.schema === '*') return;
    var out = r.table === '*'
      ? sel.excludeSchemas.indexOf(r.schema) >= 0 || (sel.includeSchemas.length && sel.includeSchemas.indexOf(r.schema) < 0) ||
        (sel.includeTables.length && !sel.includeTables.some(function (t) { return t.schema === r.schema; }))
      : !isTableChosen(sel, r.schema, r.table);
    if (out) {
      throw new UserError('OPTION_CONFLICT', 'latest names ' + describeRule(r) + ', which the include/exclude options leave out of the load: ' +
        'remove it from latest, or change the filters.');
    }
  });
}

function hasTable(list, schema, table) {
  return list.some(function (t) { return t.schema === schema && t.table === table; });
}

// Would loadDump, given these filters, load this table at all?
function schemaAllowed(sel, schema) {
  return sel.excludeSchemas.indexOf(schema) < 0 && (!sel.includeSchemas.length || sel.includeSchemas.indexOf(schema) >= 0);
}

// Whether a schema-level object (the schema's DDL, its views) is loaded: the schema filters allow
// it, and includeTables, when given, names one of its tables.
function isSchemaChosen(sel, schema) {
  return schemaAllowed(sel, schema) && (!sel.includeTables.length ||
    sel.includeTables.some(function (t) { return t.schema === schema; }));
}

function isTableChosen(sel, schema, table) {
  if (!schemaAllowed(sel, schema)) return false;
  if (hasTable(sel.excludeTables, schema, table)) return false;
  if (sel.includeTables.length && !hasTable(sel.includeTables, schema, table)) return false;
  return true;
}

// The newest-N count for a table or partition: the most specific rule wins; null = whole table.
function latestCount(sel, schema, table, partition) {
  if (hasSince(sel, schema, table)) return null; // since chooses its chunks itself
  var best = null;
  var bestRank = -1;
  sel.latest.forEach(function (r) {
    var rank;
    if (r.schema === '*') rank = 0;
    else if (r.schema !== schema) return;
    else if (r.table === '*') rank = 1;
    else if (r.table !== table) return;
    else if (r.partition === null) rank = 2;
    else if (r.partition !== partition) return;
    else rank = 3;
    if (rank >= bestRank) { best = r.count; bestRank = rank; }
  });
  return best;
}

// Rules that match nothing in the dump are mistakes the user wants to hear about.
function unmatchedLatest(sel, tables) {
  return sel.latest.filter(function (r) {
    if (r.schema === '*') return false;
    return !tables.some(function (t) {
      return t.schema === r.schema && (r.table === '*' || (t.table === r.table &&
        (r.partition === null || t.partition === r.partition)));
    });
  });
}

function isPartial(sel) {
  return sel.latest.length > 0 || sel.since.length > 0;
}

function describeRule(r) {
  if (r.schema === '*') return '*';
  var s = quoteIdentifier(r.schema) + '.' + (r.table === '*' ? '*' : quoteIdentifier(r.table));
  return r.partition === null ? s : s + '.' + quoteIdentifier(r.partition);
}

module.exports = {
  parseSelection: parseSelection,
  isTableChosen: isTableChosen,
  isSchemaChosen: isSchemaChosen,
  latestCount: latestCount,
  unmatchedLatest: unmatchedLatest,
  isPartial: isPartial,
  sinceOf: sinceOf,
  selectionIdentity: selectionIdentity,
  hasSince: hasSince,
  describeRule: describeRule,
};
