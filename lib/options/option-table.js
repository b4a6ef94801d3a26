// Every option of restore.load, plan, view, stub and inspect, declared once: its section of the
// help, who reads it, type, allowed values or range, default, whether a preset may set it, one
// help line and the members that take it. The Shell's help and command line (the members'
// definitions), validation (valueProblem; restore.load's defaults: load-own-options.js), the partial
// step's names, the plan's option echo and the option table of docs/options.md (scripts/option-table.js) are
// made from it. util.loadDump's options are declared in load-options.js (a copy of the Shell's
// contract); those not declared here pass through restore.load unchanged.
//
// To add an option: one entry below. A util.loadDump option that other members take too (e.g.
// includeTables for the selection) is one entry with owner 'loadDump' — { name: 'includeTables',
// section: 'selection', owner: 'loadDump', members: PARTIAL, type: 'list', brief: … } — and leaves the
// pass-through list; its Shell version comes from load-options.js.
//
// owner: who reads it — 'own' (restore.load's settings, checked and defaulted in load-own-options.js),
// 'partial' (lib/run/partial-step.js, never passed to util.loadDump), 'loadDump' (util.loadDump's,
// also read by the selection), 'output' (lib/format/output.js), 'command' (the command itself).
// bucket: true — util.loadDump's option of that name and meaning that says where a dump in an S3 bucket
// is (lib/remote/bucket.js takes these); owned by the partial step, util.loadDump gets them only when it
// reads the bucket itself (a full load); its Shell version comes from load-options.js.
// since: the first MySQL Shell version that has it, where that is later than the plugin's minimum.
// Secrets (maskKey) are declared in lib/options/secrets.js: the echo says they are set, never their value.
// type: 'bool' | 'string' | 'integer' | 'list' (of strings; the command line's a,b,c) | 'spec' (a
// dictionary, or the command line's text: untyped for the Shell).
var loadOptions = require('./load-options.js');
var maskSpec = require('./mask-spec.js');
var parseDefiners = require('./definers.js').parseDefiners;
var parseSchemaMap = require('./schema-map.js').parseSchemaMap;
var parseRelations = require('./relations.js').parseRelations;
var output = require('../format/output.js');
var secrets = require('./secrets.js');

var SECTIONS = [
  { id: 'selection', title: 'Selection: what of which dump' },
  { id: 'speed', title: 'Speed and server' },
  { id: 'slices', title: 'Developer slices' },
  { id: 'names', title: 'Names and owners' },
  { id: 'output', title: 'Output' },
  { id: 'loadDump', title: 'util.loadDump\'s own options' },
];

var PARTIAL = ['load', 'plan', 'view', 'stub'];
var REMOTE = ['load', 'plan', 'view'];
var FETCHED = REMOTE.concat(['inspect']); // inspect fetches a bucket's whole dump into the cache

function nonEmptyProblem(v) {
  return typeof v === 'string' && v.trim() !== '' ? null : 'must be a non-empty string, not ' + JSON.stringify(v);
}

// One of util.loadDump's s3* options, which say where a dump in a bucket is (all strings).
function s3Option(name, defaultText, brief) {
  return { name: name, section: 'selection', owner: 'partial', bucket: true, members: FETCHED.concat(['binlogs']), type: 'string',
    defaultText: defaultText, check: nonEmptyProblem, brief: brief };
}

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

var OPTIONS = [
  // Selection
  { name: 'includeSchemas', section: 'selection', owner: 'loadDump', members: PARTIAL, type: 'list', defaultText: 'all',
    brief: 'Load only these schemas' },
  { name: 'excludeSchemas', section: 'selection', owner: 'loadDump', members: PARTIAL, type: 'list', defaultText: 'none',
    brief: 'Skip these schemas' },
  { name: 'includeTables', section: 'selection', owner: 'loadDump', members: PARTIAL, type: 'list', defaultText: 'all',
    brief: 'Load only these tables (schema.table, backticks allowed)' },
  { name: 'excludeTables', section: 'selection', owner: 'loadDump', members: PARTIAL, type: 'list', defaultText: 'none',
    brief: 'Skip these tables entirely (not stubbed: excluded from the load)' },
  { name: 'latest', section: 'selection', owner: 'partial', members: PARTIAL, type: 'spec', defaultText: 'every chunk',
    brief: 'Newest chunks to keep: {"shop.events": 3, "shop.*": 1, "*": 2}, a number for every chunked table, or on the ' +
      'command line shop.events:3,shop.*:1' },
  { name: 'since', section: 'selection', owner: 'partial', members: PARTIAL.concat(['binlogs']), type: 'spec', defaultText: 'none',
    brief: 'Rows from a point of one column: {"shop.orders.created_at": "2026-10-25"}, "30 days" (30d, 12h, 2w) or a ' +
      'number; restore.binlogs: transactions committed at or after a time' },
  // restore.binlogs: a preview of binary log files.
  { name: 'until', section: 'selection', owner: 'own', members: ['binlogs', 'load'], type: 'string', defaultText: 'none',
    inPreset: false, brief: 'Before this time ("2026-11-24 10:42", server zone; +01:00, Z): what binlogs lists, load replays' },
  // restore.load: a point-in-time replay after the dump (lib/binlog/replay-plan.js). Not util.loadDump's in 9.1.
  { name: 'binlogs', section: 'selection', owner: 'own', members: ['load'], type: 'string', defaultText: 'none', inPreset: false,
    check: nonEmptyProblem, brief: 'Binary logs replayed after the load: folder, host:/path, s3://…, user@host:port' },
  { name: 'outsideSlice', section: 'selection', owner: 'own', members: ['load'], type: 'string', values: ['refuse', 'skip'],
    default: 'refuse', inPreset: false, brief: 'binlogs with latest/since: skip changes of rows outside the slice' },
  // Which engine applies the replay (lib/binlog/replay-applier.js): the target's own applier fed by the plugin, or the plugin's sessions; auto: the first where it can be used.
  { name: 'replayWith', section: 'selection', owner: 'own', members: ['load'], type: 'string', values: ['auto', 'sessions', 'applier'],
    default: 'auto', inPreset: false, brief: 'binlogs: the target\'s applier where it can, else the plugin\'s sessions' },
  { name: 'stopBefore', section: 'selection', owner: 'own', members: ['load'], type: 'string', defaultText: 'none', inPreset: false,
    check: nonEmptyProblem, brief: 'Replay up to this GTID, file:position or "first drop of s.t", excluded' },
  { name: 'stopAfter', section: 'selection', owner: 'own', members: ['load'], type: 'string', defaultText: 'none', inPreset: false,
    check: nonEmptyProblem, brief: 'Replay up to this GTID (or file:position), included' },
  { name: 'tables', section: 'selection', owner: 'command', members: ['binlogs'], type: 'list', defaultText: 'all',
    brief: 'Only these tables (schema.table or schema.*)' },
  { name: 'manyRows', section: 'selection', owner: 'command', members: ['binlogs'], type: 'integer', default: 1000,
    min: 1, max: 1000000000, brief: 'A transaction deleting or updating at least this many rows of one table is listed as dangerous' },
  { name: 'sinceExact', section: 'selection', owner: 'partial', members: PARTIAL, type: 'bool', default: true,
    brief: 'false: approximate slices, said so' },
  { name: 'sinceScan', section: 'selection', owner: 'partial', members: PARTIAL, type: 'bool', default: false,
    brief: 'since on a column not leading the chunking key: load every chunk, then trim (exact)' },
  { name: 'listing', section: 'selection', owner: 'partial', members: PARTIAL.concat(['inspect']), type: 'string',
    defaultText: 'none',
    brief: 'A file listing the complete dump (ls or rsync --list-only output), when its metadata lacks the chunk list' },
  { name: 'newest', section: 'selection', owner: 'partial', members: REMOTE, type: 'bool', default: false,
    brief: 'The dump argument is a folder of dumps (local or on a backup host): take the newest complete one in it' },
  { name: 'cacheDir', section: 'selection', owner: 'partial', members: FETCHED, type: 'string',
    defaultText: '<config home>/restore/cache/<dump>-<hash>',
    brief: 'Where a remote dump\'s files are fetched to, and reused' },
  { name: 'rsh', section: 'selection', owner: 'partial', members: REMOTE.concat(['binlogs']), type: 'string', defaultText: '$RSYNC_RSH, else ssh',
    check: function (v) {
      return typeof v === 'string' && v.trim() !== '' ? null
        : 'must be the remote shell command rsync runs, e.g. "ssh -p 2222", not ' + JSON.stringify(v);
    },
    brief: 'The remote shell rsync runs for a dump over ssh, e.g. "ssh -p 2222"' },
  // A dump in an S3-compatible bucket: util.loadDump's own names and meanings.
  s3Option('s3BucketName', 'none', 'The dump is in this S3 bucket; the dump argument is its prefix there'),
  s3Option('s3Region', '$AWS_REGION, $AWS_DEFAULT_REGION, the profile\'s region, else us-east-1', 'The bucket\'s region'),
  s3Option('s3Profile', '$AWS_PROFILE, $AWS_DEFAULT_PROFILE, else "default"',
    'The profile in the AWS credentials and config files'),
  s3Option('s3CredentialsFile', '$AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials', 'The AWS credentials file'),
  s3Option('s3ConfigFile', '$AWS_CONFIG_FILE, else ~/.aws/config', 'The AWS config file'),
  s3Option('s3EndpointOverride', 'AWS S3 of the region', 'The URL of an S3-compatible server, e.g. http://127.0.0.1:9000'),
  { name: 'viewDir', section: 'selection', owner: 'partial', members: ['load', 'view'], type: 'string',
    defaultText: '<config home>/restore/views/<dump>-<hash>',
    brief: 'Where the load view is made, a directory that does not exist yet' },
  { name: 'allowIncomplete', section: 'selection', owner: 'own', members: PARTIAL, type: 'bool', default: false,
    inPreset: false, brief: 'Go ahead with a dump without @.done.json (one still being written or cut off)' },
  { name: 'verify', section: 'selection', owner: 'own', members: ['load', 'inspect'], type: 'bool', default: false,
    brief: 'Decompress each data file and check its size against the dump (else: structure only)' },
  // Speed and server
  { name: 'preset', section: 'speed', owner: 'own', members: ['load'], type: 'string', defaultText: 'safe', inPreset: false,
    brief: 'Named set of options to start from (restore.presets() lists them); explicit options override it' },
  { name: 'redoLog', section: 'speed', owner: 'own', members: ['load'], type: 'string', values: ['keep', 'off'],
    default: 'keep',
    brief: 'off: disable the InnoDB redo log for the load and enable it again afterwards, whatever happens' },
  { name: 'tune', section: 'speed', owner: 'own', members: ['load'], type: 'bool', default: false,
    brief: 'Apply restore-time server settings (saved first, always reverted afterwards)' },
  { name: 'keepSettings', section: 'speed', owner: 'own', members: ['load'], type: 'list', default: [], check: namesProblem,
    brief: 'With tune: server settings to leave as they are, by name (the plan\'s settings table names them)' },
  { name: 'dropExisting', section: 'speed', owner: 'own', members: ['load'], type: 'bool', default: false,
    brief: 'Drop the tables, views, routines, events and triggers the load will create, if they exist (never a schema)' },
  { name: 'analyze', section: 'speed', owner: 'own', members: ['load'], type: 'string', values: ['off', 'on', 'histogram'],
    default: 'off', brief: 'After the load: ANALYZE TABLE the loaded tables (on), plus the histograms the dump lists (histogram)' },
  { name: 'freshProgress', section: 'speed', owner: 'own', members: ['load'], type: 'bool', default: false,
    brief: 'Use a new progress file for this run, so nothing is skipped as already loaded' },
  { name: 'force', section: 'speed', owner: 'own', members: ['load'], type: 'bool', default: false, inPreset: false,
    brief: 'Go ahead although the server looks like it serves others, and drop without asking' },
  { name: 'topology', section: 'speed', owner: 'own', members: ['load'], type: 'string', values: ['live', 'rebuild'],
    default: 'live',
    brief: 'rebuild: no other member yet (they join by clone later): every standalone lever, then the clone steps' },
  { name: 'membersTimeout', section: 'speed', owner: 'own', members: ['load'], type: 'integer', default: 600, min: 0,
    max: 604800,
    brief: 'Seconds to wait after the load for every replica or group member to apply it (then rows are compared); ' +
      '0: no verification' },
  // Developer slices
  { name: 'orphans', section: 'slices', owner: 'own', members: ['load'], type: 'string',
    values: ['keep', 'report', 'delete', 'parents'], default: 'keep',
    brief: 'Rows whose referenced row is missing, after the load: add the parents from the chunks left out, delete ' +
      'them, or count them' },
  { name: 'relations', section: 'slices', owner: 'own', members: ['load'], type: 'spec', default: null,
    check: parsedProblem(parseRelations, 'relations'),
    brief: 'Foreign keys the schema does not declare: {"shop.orders.customer_id": "shop.customers.id"} or ' +
      'shop.orders.customer_id:shop.customers.id,…' },
  { name: 'mask', section: 'slices', owner: 'own', members: ['load'], type: 'spec', default: null, check: maskSpec.maskProblem,
    brief: 'Replace personal data: {"schema.table.column": kind} or schema.table.column:kind,… (' +
      maskSpec.KIND_NAMES.filter(function (k) { return k !== 'fixed'; }).join(', ') + ', fixed:<value>)' },
  { name: 'maskKey', section: 'slices', owner: 'own', members: ['load'], type: 'string', default: null,
    brief: 'Key of the masks\' hash: the same key gives the same masks in every load; without it a random key per load' },
  // Names and owners
  { name: 'schemaMap', section: 'names', owner: 'own', members: ['load'], type: 'spec', default: null, inPreset: false,
    check: parsedProblem(parseSchemaMap, 'schemaMap'),
    brief: 'Load schemas under other names: {"shop": "shop_copy"} or shop:shop_copy,…; references to them are rewritten' },
  { name: 'definers', section: 'names', owner: 'own', members: ['load'], type: 'string', default: 'keep', inPreset: false,
    check: parsedProblem(parseDefiners, 'definers'),
    brief: 'DEFINER of the loaded views, triggers, routines and events: keep, strip, current (CURRENT_USER) or user@host' },
  // Output
  { name: 'dryRun', section: 'output', owner: 'own', members: ['load'], type: 'bool', default: false, inPreset: false,
    brief: 'Print the plan (util.loadDump options, objects to drop, settings to change) and change nothing' },
  { name: 'fetchListFile', section: 'output', owner: 'command', members: ['plan'], type: 'string', defaultText: 'none',
    brief: 'Write the data files to fetch to this file, one per line, for rsync --files-from' },
  { name: 'outputFormat', section: 'output', owner: 'output', members: PARTIAL.concat(['inspect', 'binlogs']), type: 'string',
    defaultText: 'text', defaultInBrief: true, brief: output.OUTPUT_FORMAT_BRIEF },
];

var BY_NAME = {};
OPTIONS.forEach(function (o) { BY_NAME[o.name] = o; });

function isDeclared(name) { return Object.prototype.hasOwnProperty.call(BY_NAME, name); }

function namesOwnedBy(owner) {
  return OPTIONS.filter(function (o) { return o.owner === owner; }).map(function (o) { return o.name; });
}

// The options that say where a dump in an S3 bucket is (lib/remote/bucket.js).
function bucketNames() {
  return OPTIONS.filter(function (o) { return o.bucket === true; }).map(function (o) { return o.name; });
}

// null, or what is wrong with value for declared option name (its type, values, range and check).
function valueProblem(name, value) {
  var spec = BY_NAME[name];
  var shown = secrets.valueText(name, value);
  if (spec.check) return spec.check(value);
  if (spec.type === 'bool' && typeof value !== 'boolean') return 'must be true or false, not ' + shown;
  if (spec.type === 'list' && !Array.isArray(value)) return 'must be a list, not ' + shown;
  if (spec.type === 'string' && typeof value !== 'string') return 'must be a string, not ' + shown;
  if (spec.type === 'integer' && (typeof value !== 'number' || Math.floor(value) !== value || value < spec.min || value > spec.max)) {
    return 'must be a whole number from ' + spec.min + ' to ' + spec.max + ', not ' + shown;
  }
  if (spec.values && spec.values.indexOf(value) < 0) {
    return 'must be one of ' + spec.values.map(JSON.stringify).join(', ') + ', not ' + shown;
  }
  return null;
}

// util.loadDump's options restore.load passes through unchanged: every one not declared above.
function passThroughNames() {
  return Object.keys(loadOptions.LOAD_DUMP_OPTIONS).filter(function (n) { return !isDeclared(n); });
}

// The first MySQL Shell version that has the option: util.loadDump's from its table, the plugin's
// own none (every Shell the plugin supports), unless declared.
function sinceOf(name) {
  var o = BY_NAME[name];
  if (o && o.since) return o.since;
  var spec = loadOptions.LOAD_DUMP_OPTIONS[name];
  return (!o || o.owner === 'loadDump' || o.bucket) && spec ? spec.since : null;
}

// The default as member's help shows it: restore.load's preset may set an own option, the built-in
// default applies otherwise.
function defaultText(o, member) {
  var value = o.defaultText !== undefined ? o.defaultText : JSON.stringify(o.default);
  if (o.owner === 'own' && o.inPreset !== false && (member || 'load') === 'load') return 'the preset\'s, else ' + value;
  return value;
}

var SHELL_TYPES = { bool: 'bool', string: 'string', integer: 'integer', list: 'array' };

// The Shell's definition of one option of member.
function shellDefinition(o, member) {
  // The allowed values go into the help line: checked by valueProblem, not listed again by the Shell.
  var values = o.values ? o.values.join(', ') + '; ' : '';
  var d = { name: o.name, brief: o.brief + (o.defaultInBrief ? '' : ' (' + values + 'default: ' + defaultText(o, member) + ')') };
  if (SHELL_TYPES[o.type]) d.type = SHELL_TYPES[o.type];
  if (o.type === 'list') d.itemtype = 'string';
  return d;
}

var LOAD_DUMP_SHELL_TYPES = { uint: 'integer', bool: 'bool', float: 'float', string: 'string', enum: 'string',
  array: 'array', dict: 'dictionary' };

// The options member takes, as the Shell's definitions, by section. restore.load adds util.loadDump's
// pass-through options, each a short entry (the Shell needs them declared to read them from the
// command line and to accept them at all; what they do is \? util.loadDump's).
function memberOptions(member) {
  var out = [];
  SECTIONS.forEach(function (s) {
    OPTIONS.forEach(function (o) {
      if (o.section === s.id && o.members.indexOf(member) >= 0) out.push(shellDefinition(o, member));
    });
  });
  if (member === 'load') {
    passThroughNames().forEach(function (name) {
      var spec = loadOptions.LOAD_DUMP_OPTIONS[name];
      out.push({ name: name, type: LOAD_DUMP_SHELL_TYPES[spec.type],
        brief: 'Passed to util.loadDump (' + sinceOf(name) + '+)' });
    });
  }
  return out;
}

// One line per section: the option names member takes in it, in the order the option list shows them.
function sectionIndex(member) {
  return SECTIONS.map(function (s) {
    if (s.id === 'loadDump') {
      return member === 'load' ? s.title + ' (' + passThroughNames().length + ', listed last): passed through unchanged ' +
        'after a check that the running MySQL Shell knows them; see \\? util.loadDump.' : null;
    }
    var names = OPTIONS.filter(function (o) { return o.section === s.id && o.members.indexOf(member) >= 0; })
      .map(function (o) { return o.name; });
    return names.length ? s.title + ': ' + names.join(', ') + '.' : null;
  }).filter(Boolean);
}

// The plan's echo of member's declared options that are set (util.loadDump's are echoed as passed):
// "name: value (preset)" for a value the preset gave, "name: value" for one given; defaults left out.
function optionEcho(member, all, explicit) {
  return OPTIONS.filter(function (o) {
    var v = all[o.name];
    return o.members.indexOf(member) >= 0 && o.owner !== 'loadDump' && o.owner !== 'output' && o.name !== 'preset' &&
      v !== undefined && v !== null && JSON.stringify(v) !== JSON.stringify(o.default);
  }).map(function (o) {
    // A secret (the masks' key) is said to be set, never shown: the plan is printed and logged.
    return o.name + ': ' + (secrets.isSecret(o.name) ? secrets.HIDDEN : JSON.stringify(secrets.shown(o.name, all[o.name]))) +
      (explicit[o.name] === undefined ? ' (preset)' : '');
  }).join(', ');
}

// An option's name on the command line: sinceExact -> --since-exact.
function dashedName(name) {
  return '--' + name.replace(/[A-Z]/g, function (c) { return '-' + c.toLowerCase(); });
}

// The command-line form, e.g. --since-exact=false, --include-tables=<a,b,…>.
function cliForm(o) {
  var kind = { bool: o.default === true ? '=false' : '', string: '=<text>', integer: '=<n>', list: '=<a,b,…>',
    spec: '=<name:value,…>' }[o.type];
  return dashedName(o.name) + (o.values ? '=' + o.values.join('|') : kind);
}

// The options given, as the command line would carry them (--preset=fastest --include-schemas=a,b):
// what a suggested command repeats. A secret's value is never written out.
function cliOptions(options) {
  var o = options && typeof options === 'object' ? options : {};
  return Object.keys(o).filter(function (k) { return o[k] !== undefined && o[k] !== null; }).map(function (k) {
    var dashed = dashedName(k);
    var v = o[k];
    if (secrets.isSecret(k)) return dashed + '=' + secrets.HIDDEN;
    if (v === true) return dashed;
    if (Array.isArray(v)) return dashed + '=' + v.join(',');
    if (typeof v === 'object') {
      return dashed + '=' + Object.keys(v).map(function (n) {
        return n + ':' + (v[n] !== null && typeof v[n] === 'object' ? JSON.stringify(v[n]) : String(v[n]));
      }).join(',');
    }
    return dashed + '=' + String(secrets.shown(k, v));
  });
}

module.exports = { OPTIONS: OPTIONS, cliOptions: cliOptions, SECTIONS: SECTIONS, isDeclared: isDeclared,
  namesOwnedBy: namesOwnedBy, bucketNames: bucketNames, valueProblem: valueProblem, passThroughNames: passThroughNames, memberOptions: memberOptions,
  sectionIndex: sectionIndex, defaultText: defaultText, sinceOf: sinceOf, cliForm: cliForm, optionEcho: optionEcho };
