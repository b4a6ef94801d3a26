// Restore-time server settings: dynamic ones (SET GLOBAL) that make a bulk load faster, each only
// where the server has it and only when it differs; originals go to the state file before the
// first change and are put back afterwards. Settings that need a restart are only advised,
// in my.cnf form, never changed.
var restoreState = require('./restore-state.js');
var UserError = require('../core/user-error.js').UserError;
var suggestion = require('../options/closest-name.js').suggestion;
var globalVariables = require('./server-variables.js').globalVariables;

var GiB = 1024 * 1024 * 1024;

function fixed(v) { return function () { return v; }; }
function atLeast(n) { return function (current) { return Number(current) >= n ? current : String(n); }; }

// Order matters: innodb_io_capacity may not exceed innodb_io_capacity_max, so the maximum is raised
// first; reverting runs in reverse order.
var TUNABLE = [
  { name: 'local_infile', target: fixed('ON'), why: 'util.loadDump loads data with LOAD DATA LOCAL INFILE' },
  { name: 'innodb_flush_log_at_trx_commit', target: fixed('2'), why: 'write the log at each commit, flush it once a second' },
  { name: 'sync_binlog', target: fixed('0'), why: 'let the operating system flush the binary log' },
  { name: 'innodb_adaptive_hash_index', target: fixed('OFF'), why: 'no hash index upkeep during bulk inserts' },
  { name: 'innodb_io_capacity_max', target: atLeast(4000), why: 'let background flushing keep up with the load' },
  { name: 'innodb_io_capacity', target: atLeast(2000), why: 'let background flushing keep up with the load' },
  { name: 'innodb_redo_log_capacity', target: atLeast(2 * GiB), why: 'fewer checkpoints while the redo log is on',
    when: function (ctx) { return !ctx.redoOff; } },
  // innodb_doublewrite DETECT_ONLY (8.0.30+, at runtime) was measured with the redo log off and not
  // kept: fastest 9.3 s with it, 9.1 s without (npm run bench:load, 3 interleaved runs, issue 21).
];

// Restart-only settings (contract §5): advice(current, vars) → [my.cnf line, comment] or null.
var RESTART_ONLY = [
  { name: 'innodb_doublewrite', advice: function (v) {
    return v === 'ON' ? ['innodb_doublewrite = OFF', 'halves page writes; put ON back after the load'] : null;
  } },
  { name: 'innodb_autoinc_lock_mode', advice: function (v) {
    return v !== '2' ? ['innodb_autoinc_lock_mode = 2', 'interleaved: no table lock for inserts'] : null;
  } },
  { name: 'log_bin', advice: function (v, vars, loadOptions, feedsOthers) {
    // Under skipBinlog the load writes nothing to the binary log: no reason to restart without it.
    // Where it feeds replicas or a group it is never to be turned off.
    if ((loadOptions && loadOptions.skipBinlog) || feedsOthers) return null;
    return v === 'ON' ? ['skip-log-bin', 'only if nothing needs this server\'s binary log (replicas, point-in-time ' +
      'recovery); or load with skipBinlog: true'] : null;
  } },
  { name: 'innodb_log_file_size', advice: function (v, vars) {
    if (vars.innodb_redo_log_capacity !== undefined || Number(v) >= GiB) return null;
    return ['innodb_log_file_size = 1G', 'fewer checkpoints during the load'];
  } },
];

function same(a, b) { return String(a).toUpperCase() === String(b).toUpperCase(); }

// keepSettings as the settings' names (case aside, as the server's): each one tuning may change, or
// refused (a typo would have the setting meant to be kept changed).
function keptNames(keep) {
  var known = TUNABLE.map(function (t) { return t.name; }).concat(['innodb_ddl_buffer_size']);
  return (keep || []).map(function (name) {
    if (known.indexOf(String(name).toLowerCase()) >= 0) return String(name).toLowerCase();
    throw new UserError('OPTION_INVALID', 'keepSettings: ' + name + ' is not a setting restore tuning changes, so it would keep ' +
      'nothing.' + suggestion(name, known) + ' The settings tune may change: ' + known.join(', ') + '.', { option: 'keepSettings' });
  });
}

// [{name, original, value, why}] for the settings this server has that would change. ctx:
// {redoOff: the load disables the redo log, keep: names to leave alone, kept: {name: why} the topology keeps}.
function planTuning(host, ctx) {
  var c = ctx || {};
  var keep = keptNames(c.keep);
  var vars = globalVariables(host, TUNABLE.map(function (t) { return t.name; }));
  var plan = [];
  TUNABLE.forEach(function (t) {
    if (vars[t.name] === undefined || (t.when && !t.when(c)) || keep.indexOf(t.name) >= 0) return;
    if (c.kept && c.kept[t.name]) return; // the topology keeps it (lib/server/replicated-road.js)
    var value = t.target(vars[t.name]);
    if (!same(value, vars[t.name])) plan.push({ name: t.name, original: vars[t.name], value: value, why: t.why });
  });
  return plan;
}

// [[line, comment]] for my.cnf; loadOptions: the util.loadDump options of the load (skipBinlog);
// feedsOthers: the binary log feeds replicas or a group (lib/server/topology.js).
function restartAdvice(host, loadOptions, feedsOthers) {
  var vars = globalVariables(host, RESTART_ONLY.map(function (t) { return t.name; }).concat(['innodb_redo_log_capacity']));
  var out = [];
  RESTART_ONLY.forEach(function (t) {
    if (vars[t.name] === undefined) return;
    var a = t.advice(vars[t.name], vars, loadOptions, feedsOthers);
    if (a) out.push(a);
  });
  return out;
}

var MiB = 1024 * 1024;

// Index builds after deferTableIndexes (util.loadDump's ALTER TABLE … ADD INDEX): a sort buffer per
// build of a quarter of the buffer pool shared by the load's threads (1 MiB to 1 GiB; the server's
// default is 1 MiB), set in every loader session through sessionInitSql. null when it does not apply.
// innodb_ddl_threads was measured and not kept: = the client's 2 CPUs (its default 4 = the load's
// threads) in sessionInitSql and on the Shell's session, fastest 9.4 s (9.0–9.5) against 9.3 s
// (9.1–9.3) without it (npm run bench:load, 3 interleaved runs, issue 21); again quiet on 2026-12-07, 9.5 s
// (9.5–9.7) against 9.8 s (9.2–9.8): inside the runs' spread, not kept (issue 56). util.loadDump weighs an
// index build by GREATEST(@@innodb_parallel_read_threads, @@innodb_ddl_threads) of the Shell's
// session, so ddl_threads alone changes nothing there.
function planIndexBuilds(host, threads, keep) {
  if (keptNames(keep).indexOf('innodb_ddl_buffer_size') >= 0) return null;
  var vars = globalVariables(host, ['innodb_ddl_buffer_size', 'innodb_buffer_pool_size']);
  if (vars.innodb_ddl_buffer_size === undefined) return null;
  var current = Number(vars.innodb_ddl_buffer_size);
  var size = Math.min(GiB, Math.max(MiB, Math.floor(Number(vars.innodb_buffer_pool_size) / 4 / Math.max(1, threads) / MiB) * MiB));
  if (size <= current) return null;
  return { name: 'innodb_ddl_buffer_size', original: String(current), value: String(size),
    why: 'index builds after the data sort in memory (session setting of each loader session: a quarter of the buffer pool ' +
      'shared by ' + threads + ' thread(s))', statement: 'SET SESSION innodb_ddl_buffer_size = ' + size };
}

function adviceLines(advice) {
  if (!advice.length) return [];
  return ['Settings that need a restart (not changed; for my.cnf if the load is slow):', '[mysqld]']
    .concat(advice.map(function (a) { return a[0] + '    # ' + a[1]; }));
}

// SET GLOBAL with the value as the server reported it: numbers and ON/OFF bare, anything else
// as a string. Names come from TUNABLE or the state file: only plain variable names pass.
function setGlobal(host, name, value) {
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error('not a system variable name: ' + JSON.stringify(name));
  var v = String(value);
  if (/^-?\d+(\.\d+)?$/.test(v) || /^(ON|OFF)$/i.test(v)) host.sql.run('SET GLOBAL ' + name + ' = ' + v);
  else host.sql.run('SET GLOBAL ' + name + ' = ?', [v]);
}

// Records every planned change in the state file, then applies them in order. Throws at the
// first failure (the caller reverts what the state file holds).
function applyTuning(host, state, plan, by) {
  plan.forEach(function (p) { state.settings.push({ name: p.name, original: p.original, value: p.value, by: by }); });
  restoreState.saveState(host, state);
  plan.forEach(function (p) {
    setGlobal(host, p.name, p.value);
    p.applied = true;
    p.during = globalVariables(host, [p.name])[p.name]; // what the server took, for the report
  });
}

// Removes the newest record of that setting by name and author, never by object identity: the
// state's objects may come from another file's context (GraalJS), where indexOf finds nothing and
// splice(-1, 1) would drop another setting's record.
function removeSetting(state, s) {
  for (var i = state.settings.length - 1; i >= 0; i--) {
    var x = state.settings[i];
    if (x.name === s.name && x.by === s.by) { state.settings.splice(i, 1); return; }
  }
}

// Puts back the settings recorded in state (only those made by `by`, when given), newest first.
// Each one put back (or found already at its original value) leaves the state file at once.
// SET GLOBAL runs only for a variable the server has, and what it holds is read back before and
// after: each line of a report is what the server says. Returns {restored: [{name, original,
// value, was, now, already}], unknown: [{name, original}] (no such variable here: removed from the
// state, nothing to put back), failed: [{name, original, error}]}; never throws for a failed SET:
// the setting stays in the state file for restore.revert().
function revertSettings(host, state, by) {
  var result = { restored: [], unknown: [], failed: [] };
  state.settings.slice().reverse().forEach(function (s) {
    if (by && s.by !== by) return;
    try {
      var was = globalVariables(host, [s.name])[s.name];
      var restored = null; // stays null for a variable this server does not have: nothing to run
      if (was !== undefined) {
        var already = same(was, s.original);
        if (!already) setGlobal(host, s.name, s.original);
        var now = already ? was : globalVariables(host, [s.name])[s.name];
        if (!same(now, s.original)) throw new Error('SET GLOBAL ran, but the server reads back ' + now);
        restored = { name: s.name, original: s.original, value: s.value, was: was, now: now, already: already };
      }
      removeSetting(state, s);
      restoreState.saveState(host, state);
      if (restored) result.restored.push(restored);
      else result.unknown.push({ name: s.name, original: s.original });
    } catch (e) {
      result.failed.push({ name: s.name, original: s.original, error: e.message });
    }
  });
  return result;
}

module.exports = { TUNABLE: TUNABLE, planTuning: planTuning, planIndexBuilds: planIndexBuilds, restartAdvice: restartAdvice, adviceLines: adviceLines,
  applyTuning: applyTuning, revertSettings: revertSettings };
