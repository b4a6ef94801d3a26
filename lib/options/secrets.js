// Every secret the plugin is given or reads, declared here once. A secret's value is never printed,
// returned (a report, outputFormat json), written into a state, progress or cache file, or put into
// an error: each printer asks isSecret / shown / withoutSecrets. The masks' key is, in addition,
// never in a statement the server records (lib/snapshot/mask-key.js).
//
// binlogs: a live server's URI may carry its password (user:password@host:port): shown without it (shown()).
// OPTIONS: restore.load's maskKey; util.loadDump's and util.dump*'s credentials (the Azure SAS
// token; a lakehouse source or target, whose pre-authenticated request URL is a credential).
// READ_BY_THE_COMPANION: the keys the plugin's own bucket reads take from the environment, the AWS
// credentials file or a credential_process (plugins/restore/restore_py/bucket_keys.py): they stay in
// the Python companion (only the request's signature leaves it), and bucket_client.py's messages
// never carry them (test/unit/secrets.test.js holds both lists to that module).
var OPTIONS = ['maskKey', 'azureStorageSasToken', 'lakehouseSource', 'lakehouseTarget'];
var READ_BY_THE_COMPANION = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'aws_secret_access_key', 'aws_session_token',
  'SecretAccessKey', 'SessionToken'];

var HIDDEN = '(set, not shown)';

// Secrets util.loadDump and util.dump* write into mysqlsh.log with every other option ("Load options:
// {…}", "Dump options: {…}", MySQL Shell 9.1), where the Shell reads them unlogged as well.
var LOGGED_BY_THE_SHELL = {
  azureStorageSasToken: 'AZURE_STORAGE_SAS_TOKEN in the environment, or sas_token in the [storage] section of the azureConfigFile ' +
    '(~/.azure/config)',
};

function isSecret(name) { return OPTIONS.indexOf(name) >= 0; }

// A value as it may be shown: a secret's is HIDDEN; the password of binlogs' live server URI too.
function shown(name, value) {
  if (name === 'binlogs' && typeof value === 'string') return value.replace(/^((?:mysql:\/\/)?[^:@/]*):[^@/]*@/, '$1:' + HIDDEN + '@');
  return isSecret(name) ? HIDDEN : value;
}

// A copy of options (a dictionary) with every secret's value HIDDEN; the same object when it holds none.
function withoutSecrets(options) {
  if (!options || typeof options !== 'object' || !Object.keys(options).some(function (k) { return isSecret(k) || k === 'binlogs'; })) return options;
  var out = {};
  Object.keys(options).forEach(function (k) { out[k] = shown(k, options[k]); });
  return out;
}

// How a wrong value is named in an error: JSON, or for a secret only its type.
function valueText(name, value) {
  if (!isSecret(name)) return JSON.stringify(value);
  return 'a ' + (value === null ? 'null' : Array.isArray(value) ? 'list' : typeof value) + ' (not shown: a secret)';
}

// The problems of options (util.loadDump's or util.dump*'s, as they will be passed) whose secret the
// Shell would write into its log (logFile), each saying where to give it instead; [] for none.
function loggedByTheShell(fn, options, logFile) {
  return Object.keys(LOGGED_BY_THE_SHELL).filter(function (k) { return options[k] !== undefined && options[k] !== null; })
    .map(function (k) {
      return k + ': ' + fn + ' writes its options into the Shell\'s log (' + logFile + ') with their values, this secret ' +
        'included. Give it as ' + LOGGED_BY_THE_SHELL[k] + ' instead: the Shell reads it there and logs nothing of it.';
    });
}

module.exports = { loggedByTheShell: loggedByTheShell, OPTIONS: OPTIONS, READ_BY_THE_COMPANION: READ_BY_THE_COMPANION, HIDDEN: HIDDEN, isSecret: isSecret, shown: shown,
  withoutSecrets: withoutSecrets, valueText: valueText };
