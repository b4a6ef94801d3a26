// restore.analyze(selection): ANALYZE TABLE (and histograms) for the tables of a dump
// (what util.loadDump created from it, after its filters) or of chosen schemas on the server.
var UserError = require('../core/user-error.js').UserError;
var selection = require('../partial/selection.js');
var loadObjects = require('../partial/load-objects.js').loadObjects;
var readDumpMetadata = require('../dump/dump-model.js').readDumpMetadata;
var checkAddress = require('../remote/remote-source.js').checkAddress;
var optionTable = require('../options/option-table.js');
var requireConnection = require('../server/require-connection.js').requireConnection;
var analyzeTables = require('../server/analyze.js').analyzeTables;
var onTheServer = require('../server/server-tables.js');
var formatTable = require('../format/text-table.js').formatTable;
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var someNames = require('../format/display-name.js').someNames;

// The first five of some tables, then how many more.
function namesOf(tables) { return someNames(tables.map(function (t) { return displayTable(t.schema, t.table); }), 5); }

// What the filters name that the server does not have (a typo analyzes nothing, said so).
function notOnTheServer(host, sel) {
  var out = [];
  var key = onTheServer.tableNameKey(host); // schema names fold as table names do
  var there = onTheServer.existingSchemas(host, sel.includeSchemas).map(key);
  sel.includeSchemas.forEach(function (s) {
    if (there.indexOf(key(s)) < 0) out.push('includeSchemas: ' + displayIdentifier(s) + ' is not a schema on this server: nothing analyzed there.');
  });
  var table = onTheServer.baseTableNames(host);
  var missing = sel.includeTables.filter(function (t) { return table(t.schema, t.table) === null; });
  if (missing.length) out.push('includeTables: ' + namesOf(missing) + ' ' + (missing.length > 1 ? 'are' : 'is') + ' not a base table on this server: not analyzed.');
  return out;
}

// Tables of the server chosen by loadDump-style filters (restore.analyze without a dump).
function serverTables(host, sel) {
  var schemas = sel.includeSchemas.slice();
  sel.includeTables.forEach(function (t) { if (schemas.indexOf(t.schema) < 0) schemas.push(t.schema); });
  var tables = [];
  schemas.forEach(function (schema) {
    if (onTheServer.isSystemSchema(schema)) return;
    host.sql.run("SELECT TABLE_NAME AS name FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
      [schema]).rows.forEach(function (r) {
      if (selection.isTableChosen(sel, schema, String(r.name))) tables.push({ schema: schema, table: String(r.name), histograms: [] });
    });
  });
  return tables;
}

// restore.analyze(selection): {dumpDir?, includeSchemas, excludeSchemas, includeTables, excludeTables, mode}.
function analyzeMember(host, options) {
  var o = options || {};
  // The suggested command line repeats what was given (an example when nothing was).
  var given = optionTable.cliOptions(o);
  requireConnection(host, 'restore.analyze()', ['analyze'].concat(given.length ? given : ['--include-schemas=shop']));
  var mode = o.mode === undefined || o.mode === null ? 'on' : o.mode;
  if (mode !== 'on' && mode !== 'histogram') {
    throw new UserError('OPTION_INVALID', 'Option \'mode\' must be "on" or "histogram", not ' + JSON.stringify(mode) + '.');
  }
  var tables;
  if (o.dumpDir) {
    checkAddress(o.dumpDir); // a URL or an address with a password: refused, never shown
    tables = loadObjects(readDumpMetadata(host, o.dumpDir), o, mode === 'histogram').tables;
  } else {
    if (mode === 'histogram') {
      throw new UserError('OPTION_CONFLICT', 'mode "histogram" needs dumpDir: the histogram columns are listed in the dump\'s table metadata.');
    }
    var sel = selection.parseSelection(o);
    if (!sel.includeSchemas.length && !sel.includeTables.length) {
      throw new UserError('OPTION_MISSING', 'Say what to analyze: includeSchemas or includeTables (e.g. {includeSchemas: ["shop"]}), or ' +
        'dumpDir to analyze the tables a dump holds.');
    }
    tables = serverTables(host, sel);
  }
  var result = analyzeTables(host, tables, mode, false);
  if (o.dumpDir && result.absent.length) {
    host.out.warn(result.absent.length + ' of the ' + tables.length + ' table(s) of the dump are not on this server, not analyzed: ' +
      namesOf(result.absent) + '. Loaded under another schema name? Give that name as the schema option.');
  }
  if (!o.dumpDir) notOnTheServer(host, sel).forEach(function (w) { host.out.warn(w); });
  host.out.print('Analyzed ' + result.tables + ' table(s)' + (mode === 'histogram' ? ', updated ' + result.histograms +
    ' histogram set(s)' : '') + ' in ' + result.statements + ' statement(s).');
  if (result.problems.length) {
    formatTable(['table', 'problem'], result.problems.map(function (p) { return [p.table, p.message]; }))
      .forEach(function (l) { host.out.print(l); });
  }
  return { tables: result.tables, histograms: result.histograms, statements: result.statements, problems: result.problems };
}

module.exports = { analyzeMember: analyzeMember };
