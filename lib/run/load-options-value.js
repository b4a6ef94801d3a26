// restore.load's options, resolved once in the preflight into one read-only value: the preset
// overridden by the explicit options, split into the plugin's own settings, the partial step's
// options and util.loadDump's. Steps read it and return what they add to util.loadDump's
// options; lib/run/loader-options.js composes the options util.loadDump gets once, from it and those
// additions in order. Frozen copies made here (JSON, in this file's own context: under GraalJS a
// value made in another file cannot be frozen from this one), so a step that writes into them
// fails instead of changing what the next one reads.
var UserError = require('../core/user-error.js').UserError;
var presets = require('../options/presets.js');
var loadOptions = require('../options/load-options.js');
var checkLimits = require('../options/number-limits.js').checkLimits;
var ownOptions = require('../options/load-own-options.js');

function deepFreeze(v) {
  if (v && typeof v === 'object') {
    Object.keys(v).forEach(function (k) { deepFreeze(v[k]); });
    Object.freeze(v);
  }
  return v;
}

// A read-only copy of a JSON value (options are JSON: the Shell gives them as a dictionary).
function frozenCopy(v) {
  return v === undefined ? undefined : deepFreeze(JSON.parse(JSON.stringify(v)));
}

// Preset, then explicit options. stepNames: the options the partial step owns (never passed to
// util.loadDump). Returns a frozen {preset, explicit, all, own, loadDump}.
function resolveLoadOptions(host, options, stepNames) {
  var explicit = {};
  Object.keys(options || {}).forEach(function (k) {
    if (options[k] !== undefined && options[k] !== null) explicit[k] = options[k];
  });
  if (explicit.preset !== undefined && (typeof explicit.preset !== 'string' || explicit.preset.trim() === '')) {
    throw new UserError('OPTION_INVALID', 'Option preset is empty: name a load preset (restore.presets() lists them), or leave the option out.');
  }
  var preset = presets.resolvePreset(host, explicit.preset || presets.DEFAULT_LOAD_PRESET, 'load');
  var merged = Object.assign({}, preset.options, explicit);
  delete merged.preset;
  // An explicit progressFile beats the preset's freshProgress.
  if (explicit.progressFile !== undefined && explicit.freshProgress === undefined) delete merged.freshProgress;
  var names = stepNames || [];
  var forLoadDump = {};
  Object.keys(merged).forEach(function (k) {
    if (!ownOptions.isOwnOption(k) && names.indexOf(k) < 0) forLoadDump[k] = merged[k];
  });
  loadOptions.checkLoadDumpOptionNames(Object.keys(forLoadDump), host.shell.version, ownOptions.OWN_NAMES.concat(names));
  checkLimits(forLoadDump);
  return frozenCopy({ preset: preset, explicit: explicit, all: merged, own: ownOptions.ownSettings(merged), loadDump: forLoadDump });
}

// base: util.loadDump's options as resolved; additions: [{name: value} or null], in order, each
// overriding what came before (a value undefined adds nothing). Returns a new frozen object:
// the options util.loadDump gets.
function composeLoadDumpOptions(base, additions) {
  var out = Object.assign({}, base);
  additions.forEach(function (a) {
    if (!a) return;
    Object.keys(a).forEach(function (k) { if (a[k] !== undefined) out[k] = a[k]; });
  });
  return frozenCopy(out);
}

module.exports = { resolveLoadOptions: resolveLoadOptions, composeLoadDumpOptions: composeLoadDumpOptions, frozenCopy: frozenCopy };
