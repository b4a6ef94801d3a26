'use strict';
// The check for objects of the dump that already exist on the target (loader-internals §7), run
// only when not resuming and loadDdl is on. A schema on its own is not a conflict.
const { quoteValue } = require('../../sql-placeholders');
const { quote } = require('./load-filters');

const ARTICLE = { event: 'an' };

function namesIn(session, sql, schema) {
  return session.execute(sql.replace('?', () => quoteValue(schema))).rows.map((r) => r.map(String));
}

// plan: [{ target, tables: [{ name, triggers }], views, functions, procedures, events }] where
// every list already passed the filters. Returns [{ schema, type, name, table }] in the Shell's order.
function findExistingObjects(session, plan) {
  const found = [];
  for (const s of plan) {
    const relations = new Map(namesIn(session,
      'SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.tables WHERE TABLE_SCHEMA = ?', s.target));
    const triggers = new Set(namesIn(session,
      'SELECT TRIGGER_NAME FROM information_schema.triggers WHERE TRIGGER_SCHEMA = ?', s.target).map((r) => r[0]));
    const routines = new Set(namesIn(session,
      'SELECT CONCAT(ROUTINE_TYPE, ".", ROUTINE_NAME) FROM information_schema.routines WHERE ROUTINE_SCHEMA = ?', s.target).map((r) => r[0]));
    const events = new Set(namesIn(session,
      'SELECT EVENT_NAME FROM information_schema.events WHERE EVENT_SCHEMA = ?', s.target).map((r) => r[0]));
    const add = (type, name, table) => found.push({ schema: s.target, type, name, table });
    for (const t of s.tables) if (relations.has(t.name)) add('table', t.name);
    for (const v of s.views) if (relations.has(v.name)) add('view', v.name);
    for (const t of s.tables) for (const tr of t.triggers) if (triggers.has(tr)) add('trigger', tr, t.name);
    for (const f of s.functions) if (routines.has(`FUNCTION.${f}`)) add('function', f);
    for (const p of s.procedures) if (routines.has(`PROCEDURE.${p}`)) add('procedure', p);
    for (const e of s.events) if (events.has(e)) add('event', e);
  }
  return found;
}

function describe(o) {
  return `Schema ${quote(o.schema)} already contains ${ARTICLE[o.type] || 'a'} ${o.type} named ${quote(o.name)}`;
}

function dropStatement(o) {
  const target = `${quote(o.schema)}.${quote(o.name)}`;
  return `DROP ${o.type.toUpperCase()} IF EXISTS ${target}`;
}

module.exports = { findExistingObjects, describe, dropStatement };
