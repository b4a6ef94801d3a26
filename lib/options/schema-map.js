// The schemaMap option: load schemas of the dump under other names. {"shop": "shop_copy"}, or on
// the command line shop:shop_copy,billing:billing_copy (backticks around a name holding : or ,).
// Every other option names schemas as the dump does (latest, includeSchemas, includeTables, mask…):
// util.loadDump loads a load view whose metadata holds the new names, so its own filters are
// translated here.
var UserError = require('../core/user-error.js').UserError;
var splitName = require('../dump/object-names.js').splitName;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var closestName = require('./closest-name.js').closestName;

// Splits text at sep outside backticks.
function splitOutside(text, sep) {
  var parts = [];
  var cur = '';
  var quoted = false;
  for (var i = 0; i < text.length; i++) {
    var c = text[i];
    if (c === '`') quoted = !quoted;
    if (c === sep && !quoted) { parts.push(cur); cur = ''; } else cur += c;
  }
  parts.push(cur);
  return parts;
}

function schemaName(text, where) {
  var s = String(text).trim();
  var parts = splitName(s, 'schemaMap');
  if (parts.length !== 1 || parts[0] === '') {
    throw new UserError('OPTION_INVALID', 'schemaMap: ' + where + ' ' + JSON.stringify(text) + ' is not a schema name (no dots; quote a name ' +
      'holding dots, colons or commas with backticks).');
  }
  var name = parts[0];
  if (name.length > 64 || / $/.test(name)) {
    throw new UserError('OPTION_INVALID', 'schemaMap: ' + JSON.stringify(name) + ' cannot be a MySQL schema name (at most 64 characters, ' +
      'no trailing space).');
  }
  return name;
}

function entriesOf(value) {
  if (typeof value === 'string') {
    return splitOutside(value, ',').filter(function (e) { return e.trim() !== ''; }).map(function (e) {
      var p = splitOutside(e, ':');
      if (p.length !== 2) {
        throw new UserError('OPTION_INVALID', 'schemaMap: ' + JSON.stringify(e.trim()) + ' must be dumpName:newName, e.g. ' +
          '--schema-map=shop:shop_copy,billing:billing_copy.');
      }
      return [p[0], p[1]];
    });
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.keys(value).map(function (k) {
      if (typeof value[k] !== 'string') {
        throw new UserError('OPTION_INVALID', 'schemaMap: the new name of ' + k + ' must be a string, not ' + JSON.stringify(value[k]) + '.');
      }
      return [k, value[k]];
    });
  }
  throw new UserError('OPTION_INVALID', 'schemaMap must be {"dumpName": "newName", …} or dumpName:newName,…, not ' + JSON.stringify(value) + '.');
}

// The option as given → [{from, to}] (a schema mapped to its own name is left out). Throws for a
// wrong shape, a schema mapped twice, or two schemas mapped to one name.
function parseSchemaMap(value) {
  if (value === undefined || value === null) return [];
  var pairs = [];
  var from = {};
  var to = {};
  entriesOf(value).forEach(function (e) {
    var a = schemaName(e[0], 'the dump schema');
    var b = schemaName(e[1], 'the new name');
    if (from[a]) throw new UserError('OPTION_CONFLICT', 'schemaMap names ' + a + ' twice: map each dump schema to one name.');
    from[a] = true;
    if (a === b) return;
    if (to[b]) {
      throw new UserError('OPTION_CONFLICT', 'schemaMap maps ' + to[b] + ' and ' + a + ' to the same name ' + b + ': two schemas cannot be ' +
        'loaded into one. Give each its own name.');
    }
    to[b] = a;
    pairs.push({ from: a, to: b });
  });
  return pairs;
}

// Checks the map against the dump: every name it maps is a schema of the dump, and no new name is
// the name another loaded schema keeps. loaded: dump schemas the load creates (after the filters);
// fold: names compare case-insensitively (lower_case_table_names 1 or 2). Throws a UserError.
function checkAgainstDump(pairs, dumpSchemas, loaded, fold) {
  function key(s) { return fold ? s.toLowerCase() : s; }
  var mapped = {};
  pairs.forEach(function (p) {
    if (dumpSchemas.indexOf(p.from) < 0) {
      var near = closestName(p.from, dumpSchemas);
      throw new UserError('NOT_IN_DUMP', 'schemaMap: the dump holds no schema ' + p.from + (near ? ': did you mean ' + near + '?' :
        ' (it holds ' + dumpSchemas.join(', ') + ').') + ' Nothing was changed.');
    }
    mapped[p.from] = p.to;
  });
  var taken = {};
  loaded.forEach(function (s) {
    var name = Object.prototype.hasOwnProperty.call(mapped, s) ? mapped[s] : s;
    var k = key(name);
    if (taken[k] !== undefined) {
      throw new UserError('OPTION_CONFLICT', 'schemaMap would load ' + taken[k] + ' and ' + s + ' into the same schema ' + name + ': two ' +
        'schemas cannot be loaded into one. Map ' + (mapped[s] !== undefined ? s : taken[k]) + ' to another name, or ' +
        'leave one of them out (excludeSchemas). Nothing was changed.');
    }
    taken[k] = s;
  });
}

// name → its new name, or null when the map leaves it alone.
function renamer(pairs) {
  var m = {};
  pairs.forEach(function (p) { m[p.from] = p.to; });
  return function (name) { return Object.prototype.hasOwnProperty.call(m, name) ? m[name] : null; };
}

// Filter option -> how many name parts its entries have before the schema's (1: a schema name;
// 2: schema.object or schema.table[.trigger]).
var FILTERS = { includeSchemas: 1, excludeSchemas: 1, includeTables: 2, excludeTables: 2, includeRoutines: 2,
  excludeRoutines: 2, includeEvents: 2, excludeEvents: 2, includeTriggers: 2, excludeTriggers: 2 };

// util.loadDump's filters as given (dump names) → the same filters with the new names, for the
// view: {option: list} for each filter that changes.
function translateFilters(loadOptions, rename) {
  var out = {};
  Object.keys(FILTERS).forEach(function (k) {
    var v = loadOptions[k];
    if (typeof v === 'string') v = v.split(',').map(function (x) { return x.trim(); }).filter(Boolean);
    if (!Array.isArray(v)) return;
    var changed = false;
    var next = v.map(function (s) {
      var parts = typeof s === 'string' ? splitName(s, k) : null;
      var to = parts && (FILTERS[k] === 1 ? parts.length === 1 : parts.length > 1) ? rename(parts[0]) : null;
      if (to === null) return s;
      changed = true;
      return FILTERS[k] === 1 ? to : [to].concat(parts.slice(1)).map(quoteIdentifier).join('.');
    });
    if (changed) out[k] = next;
  });
  return out;
}

module.exports = { parseSchemaMap: parseSchemaMap, checkAgainstDump: checkAgainstDump, renamer: renamer,
  translateFilters: translateFilters };
