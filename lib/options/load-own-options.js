// restore.load's own options (everything else is a util.loadDump option passed through):
// name, type, allowed values, default, help text. Shared by the member definition, presets and
// the load run, so the three never disagree.
var UserError = require('../core/user-error.js').UserError;

var OWN_OPTIONS = {
  preset: { type: 'string', inPreset: false,
    brief: 'Named set of options to start from (see restore.presets()); explicit options override it' },
  redoLog: { type: 'string', values: ['keep', 'off'], default: 'keep',
    brief: 'off: disable the InnoDB redo log for the load and enable it again afterwards, whatever happens ' +
      '(MySQL 8.0.21 and later); keep: leave it alone' },
  tune: { type: 'bool', default: false,
    brief: 'Apply restore-time server settings (saved first, always reverted afterwards)' },
  dropExisting: { type: 'bool', default: false,
    brief: 'Drop the tables, views, routines, events and triggers the load will create, if they exist (never a schema)' },
  analyze: { type: 'string', values: ['off', 'on', 'histogram'], default: 'off',
    brief: 'After the load: ANALYZE TABLE the loaded tables (on), plus the histograms the dump lists (histogram)' },
  freshProgress: { type: 'bool', default: false,
    brief: 'Use a new progress file for this run, so nothing is skipped as already loaded' },
  dryRun: { type: 'bool', default: false, inPreset: false,
    brief: 'Print the plan (loadDump options, objects to drop, settings to change) and change nothing' },
  force: { type: 'bool', default: false, inPreset: false,
    brief: 'Go ahead although the server looks like it serves others, and drop without asking' },
};

var OWN_NAMES = Object.keys(OWN_OPTIONS);

function isOwnOption(name) {
  return Object.prototype.hasOwnProperty.call(OWN_OPTIONS, name);
}

// null, or what is wrong with value for own option name.
function ownValueProblem(name, value) {
  var spec = OWN_OPTIONS[name];
  if (spec.type === 'bool' && typeof value !== 'boolean') return 'must be true or false, not ' + JSON.stringify(value);
  if (spec.type === 'string' && typeof value !== 'string') return 'must be a string, not ' + JSON.stringify(value);
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
    if (problem) throw new UserError('Option \'' + name + '\' ' + problem + '.');
    out[name] = v;
  });
  return out;
}

function memberOwnOptionDefinitions() {
  return OWN_NAMES.map(function (name) {
    var spec = OWN_OPTIONS[name];
    var d = { name: name, type: spec.type, brief: spec.brief };
    if (spec.values) d.values = spec.values.slice();
    return d;
  });
}

module.exports = { OWN_OPTIONS: OWN_OPTIONS, OWN_NAMES: OWN_NAMES, isOwnOption: isOwnOption,
  ownValueProblem: ownValueProblem, ownSettings: ownSettings, memberOwnOptionDefinitions: memberOwnOptionDefinitions };
