// Named option sets for restore.dump (kind "dump") and restore.load (kind "load"): one table of
// built-in presets, plus the user's own from <config home>/restore/presets.json (the Shell's
// options.json refuses unknown keys, so plugin settings need their own file). A user preset may
// extend a built-in one: {"nightly": {"extends": "fastest", "threads": 8}}; one without
// "extends" says its "kind". Explicit options always override the preset.
var UserError = require('../core/user-error.js').UserError;
var loadOptions = require('./load-options.js');
var ownOptions = require('./load-own-options.js');
var dumpOptions = require('./dump-options.js');
var closestName = require('./closest-name.js').closestName;
var chooseThreads = require('./thread-choice.js').chooseThreads;

// Stands for "as many as the client machine has CPUs"; resolved when the preset is used.
var CLIENT_CPUS = 'client-cpus';

var BUILT_IN = [
  { name: 'backup', kind: 'dump',
    description: 'A full backup: one thread per client CPU, 100 MB chunks, zstd, consistent snapshot.',
    options: { threads: CLIENT_CPUS, bytesPerChunk: '100M', compression: 'zstd', consistent: true } },
  { name: 'dev-snapshot', kind: 'dump',
    description: 'A copy for developers: DEFINER clauses stripped, no user accounts.',
    options: { compatibility: ['strip_definers'], users: false } },
  { name: 'fastest', kind: 'load',
    description: 'Fastest load into a server nobody else uses yet: one thread per client CPU, indexes ' +
      'deferred where big tables hold the data, no binlog, redo log off, tuned settings, then ANALYZE TABLE of the tables ' +
      'larger than InnoDB\'s statistics sample (the plan gives the figures). Everything is put back afterwards. On a ' +
      'source with replicas or a Group Replication primary the binary log and the redo log stay on and the members are ' +
      'verified (the plan says per lever what is kept and why).',
    options: { threads: CLIENT_CPUS, deferTableIndexes: 'all', skipBinlog: true, redoLog: 'off', tune: true,
      analyze: 'on' } },
  { name: 'safe', kind: 'load',
    description: 'No server changes: util.loadDump with its defaults and its progress file, so an ' +
      'interrupted load resumes where it stopped. The default.',
    options: { redoLog: 'keep', tune: false, dropExisting: false, analyze: 'off' } },
  { name: 'dev', kind: 'load',
    description: 'Re-import into a developer database (partial imports): drop what the load creates, a fresh ' +
      'progress file every run, add the parent rows the loaded rows reference from the chunks left out (what no ' +
      'chunk holds is deleted), then ANALYZE TABLE of the tables larger than InnoDB\'s statistics sample.',
    options: { dropExisting: true, freshProgress: true, orphans: 'parents', analyze: 'on' } },
];

var DEFAULT_LOAD_PRESET = 'safe';
var PRESET_KEYS = ['extends', 'kind', 'description'];
var CPU_OPTIONS = ['threads', 'backgroundThreads'];

function copyOptions(o) { return JSON.parse(JSON.stringify(o)); }

function presetsFile(host) {
  var f = host.files;
  return f.join(f.join(host.shell.configHome, 'restore'), 'presets.json');
}

function builtIn(name) {
  for (var i = 0; i < BUILT_IN.length; i++) if (BUILT_IN[i].name === name) return BUILT_IN[i];
  return null;
}

// The problem with one key of a load preset, or null.
function loadKeyProblem(key, value) {
  if (ownOptions.isOwnOption(key)) {
    if (ownOptions.OWN_OPTIONS[key].inPreset === false) return 'is not allowed in a preset (give it when you call restore.load)';
    return ownOptions.ownValueProblem(key, value);
  }
  if (loadOptions.isLoadDumpOption(key)) {
    if (value === CLIENT_CPUS && CPU_OPTIONS.indexOf(key) >= 0) return null;
    return loadOptions.loadDumpValueProblem(key, value);
  }
  var near = closestName(key, ownOptions.OWN_NAMES.concat(Object.keys(loadOptions.LOAD_DUMP_OPTIONS)));
  return 'is not an option of restore.load or util.loadDump' + (near ? ' (did you mean \'' + near + '\'?)' : '');
}

function dumpKeyProblem(key) {
  if (Object.prototype.hasOwnProperty.call(dumpOptions.DUMP_OPTIONS, key)) return null;
  var near = closestName(key, Object.keys(dumpOptions.DUMP_OPTIONS));
  return 'is not an option of util.dumpInstance, util.dumpSchemas or util.dumpTables' + (near ? ' (did you mean \'' + near + '\'?)' : '');
}

function userPreset(file, name, raw) {
  function bad(key, problem) {
    throw new UserError('PRESET_FILE_INVALID', 'Bad preset file ' + file + ': preset \'' + name + '\'' + (key ? ', key \'' + key + '\'' : '') +
      ' ' + problem + '. Fix the file, or move it away to use the built-in presets only.');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) bad(null, 'must be a dictionary of options');
  if (builtIn(name)) bad(null, 'has the name of a built-in preset: give it another name, with "extends": "' + name + '"');
  var base = null;
  if (raw.extends !== undefined) {
    base = typeof raw.extends === 'string' ? builtIn(raw.extends) : null;
    if (!base) {
      var near = typeof raw.extends === 'string' ? closestName(raw.extends, BUILT_IN.map(function (p) { return p.name; })) : null;
      bad('extends', 'must name a built-in preset (' + BUILT_IN.map(function (p) { return p.name; }).join(', ') + '), not ' +
        JSON.stringify(raw.extends) + (near ? ' (did you mean \'' + near + '\'?)' : ''));
    }
  }
  var kind = raw.kind !== undefined ? raw.kind : base && base.kind;
  if (kind !== 'load' && kind !== 'dump') bad('kind', 'must be "load" or "dump" (or use "extends")');
  if (base && base.kind !== kind) bad('kind', 'is ' + JSON.stringify(kind) + ' but \'' + base.name + '\' is a ' + base.kind + ' preset');
  if (raw.description !== undefined && typeof raw.description !== 'string') bad('description', 'must be a string');
  var options = base ? copyOptions(base.options) : {};
  Object.keys(raw).forEach(function (key) {
    if (PRESET_KEYS.indexOf(key) >= 0) return;
    // Dump option values depend on the dump function and Shell version (restore.dump checks them);
    // a name no dump function knows is a typo that restore.dump would silently leave out.
    var problem = kind === 'load' ? loadKeyProblem(key, raw[key]) : dumpKeyProblem(key);
    if (problem) bad(key, problem);
    options[key] = raw[key];
  });
  return { name: name, kind: kind, source: file, extends: base ? base.name : null,
    description: raw.description || (base ? 'Based on ' + base.name + '.' : ''), options: options };
}

// The user's presets, in file order; [] when there is no file.
function readUserPresets(host) {
  var file = presetsFile(host);
  if (!host.files.isFile(file)) return [];
  var raw;
  try {
    raw = JSON.parse(host.files.loadText(file));
  } catch (e) {
    throw new UserError('PRESET_FILE_INVALID', 'Bad preset file ' + file + ': not valid JSON (' + ((e && e.message) || e) + '). Fix the file, ' +
      'or move it away to use the built-in presets only.');
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new UserError('PRESET_FILE_INVALID', 'Bad preset file ' + file + ': it must hold one JSON dictionary, {"<preset name>": {options}}.');
  }
  return Object.keys(raw).map(function (name) { return userPreset(file, name, raw[name]); });
}

function allPresets(host) {
  return BUILT_IN.map(function (p) {
    return { name: p.name, kind: p.kind, source: 'built-in', extends: null, description: p.description,
      options: copyOptions(p.options) };
  }).concat(readUserPresets(host));
}

// Replaces "client-cpus" by a number (lib/options/thread-choice.js); returns why, or null.
function resolveCpus(host, options) {
  var choice = null;
  CPU_OPTIONS.forEach(function (k) {
    if (options[k] !== CLIENT_CPUS) return;
    choice = choice || chooseThreads(host);
    options[k] = choice.threads;
  });
  return choice ? choice.why : null;
}

// The options of preset `name` of `kind`, ready to use (client CPUs counted).
function resolvePreset(host, name, kind) {
  var all = allPresets(host);
  var names = all.filter(function (p) { return p.kind === kind; }).map(function (p) { return p.name; });
  var found = null;
  all.forEach(function (p) { if (p.name === name) found = p; });
  if (!found) {
    var near = closestName(String(name), names);
    throw new UserError('PRESET_UNKNOWN', 'Unknown ' + kind + ' preset \'' + name + '\'.' + (near ? ' Did you mean \'' + near + '\'?' : '') +
      ' The ' + kind + ' presets are: ' + names.join(', ') + ' (restore.presets() shows them).');
  }
  if (found.kind !== kind) {
    throw new UserError('PRESET_UNKNOWN', '\'' + name + '\' is a ' + found.kind + ' preset; here a ' + kind + ' preset is needed: ' +
      names.join(', ') + '.');
  }
  var options = found.options;
  var threadsWhy = resolveCpus(host, options);
  return { name: found.name, source: found.source, options: options, threadsWhy: threadsWhy };
}

module.exports = { BUILT_IN: BUILT_IN, CLIENT_CPUS: CLIENT_CPUS, DEFAULT_LOAD_PRESET: DEFAULT_LOAD_PRESET,
  presetsFile: presetsFile, allPresets: allPresets, resolvePreset: resolvePreset };
