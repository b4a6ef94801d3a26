// Reading the JSON metadata of a dump: any file by name (errors name the file), the format
// version check, and the facts of `@.json` and `@.done.json` that differ between formats
// 1.0.0, 1.0.1, 1.0.2 and 2.0.1 (contract §2).
var UserError = require('../core/user-error.js').UserError;
var memberReader = require('./loader-json.js').memberReader;
var cast = require('./loader-json.js').cast;

// The newest format MySQL Shell writes (8.0.27 … 9.6). A newer 2.x is read as 2.0.1 with a
// warning; a new major means a layout this code does not know.
var NEWEST_FORMAT = '2.0.1';

function readText(host, path) {
  try {
    return host.files.loadText(path);
  } catch (e) {
    var why = String((e && e.message) || e);
    if (why.indexOf(path + ': ') === 0) why = why.slice(path.length + 2); // os.loadTextFile names the path too
    throw new UserError('DUMP_UNREADABLE', 'Cannot read ' + path + ': ' + why + '. Check that the file exists and that the user ' +
      'running mysqlsh may read it.');
  }
}

function invalidJson(path, why) {
  return new UserError('DUMP_DAMAGED', path + ' is not valid JSON (' + why + '): the file is truncated or damaged. If the ' +
    'dump is still being written, wait for it to finish; otherwise copy this file again from the original dump.');
}

function checkObject(value, path) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new UserError('DUMP_DAMAGED', path + ' does not hold a JSON object: it is not MySQL Shell dump metadata, or it is damaged.');
  }
  return value;
}

function readJsonFile(host, path) {
  var text = readText(host, path);
  var value;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw invalidJson(path, e.message);
  }
  return checkObject(value, path);
}

function parseFormat(version, path) {
  var m = /^(\d+)\.(\d+)\.(\d+)$/.exec(String(version));
  if (!m) {
    throw new UserError('DUMP_DAMAGED', path + ' has no readable dump format version ("version": ' + JSON.stringify(version).slice(0, 40) +
      '): it was not written by MySQL Shell, or it is damaged.');
  }
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function compareFormats(a, b) {
  for (var i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

// Returns {format, newerThanKnown}; throws for a major version above 2.
function checkFormat(root, path) {
  // No "version" at all: util.loadDump takes it as older than any format and loads it (9.1.0
  // dump_reader.cc reads the member only when present); read here as the oldest, 1.0.0.
  if (root.version === undefined) return { format: '1.0.0', newerThanKnown: false, unsupported: false, unrecorded: true };
  var parts = parseFormat(root.version, path);
  if (parts[0] > 2) {
    throw new UserError('DUMP_VERSION_UNSUPPORTED', 'The dump in ' + path.replace(/[\/\\]@\.json$/, '') + ' has format ' + root.version +
      ', newer than the formats this plugin reads (1.0.0 to 2.x; newest known ' + NEWEST_FORMAT + '). It was ' +
      'written by ' + (root.dumper || 'a newer MySQL Shell') + '. Update mysqlsh-restore to inspect it.');
  }
  // MySQL Shell 9.1.0 modules/util/load/dump_loader.cc: a major above 2, or major 2 with a minor
  // above 0, is "Unsupported dump version".
  return { format: root.version, newerThanKnown: compareFormats(parts, parseFormat(NEWEST_FORMAT)) > 0,
    unsupported: parts[0] === 2 && parts[1] > 0 };
}

// `origin` exists from format 1.0.2. Before it, a `users` list means dumpInstance and
// `tableOnly: true` (8.0.22 only) means dumpTables; otherwise the kind was not recorded (null).
function dumpOrigin(root) {
  if (typeof root.origin === 'string') return root.origin;
  if (Array.isArray(root.users)) return 'dumpInstance';
  if (root.tableOnly === true) return 'dumpTables';
  return null;
}

// {schema: {table: number}} → lookup(schema, table) → number or null.
function nestedNumber(map) {
  return function (schema, table) {
    var s = map && Object.prototype.hasOwnProperty.call(map, schema) ? map[schema] : null;
    var v = s && Object.prototype.hasOwnProperty.call(s, table) ? s[table] : null;
    return typeof v === 'number' ? v : null;
  };
}

// The parts of `@.done.json` inspect uses. done: from done-file.js readDoneFile, or null
// (unfinished dump); figures: its tableFigures, or null (then no table has figures).
function doneFacts(done, figures) {
  var json = done ? done.json : null;
  return {
    dataBytes: json && typeof json.dataBytes === 'number' ? json.dataBytes : null,
    tableDataBytes: nestedNumber(figures && figures.tableDataBytes),
    tableRows: nestedNumber(figures && figures.tableRows),
    // chunkFileBytes exists from format 1.0.1 (Shell 8.0.22): then it lists every data file written.
    chunkList: done && done.chunks ? done : null,
  };
}

// @.json's members as util.loadDump reads them besides schemas and basenames (dump-catalog.js):
// MySQL Shell 9.1.0 modules/util/load/dump_reader.cc Dump_reader::open. report(fact) gets each
// member it would stop on.
var ROOT_MEMBERS = [['version', 'String'], ['targetVersion', 'String'], ['origin', 'String'],
  ['defaultCharacterSet', 'String'], ['gtidExecutedInconsistent', 'Bool'], ['tzUtc', 'Bool'],
  ['mdsCompatibility', 'Bool'], ['tableOnly', 'Bool'], ['bytesPerChunk', 'UInteger'], ['checksum', 'Bool'],
  ['compatibilityOptions', 'Array']];
// Read only when there is no "source" (9.1+ writes the same facts inside it).
var LEGACY_MEMBERS = [['serverVersion', 'String'], ['binlogFile', 'String'], ['binlogPosition', 'UInteger'],
  ['gtidExecuted', 'String'], ['partialRevokes', 'Bool']];

function rootTypeProblems(root, report) {
  var r = memberReader('@.json', report);
  ROOT_MEMBERS.forEach(function (m) { r.get(root, m[0], m[1]); });
  r.entries(r.get(root, 'compatibilityOptions', 'Array'), 'AnyString', 'compatibilityOptions');
  var source = r.get(root, 'source', 'Map');
  if (source == null) {
    LEGACY_MEMBERS.forEach(function (m) { r.get(root, m[0], m[1]); });
  } else {
    var binlog = r.get(source, 'binlog', 'Map', 'source.binlog');
    if (binlog) {
      r.require(binlog, 'file', 'String', 'source.binlog.file');
      r.require(binlog, 'position', 'UInteger', 'source.binlog.position');
    }
    r.entries(r.require(source, 'sysvars', 'Map', 'source.sysvars'), 'AnyString', 'source.sysvars');
  }
  (r.get(root, 'capabilities', 'Array') || []).some(function (c, i) {
    var at = 'capabilities[' + i + ']';
    if (cast('Map', c).error) { r.get({ c: c }, 'c', 'Map', at); return true; }
    return ['id', 'description', 'versionRequired'].some(function (k) {
      return r.require(c, k, 'AnyString', at + '.' + k) == null;
    });
  });
}

// When a dump's snapshot was taken, as its @.json records it ("begin"), or null (unreadable,
// damaged or not recorded): to pick the newest of a folder of dumps without reading any further.
function recordedBegin(host, atJsonPath) {
  try {
    var v = JSON.parse(host.files.loadText(atJsonPath)).begin;
    return typeof v === 'string' ? v : null;
  } catch (e) {
    return null;
  }
}

function ownValue(map, key) {
  return map && typeof map === 'object' && Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

// Where the dump ends in its source's history: {gtidExecuted, binlogFile, binlogPosition} as @.json
// records them (9.1+ in "source": {binlog: {file, position, gtidExecuted}}; the legacy members at the
// top), each null when not recorded.
function sourcePosition(root) {
  var src = root && root.source && typeof root.source === 'object' ? root.source : null;
  var binlog = src && src.binlog ? src.binlog : null;
  var text = function (v) { return typeof v === 'string' && v.trim() !== '' ? v : null; };
  return { gtidExecuted: text(binlog && binlog.gtidExecuted) || text(root && root.gtidExecuted),
    binlogFile: text(binlog ? binlog.file : root && root.binlogFile),
    binlogPosition: binlog ? binlog.position : root && typeof root.binlogPosition === 'number' ? root.binlogPosition : null };
}

// Who the dumped server was, as the dump says: its server_uuid (source.sysvars, Shell 9.3+ dumps), else its
// address (source.topology) or host name (root.server, every dump); null when none is recorded.
function sourceIdentity(root) {
  var src = root && root.source && typeof root.source === 'object' ? root.source : {};
  var text = function (v) { return typeof v === 'string' && v.trim() !== '' ? v.trim() : null; };
  var uuid = text(src.sysvars && src.sysvars.server_uuid);
  if (uuid) return { kind: 'server_uuid', text: uuid };
  var addr = text(src.topology && src.topology.canonicalAddress) || text(root && root.server);
  return addr ? { kind: 'host', text: addr } : null;
}

module.exports = { sourcePosition: sourcePosition, sourceIdentity: sourceIdentity, rootTypeProblems: rootTypeProblems, readJsonFile: readJsonFile, readText: readText, invalidJson: invalidJson, checkObject: checkObject, checkFormat: checkFormat, dumpOrigin: dumpOrigin,
  doneFacts: doneFacts, ownValue: ownValue, recordedBegin: recordedBegin, NEWEST_FORMAT: NEWEST_FORMAT };
