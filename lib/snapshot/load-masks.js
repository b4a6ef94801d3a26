// Masks applied while util.loadDump loads the data, instead of an UPDATE afterwards. util.loadDump
// passes a table JSON's options.decodeColumns to LOAD DATA: each column named there is read into
// the variable @`column` and stored as `column` = (expression) (Shell 8.0.22+; contract §2). The load
// view (lib/partial/load-view.js) writes the table JSONs of masked tables with the mask as that
// expression, composed with the dump's own decoding (FROM_BASE64 / UNHEX of binary columns); each
// loader session reads the key from the plugin's own session through sessionInitSql (8.0.30+):
// the key is in no file, log or statement text (keyThread below; lib/snapshot/mask-key.js puts it
// into the plugin's session). On bench:snapshot's
// 1,000,000 orders masking costs about 0.2x the load this way, against 1.65x for the UPDATE.
// The rows orphans "parents" adds later come through util.importTable with the same options.
//
// Masked after the load as before (lib/snapshot/masking.js applyMasks): columns a foreign key or a
// relation links (their mask follows the whole key group, and orphans are found on the values as
// loaded), unique columns whose kind may repeat values (the load would fail on a duplicate, the
// UPDATE leaves the data unmasked and says so), tables whose JSON lists no columns, and every mask
// when the Shell is older than 8.0.30, the load reads no DDL or data, or the account cannot read
// performance_schema.user_variables_by_thread.
var atLeast = require('../options/shell-version.js').atLeast;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var tableDdl = require('./table-ddl.js');
var loadedTable = require('../options/loaded-table.js').loadedTable;
var masking = require('./masking.js');

var KEY_VARIABLE = 'restore_mask_key';

function columnId(schema, table, column) { return JSON.stringify([schema, table, column]); }

// The value LOAD DATA read for column, decoded as the dump says (decode: the table JSON's
// decodeColumns entry or undefined).
function loadedValue(column, decode) {
  var v = '@' + quoteIdentifier(column);
  if (typeof decode !== 'string' || decode === '') return v;
  if (/^(UNHEX|FROM_BASE64)$/i.test(decode)) return decode.toUpperCase() + '(' + v + ')';
  return '(' + decode + ')';
}

// Columns linked by a foreign key of the dump's DDL or a relation, among the loaded tables, by load name.
function keyColumns(tables, ddl, rels) {
  var keys = {};
  function mark(t, columns) {
    if (t) columns.forEach(function (c) { keys[columnId(t.schema, t.table, c)] = true; });
  }
  tableDdl.eachDumpForeignKey(tables, ddl, function (t, fk, ref) {
    mark(t, fk.columns);
    mark(ref, fk.refColumns);
  });
  rels.forEach(function (r) {
    mark(loadedTable(tables, r.schema, r.table), r.columns);
    mark(loadedTable(tables, r.refSchema, r.refTable), r.refColumns);
  });
  return keys;
}

// Why no mask can be applied in this load, or null.
function globalReason(ctx) {
  var lo = ctx.loadOptions;
  if (!atLeast(ctx.shellVersion, '8.0.30')) return 'MySQL Shell ' + ctx.shellVersion + ' (the key reaches the loader\'s sessions by sessionInitSql, 8.0.30+)';
  if (lo.loadData === false) return 'loadData is false';
  if (lo.loadDdl === false) return 'loadDdl is false (the tables\' columns are checked against the dump\'s DDL)';
  return null;
}

// specs: lib/options/mask-spec.js parseMask; rels: lib/options/relations.js parseRelations; tables:
// the loaded tables (lib/partial/load-objects.js); dump: the dump model. Throws the UserErrors of
// masking.checkMasks. Returns {masks: [{schema, table, dumpSchema, column, kind, value, name,
// maxLength, unique, expression}], ddl: the tables' dumpTableColumns (unless why), tables: {"[schema, table]": {file (the table JSON's name), json
// (the dump's, parsed), decodeColumns: {column: expression}}}, after: [{name, why}], why (all after the load) or null}.
function planLoadMasks(host, ctx, specs, rels, tables, dump) {
  var out = { masks: [], tables: {}, after: [], why: null };
  if (!specs.length) return out;
  out.why = globalReason(ctx);
  if (out.why) {
    specs.forEach(function (s) { out.after.push({ name: s.name, why: out.why }); });
    return out;
  }
  var ddl = tableDdl.dumpTableColumns(host, dump, tables);
  out.ddl = ddl; // the snapshot step's checks use the same (each CREATE TABLE read once)
  var files = tableDdl.dumpTableJsons(host, dump, tables);
  var keys = keyColumns(tables, ddl, rels);
  var json = {};
  specs.forEach(function (spec) {
    var t = masking.findTable(spec, tables);
    var k = JSON.stringify([t.schema, t.table]);
    var d = ddl[k];
    var c = d && Object.prototype.hasOwnProperty.call(d.columns, spec.column) ? d.columns[spec.column] : null;
    function later(why) { out.after.push({ name: spec.name, why: why }); }
    // (An unknown column or a wrong kind is refused by masking.checkMasks before anything changes.)
    if (!d) return later('its table\'s CREATE TABLE is not in the dump');
    if (!c || masking.columnProblem(spec, c)) return later('not checked yet');
    if (keys[columnId(t.schema, t.table, spec.column)]) return later('a foreign key or relation links it');
    var m = { schema: t.schema, table: t.table, dumpSchema: t.dumpSchema, column: spec.column, kind: spec.kind,
      value: spec.value, name: spec.name, maxLength: c.maxLength, unique: d.unique[spec.column] === true };
    if (m.unique && !masking.keepsDistinct(m)) {
      return later('it is unique and ' + spec.kind + (m.kind === 'name' || m.kind === 'email' || m.kind === 'hash'
        ? ' does not keep values distinct in ' + m.maxLength + ' characters' : ' may repeat values'));
    }
    if (!json[k]) json[k] = files[k] ? files[k].json : null;
    var o = json[k] && json[k].options && typeof json[k].options === 'object' ? json[k].options : null;
    var cols = o && Array.isArray(o.columns) ? o.columns : [];
    if (cols.indexOf(spec.column) < 0) return later('the dump\'s table JSON does not list its columns');
    if (cols.some(function (x) { return String(x).toLowerCase() === KEY_VARIABLE; })) {
      return later('the table has a column named ' + KEY_VARIABLE);
    }
    var decode = o.decodeColumns && typeof o.decodeColumns === 'object' ? o.decodeColumns[spec.column] : undefined;
    m.expression = masking.maskExpression(m, loadedValue(spec.column, decode)).sql;
    var entry = out.tables[k] || (out.tables[k] = { file: files[k].name, json: files[k].json, decodeColumns: {} });
    entry.decodeColumns[spec.column] = m.expression;
    out.masks.push(m);
  });
  return out;
}

// The table JSON text with the masks' expressions in options.decodeColumns. text: the dump's (or
// the rewritten one of a schemaMap load).
function maskedTableJson(text, entry) {
  var tj = JSON.parse(text);
  var o = tj.options;
  o.decodeColumns = Object.assign({}, o.decodeColumns && typeof o.decodeColumns === 'object' ? o.decodeColumns : {},
    entry.decodeColumns);
  return JSON.stringify(tj, null, 4);
}

// The key stays out of every statement the loader runs (the Shell logs sessionInitSql and its
// options in mysqlsh.log): restore.load's own session holds it in @restore_mask_key while the load
// and the snapshot phase run, and each loader session reads it from there through
// performance_schema.user_variables_by_thread (the same account: the same right to read it).
// Returns the thread id of the plugin's session when that works here, else null.
function keyThread(host) {
  try {
    var id = host.sql.run('SELECT THREAD_ID AS t FROM performance_schema.threads WHERE PROCESSLIST_ID = CONNECTION_ID()').rows;
    if (!id.length) return null;
    var t = Number(id[0].t);
    host.sql.run("SET @restore_mask_probe = 'ok'");
    var seen = host.sql.run('SELECT CAST(VARIABLE_VALUE AS CHAR) AS v FROM performance_schema.user_variables_by_thread WHERE ' +
      "THREAD_ID = ? AND VARIABLE_NAME = 'restore_mask_probe'", [t]).rows;
    host.sql.run('SET @restore_mask_probe = NULL');
    return seen.length && String(seen[0].v) === 'ok' ? t : null;
  } catch (e) {
    if (!e || !e.isSqlError) throw e;
    return null;
  }
}

// The statement giving a loader session the key held by thread (keyThread).
function keyStatement(thread) {
  return 'SET @' + KEY_VARIABLE + ' = (SELECT VARIABLE_VALUE FROM performance_schema.user_variables_by_thread WHERE THREAD_ID = ' +
    Number(thread) + " AND VARIABLE_NAME = '" + KEY_VARIABLE + "')";
}

module.exports = { planLoadMasks: planLoadMasks, maskedTableJson: maskedTableJson, keyThread: keyThread, keyStatement: keyStatement };
