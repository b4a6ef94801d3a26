'use strict';
// util.dump* options → one plain settings object, with the checks the Shell makes while it reads
// the options (loader-internals §5.2; texts from mysql-shell's dump option sources and tests).
// Problems found while reading the options carry `Argument #N: `, like every option error.
const { validateOptions } = require('./option-validation');
const { shellThrowable } = require('../shell-errors');
const { toPlain } = require('../values');
const { parseByteSize } = require('./dump-byte-units');
const { parseSchemaObject, parseTriggerFilter, parseTableKey, parseAccount } = require('./dump-object-names');

const MIN_BYTES_PER_CHUNK = 128000;

// Order in which the Shell lists compatibility options in @.json (its enum order).
const COMPATIBILITY_OPTIONS = ['create_invisible_pks', 'force_innodb', 'ignore_missing_pks', 'strip_definers',
  'strip_restricted_grants', 'strip_tablespaces', 'skip_invalid_accounts', 'strip_invalid_grants',
  'ignore_wildcard_grants', 'force_non_standard_fks'];

// Options the stand-in accepts as the Shell does but cannot honour: it says so instead of
// writing a dump that silently differs.
const NOT_EMULATED = ['osBucketName', 'osNamespace', 'ociConfigFile', 'ociProfile', 'ociAuth', 's3BucketName',
  's3CredentialsFile', 's3ConfigFile', 's3Profile', 's3EndpointOverride', 's3Region', 'azureContainerName',
  'azureConfigFile', 'azureStorageAccount', 'azureStorageSasToken', 'lakehouseTarget'];
const DEFAULT_DIALECT = { fieldsTerminatedBy: '\t', fieldsEnclosedBy: '', fieldsOptionallyEnclosed: false,
  fieldsEscapedBy: '\\', linesTerminatedBy: '\n' };

// Character sets the data files can be written in (the session sends text in this set).
const FILE_ENCODINGS = { utf8mb4: 'utf8', utf8mb3: 'utf8', utf8: 'utf8', latin1: 'latin1', ascii: 'ascii' };

function toBool(v) {
  if (typeof v === 'string') return /^(true|1)$/i.test(v);
  return Boolean(v);
}

function defaultBytesPerChunk(profile) {
  return profile.atLeast('8.0.22') ? 64000000 : 32000000;
}

function parseCompression(text) {
  if (text === '') throw new Error("The option 'compression' cannot be set to an empty string.");
  const [name, ...params] = String(text).split(';');
  if (!['none', 'gzip', 'zstd'].includes(name)) throw new Error(`Unknown compression type: ${name}`);
  let level = null;
  for (const p of params) {
    const m = /^level=(\d+)$/.exec(p.trim());
    if (!m || name === 'none') throw new Error(`Unknown compression option: ${p}`);
    level = Number(m[1]);
  }
  return { compression: name, level };
}

function objectFilters(list, kind, action) {
  return (list ? Array.from(list) : []).map((t) => parseSchemaObject(String(t), kind, action));
}

// fn: 'util.dumpInstance' | 'util.dumpSchemas' | 'util.dumpTables'.
function readDumpOptions(profile, fn, rawOptions, argIndex) {
  const where = fn.replace('util.', 'Util.');
  const given = toPlain(validateOptions(profile, fn, rawOptions, argIndex));
  const argError = (message) => shellThrowable(profile, 'ArgumentError', `Argument #${argIndex}: ${message}`, undefined, where);
  const attempt = (f) => { try { return f(); } catch (e) { throw argError(e.message); } };
  const has = (name) => Object.prototype.hasOwnProperty.call(given, name);
  const bool = (name, dflt) => (has(name) ? toBool(given[name]) : dflt);

  for (const name of NOT_EMULATED) {
    if (has(name)) throw new Error(`stand-in: util.dump* option '${name}' is not emulated (local directories only)`);
  }
  if (has('checksum') && toBool(given.checksum)) throw new Error("stand-in: util.dump* option 'checksum: true' is not emulated");
  if (has('dialect') && !['default', 'tsv'].includes(given.dialect)) {
    if (given.dialect === 'json') throw argError("The 'json' dialect is not supported.");
    throw new Error(`stand-in: util.dump* dialect '${given.dialect}' is not emulated`);
  }
  for (const [name, value] of Object.entries(DEFAULT_DIALECT)) {
    if (has(name) && given[name] !== value) throw new Error(`stand-in: util.dump* option '${name}' is not emulated`);
  }

  const settings = {
    originalOptions: rawOptions === undefined || rawOptions === null ? null : given,
    chunking: bool('chunking', true),
    bytesPerChunk: defaultBytesPerChunk(profile),
    threads: has('threads') ? Number(given.threads) : 4,
    compression: 'zstd',
    compressionLevel: null,
    ddl: !bool('dataOnly', false),
    data: !bool('ddlOnly', false),
    dryRun: bool('dryRun', false),
    consistent: bool('consistent', true),
    tzUtc: bool('tzUtc', true),
    showProgress: bool('showProgress', false),
    charset: has('defaultCharacterSet') ? given.defaultCharacterSet : 'utf8mb4',
    ocimds: bool('ocimds', false),
    compatibility: [],
    triggers: bool('triggers', true),
    events: fn !== 'util.dumpTables' && bool('events', true),
    routines: fn !== 'util.dumpTables' && bool('routines', true),
    users: fn === 'util.dumpInstance' && bool('users', true),
    all: bool('all', false),
    targetVersion: has('targetVersion') ? given.targetVersion : profile.version,
    filters: {},
    where: new Map(),
    partitions: new Map(),
  };

  if (!FILE_ENCODINGS[String(settings.charset).toLowerCase()]) {
    throw new Error(`stand-in: util.dump* defaultCharacterSet '${settings.charset}' is not emulated`);
  }
  settings.fileEncoding = FILE_ENCODINGS[String(settings.charset).toLowerCase()];
  if (has('maxRate') && given.maxRate !== '') attempt(() => parseByteSize(given.maxRate));
  if (has('compression')) {
    const c = attempt(() => parseCompression(given.compression));
    settings.compression = c.compression;
    settings.compressionLevel = c.level;
  }
  // `chunking` is read before `bytesPerChunk` whatever order the user wrote them in.
  if (has('bytesPerChunk')) {
    if (given.bytesPerChunk === '') throw argError("The option 'bytesPerChunk' cannot be set to an empty string.");
    if (!settings.chunking) throw argError("The option 'bytesPerChunk' cannot be used if the 'chunking' option is set to false.");
    settings.bytesPerChunk = attempt(() => parseByteSize(String(given.bytesPerChunk)));
  }
  if (has('compatibility')) {
    const chosen = new Set(Array.from(given.compatibility, String));
    for (const c of chosen) if (!COMPATIBILITY_OPTIONS.includes(c)) throw argError(`Unknown compatibility option: ${c}`);
    settings.compatibility = COMPATIBILITY_OPTIONS.filter((c) => chosen.has(c));
  }
  settings.filters = readFilters(given, fn, attempt);
  if (has('where')) {
    for (const [key, condition] of Object.entries(given.where)) {
      const t = attempt(() => parseTableKey(key, 'where'));
      if (condition === '') continue;
      if (!balancedParentheses(String(condition))) {
        throw argError(`Malformed condition used for table '${t.schema}'.'${t.name}': ${condition}`);
      }
      settings.where.set(tableKey(t.schema, t.name), `(${condition})`);
    }
  }
  if (has('partitions')) {
    for (const [key, names] of Object.entries(given.partitions)) {
      const t = attempt(() => parseTableKey(key, 'partitions'));
      const list = Array.from(names || [], String);
      if (list.length) settings.partitions.set(tableKey(t.schema, t.name), { schema: t.schema, table: t.name, names: list });
    }
  }

  if (settings.bytesPerChunk < MIN_BYTES_PER_CHUNK) {
    throw argError("The value of 'bytesPerChunk' option must be greater than or equal to 128k.");
  }
  if (settings.threads === 0) throw argError("The value of 'threads' option must be greater than 0.");
  if (!settings.ddl && !settings.data) throw argError("The 'ddlOnly' and 'dataOnly' options cannot be both set to true.");
  if (settings.compatibility.includes('create_invisible_pks') && settings.compatibility.includes('ignore_missing_pks')) {
    throw argError("The 'create_invisible_pks' and 'ignore_missing_pks' compatibility options cannot be used at the same time.");
  }
  if (fn === 'util.dumpInstance' && !settings.users) {
    if (settings.filters.excludeUsers.length) throw argError("The 'excludeUsers' option cannot be used if the 'users' option is set to false.");
    if (settings.filters.includeUsers) throw argError("The 'includeUsers' option cannot be used if the 'users' option is set to false.");
  }
  return settings;
}

function readFilters(given, fn, attempt) {
  const list = (name) => (given[name] === undefined ? null : Array.from(given[name], String));
  const f = {
    includeSchemas: list('includeSchemas'),
    excludeSchemas: list('excludeSchemas') || [],
    includeTables: null,
    excludeTables: [],
    includeEvents: null,
    excludeEvents: [],
    includeRoutines: null,
    excludeRoutines: [],
    includeTriggers: null,
    excludeTriggers: [],
    includeUsers: null,
    excludeUsers: [],
  };
  if (fn === 'util.dumpInstance' && f.includeSchemas && !f.includeSchemas.length) f.includeSchemas = null;
  attempt(() => {
    if (given.includeTables) f.includeTables = objectFilters(given.includeTables, 'table', 'included');
    f.excludeTables = objectFilters(given.excludeTables, 'table', 'excluded');
    if (given.includeEvents) f.includeEvents = objectFilters(given.includeEvents, 'event', 'included');
    f.excludeEvents = objectFilters(given.excludeEvents, 'event', 'excluded');
    if (given.includeRoutines) f.includeRoutines = objectFilters(given.includeRoutines, 'routine', 'included');
    f.excludeRoutines = objectFilters(given.excludeRoutines, 'routine', 'excluded');
    if (given.includeTriggers) f.includeTriggers = Array.from(given.includeTriggers, (t) => parseTriggerFilter(String(t), 'include'));
    f.excludeTriggers = Array.from(given.excludeTriggers || [], (t) => parseTriggerFilter(String(t), 'exclude'));
    if (given.includeUsers) f.includeUsers = Array.from(given.includeUsers, (u) => parseAccount(String(u)));
    f.excludeUsers = Array.from(given.excludeUsers || [], (u) => parseAccount(String(u)));
  });
  for (const key of ['includeTables', 'includeEvents', 'includeRoutines', 'includeTriggers', 'includeUsers']) {
    if (f[key] && !f[key].length) f[key] = null;
  }
  f.conflicts = filterConflicts(f);
  return f;
}

// Objects named by both an include and an exclude option: one ERROR line each, then the Shell
// stops with "Conflicting filtering options".
function filterConflicts(f) {
  const id = (n) => `\`${n.replace(/`/g, '``')}\``;
  const out = (f.includeSchemas || []).filter((s) => f.excludeSchemas.includes(s))
    .map((s) => `Both includeSchemas and excludeSchemas options contain a schema ${id(s)}.`);
  const kinds = [['Tables', 'a table'], ['Events', 'an event'], ['Routines', 'a routine']];
  for (const [kind, noun] of kinds) {
    for (const o of f[`include${kind}`] || []) {
      if (f[`exclude${kind}`].some((x) => x.schema === o.schema && x.name === o.name)) {
        out.push(`Both include${kind} and exclude${kind} options contain ${noun} ${id(o.schema)}.${id(o.name)}.`);
      }
    }
  }
  return out;
}

// The Shell refuses a `where` condition whose parentheses do not pair up (an injection guard).
function balancedParentheses(sql) {
  let depth = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      const close = sql.indexOf(c, i + 1);
      if (close < 0) return false;
      i = close;
    } else if (c === '(') {
      depth++;
    } else if (c === ')' && --depth < 0) {
      return false;
    }
  }
  return depth === 0;
}

function tableKey(schema, table) { return `${schema}\u0000${table}`; }

module.exports = { readDumpOptions, tableKey, COMPATIBILITY_OPTIONS };
