// restore.load's binlogs: what the replay after the load applies (lib/binlog/replay-plan.js), and
// what it is refused with, decided in the preflight. Refused for now, each said: schemaMap (the
// events would need rewriting), latest / since (rows outside the slice would be changed by events the
// target cannot match), masks and orphans (they change rows the replay then changes again), a target
// without gtid_mode ON (the source's GTIDs are kept, which is what makes a rerun skip what is applied).
var UserError = require('../core/user-error.js').UserError;
var replayPlan = require('../binlog/replay-plan.js');
var selection = require('../partial/selection.js');
var sourcePosition = require('../dump/dump-metadata.js').sourcePosition;

var TARGETS = ['until', 'stopBefore', 'stopAfter'];

function refuse(option, why) {
  throw new UserError('OPTION_CONFLICT', 'restore.load: binlogs with ' + option + ' is not done yet: ' + why + '. Nothing was changed.',
    { options: ['binlogs', option] });
}

// p: {own, options (every option given, resolved), lo (util.loadDump's), dump, objects, rename, snapshot, tuned, redoOff
// (the server steps' plan: settings tuned, the redo log disabled)}.
// Returns the replay plan, or null without binlogs.
function planLoadReplay(host, p) {
  var own = p.own;
  if (!own.binlogs) {
    TARGETS.forEach(function (n) {
      if (own[n] !== undefined && own[n] !== null) {
        throw new UserError('OPTION_CONFLICT', 'restore.load option ' + n + ' says where a replay of binary logs stops: give ' +
          'binlogs too (the folder of the source\'s binary log files).', { options: [n, 'binlogs'] });
      }
    });
    return null;
  }
  if (p.rename) refuse('schemaMap', 'the events would have to be rewritten to the new names');
  ['latest', 'since'].forEach(function (n) {
    if (p.options[n] !== undefined && p.options[n] !== null) {
      refuse(n, 'the events change rows outside the slice loaded, which the target does not hold');
    }
  });
  if (p.snapshot && p.snapshot.active) refuse('mask or orphans', 'the replay would change rows after they were masked or removed');
  if (p.lo.dryRun) refuse('dryRun', 'util.loadDump\'s dryRun loads nothing to replay onto (dryRun: true of restore.load plans the replay)');
  var mode = String(host.sql.run('SELECT @@GLOBAL.gtid_mode AS m').rows[0].m);
  if (mode !== 'ON') {
    throw new UserError('BINLOG_UNSUPPORTED', 'restore.load with binlogs: the target\'s gtid_mode is ' + mode + ': the replay keeps ' +
      'the source\'s GTIDs (SET gtid_next), which needs gtid_mode ON (and enforce_gtid_consistency ON). Nothing was changed.');
  }
  var sel = selection.parseSelection(p.lo);
  var schemas = p.objects.schemas.map(function (s) { return s.dumpSchema; });
  var loadedSchema = function (schema) { return schemas.indexOf(schema) >= 0; };
  var plan = replayPlan.planReplay(host, { where: own.binlogs, until: own.until, stopBefore: own.stopBefore, stopAfter: own.stopAfter,
    dumpGtids: sourcePosition(p.dump.rootJson).gtidExecuted,
    loaded: function (schema, table) { return loadedSchema(schema) && selection.isTableChosen(sel, schema, table); },
    loadedSchema: loadedSchema });
  // The replay's sessions: the load's threads (its preset's or the option's).
  plan.workers = Math.max(1, Number(p.lo.threads) || 4);
  plan.lines.splice(2, 0, '  how: ' + plan.workers + ' session(s) of the plugin\'s own, transactions scheduled by the source\'s logical clock ' +
    '(last_committed / sequence_number; a new file starts after the previous one ended), committed in the source\'s order' +
    (p.tuned || p.redoOff ? '; with the load\'s ' + (p.tuned ? 'tuned settings' + (p.redoOff ? ' and ' : '') : '') + (p.redoOff ? 'redo log off' : '') +
      ', put back after the replay' : ''));
  return plan;
}

module.exports = { planLoadReplay: planLoadReplay };
