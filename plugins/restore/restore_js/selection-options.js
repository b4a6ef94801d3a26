// The selection options shared by plan, stub and load (declared so the command line converts
// them: --include-tables=a.b,c.d, --latest=shop.events:3,shop.*:1).
function list(name, brief) {
  return { name: name, type: 'array', itemtype: 'string', brief: brief };
}

var SELECTION_OPTIONS = [
  list('includeSchemas', 'Load only these schemas (default: all)'),
  list('excludeSchemas', 'Skip these schemas (default: none)'),
  list('includeTables', 'Load only these tables (schema.table, backticks allowed; default: all)'),
  list('excludeTables', 'Skip these tables entirely (not stubbed: excluded from the load; default: none)'),
  { name: 'latest', brief: 'Newest chunks to keep: {"shop.events": 3, "shop.*": 1, "*": 2}, a number for ' +
    'every chunked table, or on the command line shop.events:3,shop.*:1 (default: every chunk)' },
  { name: 'listing', type: 'string', brief: 'A file listing the complete dump (ls / rsync --list-only output), ' +
    'for dumps whose metadata does not list the chunks (default: none)' },
];

var SELECTION_DETAILS = 'Selection: includeSchemas, excludeSchemas, includeTables and excludeTables work as in ' +
  'util.loadDump. latest keeps the newest N chunks of a table (per partition for partitioned tables): ' +
  '{"shop.events": 3} for one table, {"shop.*": 1} for every table of a schema, {"*": 2} or 2 for all ' +
  'chunked tables; the most specific entry wins. Newest means highest key: chunks cover ascending ranges of ' +
  'the primary key, so this is the newest data only when the key grows with inserts (AUTO_INCREMENT).';

module.exports = { SELECTION_OPTIONS: SELECTION_OPTIONS, SELECTION_DETAILS: SELECTION_DETAILS };
