// The developer-snapshot phase of restore.load: after util.loadDump, remove (or count) orphan
// rows and mask personal data. planSnapshot runs in the preflight and checks the masks against
// the dump's CREATE TABLE text before anything changes; runSnapshot runs after the load.
var withSessionSwitchOff = require('../server/session-switch.js').withSessionSwitchOff;
var parseMask = require('../options/mask-spec.js').parseMask;
var tableDdl = require('./table-ddl.js');
var masking = require('./masking.js');
var orphans = require('./orphans.js');
var loadedForeignKeys = require('./foreign-keys.js').loadedForeignKeys;
var displayTable = require('../format/display-name.js').displayTable;

// ctx: lib/commands/load.js's preflight context; objects: what the load creates (load-objects.js).
// Returns {active, orphans, specs, maskKey, tables, lines}; throws a UserError for a wrong mask.
function planSnapshot(host, ctx, objects) {
  var own = ctx.own;
  var specs = parseMask(own.mask);
  var snap = { active: own.orphans !== 'keep' || specs.length > 0, orphans: own.orphans, specs: specs,
    maskKey: own.maskKey, tables: objects.tables, lines: [] };
  if (own.orphans === 'delete') {
    snap.lines.push('Orphans after the load: delete the rows whose referenced row is missing, until none is left');
  } else if (own.orphans === 'report') snap.lines.push('Orphans after the load: counted per foreign key, nothing deleted');
  if (!specs.length) return snap;
  var fromServer = ctx.loadOptions.loadDdl === false;
  var ddl = fromServer ? null : tableDdl.dumpTableColumns(host, ctx.dumpDir, objects.tables);
  var unchecked = masking.checkMasks(specs, objects.tables, function (t) {
    return fromServer ? tableDdl.serverTableColumns(host, t.schema, t.table) : ddl[JSON.stringify([t.schema, t.table])];
  });
  snap.lines.push('Masks after the load (' + (own.maskKey ? 'key: maskKey' : 'a random key for this load') + '): ' +
    specs.map(function (s) { return s.name + ' ' + (s.kind === 'fixed' ? 'fixed' : s.kind); }).join(', ') +
    '; columns linked to them by foreign keys get the same mask');
  if (unchecked.length) {
    snap.lines.push('  ' + unchecked.map(function (s) { return s.name; }).join(', ') + ': the dump holds no CREATE TABLE ' +
      'for these tables, so they are checked right after the load, before anything is changed');
  }
  return snap;
}

// Runs fn with sql_log_bin = 0 when the load kept itself out of the binary log.
function outsideBinlog(host, skip, fn) {
  return skip ? withSessionSwitchOff(host, 'sql_log_bin', fn) : fn();
}

// After util.loadDump. Returns the facts the load report shows (lib/run/snapshot-report.js).
function runSnapshot(host, snap, loadDumpOptions) {
  return outsideBinlog(host, !!loadDumpOptions.skipBinlog, function () {
    var fks = loadedForeignKeys(host, snap.tables);
    // Masks first resolved (conflicts are refused before any row changes), applied after the orphans are gone.
    var resolved = snap.specs.length ? masking.resolveMasks(host, snap.specs, snap.tables, fks) : null;
    var out = { orphans: null, mask: null, notes: resolved ? resolved.notes : [] };
    if (snap.orphans !== 'keep') out.orphans = orphans.fixOrphans(host, fks, snap.orphans);
    if (resolved) {
      out.mask = orphans.withoutForeignKeyChecks(host, function () {
        return masking.applyMasks(host, resolved.masks, snap.maskKey);
      });
      out.mask.tables.forEach(function (t) {
        if (t.updateTriggers) {
          out.notes.push(displayTable(t.schema, t.table) + ' has ' + t.updateTriggers + ' UPDATE trigger(s): they ran for ' +
            'every masked row');
        }
      });
    }
    return out;
  });
}

module.exports = { planSnapshot: planSnapshot, runSnapshot: runSnapshot };
