// util.dumpInstance / dumpSchemas / dumpTables options: type, the MySQL Shell version that
// introduced each, and which of the three functions take it (i, s, t). A copy of the dump part of
// ../shared/mysqlsh-contract/options.json (plugin code cannot read it at run time;
// test/unit/options-contract.test.js keeps the two equal). ociParManifest and ociParExpireTime
// (8.0.22 to 8.3.x only) are left out: restore.dump does not offer them.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('./shell-version.js').atLeast;
var closestName = require('./closest-name.js').closestName;

var DUMP_OPTIONS = {
  triggers: { type: 'bool', since: '8.0.21', in: 'ist' },
  includeTriggers: { type: 'array', since: '8.0.28', in: 'ist' },
  excludeTriggers: { type: 'array', since: '8.0.28', in: 'ist' },
  where: { type: 'dict', since: '8.0.32', in: 'ist' },
  partitions: { type: 'dict', since: '8.0.32', in: 'ist' },
  chunking: { type: 'bool', since: '8.0.21', in: 'ist' },
  bytesPerChunk: { type: 'string', since: '8.0.21', in: 'ist' },
  threads: { type: 'uint', since: '8.0.21', in: 'ist' },
  maxRate: { type: 'string', since: '8.0.21', in: 'ist' },
  showProgress: { type: 'bool', since: '8.0.21', in: 'ist' },
  compression: { type: 'string', since: '8.0.21', in: 'ist' },
  defaultCharacterSet: { type: 'string', since: '8.0.21', in: 'ist' },
  tzUtc: { type: 'bool', since: '8.0.21', in: 'ist' },
  consistent: { type: 'bool', since: '8.0.21', in: 'ist' },
  ddlOnly: { type: 'bool', since: '8.0.21', in: 'ist' },
  dataOnly: { type: 'bool', since: '8.0.21', in: 'ist' },
  dryRun: { type: 'bool', since: '8.0.21', in: 'ist' },
  ocimds: { type: 'bool', since: '8.0.21', in: 'ist' },
  compatibility: { type: 'array', since: '8.0.21', in: 'ist' },
  skipConsistencyChecks: { type: 'bool', since: '8.0.32', in: 'ist' },
  dialect: { type: 'string', since: '8.0.32', in: 'ist' },
  fieldsTerminatedBy: { type: 'string', since: '8.0.32', in: 'ist' },
  fieldsEnclosedBy: { type: 'string', since: '8.0.32', in: 'ist' },
  fieldsOptionallyEnclosed: { type: 'bool', since: '8.0.32', in: 'ist' },
  fieldsEscapedBy: { type: 'string', since: '8.0.32', in: 'ist' },
  linesTerminatedBy: { type: 'string', since: '8.0.32', in: 'ist' },
  targetVersion: { type: 'string', since: '8.2.0', in: 'ist' },
  checksum: { type: 'bool', since: '8.3.0', in: 'ist' },
  skipUpgradeChecks: { type: 'bool', since: '8.4.0', in: 'ist' },
  lakehouseTarget: { type: 'dict', since: '9.5.0', in: 'ist' },
  osBucketName: { type: 'string', since: '8.0.21', in: 'ist' },
  osNamespace: { type: 'string', since: '8.0.21', in: 'ist' },
  ociConfigFile: { type: 'string', since: '8.0.21', in: 'ist' },
  ociProfile: { type: 'string', since: '8.0.21', in: 'ist' },
  ociAuth: { type: 'string', since: '9.0.0', in: 'ist' },
  s3BucketName: { type: 'string', since: '8.0.30', in: 'ist' },
  s3CredentialsFile: { type: 'string', since: '8.0.30', in: 'ist' },
  s3ConfigFile: { type: 'string', since: '8.0.30', in: 'ist' },
  s3Profile: { type: 'string', since: '8.0.30', in: 'ist' },
  s3EndpointOverride: { type: 'string', since: '8.0.30', in: 'ist' },
  s3Region: { type: 'string', since: '8.0.32', in: 'ist' },
  azureContainerName: { type: 'string', since: '8.0.32', in: 'ist' },
  azureConfigFile: { type: 'string', since: '8.0.32', in: 'ist' },
  azureStorageAccount: { type: 'string', since: '8.0.32', in: 'ist' },
  azureStorageSasToken: { type: 'string', since: '8.0.32', in: 'ist' },
  excludeTables: { type: 'array', since: '8.0.21', in: 'is' },
  includeTables: { type: 'array', since: '8.0.28', in: 'is' },
  events: { type: 'bool', since: '8.0.21', in: 'is' },
  routines: { type: 'bool', since: '8.0.21', in: 'is' },
  includeEvents: { type: 'array', since: '8.0.28', in: 'is' },
  excludeEvents: { type: 'array', since: '8.0.28', in: 'is' },
  includeRoutines: { type: 'array', since: '8.0.28', in: 'is' },
  excludeRoutines: { type: 'array', since: '8.0.28', in: 'is' },
  libraries: { type: 'bool', since: '9.3.0', in: 'is' },
  includeLibraries: { type: 'array', since: '9.3.0', in: 'is' },
  excludeLibraries: { type: 'array', since: '9.3.0', in: 'is' },
  excludeSchemas: { type: 'array', since: '8.0.21', in: 'i' },
  includeSchemas: { type: 'array', since: '8.0.28', in: 'i' },
  users: { type: 'bool', since: '8.0.21', in: 'i' },
  includeUsers: { type: 'array', since: '8.0.22', in: 'i' },
  excludeUsers: { type: 'array', since: '8.0.22', in: 'i' },
  all: { type: 'bool', since: '8.0.22', in: 't' },
};

var FUNCTIONS = { i: 'util.dumpInstance', s: 'util.dumpSchemas', t: 'util.dumpTables' };
var FUNCTION_SINCE = { i: '8.0.21', s: '8.0.21', t: '8.0.22' };

// Refuses, before anything runs, an option the chosen dump function of this Shell would refuse.
// fn: 'i' | 's' | 't'; names: the util option names about to be passed.
function checkDumpOptionNames(fn, names, shellVersion) {
  if (!atLeast(shellVersion, FUNCTION_SINCE[fn])) {
    throw new UserError('SHELL_TOO_OLD', FUNCTIONS[fn] + ' exists from MySQL Shell ' + FUNCTION_SINCE[fn] + ' on; this Shell is ' +
      shellVersion + '. Dump the whole schema instead (schemas: [...]), or upgrade MySQL Shell.');
  }
  var known = Object.keys(DUMP_OPTIONS).filter(function (n) { return appliesTo(n, fn, shellVersion); });
  names.forEach(function (name) {
    if (known.indexOf(name) >= 0) return;
    var spec = DUMP_OPTIONS[name];
    if (spec && spec.in.indexOf(fn) < 0) {
      throw new UserError('OPTION_UNKNOWN', 'Option \'' + name + '\' is not an option of ' + FUNCTIONS[fn] + ' (it belongs to ' +
        spec.in.split('').map(function (k) { return FUNCTIONS[k]; }).join(', ') + ').');
    }
    if (spec) {
      throw new UserError('SHELL_TOO_OLD', 'Option \'' + name + '\' exists in ' + FUNCTIONS[fn] + ' from MySQL Shell ' + spec.since +
        ' on; this Shell is ' + shellVersion + '. Remove it, or upgrade MySQL Shell.');
    }
    var near = closestName(name, known);
    throw new UserError('OPTION_UNKNOWN', 'Unknown option \'' + name + '\' for ' + FUNCTIONS[fn] + ' in MySQL Shell ' + shellVersion + '.' +
      (near ? ' Did you mean \'' + near + '\'?' : '') + ' Option names are case-sensitive.');
  });
}

function appliesTo(name, fn, shellVersion) {
  var spec = DUMP_OPTIONS[name];
  return !!spec && spec.in.indexOf(fn) >= 0 && atLeast(shellVersion, spec.since);
}

var MEMBER_TYPES = { uint: 'integer', bool: 'bool', string: 'string', array: 'array', dict: 'dictionary' };

// Option definitions for restore.dump: types for the command line; names are checked per call.
function dumpMemberOptions() {
  return Object.keys(DUMP_OPTIONS).map(function (name) {
    var spec = DUMP_OPTIONS[name];
    return { name: name, type: MEMBER_TYPES[spec.type], brief: 'util.dump* option (MySQL Shell ' + spec.since +
      ' and later), passed through unchanged' };
  });
}

module.exports = { DUMP_OPTIONS: DUMP_OPTIONS, FUNCTIONS: FUNCTIONS, checkDumpOptionNames: checkDumpOptionNames, appliesTo: appliesTo,
  dumpMemberOptions: dumpMemberOptions };
