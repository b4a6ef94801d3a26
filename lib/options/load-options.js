// util.loadDump's options: name, type and the MySQL Shell version that introduced each one.
// A copy of the util.loadDump part of ../shared/mysqlsh-contract/options.json (plugin code cannot
// read that file at run time; test/unit/options-contract.test.js keeps the two equal). Used to
// refuse, before anything happens, an option the running Shell does not know, with the nearest
// valid name, instead of letting util.loadDump fail after the server was already changed.
var UserError = require('../core/user-error.js').UserError;
var atLeast = require('./shell-version.js').atLeast;
var closestName = require('./closest-name.js').closestName;
var limitProblem = require('./number-limits.js').limitProblem;
var valueText = require('./secrets.js').valueText;

var LOAD_DUMP_OPTIONS = {
  threads: { type: 'uint', since: '8.0.21' },
  backgroundThreads: { type: 'uint', since: '8.0.27' },
  showProgress: { type: 'bool', since: '8.0.21' },
  waitDumpTimeout: { type: 'float', since: '8.0.21' },
  loadData: { type: 'bool', since: '8.0.21' },
  loadDdl: { type: 'bool', since: '8.0.21' },
  loadUsers: { type: 'bool', since: '8.0.21' },
  dryRun: { type: 'bool', since: '8.0.21' },
  resetProgress: { type: 'bool', since: '8.0.21' },
  progressFile: { type: 'string', since: '8.0.21' },
  includeSchemas: { type: 'array', since: '8.0.21' },
  excludeSchemas: { type: 'array', since: '8.0.21' },
  includeTables: { type: 'array', since: '8.0.21' },
  excludeTables: { type: 'array', since: '8.0.21' },
  includeUsers: { type: 'array', since: '8.0.22' },
  excludeUsers: { type: 'array', since: '8.0.22' },
  includeEvents: { type: 'array', since: '8.0.28' },
  excludeEvents: { type: 'array', since: '8.0.28' },
  includeRoutines: { type: 'array', since: '8.0.28' },
  excludeRoutines: { type: 'array', since: '8.0.28' },
  includeTriggers: { type: 'array', since: '8.0.28' },
  excludeTriggers: { type: 'array', since: '8.0.28' },
  includeLibraries: { type: 'array', since: '9.3.0' },
  excludeLibraries: { type: 'array', since: '9.3.0' },
  characterSet: { type: 'string', since: '8.0.21' },
  skipBinlog: { type: 'bool', since: '8.0.21' },
  ignoreExistingObjects: { type: 'bool', since: '8.0.21' },
  dropExistingObjects: { type: 'bool', since: '9.1.0' },
  ignoreVersion: { type: 'bool', since: '8.0.21' },
  analyzeTables: { type: 'enum', since: '8.0.21', values: ['off', 'on', 'histogram'] },
  deferTableIndexes: { type: 'enum', since: '8.0.21', values: ['off', 'fulltext', 'all'] },
  loadIndexes: { type: 'bool', since: '8.0.21' },
  schema: { type: 'string', since: '8.0.22' },
  updateGtidSet: { type: 'enum', since: '8.0.22', values: ['off', 'replace', 'append'] },
  showMetadata: { type: 'bool', since: '8.0.24' },
  createInvisiblePKs: { type: 'bool', since: '8.0.24' },
  maxBytesPerTransaction: { type: 'string', since: '8.0.27' },
  sessionInitSql: { type: 'array', since: '8.0.30' },
  handleGrantErrors: { type: 'enum', since: '8.0.33', values: ['abort', 'drop_account', 'ignore'] },
  checksum: { type: 'bool', since: '8.3.0' },
  disableBulkLoad: { type: 'bool', since: '8.4.0' },
  lakehouseSource: { type: 'dict', since: '9.5.0' },
  convertInnoDbVectorStore: { type: 'enum', since: '9.5.0', values: ['auto', 'convert', 'keep', 'skip'] },
  heatwaveLoad: { type: 'enum', since: '9.5.0', values: ['vector_store', 'none'] },
  osBucketName: { type: 'string', since: '8.0.21' },
  osNamespace: { type: 'string', since: '8.0.21' },
  ociConfigFile: { type: 'string', since: '8.0.21' },
  ociProfile: { type: 'string', since: '8.0.21' },
  ociAuth: { type: 'string', since: '9.0.0' },
  s3BucketName: { type: 'string', since: '8.0.30' },
  s3CredentialsFile: { type: 'string', since: '8.0.30' },
  s3ConfigFile: { type: 'string', since: '8.0.30' },
  s3Profile: { type: 'string', since: '8.0.30' },
  s3EndpointOverride: { type: 'string', since: '8.0.30' },
  s3Region: { type: 'string', since: '8.0.32' },
  azureContainerName: { type: 'string', since: '8.0.32' },
  azureConfigFile: { type: 'string', since: '8.0.32' },
  azureStorageAccount: { type: 'string', since: '8.0.32' },
  azureStorageSasToken: { type: 'string', since: '8.0.32' },
};

function isLoadDumpOption(name) {
  return Object.prototype.hasOwnProperty.call(LOAD_DUMP_OPTIONS, name);
}

function knownBy(shellVersion) {
  return Object.keys(LOAD_DUMP_OPTIONS).filter(function (n) { return atLeast(shellVersion, LOAD_DUMP_OPTIONS[n].since); });
}

// Refuses option names util.loadDump of this Shell version would refuse. ownNames: the names
// the caller handles itself (restore.load's own options), offered as suggestions too.
function checkLoadDumpOptionNames(names, shellVersion, ownNames) {
  var known = knownBy(shellVersion);
  names.forEach(function (name) {
    if (known.indexOf(name) >= 0) return;
    if (isLoadDumpOption(name)) {
      throw new UserError('SHELL_TOO_OLD', 'Option \'' + name + '\' is a util.loadDump option from MySQL Shell ' +
        LOAD_DUMP_OPTIONS[name].since + ' on; this Shell is ' + shellVersion + '. Remove it, or upgrade MySQL Shell.' +
        (name === 'dropExistingObjects' ? ' To drop the objects the load will create, use dropExisting: true.' : ''));
    }
    var near = closestName(name, known.concat(ownNames || []));
    throw new UserError('OPTION_UNKNOWN', 'Unknown option \'' + name + '\': it is neither a util.loadDump option of MySQL Shell ' +
      shellVersion + ' nor an option of restore.load.' + (near ? ' Did you mean \'' + near + '\'?' : '') +
      ' Option names are case-sensitive.');
  });
}

var TYPE_TESTS = {
  uint: function (v) { return typeof v === 'number' && v >= 0 && Math.floor(v) === v; },
  bool: function (v) { return typeof v === 'boolean'; },
  float: function (v) { return typeof v === 'number'; },
  string: function (v) { return typeof v === 'string'; },
  enum: function (v) { return typeof v === 'string'; },
  array: function (v) { return Array.isArray(v); },
  dict: function (v) { return !!v && typeof v === 'object' && !Array.isArray(v); },
};

var TYPE_WORDS = { uint: 'a whole number', bool: 'true or false', float: 'a number', string: 'a string',
  enum: 'a string', array: 'a list', dict: 'a dictionary' };

// null, or what is wrong with value for util.loadDump option name (for preset files).
function loadDumpValueProblem(name, value) {
  var spec = LOAD_DUMP_OPTIONS[name];
  if (!TYPE_TESTS[spec.type](value)) return 'must be ' + TYPE_WORDS[spec.type] + ', not ' + valueText(name, value);
  if (spec.values && spec.values.indexOf(String(value).toLowerCase()) < 0) {
    return 'must be one of ' + spec.values.join(', ') + ', not ' + valueText(name, value);
  }
  return limitProblem(name, value);
}

module.exports = { LOAD_DUMP_OPTIONS: LOAD_DUMP_OPTIONS, isLoadDumpOption: isLoadDumpOption, knownBy: knownBy,
  checkLoadDumpOptionNames: checkLoadDumpOptionNames, loadDumpValueProblem: loadDumpValueProblem };
