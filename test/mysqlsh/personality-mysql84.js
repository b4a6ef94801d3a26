'use strict';
// The stand-in's "MySQL 8.4 personality" (`--personality=mysql-8.4`, off by default).
//
// The test server is MariaDB, which lacks the MySQL 8 features the restore plugin guards. With the
// personality on, the stand-in answers these statements the way MySQL 8.4 does, from state kept ON
// THE REAL SERVER (table `mysqlsh_standin`.`mysql84_state`, name → value), so every session and
// every stand-in process connected to that server sees the same thing. Everything else goes to
// MariaDB unchanged; @@version is NOT rewritten (the plugin must detect features, not versions).
//
//   ALTER INSTANCE {DISABLE|ENABLE} INNODB REDO_LOG
//       sets state `redo_log` (ON/OFF; ON when first created). Without the INNODB_REDO_LOG_ENABLE
//       privilege (see below) it fails with 1227 "Access denied; you need (at least one of) the
//       INNODB_REDO_LOG_ENABLE privilege(s) for this operation", as MySQL does.
//   SHOW [GLOBAL|SESSION] STATUS [LIKE '…' | WHERE …]
//       MariaDB's rows plus `Innodb_redo_log_enabled` (kept in name order) when the pattern
//       matches it (or the WHERE clause names it).
//   … performance_schema.global_status …
//       the table is replaced by a one-row table holding `Innodb_redo_log_enabled` only (the test
//       server runs without performance_schema), so e.g. util.loadDump's end-of-load check works.
//   … performance_schema.replication_group_members …
//       one member row (this server, MEMBER_STATE = state `group_replication`) when that state is
//       set, otherwise no rows: Group Replication "running" is simulated.
//   SHOW REPLICA STATUS      one row (a subset of 8.4's columns) when state `replica_source` is
//                            set ("host:port"): the server is a replica; otherwise no rows.
//   SHOW REPLICAS            one row per entry of state `replica_hosts` ("h1:p1,h2:p2"): replicas
//                            connected to this source; otherwise no rows.
//   SHOW SLAVE STATUS, SHOW SLAVE HOSTS, SHOW MASTER STATUS
//                            removed in 8.4: error 1064, as there.
//   SHOW GRANTS [FOR CURRENT_USER[()]]
//       MariaDB's rows in MySQL 8 form: `GRANT ALL PRIVILEGES ON *.*` becomes the static privilege
//       list plus a line of dynamic privileges. INNODB_REDO_LOG_ENABLE is held by an account with
//       ALL PRIVILEGES ON *.*, or one it was granted to, and not by one it was revoked from.
//   GRANT INNODB_REDO_LOG_ENABLE ON *.* TO <account>
//   REVOKE INNODB_REDO_LOG_ENABLE ON *.* FROM <account>
//       set state `redo_priv:<user>@<host>` to granted / revoked.
//
// Tests simulate a replica, a source with replicas, Group Replication or a missing privilege by
// writing that state table (helpers below), or with the GRANT/REVOKE statements through the
// stand-in. A hook for classic-session.js's `sqlHooks`: (sql, session) → raw result | undefined.
const DEFAULT_SCHEMA = 'mysqlsh_standin';
const STATE_TABLE = 'mysql84_state';
const VERSION = '8.4.0';

const STATIC_PRIVILEGES = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'RELOAD', 'SHUTDOWN', 'PROCESS',
  'FILE', 'REFERENCES', 'INDEX', 'ALTER', 'SHOW DATABASES', 'SUPER', 'CREATE TEMPORARY TABLES', 'LOCK TABLES',
  'EXECUTE', 'REPLICATION SLAVE', 'REPLICATION CLIENT', 'CREATE VIEW', 'SHOW VIEW', 'CREATE ROUTINE', 'ALTER ROUTINE',
  'CREATE USER', 'EVENT', 'TRIGGER', 'CREATE TABLESPACE', 'CREATE ROLE', 'DROP ROLE'];
const DYNAMIC_PRIVILEGES = ['APPLICATION_PASSWORD_ADMIN', 'AUDIT_ABORT_EXEMPT', 'AUDIT_ADMIN', 'AUTHENTICATION_POLICY_ADMIN',
  'BACKUP_ADMIN', 'BINLOG_ADMIN', 'BINLOG_ENCRYPTION_ADMIN', 'CLONE_ADMIN', 'CONNECTION_ADMIN', 'ENCRYPTION_KEY_ADMIN',
  'FIREWALL_EXEMPT', 'FLUSH_OPTIMIZER_COSTS', 'FLUSH_STATUS', 'FLUSH_TABLES', 'FLUSH_USER_RESOURCES',
  'GROUP_REPLICATION_ADMIN', 'GROUP_REPLICATION_STREAM', 'INNODB_REDO_LOG_ARCHIVE', 'INNODB_REDO_LOG_ENABLE',
  'PASSWORDLESS_USER_ADMIN', 'PERSIST_RO_VARIABLES_ADMIN', 'REPLICATION_APPLIER', 'REPLICATION_SLAVE_ADMIN',
  'RESOURCE_GROUP_ADMIN', 'RESOURCE_GROUP_USER', 'ROLE_ADMIN', 'SENSITIVE_VARIABLES_OBSERVER',
  'SERVICE_CONNECTION_ADMIN', 'SESSION_VARIABLES_ADMIN', 'SET_ANY_DEFINER', 'SHOW_ROUTINE', 'SYSTEM_USER',
  'SYSTEM_VARIABLES_ADMIN', 'TABLE_ENCRYPTION_ADMIN', 'TELEMETRY_LOG_ADMIN', 'TRANSACTION_GTID_TAG',
  'XA_RECOVER_ADMIN'];

const REDO_STATUS = 'Innodb_redo_log_enabled';
// A performance_schema table the personality replaces, with the alias the query gives it, if any.
const NOT_ALIAS = '(?!(?:WHERE|JOIN|LEFT|RIGHT|INNER|ORDER|GROUP|LIMIT|ON|UNION)\\b)';
const PS_TABLE = new RegExp('performance_schema\\s*\\.\\s*(global_status|replication_group_members)\\b' +
  `(\\s+(?:AS\\s+)?${NOT_ALIAS}[A-Za-z_]\\w*)?`, 'gi');
const OK = () => ({ columns: [], rows: [], affected: 0 });

function sqlString(v) {
  return `'${String(v).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

function serverError(code, message) {
  return Object.assign(new Error(message), { code });
}

function parseError(near) {
  return serverError(1064, 'You have an error in your SQL syntax; check the manual that corresponds to your MySQL ' +
    `server version for the right syntax to use near '${near}' at line 1`);
}

function resultOf(names, rows) {
  return { columns: names.map((name) => ({ name })), rows, affected: 0 };
}

// SQL statements that set state, for tests (run them with any client on the test server).
function stateSql(name, value, { stateSchema = DEFAULT_SCHEMA } = {}) {
  const table = `\`${stateSchema}\`.\`${STATE_TABLE}\``;
  return [
    `CREATE DATABASE IF NOT EXISTS \`${stateSchema}\``,
    `CREATE TABLE IF NOT EXISTS ${table} (name VARCHAR(255) PRIMARY KEY, value TEXT NOT NULL) ENGINE=InnoDB`,
    value === null || value === undefined
      ? `DELETE FROM ${table} WHERE name = ${sqlString(name)}`
      : `REPLACE INTO ${table} (name, value) VALUES (${sqlString(name)}, ${sqlString(value)})`,
  ];
}

// 'u'@'h', `u`@`h`, "u"@"h", u@h → "u@h" (as CURRENT_USER() spells it).
function accountKey(text) {
  const part = String.raw`(?:'((?:[^'\\]|\\.|'')*)'|"((?:[^"\\]|\\.|"")*)"|\x60((?:[^\x60]|\x60\x60)*)\x60|([^\s@'"\x60]+))`;
  const m = new RegExp(`^${part}(?:\\s*@\\s*${part})?$`).exec(text.trim());
  if (!m) return null;
  const pick = (a, b, c, d) => (a !== undefined ? a : b !== undefined ? b : c !== undefined ? c : d);
  const user = pick(m[1], m[2], m[3], m[4]);
  const host = pick(m[5], m[6], m[7], m[8]);
  return `${user}@${host === undefined ? '%' : host}`;
}

function likeToRegExp(pattern) {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) { re += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); continue; }
    if (c === '%') re += '.*';
    else if (c === '_') re += '.';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

function makeMysql84Personality({ stateSchema = DEFAULT_SCHEMA } = {}) {
  const table = `\`${stateSchema}\`.\`${STATE_TABLE}\``;
  // One private connection per session for the state: the session's own settings (sql_log_bin,
  // an open transaction, USE) never touch it.
  const own = new WeakMap();

  function stateConnection(session) {
    let c = own.get(session);
    if (c) return c;
    const id = session._bridge.call('sql.open', { uri: session._uri }).id;
    const q = (sql) => session._bridge.call('sql.query', { id, sql });
    stateSql('redo_log', 'ON', { stateSchema }).slice(0, 2).forEach(q);
    q(`INSERT IGNORE INTO ${table} (name, value) VALUES ('redo_log', 'ON')`);
    const account = String(q('SELECT CURRENT_USER() AS u').rows[0][0]);
    c = {
      account,
      get(name) {
        const r = q(`SELECT value FROM ${table} WHERE name = ${sqlString(name)}`);
        return r.rows.length ? String(r.rows[0][0]) : null;
      },
      set(name, value) { q(stateSql(name, value, { stateSchema })[2]); },
    };
    own.set(session, c);
    return c;
  }

  const onServer = (session, sql) => session._bridge.call('sql.query', { id: session._id, sql });

  // Does `account` hold INNODB_REDO_LOG_ENABLE? Explicit grant/revoke first, then ALL PRIVILEGES.
  function holdsRedoPrivilege(session, st, account, grantLines) {
    const explicit = st.get(`redo_priv:${account}`);
    if (explicit) return explicit === 'granted';
    const lines = grantLines || onServer(session, 'SHOW GRANTS').rows.map((r) => String(r[0]));
    return lines.some((l) => /^GRANT ALL PRIVILEGES ON \*\.\* TO /i.test(l));
  }

  function alterRedo(session, enable) {
    const st = stateConnection(session);
    if (!holdsRedoPrivilege(session, st, st.account)) {
      throw serverError(1227, 'Access denied; you need (at least one of) the INNODB_REDO_LOG_ENABLE privilege(s) for this operation');
    }
    st.set('redo_log', enable ? 'ON' : 'OFF');
    return OK();
  }

  function showStatus(session, sql) {
    const raw = onServer(session, sql);
    const like = /\bLIKE\s+'((?:[^'\\]|\\.|'')*)'/i.exec(sql);
    const where = /\bWHERE\b([\s\S]*)$/i.exec(sql);
    let wanted = true;
    if (like) wanted = likeToRegExp(like[1].replace(/''/g, "'")).test(REDO_STATUS);
    else if (where) wanted = where[1].toLowerCase().includes(REDO_STATUS.toLowerCase());
    if (!wanted) return raw;
    const row = [REDO_STATUS, stateConnection(session).get('redo_log')];
    const rows = raw.rows.filter((r) => String(r[0]).toLowerCase() !== REDO_STATUS.toLowerCase());
    let at = rows.findIndex((r) => String(r[0]).toLowerCase() > REDO_STATUS.toLowerCase());
    if (at < 0) at = rows.length;
    rows.splice(at, 0, row);
    return { ...raw, rows };
  }

  // performance_schema tables the test server lacks become derived tables built from the state.
  function derivedTables(session, sql) {
    const st = stateConnection(session);
    const redo = `(SELECT ${sqlString(REDO_STATUS)} AS VARIABLE_NAME, ${sqlString(st.get('redo_log'))} AS VARIABLE_VALUE)`;
    const gr = st.get('group_replication');
    const members = `(SELECT 'group_replication_applier' AS CHANNEL_NAME, @@server_id AS MEMBER_ID, @@hostname AS MEMBER_HOST, ` +
      `@@port AS MEMBER_PORT, ${sqlString(gr || 'OFFLINE')} AS MEMBER_STATE, 'PRIMARY' AS MEMBER_ROLE, ` +
      `'${VERSION}' AS MEMBER_VERSION, 'XCOM' AS MEMBER_COMMUNICATION_STACK FROM DUAL WHERE ${gr ? '1=1' : '1=0'})`;
    const replaced = { global_status: redo, replication_group_members: members };
    const rewritten = sql.replace(PS_TABLE, (all, name, alias) => `${replaced[name.toLowerCase()]}${alias || ` AS ${name}`}`);
    return onServer(session, rewritten);
  }

  function replicaStatus(session) {
    const source = stateConnection(session).get('replica_source');
    const names = ['Replica_IO_State', 'Source_Host', 'Source_User', 'Source_Port', 'Replica_IO_Running',
      'Replica_SQL_Running', 'Seconds_Behind_Source', 'Channel_Name'];
    if (!source) return resultOf(names, []);
    const [host, port] = source.split(':');
    return resultOf(names, [['Waiting for source to send event', host, 'repl', Number(port || 3306), 'Yes', 'Yes', 0, '']]);
  }

  function replicas(session) {
    const hosts = (stateConnection(session).get('replica_hosts') || '').split(',').filter(Boolean);
    return resultOf(['Server_Id', 'Host', 'Port', 'Source_Id', 'Replica_UUID'], hosts.map((h, i) => {
      const [host, port] = h.split(':');
      return [100 + i, host, Number(port || 3306), 1, `00000000-0000-0000-0000-${String(100 + i).padStart(12, '0')}`];
    }));
  }

  function showGrants(session, sql) {
    const raw = onServer(session, sql);
    const st = stateConnection(session);
    const lines = raw.rows.map((r) => String(r[0]));
    const holds = holdsRedoPrivilege(session, st, st.account, lines);
    const out = [];
    let dynamicShown = false;
    for (const l of lines) {
      const all = /^GRANT ALL PRIVILEGES ON \*\.\* TO (.*)$/i.exec(l);
      if (!all) { out.push(l); continue; }
      out.push(`GRANT ${STATIC_PRIVILEGES.join(', ')} ON *.* TO ${all[1]}`);
      const dyn = DYNAMIC_PRIVILEGES.filter((p) => holds || p !== 'INNODB_REDO_LOG_ENABLE');
      out.push(`GRANT ${dyn.join(',')} ON *.* TO ${all[1]}`);
      dynamicShown = true;
    }
    if (holds && !dynamicShown) {
      const [user, host] = [st.account.slice(0, st.account.lastIndexOf('@')), st.account.slice(st.account.lastIndexOf('@') + 1)];
      out.push(`GRANT INNODB_REDO_LOG_ENABLE ON *.* TO \`${user}\`@\`${host}\``);
    }
    return { ...raw, rows: out.map((l) => [l]) };
  }

  function grantOrRevoke(session, grant, accountText) {
    const key = accountKey(accountText);
    if (!key) throw parseError(accountText.slice(0, 80));
    stateConnection(session).set(`redo_priv:${key}`, grant ? 'granted' : 'revoked');
    return OK();
  }

  return function mysql84Personality(sql, session) {
    const s = sql.trim().replace(/;\s*$/, '');
    let m = /^ALTER\s+INSTANCE\s+(DISABLE|ENABLE)\s+INNODB\s+REDO_LOG$/i.exec(s);
    if (m) return alterRedo(session, m[1].toUpperCase() === 'ENABLE');
    if (/^SHOW\s+(GLOBAL\s+|SESSION\s+)?STATUS\b/i.test(s)) return showStatus(session, s);
    if (/^SHOW\s+REPLICA\s+STATUS\b/i.test(s)) return replicaStatus(session);
    if (/^SHOW\s+REPLICAS$/i.test(s)) return replicas(session);
    m = /^SHOW\s+((?:SLAVE|MASTER)\s+(?:STATUS|HOSTS)\b.*)$/i.exec(s);
    if (m) throw parseError(m[1]);
    if (/^SHOW\s+GRANTS(\s+FOR\s+CURRENT_USER(\s*\(\s*\))?)?$/i.test(s)) return showGrants(session, s);
    m = /^GRANT\s+INNODB_REDO_LOG_ENABLE\s+ON\s+\*\.\*\s+TO\s+([\s\S]+)$/i.exec(s);
    if (m) return grantOrRevoke(session, true, m[1]);
    m = /^REVOKE\s+INNODB_REDO_LOG_ENABLE\s+ON\s+\*\.\*\s+FROM\s+([\s\S]+)$/i.exec(s);
    if (m) return grantOrRevoke(session, false, m[1]);
    if (/performance_schema\s*\.\s*(global_status|replication_group_members)\b/i.test(s)) return derivedTables(session, s);
    return undefined;
  };
}

module.exports = { makeMysql84Personality, stateSql, accountKey, DEFAULT_SCHEMA, STATE_TABLE };
