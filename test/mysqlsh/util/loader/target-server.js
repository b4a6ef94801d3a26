'use strict';
// What the loader asks the target server before loading (loader-internals §6).
const crypto = require('crypto');
const { shellThrowable } = require('../../shell-errors');

const WHERE = 'Util.loadDump';
const ER_UNKNOWN_SYSTEM_VARIABLE = 1193;

function scalar(session, sql) {
  const r = session.execute(sql);
  return r.rows.length ? r.rows[0][0] : null;
}

// MySQL's @@server_uuid. MariaDB has none: it has @@server_uid (base64 of a SHA1); the stand-in
// shows it in UUID form so progress file names look like the Shell's and stay stable per server.
function serverUuid(session) {
  try {
    return String(scalar(session, 'SELECT @@server_uuid'));
  } catch (e) {
    if (e.code !== ER_UNKNOWN_SYSTEM_VARIABLE) throw e;
  }
  const uid = String(scalar(session, 'SELECT @@server_uid'));
  const hex = crypto.createHash('sha1').update(uid).digest('hex').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function serverVersion(session) {
  return String(scalar(session, 'SELECT @@version'));
}

function isMariaDb(version) {
  return /mariadb/i.test(version);
}

// Checked before anything is loaded (common_options.cc:125-140).
function checkLocalInfile(session, profile, out) {
  const r = session.execute("SHOW GLOBAL VARIABLES LIKE 'local_infile'");
  const value = r.rows.length ? String(r.rows[0][1]).toUpperCase() : 'OFF';
  if (value === 'ON' || value === '1') return;
  out.error("The 'local_infile' global system variable must be set to ON in the target server, after the server is verified to be trusted.");
  throw shellThrowable(profile, 'RuntimeError', 'local_infile disabled in server', 53025, WHERE);
}

// loadDump never touches the redo log; it only warns at the end when it is off (dump_loader.cc:2435-2447).
// MariaDB has no such status variable: no row, no note.
function noteIfRedoLogDisabled(session, out) {
  let off = null;
  try {
    off = scalar(session, "SELECT VARIABLE_VALUE = 'OFF' FROM performance_schema.global_status WHERE variable_name = 'Innodb_redo_log_enabled'");
  } catch (e) {
    return;
  }
  if (off === 1 || off === '1') {
    out.note('The redo log is currently disabled, which causes MySQL to not be crash safe! Do not forget to enable it again before putting this instance in production.');
  }
}

module.exports = { serverUuid, serverVersion, isMariaDb, checkLocalInfile, noteIfRedoLogDisabled, WHERE };
