// For orphans: "parents": where the rows a partial import left out are. Per loaded table, the
// data files of the chunks `latest` did not choose (lib/partial/partial-plan.js: every chunk not
// chosen is stubbed in the load view), newest first, with what util.importTable needs to read them
// as util.loadDump would (the dump model's loadDialect: the table JSON's columns, decodeColumns,
// field and line terminators, character set). A remote dump's files are fetched into its cache
// only when they are needed.
var chunkTable = require('../dump/chunk-table.js');
var pathMaker = require('../dump/dump-paths.js').pathMaker;
var dumpCache = require('../remote/dump-cache.js');
var tableKey = require('./foreign-keys.js').tableKey;

// ctx: the load's preflight context (dumpDir: the dump, or a remote dump's cache; source);
// planned: the partial step's plan (null for a full load: nothing was left out); tables: the
// loaded tables. Returns {tableKey(schema, table) of the loaded table: source} where source =
// {schema, table, dumpSchema, chunkKey: the chunking index's columns ([] or null when unknown),
// partitioned, chunkCount, files: [{index, partition, name}] newest first, options: for
// util.importTable, path(name), fetch(names) → names now in the directory}.
// masks: the masks applied while loading ({tables: lib/snapshot/load-masks.js's, initSql}) or null:
// the staged rows are masked the same way (each source then has initSql: statements giving the key).
function chunkSources(host, ctx, planned, tables, masks) {
  var out = {};
  if (!planned || !planned.partial || !planned.plan) return out;
  var byDumpName = {};
  tables.forEach(function (t) { byDumpName[tableKey(t.dumpSchema, t.table)] = t; });
  var dir = planned.model.dir;
  var pathOf = pathMaker(host, dir);
  planned.plan.targets.forEach(function (e) {
    var t = byDumpName[tableKey(e.schema, e.table)];
    // since (exact): the boundary chunk's rows before the point were removed after the load (with
    // sinceScan, those of every chunk: e.from is 0).
    var trimmed = [];
    if (e.since && planned.sel && planned.sel.sinceExact) {
      var upTo = e.since.method === 'every chunk' ? e.to : Math.min(e.from + 1, e.to);
      for (var c = upTo - 1; c >= e.from; c--) trimmed.push(c); // newest first, as below
    }
    if (!t || (!e.stubbed.length && !trimmed.length)) return;
    var k = tableKey(t.schema, t.table);
    var target = e.target;
    var src = out[k];
    if (!src) {
      var masked = masks && masks.tables[k] ? masks.tables[k] : null;
      var options = target.info.settings.loadDialect;
      if (masked) {
        options = JSON.parse(JSON.stringify(options));
        options.decodeColumns = Object.assign(options.decodeColumns || {}, masked.decodeColumns);
      }
      src = out[k] = { schema: t.schema, table: t.table, dumpSchema: t.dumpSchema, chunkKey: target.primaryIndex,
        partitioned: e.partition !== null, chunkCount: 0, files: [], options: options, initSql: masked ? masks.initSql : [],
        path: pathOf, fetch: fetcher(host, ctx, dir) };
    }
    src.chunkCount += target.chunks.length;
    // Newest first: with a growing key, the parents of new rows are most likely in the newest chunks left out.
    trimmed.concat(e.stubbed.slice().sort(function (a, b) { return b - a; })).forEach(function (i) {
      src.files.push({ index: i, partition: e.partition, name: chunkTable.fileOf(target.chunks, i) });
    });
  });
  return out;
}

// names → the names that are files in dir once fetched (a remote dump: rsync into its cache,
// only those the remote listing holds; a local dump: those present).
function fetcher(host, ctx, dir) {
  return function (names) {
    var pathOf = pathMaker(host, dir);
    var src = ctx.source;
    if (src) {
      var missing = names.filter(function (n) { return !host.files.isFile(pathOf(n)); });
      var sizes = src.listing.sizesOf(missing);
      var wanted = missing.filter(function (n) { return sizes.has(n); });
      if (wanted.length) dumpCache.fetchFiles(host, src.source, dir, wanted, sizes, ctx.options.rsh);
    }
    return names.filter(function (n) { return host.files.isFile(pathOf(n)); });
  };
}

module.exports = { chunkSources: chunkSources };
