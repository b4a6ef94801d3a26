// What restore.load prints: the plan (before anything changes, and all of a dry run) and the
// report at the end (time per phase, rows per table, settings changed and put back, redo log
// state before and after). Both are plain lines for println; the facts are returned as data.
var replayApplier = require('../binlog/replay-applier.js');
var trialNote = require('./session-init-check.js').trialNote;
var textTable = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var describeDrops = require('../server/drop-existing.js').describeDrops;
var adviceLines = require('../server/tuning.js').adviceLines;
var memberLines = require('../server/members.js').memberLines;
var snapshotLines = require('./snapshot-report.js').snapshotLines;
var withoutSecrets = require('../options/secrets.js').withoutSecrets;

function sortedJson(o) {
  var sorted = {};
  Object.keys(o).sort().forEach(function (k) { sorted[k] = o[k]; });
  return JSON.stringify(sorted);
}

function indent(lines) { return lines.map(function (l) { return '  ' + l; }); }

function redoPlanText(redo) {
  if (redo.action === 'disable') {
    return 'ON now: disabled for the load and enabled again afterwards, also after an error; a server crash meanwhile ' +
      'leaves an instance MySQL will not start again (re-initialize it and load again)';
  }
  if (redo.state === null) return 'left alone: ' + redo.reason;
  return redo.state + ' now: left alone' + (redo.note ? ' (' + redo.note + ')' : '');
}

// plan: {dir, preset, loadDumpOptions, drops, dropNative, redo, tuning, analyze, tableCount, advice, partialLines, warnings}
function planLines(plan) {
  var lines = ['restore.load plan for ' + (plan.title || plan.dir) + ' (preset ' + plan.preset.name +
    (plan.preset.source === 'built-in' ? '' : ' from ' + plan.preset.source) + '):'];
  if (plan.optionEcho) lines.push('  restore.load options: ' + plan.optionEcho);
  // A replay rolled forward does not run util.loadDump (its replay lines say why).
  var forward = plan.replay && plan.replay.forward;
  lines.push(forward ? '  util.loadDump: not run (' + (forward.stopped ? 'continuing a replay that stopped' : 'rolling forward a replay') + ', below)'
    : '  util.loadDump options: ' + sortedJson(withoutSecrets(plan.loadDumpOptions)));
  lines = lines.concat(indent(plan.batchLines || []));
  var init = trialNote(plan.sessionInit);
  if (init) lines.push(' ' + init);
  if (plan.preset.threadsWhy && plan.loadDumpOptions.threads !== undefined) {
    lines.push('  Threads: ' + (plan.threadsLever ? plan.loadDumpOptions.threads + ' (chosen from the dump\'s figures: levers below)'
      : plan.loadDumpOptions.threads === plan.preset.options.threads ? plan.preset.threadsWhy : plan.loadDumpOptions.threads + ' (given explicitly)'));
  }
  lines.push('  Tables in the load: ' + plan.tableCount);
  if (plan.leftoverChannel) lines.push('  ' + replayApplier.leftoverLine());
  lines = lines.concat(indent(plan.topologyLines || []));
  if (plan.dropRequested) {
    lines.push('  Drop before loading: ' + (plan.drops.length ? plan.drops.length + ' existing object(s)' +
      (plan.dropNative ? ' (by util.loadDump\'s dropExistingObjects)' : '') : forward ? 'nothing: the loaded tables hold this restore\'s ' +
      'load and replay, which continues (below)' : 'nothing exists yet'));
    lines = lines.concat(indent(indent(describeDrops(plan.drops))));
  }
  lines.push('  InnoDB redo log: ' + redoPlanText(plan.redo));
  var sessionTuning = plan.sessionTuning || [];
  if (plan.tuning.length || sessionTuning.length) {
    lines.push('  Settings for the load (global ones saved first and put back afterwards; session ones end with ' +
      'util.loadDump\'s sessions):');
    lines = lines.concat(indent(indent(textTable.formatTable(['setting', 'now', 'during the load', 'why'],
      plan.tuning.map(function (t) { return [t.name, t.original, t.value, t.why]; }).concat(sessionTuning.map(function (t) {
        return [t.name + ' (session)', t.original, t.value, t.why];
      }))))));
  } else {
    lines.push('  Server settings: ' + (plan.tune ? 'already suited to a load, nothing to change' : 'not changed (tune: false)'));
  }
  lines.push('  Analyze after the load: ' + plan.analyze);
  if ((plan.leverLines || []).length) lines = lines.concat(['  Levers chosen from the dump\'s figures:'], indent(indent(plan.leverLines)));
  lines = lines.concat(plan.partialLines.map(function (l) { return '  ' + l; }));
  if (plan.replay) lines = lines.concat(indent(plan.replay.lines));
  if (plan.snapshot) lines = lines.concat(indent(plan.snapshot.lines));
  lines = lines.concat(indent(adviceLines(plan.advice)));
  return lines.concat(plan.warnings.concat(plan.blockers).map(function (w) { return 'WARNING: ' + w; }));
}

function rowsText(r) {
  if (r.rows === null) return 'not there';
  return (r.exact ? '' : '~') + r.rows;
}

// Where each count comes from (lib/server/row-counts.js's source).
var SOURCES = { loaded: 'as loaded', counted: 'counted', estimate: 'estimate' };
var SOURCE_NOTE = '(as loaded: util.loadDump\'s own count, for a table it created that no later step changed; ' +
  'counted: SELECT COUNT(*); ~ = InnoDB estimate)';

// Up to this many tables, one line each; more: the largest, the ones not there, and the totals
// (outputFormat json lists every table).
var TABLE_LINES = 20;
var LARGEST = 10;

function rowLines(tables) {
  var shown = tables;
  var capped = tables.length > TABLE_LINES;
  if (capped) {
    var missing = tables.filter(function (t) { return t.rows === null; });
    var largest = tables.filter(function (t) { return t.rows !== null; }).slice()
      .sort(function (a, b) { return b.rows - a.rows; }).slice(0, LARGEST);
    shown = missing.concat(largest);
  }
  var lines = [capped ? 'Rows per table, the ' + shown.length + ' largest' + (shown.length > LARGEST ? ' and the missing' : '') +
    ' of ' + tables.length + ' ' + SOURCE_NOTE + ':' : 'Rows per table ' + SOURCE_NOTE + ':'];
  lines = lines.concat(indent(textTable.formatTable(['table', 'rows', 'how'], shown.map(function (t) {
    return [displayTable(t.schema, t.table), rowsText(t), SOURCES[t.source] || ''];
  }), { right: [1] })));
  if (!capped) return lines;
  var rest = tables.length - shown.length;
  var counted = tables.filter(function (t) { return t.rows !== null; });
  var sum = counted.reduce(function (n, t) { return n + t.rows; }, 0);
  var estimated = counted.some(function (t) { return !t.exact; });
  var how = Object.keys(SOURCES).map(function (k) {
    var n = counted.filter(function (t) { return t.source === k; }).length;
    return n ? n + ' ' + SOURCES[k] : null;
  }).filter(function (x) { return x; });
  return lines.concat(['  … and ' + rest + ' more table(s) (outputFormat json lists every table)',
    'Rows in all: ' + (estimated ? '~' : '') + sum + ' in ' + counted.length + ' table(s)' + (how.length ? ' (' + how.join(', ') + ')' : '') +
      (counted.length < tables.length ? ', ' + (tables.length - counted.length) + ' table(s) not there' : '')]);
}

// report: the dictionary restore.load returns.
function reportLines(report) {
  var lines = ['restore.load report for ' + (report.title || report.dumpDir) + (report.ok ? '' : ' (FAILED)') + ':'];
  lines.push('Phases:');
  lines = lines.concat(indent(textTable.formatTable(['phase', 'seconds', 'status'], report.phases.map(function (p) {
    return [p.phase, p.seconds.toFixed(2), p.status];
  }), { right: [1] })));
  if (report.tables.length) lines = lines.concat(rowLines(report.tables));
  if (report.dropped.length) lines.push('Dropped before loading: ' + report.dropped.length + ' object(s).');
  if (report.settings.length) {
    lines.push('Settings changed for the load:');
    lines = lines.concat(indent(textTable.formatTable(['setting', 'original', 'during the load', 'now'],
      report.settings.map(function (s) { return [s.name, s.original, s.value, s.restored ? s.now + ' (put back)' : 'NOT PUT BACK']; }))));
  }
  var r = report.redoLog;
  lines.push('InnoDB redo log: ' + (r.before === null ? 'cannot be switched on this server'
    : 'before ' + r.before + (r.disabled ? ', OFF during the load' : '') + ', after ' +
      (r.after === null || r.after === undefined ? 'unknown (it could not be read: restore.status() shows it)' : r.after)));
  if (report.analyze) {
    lines.push('Analyze (' + report.analyze.mode + '): ' + report.analyze.tables + ' table(s)' +
      (report.analyze.mode === 'histogram' ? ', ' + report.analyze.histograms + ' histogram set(s)' : '') +
      (report.analyze.problems.length ? ', ' + report.analyze.problems.length + ' problem(s)' : ''));
  }
  if (report.replay) {
    var rp = report.replay;
    lines.push('Binary logs replayed: ' + rp.applied + ' transaction(s)' + (rp.onTarget ? ' (' + rp.onTarget + ' already on the target, skipped)' : '') +
      (rp.applied ? (rp.engine === 'applier' ? ' by the target\'s replication applier (' + rp.workers + ' worker(s)' + (rp.tls ? ', over ' + rp.tls : '') + ')'
        : ' over ' + rp.workers + ' session(s)' + (rp.fallback ? ' (replayWith "auto": the target\'s applier could not be used: ' + rp.fallback + ')' : '')) + (rp.unlogged ? ', not in the binary log (skipBinlog)' : '') : '') +
      (rp.last ? '; the last ' + rp.last.gtid + ', committed ' + rp.last.timeText + ' (' + rp.zone + ')' : '') +
      (rp.created && rp.created.length ? '; table(s) it created, counted above: ' + rp.created.map(function (c) { return displayTable(c.schema, c.table); }).join(', ') : ''));
  }
  if (report.members) lines = lines.concat(memberLines(report.members));
  if (report.rebuildSteps && report.ok) lines = lines.concat(report.rebuildSteps);
  return lines.concat(snapshotLines(report.snapshot || null, report.tables)).concat(report.partialLines || []);
}

module.exports = { planLines: planLines, reportLines: reportLines };
