'use strict';
// Text of the dump's SQL files, laid out like the Shell's (mysqldump-style comments, saved and
// restored session variables, `DELIMITER ;;` around routines, events and triggers, and the
// `-- begin <kind> <schema>.<name>` / `-- end …` markers the loader's filters look for).
// The statements themselves come from the server's SHOW CREATE output.
const { quoteIdentifier, quoteValue } = require('../sql-placeholders');
const { formatVersion } = require('./dump-json-docs');

const id = (v) => quoteIdentifier(v, 0);
// Section markers quote a name only when it needs it, as the Shell does (`-- begin trigger s.t1`).
const markId = (v) => (/^[A-Za-z0-9_$]+$/.test(v) && !/^\d+$/.test(v) ? v : id(v));
const mark = (schema, name) => `${markId(schema)}.${markId(name)}`;

// ctx: {profile, host, serverShortVersion}
function header(ctx, schema, table) {
  const place = `Host: ${ctx.host}${schema !== undefined ? `    Database: ${schema}` : ''}${table !== undefined ? `    Table: ${table}` : ''}`;
  return `-- MySQLShell dump ${formatVersion(ctx.profile)}  Distrib ${ctx.profile.longVersion}, for Linux (x86_64)
--
-- ${place}
-- ------------------------------------------------------
-- Server version\t${ctx.serverShortVersion}
`;
}

// Newer Shells repeat `USE` in every table file.
function useStatement(ctx, schema) {
  return ctx.profile.atLeast('9.0.0') ? `\n--\n-- Current Database: ${id(schema)}\n--\n\nUSE ${id(schema)};\n` : '';
}

function clientCharsetLines(prefix, charsetClient, collation, tail) {
  return [
    `${prefix} SET @saved_cs_client      = @@character_set_client */ ${tail}`,
    `${prefix} SET @saved_cs_results     = @@character_set_results */ ${tail}`,
    `${prefix} SET @saved_col_connection = @@collation_connection */ ${tail}`,
    `${prefix} SET character_set_client  = ${charsetClient} */ ${tail}`,
    `${prefix} SET character_set_results = ${charsetClient} */ ${tail}`,
    `${prefix} SET collation_connection  = ${collation} */ ${tail}`,
  ];
}

function restoreCharsetLines(prefix, tail) {
  return [
    `${prefix} SET character_set_client  = @saved_cs_client */ ${tail}`,
    `${prefix} SET character_set_results = @saved_cs_results */ ${tail}`,
    `${prefix} SET collation_connection  = @saved_col_connection */ ${tail}`,
  ];
}

function globalFile(ctx) { return header(ctx); }

// schema: {name, createDatabase, events: [{name, sqlMode, timeZone, create, charset, collation}],
//          routines: [{name, type, sqlMode, create, charset, collation}]} (events/routines null = not dumped)
function schemaFile(ctx, schema) {
  const create = schema.createDatabase.replace(/^CREATE DATABASE\s+/i, 'CREATE DATABASE /*!32312 IF NOT EXISTS*/ ');
  let out = `${header(ctx, schema.name)}
--
-- Current Database: ${id(schema.name)}
--

${create};

USE ${id(schema.name)};
`;
  if (schema.events) {
    out += `\n--\n-- Dumping events for database '${schema.name}'\n--\n`;
    if (schema.events.length) {
      out += '/*!50106 SET @save_time_zone= @@TIME_ZONE */ ;\n';
      for (const e of schema.events) out += eventText(schema.name, e);
      out += '/*!50106 SET TIME_ZONE= @save_time_zone */ ;\n';
    }
  }
  if (schema.routines) {
    out += `\n--\n-- Dumping routines for database '${schema.name}'\n--\n`;
    for (const r of schema.routines) out += routineText(schema.name, r);
  }
  return out;
}

function eventText(schema, e) {
  const create = e.create.replace(/\bEVENT\s+(?!IF NOT EXISTS)/i, 'EVENT IF NOT EXISTS ');
  return [
    '',
    `-- begin event ${mark(schema, e.name)}`,
    `/*!50106 DROP EVENT IF EXISTS ${id(e.name)} */;`,
    'DELIMITER ;;',
    ...clientCharsetLines('/*!50003', e.charset, e.collation, ';;'),
    `/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;;`,
    `/*!50003 SET sql_mode              = ${quoteValue(e.sqlMode, 0)} */ ;;`,
    `/*!50003 SET @saved_time_zone      = @@time_zone */ ;;`,
    `/*!50003 SET time_zone             = ${quoteValue(e.timeZone, 0)} */ ;;`,
    `/*!50106 ${create} */ ;;`,
    `/*!50003 SET time_zone             = @saved_time_zone */ ;;`,
    `/*!50003 SET sql_mode              = @saved_sql_mode */ ;;`,
    ...restoreCharsetLines('/*!50003', ';;'),
    'DELIMITER ;',
    `-- end event ${mark(schema, e.name)}`,
    '',
  ].join('\n');
}

function routineText(schema, r) {
  const kind = r.type.toLowerCase();
  return [
    '',
    `-- begin ${kind} ${mark(schema, r.name)}`,
    `/*!50003 DROP ${r.type} IF EXISTS ${id(r.name)} */;`,
    ...clientCharsetLines('/*!50003', r.charset, r.collation, ';'),
    `/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;`,
    `/*!50003 SET sql_mode              = ${quoteValue(r.sqlMode, 0)} */ ;`,
    'DELIMITER ;;',
    `${r.create} ;;`,
    'DELIMITER ;',
    `/*!50003 SET sql_mode              = @saved_sql_mode */ ;`,
    ...restoreCharsetLines('/*!50003', ';'),
    `-- end ${kind} ${mark(schema, r.name)}`,
    '',
  ].join('\n');
}

function tableFile(ctx, schema, table, createTable) {
  const create = createTable.replace(/^CREATE TABLE\s+(?!IF NOT EXISTS)/i, 'CREATE TABLE IF NOT EXISTS ');
  return `${header(ctx, schema, table)}${useStatement(ctx, schema)}
--
-- Table structure for table ${id(table)}
--

/*!40101 SET @saved_cs_client     = @@character_set_client */;
/*!50503 SET character_set_client = ${ctx.charset} */;
${create};
/*!40101 SET character_set_client = @saved_cs_client */;
`;
}

// The placeholder: a view of the same columns, so views that use this one can be created first.
function viewPlaceholderFile(ctx, schema, view, columnNames) {
  const cols = columnNames.length ? columnNames.map((c) => ` 1 AS ${id(c)}`).join(',\n') : ' 1 AS `1`';
  return `${header(ctx, schema, view)}${useStatement(ctx, schema)}
--
-- Temporary view structure for view ${id(view)}
--

DROP TABLE IF EXISTS ${id(view)};
/*!50001 DROP VIEW IF EXISTS ${id(view)}*/;
SET @saved_cs_client     = @@character_set_client;
/*!50503 SET character_set_client = ${ctx.charset} */;
/*!50001 CREATE VIEW ${id(view)} AS SELECT 
${cols} */;
SET character_set_client = @saved_cs_client;
`;
}

// v: {create, charset, collation}
function viewFile(ctx, schema, view, v) {
  return `${header(ctx, schema, view)}${useStatement(ctx, schema)}
--
-- Final view structure for view ${id(view)}
--

/*!50001 DROP VIEW IF EXISTS ${id(view)}*/;
/*!50001 SET @saved_cs_client          = @@character_set_client */;
/*!50001 SET @saved_cs_results         = @@character_set_results */;
/*!50001 SET @saved_col_connection     = @@collation_connection */;
/*!50001 SET character_set_client      = ${v.charset} */;
/*!50001 SET character_set_results     = ${v.charset} */;
/*!50001 SET collation_connection      = ${v.collation} */;
/*!50001 ${v.create} */;
/*!50001 SET character_set_client      = @saved_cs_client */;
/*!50001 SET character_set_results     = @saved_cs_results */;
/*!50001 SET collation_connection      = @saved_col_connection */;
`;
}

// triggers: [{name, sqlMode, create, charset, collation}]
function triggersFile(ctx, schema, table, triggers) {
  let out = `${header(ctx, schema, table)}${useStatement(ctx, schema)}
--
-- Dumping triggers for table '${schema}'.'${table}'
--
`;
  for (const t of triggers) {
    out += [
      '',
      `-- begin trigger ${mark(schema, t.name)}`,
      ...clientCharsetLines('/*!50003', t.charset, t.collation, ';'),
      `/*!50003 SET @saved_sql_mode       = @@sql_mode */ ;`,
      `/*!50003 SET sql_mode              = ${quoteValue(t.sqlMode, 0)} */ ;`,
      `/*!50032 DROP TRIGGER IF EXISTS ${id(t.name)} */;`,
      'DELIMITER ;;',
      `/*!50003 ${t.create} */;;`,
      'DELIMITER ;',
      `/*!50003 SET sql_mode              = @saved_sql_mode */ ;`,
      ...restoreCharsetLines('/*!50003', ';'),
      `-- end trigger ${mark(schema, t.name)}`,
      '',
    ].join('\n');
  }
  return out;
}

// accounts: [{user, host, create, grants}]
function usersFile(ctx, accounts) {
  let out = `${header(ctx)}--\n-- Dumping user accounts\n--\n`;
  const label = (a) => `${a.user}@${a.host}`;
  for (const a of accounts) {
    const create = a.create.replace(/^CREATE USER\s+(?!IF NOT EXISTS)/i, 'CREATE USER IF NOT EXISTS ');
    out += `\n-- begin user ${label(a)}\n${create};\n-- end user ${label(a)}\n`;
  }
  for (const a of accounts) {
    out += `\n-- begin grants ${label(a)}\n${a.grants.map((g) => `${g};`).join('\n')}\n-- end grants ${label(a)}\n`;
  }
  return out;
}

module.exports = {
  header, globalFile, schemaFile, tableFile, viewPlaceholderFile, viewFile, triggersFile, usersFile,
};
