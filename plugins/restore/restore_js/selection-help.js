// Help paragraphs shared by plan, stub, view and load. The options themselves are declared in
// lib/options/option-table.js.
var SOURCE_DETAILS = 'The dump: a local directory (never written to: a read-only mount is fine), a folder of dumps ' +
  'with newest: true, or a dump on a backup host named as rsync names it, user@host:/backups/2026-11-24 (over ssh) or ' +
  'rsync://host/module/path (an rsync daemon): its metadata is fetched with rsync into cacheDir, then exactly the ' +
  'chosen data files; files fetched earlier are reused. rsync and ssh must be installed. A dump in an S3-compatible ' +
  'bucket: s3BucketName (and s3Region, s3Profile, s3CredentialsFile, s3ConfigFile, s3EndpointOverride, as for ' +
  'util.loadDump; keys from the environment or the AWS files, as MySQL Shell finds them) with the prefix as the dump ' +
  'argument: its metadata, then exactly the chosen data files, are fetched with GET requests into cacheDir (nothing ' +
  'is ever written to the bucket); a full load without a view is read from the bucket by util.loadDump itself.';

var VIEW_DETAILS = 'With latest, util.loadDump loads a load view instead of the dump: a directory of the plugin\'s own ' +
  'with links to the dump\'s metadata and chosen data files, an empty stub for every chunk not chosen (whether the ' +
  'dump holds it or not), and its own @.done.json (stubbed chunks recorded as 0 bytes, so the Shell\'s progress and ETA ' +
  'count only what is loaded) and @.checksums.json (only the loaded chunks, so checksum: true verifies a partial ' +
  'import). util.loadDump\'s progress file lives in the view: a stopped load resumes with the same command.';

var SELECTION_DETAILS = 'Selection: includeSchemas, excludeSchemas, includeTables and excludeTables work as in ' +
  'util.loadDump. latest keeps the newest N chunks of a table (per partition for partitioned tables): ' +
  '{"shop.events": 3} for one table, {"shop.*": 1} for every table of a schema, {"*": 2} or 2 for all ' +
  'chunked tables; the most specific entry wins. Newest means highest key: chunks cover ascending ranges of ' +
  'the primary key, so this is the newest data only when the key grows with inserts (AUTO_INCREMENT). ' +
  'since: {"shop.orders.created_at": "2026-10-25 00:00:00"} (or "30 days", counted back from the time the dump ' +
  'records in @.json, not the clock; command line --since=shop.events.at:30d) loads the rows at or after ' +
  'that point. On a column leading the chunking key (the key itself, a key with the time first) it is exact: the ' +
  'chunk where the point falls is found by bisection over the chunks\' first rows (the first zstd block of a chunk ' +
  'file, or the key ranges of @.checksums.json where the dump has them; at most ceil(log2(chunks)) + 2 heads read, over ' +
  'ssh only their first bytes), the chunks from it on are loaded, and its rows before the point are removed afterwards ' +
  '(sinceExact: false keeps them). Any other column (a created_at beside an id key) is refused: a row of an earlier ' +
  'chunk may hold a later value, and no first row shows it. sinceScan: true makes it exact by loading every chunk and ' +
  'deleting the rows before the point; sinceExact: false loads the chunks the first rows point at and says the slice is ' +
  'approximate. The plan says which chunk, how many load and how it knows. latest and since may name different tables ' +
  'of one load; orphans: "parents" completes the ' +
  'slice (the boundary chunk is read for parents too).';

module.exports = { SELECTION_DETAILS: SELECTION_DETAILS, SOURCE_DETAILS: SOURCE_DETAILS, VIEW_DETAILS: VIEW_DETAILS };
