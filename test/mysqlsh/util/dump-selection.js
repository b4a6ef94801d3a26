'use strict';
// Which schemas, tables, views, routines, events and triggers a dump call covers: the call's
// arguments, the always-excluded system schemas, and the include/exclude filter options.
// Names are compared exactly (case-sensitive), as the Shell does.
const catalog = require('./dump-catalog');

// mysqlsh_standin holds the stand-in's own MySQL-personality state: not user data.
const SYSTEM_SCHEMAS = ['information_schema', 'mysql', 'ndbinfo', 'performance_schema', 'sys', 'mysqlsh_standin'];

function matches(list, schema, name) {
  return list.some((f) => f.schema === schema && f.name === name);
}

function keep(includeList, excludeList, schema, name) {
  if (includeList && !matches(includeList, schema, name)) return false;
  return !matches(excludeList, schema, name);
}

function sortedQuoted(names) {
  return Array.from(new Set(names)).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
    .map((n) => `'${n}'`).join(', ');
}

// Throws Error(<Shell text>) for objects named in the call that do not exist.
function checkRequested(origin, session, request, settings) {
  const existing = new Set(catalog.schemaNames(session));
  if (origin === 'dumpSchemas') {
    if (!request.schemas.length) throw new Error("The 'schemas' parameter cannot be an empty list.");
    const missing = request.schemas.filter((s) => !existing.has(s));
    if (missing.length) throw new Error(`Following schemas were not found in the database: ${sortedQuoted(missing)}`);
  }
  if (origin === 'dumpTables') {
    if (request.schema === '') throw new Error("The 'schema' parameter cannot be an empty string.");
    if (!settings.all && !request.tables.length) throw new Error("The 'tables' parameter cannot be an empty list.");
    if (settings.all && request.tables.length) {
      throw new Error("When the 'all' parameter is set to true, the 'tables' parameter must be an empty list.");
    }
    if (!existing.has(request.schema)) throw new Error(`The requested schema '${request.schema}' was not found in the database.`);
    if (!settings.all) {
      const objects = catalog.schemaObjects(session, request.schema);
      const names = new Set(objects.tables.concat(objects.views));
      const missing = request.tables.filter((t) => !names.has(t));
      if (missing.length) {
        throw new Error(`Following tables were not found in the schema '${request.schema}': ${sortedQuoted(missing)}`);
      }
    }
  }
}

// Returns {schemas: [{name, tables, views, routines: [{name, type}], events}], totalSchemas}.
function selectObjects(origin, session, request, settings) {
  const f = settings.filters;
  const all = catalog.schemaNames(session);
  let names;
  if (origin === 'dumpInstance') {
    names = all.filter((s) => !SYSTEM_SCHEMAS.includes(s))
      .filter((s) => !f.includeSchemas || f.includeSchemas.includes(s))
      .filter((s) => !f.excludeSchemas.includes(s));
  } else if (origin === 'dumpSchemas') {
    names = Array.from(new Set(request.schemas)).filter((s) => !(settings.ocimds && s === 'mysql'));
  } else {
    names = [request.schema];
  }
  const schemas = names.map((schema) => {
    const o = catalog.schemaObjects(session, schema);
    let tables = o.tables;
    let views = o.views;
    if (origin === 'dumpTables') {
      if (!settings.all) {
        tables = tables.filter((t) => request.tables.includes(t));
        views = views.filter((v) => request.tables.includes(v));
      }
    } else {
      tables = tables.filter((t) => keep(f.includeTables, f.excludeTables, schema, t));
      views = views.filter((v) => keep(f.includeTables, f.excludeTables, schema, v));
    }
    const routines = origin !== 'dumpTables' && settings.routines
      ? o.routines.filter((r) => keep(f.includeRoutines, f.excludeRoutines, schema, r.name)) : [];
    const events = origin !== 'dumpTables' && settings.events
      ? o.events.filter((e) => keep(f.includeEvents, f.excludeEvents, schema, e)) : [];
    return { name: schema, tables, views, routines, events };
  });
  return { schemas, totalSchemas: all.length };
}

// Trigger filters name `schema.table` (all its triggers) or `schema.table.trigger`.
function keepTrigger(settings, schema, table, trigger) {
  const hit = (list) => list.some((x) => x.schema === schema && x.table === table && (x.trigger === null || x.trigger === trigger));
  const f = settings.filters;
  if (f.includeTriggers && !hit(f.includeTriggers)) return false;
  return !hit(f.excludeTriggers);
}

// Accounts of dumpInstance after the always-excluded ones and the user filters.
function selectAccounts(session, settings) {
  const all = catalog.accounts(session);
  const hit = (list, a) => list.some((x) => x.user === a.user && (x.host === null || x.host === a.host));
  const chosen = all.filter((a) => a.user !== 'mariadb.sys' && !/^mysql\.(infoschema|session|sys)$/.test(a.user))
    .filter((a) => !settings.filters.includeUsers || hit(settings.filters.includeUsers, a))
    .filter((a) => !hit(settings.filters.excludeUsers, a));
  return { chosen, total: all.length };
}

module.exports = { SYSTEM_SCHEMAS, checkRequested, selectObjects, keepTrigger, selectAccounts };
