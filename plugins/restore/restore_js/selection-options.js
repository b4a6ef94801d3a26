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
  { name: 'since', brief: 'Rows at or after a point of one column: {"shop.orders.created_at": "2026-10-25 00:00:00"}, ' +
    'a duration back from the dump\'s own time ("30 days", 30d, 12h, 2w), or a number (an epoch column, the key itself); ' +
    'command line shop.orders.created_at:30d. DATETIME, TIMESTAMP (in the dump\'s tzUtc), DATE and integer columns ' +
    '(default: none)' },
  { name: 'sinceExact', type: 'bool', brief: 'With since: remove the boundary chunk\'s rows before the point after the ' +
    'load (default: true; false keeps them, and the report says so)' },
  { name: 'sinceScan', type: 'bool', brief: 'With since on a column that does not grow with the key: read every chunk\'s ' +
    'first row instead of refusing (default: false)' },
  { name: 'listing', type: 'string', brief: 'A file listing the complete dump (ls / rsync --list-only output), ' +
    'for dumps whose metadata does not list the chunks (default: none)' },
];

// Where the dump is: a local directory, a folder of dumps (newest), a backup host (rsync) or a bucket.
var SOURCE_OPTIONS = [
  { name: 'newest', type: 'bool', brief: 'The dump argument is a folder of dumps (local or on a backup host): take the ' +
    'newest complete one in it (with @.done.json; newest by the time @.json records, then by name) (default: false)' },
  { name: 'cacheDir', type: 'string', brief: 'For a dump on a backup host: where its metadata and the chosen data files ' +
    'are fetched to, and reused by later runs (default: <config home>/restore/cache/<dump>-<hash>)' },
  { name: 'rsh', type: 'string', brief: 'For a dump on a backup host over ssh: the remote shell rsync runs (rsync -e), ' +
    'e.g. "ssh -p 2222 -i ~/.ssh/backup_key" (default: $RSYNC_RSH, else ssh)' },
].concat([
  // A dump in an S3-compatible bucket: util.loadDump's own option names and meanings (all strings).
  ['s3BucketName', 'The dump is in this S3 bucket; the dump argument is its prefix there (default: none)'],
  ['s3Region', 'The bucket\'s region (default: $AWS_REGION, $AWS_DEFAULT_REGION, the profile\'s region in the config ' +
    'file, else us-east-1)'],
  ['s3Profile', 'The profile in the credentials and config files (default: $AWS_PROFILE, $AWS_DEFAULT_PROFILE, else ' +
    '"default"); when given, the environment\'s keys are not used'],
  ['s3CredentialsFile', 'The AWS credentials file (default: $AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/credentials)'],
  ['s3ConfigFile', 'The AWS config file (default: $AWS_CONFIG_FILE, else ~/.aws/config)'],
  ['s3EndpointOverride', 'The URL of an S3-compatible server (MinIO, Ceph, R2, ...), e.g. http://127.0.0.1:9000 ' +
    '(default: https://<bucket>.s3.<region>.amazonaws.com)'],
].map(function (o) { return { name: o[0], type: 'string', brief: o[1] }; }));

var VIEW_OPTIONS = [
  { name: 'viewDir', type: 'string', brief: 'With latest: where the load view is made, a directory that does not exist ' +
    'yet (default: <config home>/restore/views/<dump>-<hash>)' },
];

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
  'records in @.json, not the clock; command line --since=shop.orders.created_at:30d) loads exactly the rows at or ' +
  'after that point: the chunk where it falls is found by bisection over the chunks\' first rows (the first zstd ' +
  'block of a chunk file, or the key ranges of @.checksums.json where the dump has them; at most ceil(log2(chunks)) + 2 ' +
  'heads read, over ssh only their first bytes), the chunks from it on are loaded, and its rows before the point are ' +
  'removed afterwards (sinceExact: false keeps them). The plan says which chunk, how many load and how it knows. A ' +
  'column that does not grow with the key (a chunk starting lower than the one before) is refused, naming the chunks, ' +
  'unless sinceScan: true. latest and since may name different tables of one load; orphans: "parents" completes the ' +
  'slice (the boundary chunk is read for parents too).';

// Planning or stubbing an unfinished dump (no @.done.json) is refused unless asked for.
var ALLOW_INCOMPLETE_OPTION = { name: 'allowIncomplete', type: 'bool',
  brief: 'Go ahead with a dump without @.done.json (still being written or cut off; default: false)' };

module.exports = {
  ALLOW_INCOMPLETE_OPTION: ALLOW_INCOMPLETE_OPTION, SELECTION_OPTIONS: SELECTION_OPTIONS, SELECTION_DETAILS: SELECTION_DETAILS, SOURCE_OPTIONS: SOURCE_OPTIONS,
  VIEW_OPTIONS: VIEW_OPTIONS, SOURCE_DETAILS: SOURCE_DETAILS, VIEW_DETAILS: VIEW_DETAILS };
