// restore.load's plan for the InnoDB redo log, made in the preflight (lib/run/load-preflight.js).
var redoLog = require('./redo-log.js');
var safety = require('./server-safety.js');

// What the redo log will do: {state, reason, action: 'disable'|null, note, warning}. A server crash
// while it is off leaves an instance MySQL will not start again: it is switched off only where
// that cannot cost more than this load (no other user schema, no replica), unless the user said
// redoLog: "off" (explicit) — then with a warning.
function planRedo(host, own, existingState, objects, explicit, topo) {
  var s = redoLog.redoLogSupport(host);
  var plan = { state: s.state, reason: s.reason, action: null, note: null, warning: null };
  if (own.redoLog !== 'off') return plan;
  if (s.state === 'ON') {
    var risk = safety.redoOffRisk(host, objects.schemas.map(function (x) { return x.schema; }), topo,
      objects.tables.concat((objects.views || []).map(function (v) { return { schema: v.schema, table: v.view }; })));
    if (risk && !explicit) {
      // Where replicas or a group depend on it, the preflight's safety check wants force too.
      var serving = topo && topo.feedsOthers;
      plan.note = 'kept ON although the preset turns it off: ' + risk + '; a server crash while it is off leaves an ' +
        'instance MySQL will not start again, to be re-initialized and loaded again. Pass redoLog: "off"' +
        (serving ? ' with force: true' : '') + ' to disable it anyway';
      return plan;
    }
    if (risk) {
      plan.warning = 'redoLog: "off" although ' + risk + ': a server crash during the load leaves an instance MySQL will ' +
        'not start again (re-initialize it and load everything again).';
    }
    plan.action = 'disable';
  }
  else if (s.state === 'OFF') {
    plan.note = existingState && existingState.redoLog
      ? 'disabled by ' + existingState.redoLog.disabledBy + ' at ' + existingState.redoLog.at + '; it stays OFF until restore.enableRedoLog()'
      : 'it was already OFF, not disabled by this load, so it stays OFF: run restore.enableRedoLog() when done';
  }
  return plan;
}

module.exports = { planRedo: planRedo };
