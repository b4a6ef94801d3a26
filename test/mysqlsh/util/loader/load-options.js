'use strict';
// util.loadDump's options: types and names (option-validation.js, options.json), defaults, and the
// cross-option checks of loader-internals §5.1. Every problem is `Argument #2: …`, as in the Shell.
const { validateOptions } = require('../option-validation');
const { shellThrowable } = require('../../shell-errors');
const { parseFilters } = require('./load-filters');

const WHERE = 'Util.loadDump';

const DEFAULTS = {
  threads: 4, showProgress: false, waitDumpTimeout: 0, loadData: true, loadDdl: true, loadUsers: false,
  dryRun: false, resetProgress: false, skipBinlog: false, ignoreExistingObjects: false,
  dropExistingObjects: false, ignoreVersion: false, analyzeTables: 'off', deferTableIndexes: 'fulltext',
  loadIndexes: true, updateGtidSet: 'off', showMetadata: false, sessionInitSql: [], checksum: false,
  disableBulkLoad: false, handleGrantErrors: 'abort',
};

const BOOLEANS = ['showProgress', 'loadData', 'loadDdl', 'loadUsers', 'dryRun', 'resetProgress', 'skipBinlog',
  'ignoreExistingObjects', 'dropExistingObjects', 'ignoreVersion', 'loadIndexes', 'showMetadata',
  'createInvisiblePKs', 'checksum', 'disableBulkLoad'];

// Remote storage the stand-in cannot reach: each bucket option and its dependants.
const STORAGE = {
  osBucketName: ['osNamespace', 'ociConfigFile', 'ociProfile', 'ociAuth'],
  s3BucketName: ['s3CredentialsFile', 's3ConfigFile', 's3Profile', 's3EndpointOverride', 's3Region'],
  azureContainerName: ['azureConfigFile', 'azureStorageAccount', 'azureStorageSasToken'],
};

const toBool = (v) => (typeof v === 'string' ? /^(true|1)$/i.test(v) : Boolean(v));

function parseBytes(text) {
  const m = /^\s*(\d+)\s*([kKmMgG]?)\s*$/.exec(text);
  if (!m) return NaN;
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase()];
  return Number(m[1]) * unit;
}

// Returns { opts, filters }. `out.error` prints the ERROR lines of filter conflicts.
function parseLoadOptions(profile, options, out) {
  const given = validateOptions(profile, 'util.loadDump', options, 2);
  const fail = (message, type = 'ArgumentError') => {
    throw shellThrowable(profile, type, `Argument #2: ${message}`, undefined, WHERE);
  };
  const opts = { ...DEFAULTS, ...given };
  for (const name of BOOLEANS) if (name in opts) opts[name] = toBool(opts[name]);
  for (const name of ['threads', 'backgroundThreads', 'waitDumpTimeout']) {
    if (name in given) opts[name] = Number(given[name]);
  }
  opts.sessionInitSql = Array.from(opts.sessionInitSql || [], String);

  for (const [bucket, dependants] of Object.entries(STORAGE)) {
    for (const d of dependants) {
      if (d in given && !given[bucket]) fail(`The option '${d}' cannot be used when the value of '${bucket}' option is not set.`);
    }
    if (given[bucket]) fail(`stand-in: loading from '${bucket}' storage is not emulated; use a local directory.`);
  }
  if ('maxBytesPerTransaction' in given) {
    const text = String(given.maxBytesPerTransaction);
    if (!text.trim()) fail("The option 'maxBytesPerTransaction' cannot be set to an empty string.");
    const bytes = parseBytes(text);
    if (Number.isNaN(bytes)) fail(`Wrong input number "${text}"`);
    if (bytes < 4096) fail("The value of 'maxBytesPerTransaction' option must be greater than or equal to 4096 bytes.");
    opts.maxBytesPerTransaction = bytes;
  }
  const somethingElse = opts.analyzeTables !== 'off' || opts.updateGtidSet !== 'off' || opts.checksum;
  if (!opts.loadData && !opts.loadDdl && !opts.loadUsers && !somethingElse) {
    fail('At least one of loadData, loadDdl or loadUsers options must be enabled');
  }
  if (!opts.loadIndexes && opts.deferTableIndexes === 'off') {
    fail("'deferTableIndexes' option needs to be enabled when 'loadIndexes' option is disabled");
  }
  for (const name of ['excludeUsers', 'includeUsers']) {
    if (name in given && !opts.loadUsers) fail(`The '${name}' option cannot be used if the 'loadUsers' option is set to false.`);
  }
  if (opts.dropExistingObjects && opts.ignoreExistingObjects) {
    fail("The 'dropExistingObjects' and 'ignoreExistingObjects' options cannot be both set to true.");
  }
  if (opts.dropExistingObjects && !opts.loadDdl) {
    fail("The 'dropExistingObjects' option cannot be set to true when the 'loadDdl' option is set to false.");
  }
  const filters = parseFilters(opts, {
    notIncludedSuffix: profile.atLeast('9.6.0') ? '.' : ' in the dump.',
    fail,
    error: (line) => out.error(line),
  });
  return { opts, filters };
}

module.exports = { parseLoadOptions, DEFAULTS };
