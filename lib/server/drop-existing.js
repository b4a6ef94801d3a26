// Drop before re-import: of the objects a load will create (lib/partial/load-objects.js), those that
// already exist on the server, and nothing else: never a schema, never an object outside the
// selection. Listed first; in interactive mode the user confirms (force skips the question).
var tableNameKey = require('./server-tables.js').tableNameKey;
var UserError = require('../core/user-error.js').UserError;
var quoteTable = require('../core/sql-identifiers.js').quoteTable;
var displayTable = require('../format/display-name.js').displayTable;
var someNames = require('../format/display-name.js').someNames;
var startProgress = require('../format/progress.js').startProgress;

// Drop order: triggers and views first (they depend on tables), then tables, routines, events.
var ORDER = ['TRIGGER', 'VIEW', 'TABLE', 'FUNCTION', 'PROCEDURE', 'EVENT'];
var SHOWN = 40;

function unique(list) {
  return list.filter(function (x, i) { return list.indexOf(x) === i; });
}

// Table names follow lower_case_table_names (./server-tables.js); routine, event and trigger
// names never depend on case.
function nameKey(name) { return String(name).toLowerCase(); }

function schemaObjects(host, schema) {
  function rows(sql) { return host.sql.run(sql, [schema]).rows; }
  return {
    tables: rows('SELECT TABLE_NAME AS name, TABLE_TYPE AS type FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?'),
    routines: rows('SELECT ROUTINE_NAME AS name, ROUTINE_TYPE AS type FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?'),
    events: rows('SELECT EVENT_NAME AS name FROM information_schema.EVENTS WHERE EVENT_SCHEMA = ?'),
    triggers: rows('SELECT TRIGGER_NAME AS name, EVENT_OBJECT_TABLE AS tbl FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?'),
  };
}

// [{kind, schema, name}] in drop order, with the server's own spelling of each name.
function existingObjects(host, objects) {
  if (!objects.ddl) return [];
  var tableKey = tableNameKey(host);
  var found = [];
  unique(objects.schemas.map(function (s) { return s.schema; })).forEach(function (schema) {
    function mine(list) { return list.filter(function (o) { return o.schema === schema; }); }
    var on = schemaObjects(host, schema);
    var relations = {};
    mine(objects.tables).forEach(function (t) { if (t.ddl) relations[tableKey(t.table)] = true; });
    mine(objects.views).forEach(function (v) { relations[tableKey(v.view)] = true; });
    var routines = {};
    mine(objects.routines).forEach(function (r) { routines[r.type + ':' + nameKey(r.name)] = true; });
    var events = {};
    mine(objects.events).forEach(function (e) { events[nameKey(e.name)] = true; });
    var triggers = {};
    mine(objects.triggers).forEach(function (t) { triggers[nameKey(t.name)] = true; });
    on.triggers.forEach(function (r) {
      if (triggers[nameKey(r.name)]) found.push({ kind: 'TRIGGER', schema: schema, name: String(r.name) });
    });
    on.tables.forEach(function (r) {
      if (!relations[tableKey(r.name)]) return;
      found.push({ kind: String(r.type) === 'VIEW' ? 'VIEW' : 'TABLE', schema: schema, name: String(r.name) });
    });
    on.routines.forEach(function (r) {
      if (!routines[String(r.type) + ':' + nameKey(r.name)]) return;
      found.push({ kind: String(r.type), schema: schema, name: String(r.name) });
    });
    on.events.forEach(function (r) {
      if (events[nameKey(r.name)]) found.push({ kind: 'EVENT', schema: schema, name: String(r.name) });
    });
  });
  return found.sort(function (a, b) { return ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind); });
}

function describeDrops(list) {
  var lines = list.slice(0, SHOWN).map(function (o) { return o.kind.toLowerCase() + ' ' + displayTable(o.schema, o.name); });
  if (list.length > SHOWN) lines.push('… and ' + (list.length - SHOWN) + ' more');
  return lines;
}

// Without dropExisting: util.loadDump stops at objects of the load that exist already ("Duplicate
// objects found", Shell 9.1) after it wrote its progress file, so the same command run again resumes
// past that check and loads into them. Refused here, before anything changes, unless util.loadDump
// ignores or drops them (lo: its composed options), creates nothing (loadDdl: false) or resumes
// (resumed: its progress file is there; the check was passed then).
function refuseExisting(host, objects, lo, resumed) {
  if (resumed || lo.ignoreExistingObjects || lo.dropExistingObjects) return;
  var found = existingObjects(host, objects);
  if (!found.length) return;
  var names = found.map(function (o) { return o.kind.toLowerCase() + ' ' + displayTable(o.schema, o.name); });
  throw new UserError('OBJECTS_EXIST', 'Refusing to load: ' + found.length + ' object(s) the load creates exist on this server ' +
    'already (' + someNames(names, 10) + '), and util.loadDump stops at them ("Duplicate objects found"). Drop them first with dropExisting: true (--drop-existing; ' +
    'never a schema), leave them out with the filters (excludeTables, excludeRoutines, excludeEvents), or load into them with ignoreExistingObjects: true. Nothing was changed.',
  { objects: found.slice(0, SHOWN), count: found.length });
}

// Of the planned drops, those the server no longer has (null when it cannot be asked): after a
// failure, what is gone is what the server says, not what the plugin believes it did.
function goneObjects(host, objects, planned) {
  var still;
  try {
    still = existingObjects(host, objects);
  } catch (e) {
    return null;
  }
  var there = new Set(still.map(function (o) { return o.kind + '\u0000' + o.schema + '\u0000' + o.name; }));
  return planned.filter(function (o) { return !there.has(o.kind + '\u0000' + o.schema + '\u0000' + o.name); });
}

// In interactive mode without force, asks before the listed objects are dropped (the plan lists
// them). Throws when the user says no. Batch runs go ahead: dropExisting was asked for.
function confirmDrops(host, list, force) {
  if (!list.length || force || !host.shell.interactive) return;
  var answer = String(host.shell.prompt('Drop the ' + list.length + ' existing object(s) listed above? [y/N]: ', 'N')).trim();
  if (!/^y(es)?$/i.test(answer)) {
    throw new UserError('LOAD_CANCELLED', 'Load cancelled: nothing was dropped and the server was not changed. Without dropExisting, ' +
      'util.loadDump stops at objects that exist already (or pass ignoreExistingObjects: true to load into them).');
  }
}

// Drops them (foreign key checks off in this session meanwhile). Throws naming the object that
// failed. dropped: the caller's list, filled as each drop succeeds, so a failure half-way still
// tells what is gone.
function dropObjects(host, list, dropped) {
  if (!list.length) return dropped;
  var fkc = host.sql.run('SELECT @@SESSION.foreign_key_checks AS f').rows[0].f;
  host.sql.run('SET SESSION foreign_key_checks = 0');
  var progress = startProgress(host, 'Dropping existing objects', list.length, { unit: 'objects' });
  try {
    list.forEach(function (o) {
      try {
        host.sql.run('DROP ' + o.kind + ' IF EXISTS ' + quoteTable(o.schema, o.name));
      } catch (e) {
        throw new UserError('DROP_FAILED', 'Dropping ' + o.kind.toLowerCase() + ' ' + displayTable(o.schema, o.name) + ' failed: ' +
          e.message + '.');
      }
      dropped.push(o);
      progress.update(dropped.length);
    });
    progress.done();
  } finally {
    host.sql.run('SET SESSION foreign_key_checks = ' + (Number(fkc) ? 1 : 0));
  }
  return dropped;
}

module.exports = { existingObjects: existingObjects, refuseExisting: refuseExisting, confirmDrops: confirmDrops, dropObjects: dropObjects, goneObjects: goneObjects,
  describeDrops: describeDrops };
