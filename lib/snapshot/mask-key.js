// The masks' key on the server: the only module that puts it there. It is never in a statement's
// text, so the general log, the slow log, performance_schema's statement tables, the processlist and
// (with row events) the binary log never hold it:
// - a random key for this load is made by the server (SET @restore_mask_key = HEX(RANDOM_BYTES(32)))
//   and never leaves it;
// - maskKey goes as a one-time pad: the server makes R = RANDOM_BYTES(n) into @restore_mask_pad, the
//   client reads R (a result set is not logged) and sends key XOR R as a hex literal; the server takes
//   @restore_mask_key = R XOR that (binary-string XOR, MySQL 8.0+) and forgets R. A log then holds
//   only key XOR R. The key's bytes are maskKey's UTF-8 bytes, as when it was sent as a string, so the
//   masks (SHA2(key 0x00 value): lib/snapshot/masking.js) are those of earlier versions.
// Statements using @restore_mask_key written to the binary log as statements (binlog_format
// STATEMENT or MIXED) bring its value along (a User_var event): those sessions switch to row events
// (rowEvents below) or the load is refused before anything changes.
var UserError = require('../core/user-error.js').UserError;
var globalVariable = require('../server/server-variables.js').globalVariable;

var KEY = '@restore_mask_key';
var PAD = '@restore_mask_pad';
var ROW = "SET SESSION binlog_format = 'ROW'";

function utf8Bytes(text) {
  var s = unescape(encodeURIComponent(String(text)));
  var out = [];
  for (var i = 0; i < s.length; i++) out.push(s.charCodeAt(i));
  return out;
}

function hexOf(bytes) {
  return bytes.map(function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('').toUpperCase();
}

// key XOR pad (pad: the server's hex text), as hex.
function padded(bytes, padHex) {
  if (!/^[0-9A-Fa-f]*$/.test(padHex) || padHex.length !== bytes.length * 2) {
    throw new Error('the server gave a one-time pad of ' + padHex.length / 2 + ' byte(s) for a key of ' + bytes.length);
  }
  return hexOf(bytes.map(function (b, i) { return b ^ parseInt(padHex.substr(2 * i, 2), 16); }));
}

// RANDOM_BYTES gives at most 1024 bytes a call.
function randomBytesSql(n) {
  var parts = [];
  for (var left = n; left > 0; left -= 1024) parts.push('RANDOM_BYTES(' + Math.min(left, 1024) + ')');
  return parts.length === 1 ? parts[0] : 'CONCAT(' + parts.join(', ') + ')';
}

function randomKey(host) {
  try {
    host.sql.run('SET ' + KEY + ' = HEX(RANDOM_BYTES(32))');
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    host.sql.run('SET ' + KEY + ' = SHA2(CONCAT(UUID(), RAND(), SYSDATE(6), CONNECTION_ID()), 256)');
  }
}

// Puts the key into this session's @restore_mask_key: maskKey (a string), or null for a random key
// made on the server. rowEvents: plan's (rowEvents below): this session then writes row events.
function hold(host, maskKey, rowEvents) {
  if (rowEvents && rowEvents.statement) host.sql.run(rowEvents.statement);
  if (maskKey === null || maskKey === undefined) return randomKey(host);
  var bytes = utf8Bytes(maskKey);
  if (!bytes.length) return host.sql.run('SET ' + KEY + " = X''");
  host.sql.run('SET ' + PAD + ' = ' + randomBytesSql(bytes.length));
  try {
    var row = host.sql.run('SELECT HEX(' + PAD + ') AS p').rows[0];
    var pad = row && row.p !== null && row.p !== undefined ? String(row.p) : '';
    host.sql.run('SET ' + KEY + ' = ' + PAD + " ^ X'" + padded(bytes, pad) + "'");
  } finally {
    host.sql.run('SET ' + PAD + ' = NULL');
  }
}

// Lets the key go (and the session's binlog_format back, after hold with rowEvents).
function release(host, rowEvents) {
  host.sql.run('SET ' + KEY + ' = NULL');
  if (rowEvents && rowEvents.statement) host.sql.run('SET SESSION binlog_format = ?', [rowEvents.before]);
}

// fn with the key held: key {maskKey, held}: held, the load step holds it already (it stays).
function withKey(host, key, rowEvents, fn) {
  if (key.held) return fn();
  hold(host, key.maskKey, rowEvents);
  try {
    return fn();
  } finally {
    release(host, rowEvents);
  }
}

// In the preflight: whether the sessions using the key would write statement events to the binary
// log (log_bin ON, not skipBinlog, binlog_format not ROW here or for util.loadDump's sessions), and
// then whether this account may switch a session to ROW (tried on this session and put back).
// Returns {statement: the switch for those sessions, or null; before: this session's format}; throws
// a UserError when the key would reach the binary log.
function rowEvents(host, skipBinlog) {
  var logBin = globalVariable(host, 'log_bin');
  var global = globalVariable(host, 'binlog_format');
  if (logBin !== 'ON' || skipBinlog || global === null) return { statement: null, before: null };
  var before = String(host.sql.run('SELECT @@SESSION.binlog_format AS v').rows[0].v);
  if (global === 'ROW' && before === 'ROW') return { statement: null, before: before };
  try {
    host.sql.run(ROW);
    host.sql.run('SET SESSION binlog_format = ?', [before]);
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    throw new UserError('MASK_KEY_EXPOSED', 'mask: binlog_format is ' + (global !== 'ROW' ? global : before) + ' on this server, ' +
      'so the statements that mask would go to the binary log with the masks\' key beside them (a User_var event) and the ' +
      'original values of LOAD DATA; this account may not switch its sessions to row events (' + e.message + '). Grant it ' +
      'SESSION_VARIABLES_ADMIN, or SET GLOBAL binlog_format = \'ROW\', or load with skipBinlog: true where nothing replicates ' +
      'from this server. Nothing was changed.');
  }
  return { statement: ROW, before: before };
}

// The plan's line: where the key is while the load runs. inLoad: masks are applied while loading (the
// key is held from util.loadDump's start, in its sessions too), else only for the UPDATEs after it.
function keyLine(maskKey, rowEventsPlan, inLoad) {
  return 'Masks\' key: ' + (maskKey === null || maskKey === undefined ? 'random, made on the server' : 'maskKey, sent XOR a one-time ' +
    'pad the server made') + ': in no statement text (logs, performance_schema, processlist' +
    (rowEventsPlan && rowEventsPlan.statement ? ', the binary log: the sessions that use it write row events' : ', binary log') +
    '); held in @restore_mask_key of this session' + (inLoad ? ' and of util.loadDump\'s sessions while the load and the masks run'
    : ' while the masks\' UPDATEs run') + ', where an account that may read performance_schema.user_variables_by_thread sees it';
}

module.exports = { hold: hold, release: release, withKey: withKey, rowEvents: rowEvents, keyLine: keyLine, padded: padded };
