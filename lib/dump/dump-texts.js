// The dump's text files other layers need as they are, read for them here: a table's CREATE TABLE
// (<table base>.sql, for the masks' checks), the DDL scripts a load under other names rewrites,
// and @.checksums.json (a load view writes its own). Names come from the model (base names the
// catalog checked, or fixed names); a name the model's listing lacks gives null. Each is read
// when asked: none is kept (@.checksums.json has a line per chunk).
var readText = require('./dump-metadata.js').readText;
var pathMaker = require('./dump-paths.js').pathMaker;
var tableFinder = require('./dump-catalog.js').tableFinder;

// model: lib/dump/dump-model.js's (readDumpModel or readDumpMetadata). Returns the text or null.
function dumpText(host, model, name) {
  if (!model.files.has(name)) return null;
  return readText(host, pathMaker(host, model.dir)(name));
}

// -> function (dumpSchema, table) -> the CREATE TABLE text of the dump's table, or null (not in
// the dump, or no DDL file).
function createTableTexts(host, model) {
  var find = tableFinder(model.tables);
  return function (schema, table) {
    var t = find(schema, table);
    return t ? dumpText(host, model, t.basename + '.sql') : null;
  };
}

module.exports = { dumpText: dumpText, createTableTexts: createTableTexts };
