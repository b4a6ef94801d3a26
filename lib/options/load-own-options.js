// restore.load's own options (everything else is a util.loadDump option passed through):
// name, type, allowed values, default, help text. Shared by the member definition, presets and
// the load run, so the three never disagree.
var UserError = require('../core/user-error.js').UserError;
var maskSpec = require('./mask-spec.js');
var parseDefiners = require('./definers.js').parseDefiners;
var parseSchemaMap = require('./schema-map.js').parseSchemaMap;
var parseRelations = require('./relations.js').parseRelations;

var OWN_OPTIONS = {
  preset: { type: 'string', inPreset: false,
    brief: 'Named set of options to start from (see restore.presets()); explicit options override it' },
  redoLog: { type: 'string', values: ['keep', 'off'], default: 'keep',
    brief: 'off: disable the InnoDB redo log for the load and enable it again afterwards, whatever happens ' +
      '(MySQL 8.0.21 and later); keep: leave it alone' },
  tune: { type: 'bool', default: false,
    brief: 'Apply restore-time server settings (saved first, always reverted afterwards)' },
  keepSettings: { type: 'array', itemtype: 'string', default: [], check: namesProblem,
    brief: 'With tune: server settings to leave as they are, by name (e.g. ["innodb_doublewrite"]; the plan\'s ' +
      'settings table names them)' },
  dropExisting: { type: 'bool', default: false,
    brief: 'Drop the tables, views, routines, events and triggers the load will create, if they exist (never a schema)' },
  analyze: { type: 'string', values: ['off', 'on', 'histogram'], default: 'off',
    brief: 'After the load: ANALYZE TABLE the loaded tables (on), plus the histograms the dump lists (histogram)' },
  freshProgress: { type: 'bool', default: false,
    brief: 'Use a new progress file for this run, so nothing is skipped as already loaded' },
  dryRun: { type: 'bool', default: false, inPreset: false,
    brief: 'Print the plan (loadDump options, objects to drop, settings to change) and change nothing' },
  verify: { type: 'bool', default: false,
    brief: 'Before anything changes, decompress every data file in full (the zstd program, zlib for gzip) and ' +
      'compare its size with the dump\'s record; a damaged file stops the load. Without it only the files\' ' +
      'structure is checked (frame and block headers, not the data)' },
  allowIncomplete: { type: 'bool', default: false, inPreset: false,
    brief: 'Load (or stub) a dump without @.done.json, i.e. one still being written or cut off' },
  force: { type: 'bool', default: false, inPreset: false,
    brief: 'Go ahead although the server looks like it serves others, and drop without asking' },
  orphans: { type: 'string', values: ['keep', 'report', 'delete', 'parents'], default: 'keep',
    brief: 'After the load, rows whose referenced row is missing (foreign keys of the loaded tables and relations; NULL ' +
      'keys are no orphans). parents: add the referenced rows from the chunks latest left out (a remote dump\'s are ' +
      'fetched), up the keys until nothing is missing; what no chunk holds is then deleted as with delete. delete: ' +
      'delete them, and the rows that then lose theirs, until none is left (when every key references a primary ' +
      'key, the load defers the secondary indexes and builds them after the deletes). report: count them per foreign key. ' +
      'keep: do nothing' },
  relations: { default: null, check: parsedProblem(parseRelations, 'relations'),
    brief: 'Foreign keys the schema does not declare, used by orphans and mask like declared ones: ' +
      '{"shop.orders.customer_id": "shop.customers.id", "shop.x.(a, b)": "shop.y.(c, d)"} or ' +
      'shop.orders.customer_id:shop.customers.id,… (tables and columns are checked before anything changes)' },
  mask: { default: null, check: maskSpec.maskProblem,
    brief: 'Replace personal data: {"schema.table.column": kind} or schema.table.column:kind,… with the kinds ' +
      maskSpec.KIND_NAMES.join(', ') + ' (fixed:<value>). Equal values get equal masks (keyed hash), columns linked ' +
      'by foreign keys get the same mask, results fit the column. Applied while loading (LOAD DATA writes the masked ' +
      'value; Shell 8.0.30+), else by an UPDATE after the load: key columns and unique columns whose kind may repeat values' },
  schemaMap: { default: null, inPreset: false, check: parsedProblem(parseSchemaMap, 'schemaMap'),
    brief: 'Load schemas under other names: {"shop": "shop_copy", "billing": "billing_copy"} or shop:shop_copy,… ' +
      'Views, triggers, routines and events are created in the new schemas, and their references to a mapped schema ' +
      'qualified with its name are rewritten (names inside strings and dynamic SQL are reported, not rewritten). Other ' +
      'options name schemas as the dump does' },
  definers: { type: 'string', default: 'keep', inPreset: false, check: parsedProblem(parseDefiners, 'definers'),
    brief: 'DEFINER of the loaded views, triggers, routines and events: keep (as dumped), strip (removed: the loading ' +
      'account, as the Shell\'s strip_definers), current (DEFINER=CURRENT_USER) or an account user@host; SQL SECURITY ' +
      'is kept' },
  topology: { type: 'string', values: ['live', 'rebuild'], default: 'live',
    brief: 'rebuild: the target has no other member yet and they will join by clone afterwards: load it with every ' +
      'standalone lever of the preset (no binary log, redo log off) and print the AdminAPI / SQL steps that add the ' +
      'members by clone; refused while a replica is connected or the group has another member. live: keep every ' +
      'member equal while loading' },
  membersTimeout: { type: 'integer', default: 600, min: 0, max: 604800,
    brief: 'On a source with replicas or a Group Replication primary: seconds to wait after the load for every member ' +
      'to apply it (progress lines while waiting); then every loaded table\'s rows are compared on every member. A member ' +
      'that does not catch up, differs or cannot be reached fails the load. 0: no verification' },
  maskKey: { type: 'string', default: null,
    brief: 'Key of the masks\' hash: the same key gives the same masks in every load; without it a random key per load' },
};

function namesProblem(v) {
  if (!Array.isArray(v) || v.some(function (x) { return typeof x !== 'string' || !/^[A-Za-z0-9_]+$/.test(x); })) {
    return 'must be a list of server variable names, not ' + JSON.stringify(v);
  }
  return null;
}

// A check made of the option's parser: null, or its message without the option's name.
function parsedProblem(parse, name) {
  return function (v) {
    try {
      parse(v);
      return null;
    } catch (e) {
      return e.message.replace(new RegExp('^' + name + ':? '), '').replace(/\.$/, '');
    }
  };
}

var OWN_NAMES = Object.keys(OWN_OPTIONS);

function isOwnOption(name) {
  return Object.prototype.hasOwnProperty.call(OWN_OPTIONS, name);
}

// null, or what is wrong with value for own option name.
function ownValueProblem(name, value) {
  var spec = OWN_OPTIONS[name];
  if (spec.check) return spec.check(value);
  if (spec.type === 'bool' && typeof value !== 'boolean') return 'must be true or false, not ' + JSON.stringify(value);
  if (spec.type === 'string' && typeof value !== 'string') return 'must be a string, not ' + JSON.stringify(value);
  if (spec.type === 'integer' && (typeof value !== 'number' || Math.floor(value) !== value || value < spec.min || value > spec.max)) {
    return 'must be a whole number from ' + spec.min + ' to ' + spec.max + ', not ' + JSON.stringify(value);
  }
  if (spec.values && spec.values.indexOf(value) < 0) {
    return 'must be one of ' + spec.values.map(JSON.stringify).join(', ') + ', not ' + JSON.stringify(value);
  }
  return null;
}

// Own options with defaults filled in; throws for a wrong value.
function ownSettings(options) {
  var out = {};
  OWN_NAMES.forEach(function (name) {
    var v = options[name];
    if (v === undefined || v === null) {
      out[name] = OWN_OPTIONS[name].default;
      return;
    }
    var problem = ownValueProblem(name, v);
    if (problem) throw new UserError('OPTION_INVALID', 'Option \'' + name + '\' ' + problem + '.');
    out[name] = v;
  });
  return out;
}

// The default as the help shows it: a preset may set the option, the built-in default applies otherwise.
function defaultText(name, spec) {
  if (name === 'preset') return ' (default: safe)';
  var value = JSON.stringify(spec.default);
  return spec.inPreset === false ? ' (default: ' + value + ')' : ' (default: the preset\'s, else ' + value + ')';
}

function memberOwnOptionDefinitions() {
  return OWN_NAMES.map(function (name) {
    var spec = OWN_OPTIONS[name];
    var d = { name: name, brief: spec.brief + defaultText(name, spec) };
    if (spec.type) d.type = spec.type; // untyped (mask, relations): a dictionary, or the command line's text
    if (spec.itemtype) d.itemtype = spec.itemtype;
    if (spec.values) d.values = spec.values.slice();
    return d;
  });
}

module.exports = { OWN_OPTIONS: OWN_OPTIONS, OWN_NAMES: OWN_NAMES, isOwnOption: isOwnOption,
  ownValueProblem: ownValueProblem, ownSettings: ownSettings, memberOwnOptionDefinitions: memberOwnOptionDefinitions };
