// The `mask` option as users write it: {"schema.table.column": kind} (a kind may also be
// {kind: "fixed", value: "x"}), or on the command line "shop.customers.email:email,shop.c.note:fixed:n/a".
// Parsed into [{schema, table, column, kind, value}] before anything is read or changed.
var UserError = require('../core/user-error.js').UserError;
var splitName = require('../dump/object-names.js').splitName;

// kind → what it writes (the help text and the report show this).
var KINDS = {
  email: 'user_<keyed hash>@example.com',
  name: 'a first and last name picked by keyed hash (plus a hash suffix on unique or key columns)',
  phone: '+1-555-<7 digits from a keyed hash>',
  text: 'lorem ipsum text with a keyed hash, as long as the original',
  digits: 'as many digits as the original has characters, from a keyed hash',
  fixed: 'one fixed value: fixed:<value>, or {"kind": "fixed", "value": …}',
  null: 'NULL (the column must allow NULL)',
  hash: 'the hex keyed hash (SHA-256 of key + value), cut to the column length',
};
var KIND_NAMES = Object.keys(KINDS);

function kindError(where, kind) {
  return new UserError('OPTION_INVALID', 'mask: ' + where + ' has the unknown kind ' + JSON.stringify(kind) + '. The kinds are: ' +
    KIND_NAMES.join(', ') + ' (fixed:<value> for a fixed value).');
}

// One kind as given → {kind, value}.
function parseKind(where, raw) {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    if (raw.kind !== 'fixed') throw kindError(where, raw.kind);
    if (raw.value === undefined) throw new UserError('OPTION_INVALID', 'mask: ' + where + ' {"kind": "fixed"} needs a "value".');
    return { kind: 'fixed', value: raw.value === null ? null : String(raw.value) };
  }
  if (typeof raw !== 'string') throw kindError(where, raw);
  var fixed = /^fixed:([\s\S]*)$/.exec(raw);
  if (fixed) return { kind: 'fixed', value: fixed[1] };
  if (raw === 'fixed') throw new UserError('OPTION_INVALID', 'mask: ' + where + ' fixed needs its value: fixed:<value>.');
  if (KIND_NAMES.indexOf(raw) < 0) throw kindError(where, raw);
  return { kind: raw, value: null };
}

function parseColumnName(text) {
  var parts = splitName(text, 'mask');
  if (parts.length !== 3 || parts.indexOf('*') >= 0) {
    throw new UserError('OPTION_INVALID', 'mask: ' + JSON.stringify(text) + ' must name one column as schema.table.column (backticks allowed).');
  }
  return parts;
}

// The position of the ':' ending a column name (outside backticks), or -1.
function nameEnd(entry) {
  var quoted = false;
  for (var i = 0; i < entry.length; i++) {
    if (entry[i] === '`') quoted = !quoted;
    else if (entry[i] === ':' && !quoted) return i;
  }
  return -1;
}

function entriesOfText(text) {
  return text.split(',').filter(function (e) { return e.trim() !== ''; }).map(function (e) {
    var s = e.trim();
    var at = nameEnd(s);
    if (at < 0) throw new UserError('OPTION_INVALID', 'mask: ' + JSON.stringify(s) + ' must be schema.table.column:kind, e.g. shop.customers.email:email.');
    return [s.slice(0, at), s.slice(at + 1)];
  });
}

// value: the option as given (null/undefined = no masks) → [{schema, table, column, kind, value, name}].
function parseMask(value) {
  if (value === undefined || value === null || value === '') return [];
  var entries;
  if (typeof value === 'string') entries = entriesOfText(value);
  else if (typeof value === 'object' && !Array.isArray(value)) {
    entries = Object.keys(value).map(function (k) { return [k, value[k]]; });
  } else {
    throw new UserError('OPTION_INVALID', 'mask must be {"schema.table.column": kind} or "schema.table.column:kind,…", not ' +
      JSON.stringify(value) + '.');
  }
  var seen = {};
  return entries.map(function (e) {
    var parts = parseColumnName(e[0]);
    var k = parseKind(e[0], e[1]);
    var id = JSON.stringify(parts);
    if (seen[id]) throw new UserError('OPTION_CONFLICT', 'mask: the column ' + e[0] + ' is named twice.');
    seen[id] = true;
    return { schema: parts[0], table: parts[1], column: parts[2], kind: k.kind, value: k.value, name: e[0] };
  });
}

// For the option table: null, or what is wrong with the value.
function maskProblem(value) {
  try {
    parseMask(value);
    return null;
  } catch (e) {
    if (e && e.isUserError) return 'is wrong: ' + e.message.replace(/^mask:? ?/, '').replace(/\.$/, '');
    throw e;
  }
}

module.exports = { KINDS: KINDS, KIND_NAMES: KIND_NAMES, parseMask: parseMask, maskProblem: maskProblem };
