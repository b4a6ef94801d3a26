// The partial step's prepare (lib/run/partial-step.js): after the plan is confirmed, before any
// server change, never in a dry run (write the stubs and the load view, fetch a remote dump's
// chosen files). The step's protocol:
//   step.prepare(ctx, planned) null or {facts: merged into `partial`, planned: the plan the later
//                             steps use instead (a remote dump's, read again once its files are fetched)}
//   step.report(ctx, planned, outcome) after the load (also after a failure): {lines} to add to the
//                             report; outcome = {error, tables: [{schema, table, rows, exact}],
//                             loaded: util.loadDump finished} (lib/run/load-outcome.js calls it)
module.exports = {
  name: 'prepare',
  reads: ['pre.ctx', 'run.planned', 'run.partial'], adds: ['run.planned (replaced by the one prepare returns)', 'report.partial'],
  reports: 'the partial step\'s facts (report.partial); its lines after the load (report.partialLines)',
  undo: 'the partial step\'s report removes what it made once the load is done (the load view)',
  when: function (run) { return !!(run.planned && run.partial.prepare); },
  run: function (run) {
    var prepared = run.partial.prepare(run.pre.ctx, run.planned);
    if (prepared && prepared.facts) run.report.partial = Object.assign(run.report.partial || {}, prepared.facts);
    // A remote dump's plan, read again with its files fetched: the later steps use it.
    if (prepared && prepared.planned) run.planned = prepared.planned;
  },
};
