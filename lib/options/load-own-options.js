// restore.load's own options (everything else is a util.loadDump option passed through, or the
// partial step's): declared in option-table.js; checked and defaulted here, for the load run and presets.
var UserError = require('../core/user-error.js').UserError;
var optionTable = require('./option-table.js');

var OWN_OPTIONS = {};
optionTable.OPTIONS.forEach(function (o) { if (o.owner === 'own') OWN_OPTIONS[o.name] = o; });

var OWN_NAMES = Object.keys(OWN_OPTIONS);

function isOwnOption(name) {
  return Object.prototype.hasOwnProperty.call(OWN_OPTIONS, name);
}

// null, or what is wrong with value for own option name.
function ownValueProblem(name, value) {
  return optionTable.valueProblem(name, value);
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

module.exports = { OWN_OPTIONS: OWN_OPTIONS, OWN_NAMES: OWN_NAMES, isOwnOption: isOwnOption,
  ownValueProblem: ownValueProblem, ownSettings: ownSettings };
