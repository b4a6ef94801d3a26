'use strict';
// Everything one dump call will write, decided before any file is written: per schema its tables
// (data columns, decode rules, chunking index, triggers, partitions, `where`), views, routines
// and events, each with the file base name the Shell would give it.
const catalog = require('./dump-catalog');
const { chooseIndex } = require('./dump-index-choice');
const { isBinaryColumn } = require('./dump-table-data');
const { createBasenames } = require('./dump-names');
const { selectObjects, keepTrigger, selectAccounts } = require('./dump-selection');
const { tableKey } = require('./dump-options');

// Returns {schemas, totalSchemas, accounts, totalAccounts, invalidPartitions: [text]}.
function buildPlan({ session, origin, request, settings, profile }) {
  const basenames = createBasenames();
  const selection = selectObjects(origin, session, request, settings);
  const invalidPartitions = [];
  const schemas = selection.schemas.map((s) => {
    const tables = s.tables.map((name) => tablePlan(session, s.name, name, { settings, profile, basenames, invalidPartitions }));
    return {
      name: s.name,
      basename: basenames.schema(s.name),
      tables,
      views: s.views.map((name) => ({ name, basename: basenames.table(s.name, name) })),
      routines: s.routines,
      events: s.events,
      functions: s.routines.filter((r) => r.type === 'FUNCTION').map((r) => r.name),
      procedures: s.routines.filter((r) => r.type === 'PROCEDURE').map((r) => r.name),
    };
  });
  let accounts = null;
  let totalAccounts = 0;
  if (settings.users) {
    const a = selectAccounts(session, settings);
    accounts = a.chosen;
    totalAccounts = a.total;
  }
  return { schemas, totalSchemas: selection.totalSchemas, accounts, totalAccounts, invalidPartitions };
}

function tablePlan(session, schema, name, { settings, profile, basenames, invalidPartitions }) {
  const columns = catalog.columns(session, schema, name).filter((c) => !c.generated);
  const index = chooseIndex(columns, catalog.indexes(session, schema, name));
  const decode = {};
  for (const c of columns) if (isBinaryColumn(c)) decode[c.name] = 'FROM_BASE64';
  const triggers = settings.triggers
    ? catalog.triggers(session, schema, name).filter((t) => keepTrigger(settings, schema, name, t)) : [];
  let partitions = [];
  // Partition awareness (8.0.27+): each partition is dumped, and named, on its own.
  if (profile.atLeast('8.0.27')) {
    const all = catalog.partitions(session, schema, name);
    const wanted = settings.partitions.get(tableKey(schema, name));
    let chosen = all;
    if (wanted) {
      const missing = wanted.names.filter((p) => !all.includes(p));
      if (missing.length) {
        invalidPartitions.push(`Following partitions were not found in table '${schema}'.'${name}': ${missing.map((p) => `'${p}'`).join(', ')}`);
      }
      chosen = all.filter((p) => wanted.names.includes(p));
    }
    partitions = chosen.map((p) => ({ name: p, basename: basenames.partition(schema, name, p) }));
  }
  return {
    schema,
    name,
    basename: basenames.table(schema, name),
    columns,
    decode,
    index,
    triggers,
    partitions,
    where: settings.where.get(tableKey(schema, name)) || null,
    estimate: catalog.tableStats(session, schema, name),
  };
}

function countObjects(plan, settings) {
  const sum = (f) => plan.schemas.reduce((n, s) => n + f(s), 0);
  return {
    schemas: plan.schemas.length,
    totalSchemas: plan.totalSchemas,
    tables: sum((s) => s.tables.length),
    views: sum((s) => s.views.length),
    events: sum((s) => s.events.length),
    routines: sum((s) => s.routines.length),
    triggers: settings.ddl ? sum((s) => s.tables.reduce((n, t) => n + t.triggers.length, 0)) : 0,
  };
}

module.exports = { buildPlan, countObjects };
