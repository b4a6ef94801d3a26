// restore.analyze(selection): ANALYZE TABLE (and histograms) for the tables of a dump
// (what util.loadDump created from it, after its filters) or of chosen schemas on the server.
var UserError = require('../core/user-error.js').UserError;
var selection = require('../partial/selection.js');
var loadObjects = require('../partial/load-objects.js').loadObjects;
var readDumpMetadata = require('../dump/dump-model.js').readDumpMetadata;
var checkAddress = require('../remote/remote-source.js').checkAddress;
var requireConnection = require('../server/require-connection.js').requireConnection;
var analyzeTables = require('../server/analyze.js').analyzeTables;
var onTheServer = require('../server/server-tables.js');
var formatTable = require('../format/text-table.js').formatTable;

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
  var given = o.dumpDir ? ['--dump-dir=' + o.dumpDir] : [];
  if (Array.isArray(o.includeSchemas) && o.includeSchemas.length) given.push('--include-schemas=' + o.includeSchemas.join(','));
  if (Array.isArray(o.includeTables) && o.includeTables.length) given.push('--include-tables=' + o.includeTables.join(','));
  if (given.length && o.mode) given.push('--mode=' + o.mode);
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
  host.out.print('Analyzed ' + result.tables + ' table(s)' + (mode === 'histogram' ? ', updated ' + result.histograms +
    ' histogram set(s)' : '') + ' in ' + result.statements + ' statement(s).');
  if (result.problems.length) {
    formatTable(['table', 'problem'], result.problems.map(function (p) { return [p.table, p.message]; }))
      .forEach(function (l) { host.out.print(l); });
  }
  return { tables: result.tables, histograms: result.histograms, statements: result.statements, problems: result.problems };
}

module.exports = { analyzeMember: analyzeMember };
