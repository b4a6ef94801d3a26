'use strict';
// Writes the SQL files of a planned dump: `@.sql`, `@.post.sql`, `@.users.sql`, one `.sql` per
// schema, table and view (plus the view's `.pre.sql`) and `.triggers.sql` for tables that have
// triggers. DDL is read from the server as it is written.
const fs = require('fs');
const path = require('path');
const catalog = require('./dump-catalog');
const sql = require('./dump-sql-files');
const { quoteIdentifier } = require('../sql-placeholders');

function writeGlobalFiles(dir, ctx) {
  fs.writeFileSync(path.join(dir, '@.sql'), sql.globalFile(ctx));
  fs.writeFileSync(path.join(dir, '@.post.sql'), sql.globalFile(ctx));
}

// accounts: [{user, host}] → with their DDL; accounts whose DDL cannot be read are left out with a note.
function readAccountsDdl(session, accounts, note) {
  const out = [];
  for (const a of accounts) {
    try {
      out.push({ ...a, ...catalog.accountDdl(session, a) });
    } catch (e) {
      note(`Account '${a.user}'@'${a.host}' will not be dumped: ${e.message}`);
    }
  }
  return out;
}

function writeUsersFile(dir, ctx, accounts) {
  fs.writeFileSync(path.join(dir, '@.users.sql'), sql.usersFile(ctx, accounts));
}

function routineDdl(session, schema, r) {
  const c = catalog.ddl.routine(session, schema, r.type, r.name);
  const create = c[r.type === 'FUNCTION' ? 'Create Function' : 'Create Procedure'];
  return create === null ? null : {
    name: r.name, type: r.type, sqlMode: c.sql_mode, create, charset: c.character_set_client, collation: c.collation_connection,
  };
}

function eventDdl(session, schema, name) {
  const c = catalog.ddl.event(session, schema, name);
  return {
    name, sqlMode: c.sql_mode, timeZone: c.time_zone, create: c['Create Event'],
    charset: c.character_set_client, collation: c.collation_connection,
  };
}

// MariaDB gives a trigger's statement as it was written, schema-qualified names included; MySQL 8
// rebuilds it unqualified. Dumps carry it unqualified, so they load into another schema.
function unqualifiedTrigger(create, schema) {
  const body = /\bFOR\s+EACH\s+ROW\b/i.exec(create);
  const end = body ? body.index : create.length;
  const head = create.slice(0, end).split(`${quoteIdentifier(schema, 0)}.`).join('');
  const bare = /^[A-Za-z0-9_$]+$/.test(schema) ? head.replace(new RegExp(`(\\s)${schema}\\.`, 'g'), '$1') : head;
  return bare + create.slice(end);
}

function triggerDdl(session, schema, name) {
  const c = catalog.ddl.trigger(session, schema, name);
  return {
    name, sqlMode: c.sql_mode, create: unqualifiedTrigger(c['SQL Original Statement'], schema),
    charset: c.character_set_client, collation: c.collation_connection,
  };
}

// The server names the view `schema`.`view` when asked from elsewhere; the dump names it bare,
// so that loading into another schema (loadDump's `schema` option) keeps working.
function unqualifiedViewName(create, schema, view) {
  const qualified = ` VIEW ${quoteIdentifier(schema, 0)}.${quoteIdentifier(view, 0)} AS `;
  return create.replace(qualified, ` VIEW ${quoteIdentifier(view, 0)} AS `);
}

function writeSchemaFiles(dir, ctx, session, s, settings) {
  fs.writeFileSync(path.join(dir, `${s.basename}.sql`), sql.schemaFile(ctx, {
    name: s.name,
    createDatabase: catalog.ddl.database(session, s.name),
    events: settings.events ? s.events.map((e) => eventDdl(session, s.name, e)) : null,
    routines: settings.routines ? s.routines.map((r) => routineDdl(session, s.name, r)).filter(Boolean) : null,
  }));
  for (const t of s.tables) {
    fs.writeFileSync(path.join(dir, `${t.basename}.sql`), sql.tableFile(ctx, s.name, t.name, catalog.ddl.table(session, s.name, t.name)));
    if (t.triggers.length) {
      fs.writeFileSync(path.join(dir, `${t.basename}.triggers.sql`),
        sql.triggersFile(ctx, s.name, t.name, t.triggers.map((name) => triggerDdl(session, s.name, name))));
    }
  }
  for (const v of s.views) {
    const columns = catalog.columns(session, s.name, v.name).map((c) => c.name);
    fs.writeFileSync(path.join(dir, `${v.basename}.pre.sql`), sql.viewPlaceholderFile(ctx, s.name, v.name, columns));
    const c = catalog.ddl.view(session, s.name, v.name);
    fs.writeFileSync(path.join(dir, `${v.basename}.sql`), sql.viewFile(ctx, s.name, v.name, {
      create: unqualifiedViewName(c['Create View'], s.name, v.name), charset: c.character_set_client, collation: c.collation_connection,
    }));
  }
}

module.exports = { writeGlobalFiles, readAccountsDdl, writeUsersFile, writeSchemaFiles };
