// ANALYZE TABLE (and histograms) over the loaded tables (those the preset's lever chose:
// lib/run/load-levers.js) and every table the replay created, after the rows are final.
var analyze = require('../../server/analyze.js');
var withReplayed = require('../../binlog/replay-tables.js').withReplayed;

module.exports = {
  name: 'analyze',
  reads: ['pre.analyzeTables', 'pre.objects.tables', 'report.replay', 'pre.own.analyze', 'plan.loadDumpOptions.skipBinlog'], adds: ['report.analyze', 'analyzed'],
  reports: 'the tables analyzed, histograms and problems (report.analyze; problems as warnings)',
  undo: 'none: statistics only; a failure says to run restore.analyze on the same dump',
  when: function (run) { return run.pre.own.analyze !== 'off'; },
  run: function (run) {
    var mode = run.pre.own.analyze;
    var a = analyze.analyzeTables(run.host, withReplayed(run.pre.analyzeTables || run.pre.objects.tables, run.report.replay), mode,
      !!run.plan.loadDumpOptions.skipBinlog);
    run.report.analyze = { mode: mode, tables: a.tables, histograms: a.histograms, problems: a.problems };
    run.analyzed = a.analyzed; // fresh estimates: the report's row counts need not scan these when big
    analyze.problemLines(a).forEach(run.host.out.warn);
  },
};
