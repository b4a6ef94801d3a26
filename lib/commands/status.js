// restore.status(): what a DBA checks before and after a load on the connected server.
var formatPairs = require('../format/text-table.js').formatPairs;
var UserError = require('../core/user-error.js').UserError;
var restoreState = require('../server/restore-state.js');
var runtime = require('../server/runtime-changes.js');
var globalVariable = require('../server/server-variables.js').globalVariable;
var redoLogState = require('../server/server-variables.js').redoLogState;

function serverStatus(host, extraChecks) {
  if (!host.sql.connected()) {
    throw new UserError('NOT_CONNECTED', 'restore.status() needs a connection: connect first (\\connect root@host), or run ' +
      'mysqlsh root@host -- restore status');
  }
  var info = host.sql.serverInfo();
  var facts = {
    server: info.version,
    flavour: info.flavour,
    serverUuid: info.uuid,
    localInfile: globalVariable(host, 'local_infile'),
    redoLog: redoLogState(host),
  };
  var lines = [
    ['Server', info.version + ' (' + (info.flavour === 'mariadb' ? 'MariaDB' : 'MySQL') + ')'],
    ['Server UUID', info.uuid],
    ['local_infile', facts.localInfile],
    ['InnoDB redo log', facts.redoLog === null ? 'cannot be switched on this server' : facts.redoLog],
  ];
  var state = leftBehind(host, facts, lines);
  serverRecords(host, facts, lines, state);
  (extraChecks || []).forEach(function (check) { check(host, facts, lines); });
  formatPairs(lines).forEach(host.out.print);
  if (facts.runtimeChanges && facts.runtimeChanges.length) {
    host.out.warn('Settings at the values restore tuning uses were set at runtime and no restore state file here records ' +
      'them: a load run from another client or config home may have left them (its state file holds the originals; ' +
      'run restore.revert() there). If they were set on purpose, all is well.');
  }
  if (state) {
    host.out.warn('A restore left changes on this server (recorded in ' + facts.stateFile + '); restore.revert() puts ' +
      'them back once no load is running.');
  } else if (facts.redoLog === 'OFF') {
    host.out.warn('The InnoDB redo log is disabled: the server is not crash safe. Run restore.enableRedoLog() ' +
      'once no load is running.');
  }
  return facts;
}

// What the server records, seen from any client: restore-time values set at runtime that this
// client's state file does not hold, and LOAD DATA running on other connections.
function serverRecords(host, facts, lines, state) {
  facts.runtimeChanges = runtime.runtimeChanges(host, state ? state.settings.map(function (s) { return s.name; }) : []);
  facts.loadsRunning = runtime.runningLoads(host);
  (facts.runtimeChanges || []).forEach(function (c) { lines.push(['Set at runtime', runtime.describeChange(c)]); });
  if (facts.loadsRunning && facts.loadsRunning.length) {
    lines.push(['LOAD DATA running', facts.loadsRunning.map(function (l) {
      return l.statements + ' statement(s) from ' + l.account;
    }).join(', ')]);
  }
}

// What a restore's state file says is still changed, each setting with its value now.
function leftBehind(host, facts, lines) {
  facts.stateFile = null;
  facts.leftBehind = null;
  var state = restoreState.readState(host);
  if (!state) return null;
  facts.stateFile = restoreState.statePath(host, state.serverUuid);
  facts.leftBehind = {
    redoLog: state.redoLog ? { disabledBy: state.redoLog.disabledBy, at: state.redoLog.at, now: facts.redoLog } : null,
    settings: state.settings.map(function (s) {
      return { name: s.name, original: s.original, value: s.value, now: globalVariable(host, s.name), by: s.by };
    }),
  };
  lines.push(['Restore state file', facts.stateFile + ' (written ' + (state.updatedAt || state.createdAt) + ')']);
  var live = restoreState.liveOwner(host, state);
  facts.runningLoad = live ? { connectionId: live.connectionId, clientHost: live.clientHost } : null;
  if (live) lines.push(['  running now', 'a restore in ' + restoreState.describeOwner(live) + ' made these changes and puts them back when it ends']);
  if (state.redoLog) {
    lines.push(['  left behind', 'InnoDB redo log disabled by ' + state.redoLog.disabledBy + ' (now ' + facts.redoLog + ')']);
  }
  facts.leftBehind.settings.forEach(function (s) {
    lines.push(['  left behind', s.name + ' = ' + s.now + ' (original ' + s.original + ', set by ' + s.by + ')']);
  });
  return state;
}

module.exports = { serverStatus: serverStatus };
