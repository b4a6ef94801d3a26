// Every secret the plugin is given or reads, declared here once. A secret's value is never printed,
// returned (a report, outputFormat json), written into a state, progress or cache file, or put into
// an error: each printer asks isSecret / shown / withoutSecrets. The masks' key is, in addition,
// never in a statement the server records (lib/snapshot/mask-key.js).
//
// binlogs: a live server's URI may carry its password (user:password@host:port): shown without it (shown()).
// Addresses (address, scrub): a password in one, an Object Storage pre-authenticated request's token; one that is
// no live server's is refused before rsync or ssh gets it (lib/remote/remote-source.js checkAddress).
// Statements quoted from a binary log or a dump (statement): passwords and account hashes (IDENTIFIED … AS '<hash>').
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

// A password in an address a user gives (a dump's, binlogs', restore.dump's output): user:password@host,
// up to the last @ (a password may hold @ and /), a host after it. With a scheme (mysql://, rsync://) or a port
// at the end (binlogs' live server) it is one whatever it holds, except a port and a path (rsync://bk:873/a@b) or
// a scheme's // (rsync://bk@host:873/mod);
// else not when it reads as a backup host's path (bk:/srv/a@b, bk:./x@y, bk:~/x@y) or a Windows one (C:\x@y).
var USERINFO = /^((?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?)([^:@/\s]*):(.*)@((?:\[[^\]@]*\]|[^:@/\s[\]]+)(:\d*)?(?:\/[^@]*)?)$/;
// An Object Storage pre-authenticated request URL (https://…/p/<token>/n/…): the token is the credential.
var PAR = /^(https?:\/\/[^/]*\/p\/)([^/]+)/i;

// The secrets of an address, each {at, text}: [] for none.
function addressSecrets(text) {
  if (typeof text !== 'string') return [];
  var out = [];
  var m = USERINFO.exec(text);
  if (m && m[3] !== '' && !/^(\d+\/|\/\/)/.test(m[3]) && (m[1] || m[5] || !/^[/.~\\]/.test(m[3]))) out.push({ at: m[1].length + m[2].length + 1, text: m[3] });
  var p = PAR.exec(text);
  if (p) out.push({ at: p[1].length, text: p[2] });
  return out;
}

// An address as it may be shown: its password and a pre-authenticated request's token HIDDEN.
function address(text) {
  return addressSecrets(text).sort(function (a, b) { return b.at - a.at; }).reduce(function (t, x) {
    return t.slice(0, x.at) + HIDDEN + t.slice(x.at + x.text.length);
  }, text);
}

// A text (the Shell's or a program's words) that may quote an address, with the address's secrets HIDDEN:
// the address as a whole, then each secret anywhere (one of under 4 characters would hide parts of words).
function scrub(text, addressText) {
  if (typeof text !== 'string') return text;
  var t = typeof addressText === 'string' && addressText !== '' ? text.split(addressText).join(address(addressText)) : text;
  return addressSecrets(addressText).filter(function (x) { return x.text.length >= 4; })
    .reduce(function (said, x) { return said.split(x.text).join(HIDDEN); }, t);
}

// Statements that may carry a password or an account's hash (CREATE / ALTER USER … IDENTIFIED BY | AS, SET PASSWORD,
// CHANGE REPLICATION SOURCE … SOURCE_PASSWORD, START REPLICA … PASSWORD, CLONE … IDENTIFIED BY, CREATE SERVER … PASSWORD):
// from the first such word on, every literal (strings, X'…', 0x…) is HIDDEN, an unterminated one (a cut text) too.
var LITERAL = /'(?:[^'\\]|\\[\s\S]|'')*(?:'|$)|"(?:[^"\\]|\\[\s\S]|"")*(?:"|$)|\b[xX]'[0-9A-Fa-f]*(?:'|$)|\b0[xX][0-9A-Fa-f]+\b/;
var PASSWORD_WORD = /\b(?:IDENTIFIED|PASSWORD|SOURCE_PASSWORD|MASTER_PASSWORD)\b/i;

// A statement's text (a binary log's, a dump's) as it may be shown.
function statement(text) {
  if (typeof text !== 'string' || !PASSWORD_WORD.test(text)) return text;
  var tokens = new RegExp(LITERAL.source + '|' + PASSWORD_WORD.source, 'gi');
  var hiding = false;
  return text.replace(tokens, function (t) {
    if (PASSWORD_WORD.test(t) && !/^['"]|^[xX]'|^0[xX]/.test(t)) { hiding = true; return t; }
    return hiding ? "'" + HIDDEN + "'" : t;
  });
}

// Whether an address carries a secret (a password, a pre-authenticated request's token).
function hasSecret(text) { return address(text) !== text; }

// A value as it may be shown: a secret's is HIDDEN; the password of binlogs' live server URI too.
function shown(name, value) {
  if (name === 'binlogs') return address(value);
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

module.exports = { address: address, scrub: scrub, statement: statement, hasSecret: hasSecret, loggedByTheShell: loggedByTheShell, OPTIONS: OPTIONS, READ_BY_THE_COMPANION: READ_BY_THE_COMPANION, HIDDEN: HIDDEN, isSecret: isSecret, shown: shown,
  withoutSecrets: withoutSecrets, valueText: valueText };
