'use strict';
// Shared by the safety tests: SQL straight to the test server (not through the stand-in, so what
// a test reads back is what the server holds), the MySQL 8.4 personality's state, and the
// restore-time settings the tests start from and check again afterwards.
const fs = require('fs');
const path = require('path');
const mysql = require('mysql2/promise');
const { stateSql, DEFAULT_SCHEMA, STATE_TABLE } = require('../mysqlsh/personality-mysql84');
const { runShell, pluginConfigHome } = require('../support/standin');
const { copyRealDump } = require('../support/paths');

const VET = 'danielestcamar-wq__Evidencia_Proyecto-Veterinaria-SENA';

function connectionOptions() {
  const u = new URL(`mysql://${process.env.MYSQL_TEST_URI.replace(/^mysql:\/\//, '')}`);
  return { host: u.hostname, port: Number(u.port || 3306), user: decodeURIComponent(u.username || 'root'),
    password: decodeURIComponent(u.password || ''), multipleStatements: false };
}

async function sql(statement, args) {
  const c = await mysql.createConnection(connectionOptions());
  try {
    const [rows] = await c.query(statement, args);
    return rows;
  } finally {
    await c.end();
  }
}

async function globals(names) {
  const rows = await sql(`SHOW GLOBAL VARIABLES WHERE Variable_name IN (${names.map(() => '?').join(', ')})`, names);
  const out = {};
  rows.forEach((r) => { out[r.Variable_name] = String(r.Value); });
  return out;
}

async function setGlobals(values) {
  for (const [name, value] of Object.entries(values)) await sql(`SET GLOBAL ${name} = ${value}`);
}

// The personality's state, kept on the server: set a value, or null to remove it.
async function setPersonality(name, value) {
  for (const s of stateSql(name, value)) await sql(s);
}

async function redoLogOnServer() {
  const rows = await sql(`SELECT value FROM \`${DEFAULT_SCHEMA}\`.\`${STATE_TABLE}\` WHERE name = 'redo_log'`);
  return rows.length ? rows[0].value : 'ON';
}

async function resetPersonality() {
  for (const s of stateSql('redo_log', 'ON')) await sql(s);
  await sql(`DELETE FROM \`${DEFAULT_SCHEMA}\`.\`${STATE_TABLE}\` WHERE name <> 'redo_log'`);
}

// What the tests start from: every restore-time setting MariaDB has at a value the `fastest`
// preset changes, so each one is tuned and must come back.
const BASELINE = { local_infile: 'OFF', innodb_flush_log_at_trx_commit: '1', sync_binlog: '1',
  innodb_adaptive_hash_index: 'ON', innodb_io_capacity: '200', innodb_io_capacity_max: '2000' };
// What the rest of the suite expects afterwards (the test server's own start values).
const SERVER_DEFAULTS = { local_infile: 'ON', innodb_flush_log_at_trx_commit: '1', sync_binlog: '0',
  innodb_adaptive_hash_index: 'OFF', innodb_io_capacity: '200', innodb_io_capacity_max: '2000' };

function stateFiles(configHome) {
  const dir = path.join(configHome, 'restore', 'state');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

// A stand-in run with the plugin in its own config home (own state files, own presets).
function shellIn(configHome) {
  return (code, opts = {}) => runShell({ code, configHome, ...opts });
}

// Before each test: the personality reset, the BASELINE settings, a fresh config home.
async function startFromBaseline() {
  await resetPersonality();
  await setGlobals(BASELINE);
  const configHome = pluginConfigHome();
  return { configHome, shell: shellIn(configHome) };
}

// After a file: no personality state schema left for later tests (e.g. a dumpInstance) to see.
function dropPersonalitySchema() { return sql(`DROP DATABASE IF EXISTS \`${DEFAULT_SCHEMA}\``); }

// After each test: the server as the rest of the suite expects it.
async function backToDefaults() {
  await sql('SET GLOBAL read_only = OFF');
  await setGlobals(SERVER_DEFAULTS);
  await resetPersonality();
}

module.exports = { sql, globals, setGlobals, setPersonality, resetPersonality, redoLogOnServer, BASELINE,
  SERVER_DEFAULTS, stateFiles, shellIn, pluginConfigHome, startFromBaseline, backToDefaults, dropPersonalitySchema,
  copyVetDump: () => copyRealDump(VET), copyRealDump };
