// restore.dump(outputDir, options): picks util.dumpInstance (no schema given), util.dumpSchemas
// (schemas: [...]) or util.dumpTables (schema + tables), applies a dump preset, lets explicit
// options override it, refuses what the running Shell would refuse, prints the effective call.
var UserError = require('../core/user-error.js').UserError;
var checkLimits = require('../options/number-limits.js').checkLimits;
var dumpOptions = require('../options/dump-options.js');
var secrets = require('../options/secrets.js');
var withoutSecrets = secrets.withoutSecrets;
var loggedByTheShell = secrets.loggedByTheShell;
var resolvePreset = require('../options/presets.js').resolvePreset;
var optionTable = require('../options/option-table.js');
var requireConnection = require('../server/require-connection.js').requireConnection;

var OWN = ['preset', 'schemas', 'schema', 'tables'];

function nameList(v, key) {
  if (!Array.isArray(v) || !v.length || v.some(function (x) { return typeof x !== 'string' || x === ''; })) {
    throw new UserError('OPTION_INVALID', 'Option ' + key + ' must be a non-empty list of names, e.g. ["shop"].');
  }
  return v.slice();
}

// Which util function, and its leading arguments.
function target(o) {
  if (o.schemas !== undefined && (o.schema !== undefined || o.tables !== undefined)) {
    throw new UserError('OPTION_CONFLICT', 'Give either schemas (util.dumpSchemas) or schema + tables (util.dumpTables), not both.');
  }
  if (o.tables !== undefined || o.schema !== undefined) {
    if (typeof o.schema !== 'string' || o.schema === '') throw new UserError('OPTION_CONFLICT', 'tables needs schema: the schema the tables are in.');
    if (o.tables === undefined) {
      throw new UserError('OPTION_CONFLICT', 'schema needs tables: the tables to dump (to dump the whole schema use schemas: [' +
        JSON.stringify(o.schema) + ']).');
    }
    return { fn: 't', args: [o.schema, nameList(o.tables, 'tables')] };
  }
  if (o.schemas !== undefined) return { fn: 's', args: [nameList(o.schemas, 'schemas')] };
  return { fn: 'i', args: [] };
}

function dumpRun(host, outputDir, options) {
  var o = options || {};
  if (typeof outputDir !== 'string' || outputDir === '') throw new UserError('ARGUMENT_MISSING', 'restore.dump needs an output directory.');
  // An output URL's token (a pre-authenticated request) is a credential: shown, returned and said without it.
  var shownDir = secrets.address(outputDir);
  requireConnection(host, 'restore.dump()', ['dump', shownDir].concat(optionTable.cliOptions(o)));
  var t = target(o);
  var preset = o.preset !== undefined ? resolvePreset(host, o.preset, 'dump') : null;
  var fnName = dumpOptions.FUNCTIONS[t.fn];
  var effective = {};
  var leftOut = [];
  // A preset serves all three functions: its options that this one does not take are left out.
  if (preset) {
    Object.keys(preset.options).forEach(function (k) {
      if (dumpOptions.appliesTo(k, t.fn, host.shell.version)) effective[k] = preset.options[k];
      else leftOut.push(k);
    });
  }
  Object.keys(o).forEach(function (k) { if (OWN.indexOf(k) < 0) effective[k] = o[k]; });
  dumpOptions.checkDumpOptionNames(t.fn, Object.keys(effective), host.shell.version);
  checkLimits(effective);
  var logged = loggedByTheShell(fnName, effective, host.files.join(host.shell.configHome, 'mysqlsh.log'));
  if (logged.length) throw new UserError('SECRET_LOGGED', logged.join(' ') + ' Nothing was dumped.');

  var args = t.args.concat([outputDir, effective]);
  host.out.print('Dump with ' + fnName + (preset ? ' (preset ' + preset.name + ')' : '') + ':');
  // The call as made, its secrets (an Azure SAS token) said to be set, not shown.
  host.out.print('  ' + fnName + '(' + t.args.concat([shownDir, withoutSecrets(effective)]).map(function (a) { return JSON.stringify(a); }).join(', ') + ')');
  if (leftOut.length) host.out.print('  (preset options not taken by ' + fnName + ', left out: ' + leftOut.join(', ') + ')');
  var call = { i: host.util.dumpInstance, s: host.util.dumpSchemas, t: host.util.dumpTables }[t.fn];
  try {
    call.apply(null, args);
  } catch (e) {
    throw new UserError('DUMP_FAILED', fnName + ' failed: ' + secrets.scrub(String(e.message), outputDir));
  }
  host.out.print('Dump written to ' + shownDir + '. Check it with restore.inspect(' + JSON.stringify(shownDir) + ').');
  return { function: fnName, outputDir: shownDir, preset: preset ? preset.name : null, options: withoutSecrets(effective),
    schemas: t.fn === 's' ? t.args[0] : null, schema: t.fn === 't' ? t.args[0] : null, tables: t.fn === 't' ? t.args[1] : null };
}

module.exports = { dumpRun: dumpRun };
