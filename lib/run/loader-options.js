// The options util.loadDump gets, composed in this one place at the end of the preflight
// (lib/run/load-preflight.js): what a dry run prints is what util.loadDump gets. Each step of the
// preflight returns what it adds; nothing else changes util.loadDump's options.
var optionsValue = require('./load-options-value.js');
var progressFilePlace = require('./progress-file-place.js');
var translateFilters = require('../options/schema-map.js').translateFilters;

// p: {lo: util.loadDump's options as resolved (read only), stepOptions: what the partial step adds,
// own: the plugin's settings, dir: the dump directory, fresh: a fresh progress file's place or null}.
// extra: {levers, dropExistingObjects, rename, indexBuilds, snapshot (the snapshot step's plan: its
// sessionInit and loadOptions), invisiblePKs}.
// In order: the resolved ones, then what the partial step adds, what dropExisting needs, the
// plugin's progress file place, the filters under schemaMap's names, the loader sessions'
// statements (the masks' key, the index builds' settings), what the snapshot step adds, the
// group's invisible primary keys. Returns {options
// (frozen), progressDir: the directory to make for the progress file, or null}.
function loaderOptions(host, p, extra) {
  var lo = p.lo;
  var step = p.stepOptions;
  var progressFile = step.progressFile !== undefined ? step.progressFile : lo.progressFile;
  var resetProgress = step.resetProgress !== undefined ? step.resetProgress : lo.resetProgress;
  // The preset's levers as the dump's figures decide them (lib/run/load-levers.js): before
  // anything a step needs (the snapshot step's deferred indexes win).
  var additions = [extra.levers || {}, step];
  // Only where there is something to drop: Shell 9.1's loadDump fails with "Unknown database" when
  // dropExistingObjects is set and the dump's schema does not exist yet.
  if (extra.dropExistingObjects) additions.push({ dropExistingObjects: true });
  // A progress file from an earlier load would make util.loadDump skip the DDL of what was dropped.
  if (p.own.dropExisting && progressFile === undefined && resetProgress === undefined) additions.push({ resetProgress: true });
  // Not util.loadDump's default place: nothing is written into the dump.
  var place = progressFile === undefined ? progressFilePlace.progressPlace(host, p.dir) : p.fresh;
  if (progressFile === undefined) additions.push({ progressFile: place.file });
  if (extra.rename) additions.push(translateFilters(lo, extra.rename));
  // util.loadDump runs sessionInitSql in each of its sessions (8.0.30+): first the masks' key
  // (lib/snapshot/snapshot-step.js sessionInit), then the index builds' settings, then the user's.
  var snapshot = extra.snapshot || {};
  var init = (snapshot.sessionInit || []).concat(extra.indexBuilds ? [extra.indexBuilds.statement] : []);
  if (init.length) additions.push({ sessionInitSql: init.concat(lo.sessionInitSql || []) });
  // orphans "delete" may defer every secondary index until the orphans are gone (lib/snapshot/).
  if (snapshot.loadOptions) additions.push(snapshot.loadOptions);
  // A group takes no row of a table without a primary key (lib/server/replicated-road.js).
  if (extra.invisiblePKs) additions.push({ createInvisiblePKs: true });
  return { options: optionsValue.composeLoadDumpOptions(lo, additions), progressDir: place ? place.dir : null };
}

module.exports = { loaderOptions: loaderOptions };
