'use strict';
// What the dumper reads from the source server: objects and their DDL, columns, keys, partitions,
// accounts and the facts @.json records. Plain information_schema and SHOW statements, all over
// the one session of the dump (inside its consistent snapshot when there is one).
const { quoteValue, quoteIdentifier } = require('../sql-placeholders');

const q = (v) => quoteValue(v, 0);
const id = (v) => quoteIdentifier(v, 0);

function text(v) {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
  if (Object.prototype.toString.call(v) === '[object ArrayBuffer]') return Buffer.from(v).toString('utf8');
  return v === null || v === undefined ? v : String(v);
}

function rows(session, sql) {
  return session.execute(sql).rows.map((r) => r.map(text));
}

function firstValue(session, sql) {
  const r = rows(session, sql);
  return r.length ? r[0][0] : null;
}

function tryFirstValue(session, sql, fallback) {
  try { return firstValue(session, sql); } catch (e) { return fallback; }
}

function serverInfo(session) {
  const [version, hostname, account, port] = rows(session, 'SELECT @@version, @@hostname, CURRENT_USER(), @@port')[0];
  let binlogFile = '';
  let binlogPosition = 0;
  try {
    const status = rows(session, 'SHOW MASTER STATUS');
    if (status.length) { binlogFile = status[0][0]; binlogPosition = Number(status[0][1]); }
  } catch (e) { /* no binary log privileges: recorded as empty, like a server without a binlog */ }
  return {
    version,
    shortVersion: /^\d+\.\d+\.\d+/.exec(version)[0],
    hostname,
    port: Number(port),
    user: account.slice(0, account.lastIndexOf('@')),
    binlogFile,
    binlogPosition,
    // MariaDB has no gtid_executed: recorded as the empty set.
    gtidExecuted: tryFirstValue(session, 'SELECT @@GLOBAL.gtid_executed', '') || '',
    partialRevokes: tryFirstValue(session, 'SELECT @@GLOBAL.partial_revokes', '0') === '1',
  };
}

function globalVariables(session) {
  const out = {};
  for (const [name, value] of rows(session, 'SHOW GLOBAL VARIABLES')) out[name] = value === null ? '' : value;
  return out;
}

function schemaNames(session) {
  return rows(session, 'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA ORDER BY SCHEMA_NAME').map((r) => r[0]);
}

// Tables and views of a schema, routines and events; names only.
function schemaObjects(session, schema) {
  const tables = [];
  const views = [];
  for (const [name, type] of rows(session,
    `SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ${q(schema)} ORDER BY TABLE_NAME`)) {
    if (type === 'VIEW') views.push(name);
    else if (type !== 'SEQUENCE' && type !== 'TEMPORARY') tables.push(name);
  }
  const routines = rows(session, `SELECT ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES
    WHERE ROUTINE_SCHEMA = ${q(schema)} AND ROUTINE_TYPE IN ('FUNCTION', 'PROCEDURE') ORDER BY ROUTINE_NAME`)
    .map(([name, type]) => ({ name, type }));
  const events = rows(session,
    `SELECT EVENT_NAME FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ${q(schema)} ORDER BY EVENT_NAME`)
    .map((r) => r[0]);
  return { tables, views, routines, events };
}

function columns(session, schema, table) {
  return rows(session, `SELECT COLUMN_NAME, DATA_TYPE, COLUMN_TYPE, IS_NULLABLE, EXTRA FROM information_schema.COLUMNS
    WHERE TABLE_SCHEMA = ${q(schema)} AND TABLE_NAME = ${q(table)} ORDER BY ORDINAL_POSITION`)
    .map(([name, dataType, columnType, nullable, extra]) => ({
      name,
      dataType: dataType.toLowerCase(),
      columnType,
      nullable: nullable === 'YES',
      generated: /GENERATED/i.test(extra || ''),
    }));
}

function indexes(session, schema, table) {
  const byName = new Map();
  for (const [name, nonUnique, column, subPart] of rows(session, `SELECT INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART
    FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ${q(schema)} AND TABLE_NAME = ${q(table)}
    ORDER BY INDEX_NAME, SEQ_IN_INDEX`)) {
    if (!byName.has(name)) byName.set(name, { name, unique: nonUnique === '0', columns: [], prefix: false });
    const ix = byName.get(name);
    ix.columns.push(column);
    if (subPart !== null || column === null) ix.prefix = true;
  }
  return Array.from(byName.values());
}

// Partition (or sub-partition) names in definition order; [] when the table is not partitioned.
function partitions(session, schema, table) {
  return rows(session, `SELECT COALESCE(SUBPARTITION_NAME, PARTITION_NAME) FROM information_schema.PARTITIONS
    WHERE TABLE_SCHEMA = ${q(schema)} AND TABLE_NAME = ${q(table)} AND PARTITION_NAME IS NOT NULL
    ORDER BY PARTITION_ORDINAL_POSITION, SUBPARTITION_ORDINAL_POSITION`).map((r) => r[0]);
}

// In the order SHOW TRIGGERS gives them: by event, then timing, then action order.
function triggers(session, schema, table) {
  return rows(session, `SELECT TRIGGER_NAME FROM information_schema.TRIGGERS
    WHERE EVENT_OBJECT_SCHEMA = ${q(schema)} AND EVENT_OBJECT_TABLE = ${q(table)}
    ORDER BY FIELD(EVENT_MANIPULATION, 'INSERT', 'UPDATE', 'DELETE'), FIELD(ACTION_TIMING, 'BEFORE', 'AFTER'), ACTION_ORDER`)
    .map((r) => r[0]);
}

// The server's estimates (information_schema), for the 9.6 @.json totals.
function tableStats(session, schema, table) {
  const r = rows(session, `SELECT TABLE_ROWS, DATA_LENGTH FROM information_schema.TABLES
    WHERE TABLE_SCHEMA = ${q(schema)} AND TABLE_NAME = ${q(table)}`)[0] || [0, 0];
  return { rows: Number(r[0] || 0), bytes: Number(r[1] || 0) };
}

// SHOW CREATE … results as {column label: value}.
function showCreate(session, what, name) {
  const r = session.execute(`SHOW CREATE ${what} ${name}`);
  const out = {};
  r.columns.forEach((c, i) => { out[c.name] = text(r.rows[0][i]); });
  return out;
}

const ddl = {
  database: (s, schema) => showCreate(s, 'DATABASE', id(schema))['Create Database'],
  table: (s, schema, table) => showCreate(s, 'TABLE', `${id(schema)}.${id(table)}`)['Create Table'],
  view: (s, schema, view) => showCreate(s, 'VIEW', `${id(schema)}.${id(view)}`),
  trigger: (s, schema, trigger) => showCreate(s, 'TRIGGER', `${id(schema)}.${id(trigger)}`),
  routine: (s, schema, type, name) => showCreate(s, type, `${id(schema)}.${id(name)}`),
  event: (s, schema, event) => showCreate(s, 'EVENT', `${id(schema)}.${id(event)}`),
};

// Accounts (roles and MariaDB's own mariadb.sys are not dumped), with their DDL.
function accounts(session) {
  let list;
  try {
    list = rows(session, "SELECT User, Host FROM mysql.user WHERE COALESCE(is_role, 'N') <> 'Y' ORDER BY User, Host");
  } catch (e) {
    list = rows(session, 'SELECT User, Host FROM mysql.user ORDER BY User, Host');
  }
  return list.map(([user, host]) => ({ user, host }));
}

function accountDdl(session, account) {
  const who = `${q(account.user)}@${q(account.host)}`;
  return {
    create: firstValue(session, `SHOW CREATE USER ${who}`),
    grants: rows(session, `SHOW GRANTS FOR ${who}`).map((r) => r[0]),
  };
}

module.exports = {
  rows, firstValue, serverInfo, globalVariables, schemaNames, schemaObjects, columns, indexes, partitions,
  triggers, tableStats, ddl, accounts, accountDdl,
};
