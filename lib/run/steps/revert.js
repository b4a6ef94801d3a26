// The server put back as the state file says (lib/server/revert.js): always, after every other
// step, whatever failed. Never throws for what could not be put back: it stays in the state file
// (restore.status(), restore.revert()).
var revert = require('../../server/revert.js');
var BY = require('./server-settings.js').BY;

module.exports = {
  name: 'revert',
  reads: ['run.state'], adds: [],
  reports: 'what was put back and what is left (lib/run/load-outcome.js)',
  undo: 'it is the undo of the server steps; what it could not put back restore.revert() does',
  when: function () { return true; },
  // Returns lib/server/revert.js's result.
  run: function (run) { return revert.revertServer(run.host, run.state, BY); },
};
