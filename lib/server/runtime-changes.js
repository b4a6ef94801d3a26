// What the server itself records of the restore-time settings and of running loads, so that any
// client sees them, not only the one whose config home holds the state file:
//  - settings at the value restore tuning sets, changed at runtime since the server started
//    (performance_schema.variables_info: source DYNAMIC, when, by whom, from where);
//  - LOAD DATA statements running now, and from which account (information_schema.PROCESSLIST:
//    without the PROCESS privilege only one's own connections show).
// Each answer is null when the server cannot tell (no performance_schema, no privilege, MariaDB).
var tuning = require('./tuning.js');

function restoreValue(name, value) {
  var t = tuning.TUNABLE.filter(function (x) { return x.name === name; })[0];
  if (!t) return false;
  return String(t.target(value)).toUpperCase() === String(value).toUpperCase();
}

// [{name, value, setTime, setBy}] for the restore-time settings at their restore value, set at
// runtime, and not recorded in `recorded` (names from this client's state file).
function runtimeChanges(host, recorded) {
  var names = tuning.TUNABLE.map(function (t) { return t.name; });
  var rows;
  try {
    rows = host.sql.run("SELECT vi.VARIABLE_NAME AS name, gv.VARIABLE_VALUE AS value, " +
      "DATE_FORMAT(vi.SET_TIME, '%Y-%m-%d %H:%i:%s') AS setTime, vi.SET_USER AS setUser, vi.SET_HOST AS setHost " +
      'FROM performance_schema.variables_info vi ' +
      'JOIN performance_schema.global_variables gv ON gv.VARIABLE_NAME = vi.VARIABLE_NAME ' +
      "WHERE vi.VARIABLE_SOURCE = 'DYNAMIC' AND vi.VARIABLE_NAME IN (" + names.map(function () { return '?'; }).join(', ') +
      ') ORDER BY vi.SET_TIME', names).rows;
  } catch (e) {
    if (e && e.isSqlError) return null;
    throw e;
  }
  var known = recorded || [];
  return rows.filter(function (r) {
    return restoreValue(String(r.name), String(r.value)) && known.indexOf(String(r.name)) < 0;
  }).map(function (r) {
    return { name: String(r.name), value: String(r.value), setTime: r.setTime === null ? null : String(r.setTime),
      setBy: r.setUser ? String(r.setUser) + '@' + String(r.setHost || '') : null };
  });
}

// [{account, statements}] of LOAD DATA running now on other connections.
function runningLoads(host) {
  try {
    return host.sql.run("SELECT CONCAT(USER, '@', SUBSTRING_INDEX(HOST, ':', 1)) AS account, COUNT(*) AS statements " +
      "FROM information_schema.PROCESSLIST WHERE INFO LIKE '%LOAD DATA%' AND ID <> CONNECTION_ID() GROUP BY 1 ORDER BY 1")
      .rows.map(function (r) { return { account: String(r.account), statements: Number(r.statements) }; });
  } catch (e) {
    if (e && e.isSqlError) return null;
    throw e;
  }
}

function describeChange(c) {
  return c.name + ' = ' + c.value + ' (set at runtime' + (c.setTime ? ' at ' + c.setTime : '') +
    (c.setBy ? ' by ' + c.setBy : '') + ')';
}

module.exports = { runtimeChanges: runtimeChanges, runningLoads: runningLoads, describeChange: describeChange };
