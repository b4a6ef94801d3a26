// since: where in a table's chunks a point in time (or key) begins. Chunks hold ascending ranges of
// the chunking key (contract §4: the table JSON's primaryIndex), so of its first column only: for a
// column leading that key the chunk holding the point is found by bisection over the chunks'
// first rows (each head costs the first block of one data file, lib/dump/chunk-heads.js, or nothing
// where @.checksums.json records the key ranges). At most ceil(log2(chunks)) + 2 heads are read;
// the chunks from that one on load and the load deletes the rows before the point afterwards
// (lib/snapshot/snapshot-step.js): only the boundary chunk can hold them.
//
// Any other column (a created_at beside an id key) may hold, inside an earlier chunk, a value at
// or after the point (a row updated later): first rows in order prove nothing there. Refused
// unless sinceScan (every chunk loads and the rows before the point are deleted: exact) or
// sinceExact: false (the bisection's chunks, said approximate). Heads read that go down as the key
// grows are refused in every mode: they cannot place the point at all.
var UserError = require('../core/user-error.js').UserError;
var closestName = require('../options/closest-name.js').closestName;
var sinceSpec = require('../options/since-spec.js');
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var createTableTexts = require('../dump/dump-texts.js').createTableTexts;
var parseCreateTable = require('../snapshot/table-ddl.js').parseCreateTable;
var checksumLowest = require('../dump/checksum-ranges.js').checksumLowest;
var firstRow = require('../dump/chunk-heads.js').firstRow;
var chunkTable = require('../dump/chunk-table.js');
var describeRanges = chunkTable.describeRanges;
var formatBytes = require('../format/text-table.js').formatBytes;
var headReader = require('../remote/head-reader.js').headReader;
var sqlIds = require('../core/sql-identifiers.js');

var TIME_TYPES = { datetime: true, timestamp: true, date: true };
var INT_TYPES = { tinyint: true, smallint: true, mediumint: true, int: true, integer: true, bigint: true };

function targetKey(schema, table, partition) { return JSON.stringify([schema, table, partition]); }

// A time as a text that sorts as the time does: "2026-10-25" → "2026-10-25 00:00:00.000000".
function timeKey(text) {
  var m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?)?$/.exec(String(text).trim());
  if (!m) return null;
  return m[1] + ' ' + (m[2] || '00:00:00') + '.' + ((m[3] || '') + '000000').slice(0, 6);
}

// Decimal integer texts compared as numbers (a BIGINT does not fit a JavaScript number).
function compareInt(a, b) {
  var na = a[0] === '-', nb = b[0] === '-';
  if (na !== nb) return na ? -1 : 1;
  var x = na ? a.slice(1) : a, y = nb ? b.slice(1) : b;
  var c = x.length !== y.length ? (x.length < y.length ? -1 : 1) : x < y ? -1 : x > y ? 1 : 0;
  return na ? -c : c;
}

// The since point for a column: {kind: 'time'|'int', key (what heads compare with), sql (the
// literal of the load's DELETE), shown, how (words: where the point comes from)}.
function sincePoint(rule, column, model, autoIncrement) {
  var v = rule.value;
  var begin = model.begin || (model.rootJson && model.rootJson.begin) || null;
  function fromDuration() {
    if (typeof begin !== 'string' || !sinceSpec.normalTime(begin)) {
      throw new UserError('SINCE_UNSUITED', 'since: ' + rule.name + ': ' + JSON.stringify(v.text) + ' counts back from the dump\'s time, and ' +
        'its @.json records none ("begin"): give a date and time instead.');
    }
    return sinceSpec.timeMinus(sinceSpec.normalTime(begin), v.seconds);
  }
  if (TIME_TYPES[column.type]) {
    if (v.kind === 'number') {
      throw new UserError('SINCE_UNSUITED', 'since: ' + rule.name + ' is a ' + column.type.toUpperCase() + ' column: give a time ' +
        '("2026-10-25 00:00:00") or a duration (30d), not the number ' + v.text + '.');
    }
    var time = v.kind === 'time' ? v.time : fromDuration();
    var how = v.kind === 'time' ? 'as given' : v.text + ' before the dump\'s time ' + begin + ' (@.json begin)';
    // The Shell writes begin in the dumping client's local time; a dump with tzUtc holds TIMESTAMPs in UTC.
    if (v.kind === 'duration' && column.type === 'timestamp' && model.rootJson && model.rootJson.tzUtc !== false) {
      how += '; TIMESTAMP values are in UTC and begin is the dumping client\'s clock: if that was not on UTC, give the ' +
        'point as a UTC time instead';
    }
    return { kind: 'time', key: timeKey(time), sql: time, shown: time, how: how };
  }
  if (INT_TYPES[column.type]) {
    if (v.kind === 'number') return { kind: 'int', key: v.number, sql: v.number, shown: v.number, how: 'as given' };
    if (autoIncrement) {
      throw new UserError('SINCE_UNSUITED', 'since: ' + rule.name + ' is an AUTO_INCREMENT key: a time means nothing there; give a key value ' +
        '(e.g. 182000000), or name the table\'s time column.');
    }
    var t = v.kind === 'time' ? v.time : fromDuration();
    var epoch = sinceSpec.epochOf(t);
    return { kind: 'int', key: epoch, sql: epoch, shown: epoch + ' (' + t + ' UTC, as epoch seconds)',
      how: v.kind === 'time' ? 'as given, in epoch seconds' : v.text + ' before the dump\'s time ' + begin + ' (@.json begin), in epoch seconds' };
  }
  throw new UserError('SINCE_UNSUITED', 'since: ' + rule.name + ' is a ' + column.type.toUpperCase() + ' column: since takes DATETIME, ' +
    'TIMESTAMP, DATE and integer (epoch or key) columns.');
}

// head text (or null: NULL) → comparable key, or undefined when it does not read as the column's type.
function headKey(point, text) {
  if (text === null) return null;
  if (point.kind === 'time') { var k = timeKey(text); return k === null ? undefined : k; }
  return /^-?\d+$/.test(text) ? text.replace(/^(-?)0+(?=\d)/, '$1') : undefined;
}

// a, b: keys or null (NULL sorts first, as in the index).
function compareKeys(point, a, b) {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  return point.kind === 'int' ? compareInt(a, b) : a < b ? -1 : a > b ? 1 : 0;
}

function ceilLog2(n) { var k = 0; while (Math.pow(2, k) < n) k++; return k; }

// One target (a table, or a partition): the boundary chunk, and how it was found.
function boundaryOf(host, t, rule, point, col, opts) {
  var n = t.chunks.length;
  var name = displayTable(t.schema, t.table, t.partition);
  var fact = { table: name, schema: t.schema, table_: t.table, partition: t.partition, column: rule.column, since: point.shown,
    how: point.how, chunks: n, boundary: 0, load: n, headsRead: 0, headsAllowed: ceilLog2(n) + 2, method: null,
    ordered: null, heads: [], disorder: [] };
  if (!t.chunking || n <= 1) {
    fact.method = !t.chunking ? 'not chunked' : 'one chunk';
    return fact;
  }
  var key = Array.isArray(t.primaryIndex) ? t.primaryIndex : null;
  fact.chunkKey = key;
  fact.ordered = !!(key && key[0] === rule.column);
  if (!fact.ordered) {
    // Only a column leading the key is bounded by the chunks' first rows: any other may hold, in an
    // earlier chunk, a value at or after the point (a row updated after it was inserted).
    fact.cost = costOf([t]);
    if (opts.scan) {
      fact.method = 'every chunk';
      return fact;
    }
    if (opts.exact) throw notLeading(name, rule, point, key, opts.cost);
    if (key && key.length === 0) {
      throw new UserError('SINCE_UNSUITED', 'since: ' + name + ' has no primary key or unique index: its chunks follow the server\'s scan ' +
        'order, so no chunk can be skipped by its first row, even approximately. Pass sinceScan: true (every chunk loads, ' +
        costText(opts.cost) + ', and the rows before the point are deleted after the load: exact), or load it whole (leave it ' +
        'out of since). Nothing was changed.', { table: name, column: rule.column, ways: ['sinceScan'] });
    }
    fact.approximate = true;
  }
  var sums = opts.checksums(t, rule.column);
  var cache = {};
  var fromSums = 0;
  function head(i) {
    if (Object.prototype.hasOwnProperty.call(cache, i)) return cache[i];
    var text;
    var where;
    if (sums && sums[i] !== null && sums[i] !== undefined) { text = sums[i]; where = 'checksums'; fromSums++; }
    else {
      var row = firstRow(host, t, i, opts.reader);
      fact.headsRead++;
      where = 'head';
      text = row === null ? undefined : row[col];
      if (row !== null && col >= row.length) {
        throw new UserError('DUMP_DAMAGED', 'since: the first row of chunk ' + i + ' of ' + name + ' has ' + row.length + ' fields, not a ' +
          rule.column + ' (field ' + (col + 1) + '): the table JSON\'s columns do not match its data.');
      }
    }
    var k = text === undefined ? undefined : headKey(point, text);
    if (text !== undefined && k === undefined) {
      throw new UserError('DUMP_DAMAGED', 'since: the first row of chunk ' + i + ' of ' + name + ' holds ' + JSON.stringify(text) + ' in ' +
        rule.column + ', which does not read as a ' + point.kind + ': name another column.');
    }
    // A NULL first row says nothing of where the point falls (NULL is never at or after it): like an empty chunk,
    // it is taken as at or after the point (the bisection then loads more, never less) and is no disorder.
    var h = { index: i, empty: text === undefined || text === null, text: text === undefined ? null : text, key: k, where: where };
    cache[i] = h;
    return h;
  }
  function atOrAfter(h) { return h.empty || compareKeys(point, h.key, point.key) >= 0; }
  fact.method = 'bisection';
  var lo = 0;
  var hi = n;
  while (lo < hi) {
    var mid = (lo + hi) >> 1;
    if (atOrAfter(head(mid))) hi = mid;
    else lo = mid + 1;
  }
  var j = lo;
  fact.boundary = Math.max(0, j - 1);
  // The chunk before the first one starting at or after the point holds its first rows.
  if (j > 0) head(j - 1);
  fact.load = n - fact.boundary;
  if (fromSums && !fact.headsRead) fact.method = 'checksums';
  else if (fromSums) fact.method += ' (key ranges of @.checksums.json where they say)';
  var read = Object.keys(cache).map(Number).sort(function (a, b) { return a - b; }).map(function (x) { return cache[x]; });
  fact.heads = read.map(function (h) { return { chunk: h.index, first: h.empty ? null : h.text, from: h.where }; });
  var last = null;
  read.forEach(function (h) {
    if (h.empty) return;
    if (last && compareKeys(point, h.key, last.key) < 0) fact.disorder.push({ chunk: h.index, first: h.text, before: last.index, was: last.text });
    if (!last || compareKeys(point, h.key, last.key) > 0) last = h;
  });
  if (fact.disorder.length && fact.ordered) {
    // The key's own first column out of order: the chunks are not what the contract says.
    throw new UserError('DUMP_DAMAGED', 'since: the chunks of ' + name + ' are not in the order of their key ' +
      displayIdentifier(rule.column) + ': ' + disorderText(fact) + '. restore.inspect checks the dump; leave the table out of ' +
      'since to load it whole. Nothing was changed.', { table: name, column: rule.column });
  }
  if (fact.disorder.length) {
    throw new UserError('SINCE_UNSUITED', 'since: ' + displayIdentifier(rule.column) + ' does not grow with the key of ' + name + ': ' +
      disorderText(fact) + ': its first rows go down as the key grows, so they cannot place ' + point.shown + ', not even ' +
      'approximately. Pass sinceScan: true (every chunk loads, ' + costText(opts.cost) + ', and the rows before the point ' +
      'are deleted after the load: exact), or name a column that leads the key. Nothing was changed.',
    { table: name, column: rule.column, ways: ['sinceScan'] });
  }
  return fact;
}

// What reading every chunk of these targets (a table's partitions) costs, as the dump records it.
function costOf(targets) {
  var c = { files: 0, bytes: 0, unknown: false };
  targets.forEach(function (t) {
    var n = t.chunks.length;
    c.files += n;
    c.bytes += chunkTable.sumDataBytes(t.chunks, 0, n);
    if (chunkTable.someUnknown(t.chunks, 0, n)) c.unknown = true;
  });
  return c;
}

// What loading every chunk costs, as the dump records it: "12 chunk file(s), 1.5 MB uncompressed as @.done.json records, read and loaded".
function costText(c) {
  return c.files + ' chunk file(s), ' + (c.unknown ? 'sizes not all recorded' : formatBytes(c.bytes) + ' uncompressed as @.done.json records') +
    ', read and loaded';
}

// The chunking key as the table JSON records it (primaryIndex), in words.
function keyText(key) {
  return key === null ? 'not recorded by the dump' : key.length ? key.map(displayIdentifier).join(', ') : 'none (no usable index)';
}

// since on a column that does not lead the chunking key, exact asked (the default): refused with the two ways out.
function notLeading(name, rule, point, key, cost) {
  return new UserError('SINCE_UNSUITED', 'since: ' + displayIdentifier(rule.column) + ' does not lead the chunking key of ' + name +
    ' (' + keyText(key) + ': the table JSON\'s primaryIndex): chunks hold ascending ranges of ' + (key && key.length ?
      displayIdentifier(key[0]) : 'the key') + ', not of ' + displayIdentifier(rule.column) + ', so a row of an earlier chunk may ' +
    'hold a value at or after ' + point.shown + ' (a row updated after it was inserted) and the chunks\' first rows cannot ' +
    'show it: no chunk can be skipped with certainty. Two ways out: sinceScan: true reads every chunk (' + costText(cost) +
    ') and deletes the rows before the point after the load: exact; or sinceExact: false loads the chunks from the one ' +
    'their first rows point at: approximate (rows at or after the point in earlier chunks are not loaded, rows before it in ' +
    'the chosen chunks are kept). ' + (key && key.length ? 'Or name the key\'s first column ' + displayIdentifier(key[0]) + '. ' : '') +
    'Nothing was changed.', { table: name, column: rule.column, chunkKey: key, ways: ['sinceScan', 'sinceExact'] });
}

function disorderText(fact) {
  return fact.disorder.slice(0, 3).map(function (d) {
    return 'chunk ' + d.chunk + ' starts at ' + d.first + ', lower than chunk ' + d.before + ' (' + d.was + ')';
  }).join('; ') + (fact.disorder.length > 3 ? '; …' : '');
}

// model: the dump model; sel: parseSelection's (sel.since holds the rules); reader: {read(names, n)}
// (lib/remote/head-reader.js), made when a head must be read. Returns a copy of sel with
// sinceTargets: {targetKey: fact} (fact.boundary: the first chunk chosen) and sinceFacts: [fact].
// Throws a UserError (before anything changes) for a table, column or value that does not fit.
function resolveSince(host, model, sel, reader) {
  var tables = [];
  var seen = {};
  model.targets.forEach(function (t) {
    var k = t.schema + '.' + t.table;
    if (!seen[k]) { seen[k] = true; tables.push(k); }
  });
  var ddl = createTableTexts(host, model);
  var sums = checksumLowest(host, model);
  var out = Object.assign({}, sel, { sinceTargets: {}, sinceFacts: [] });
  sel.since.forEach(function (rule) {
    var targets = model.targets.filter(function (t) { return t.schema === rule.schema && t.table === rule.table; });
    if (!targets.length) {
      var near = closestName(rule.schema + '.' + rule.table, tables);
      throw new UserError('NOT_IN_DUMP', 'since: ' + rule.name + ' names no table of the dump' + (near ? ': did you mean ' + near + '?' :
        ' (restore.inspect lists the tables).') + ' Nothing was changed.');
    }
    var columns = (targets[0].info.settings.loadDialect || {}).columns || [];
    var text = ddl(rule.schema, rule.table);
    var parsed = text === null ? null : parseCreateTable(text);
    var names = columns.length ? columns : parsed ? Object.keys(parsed.columns) : [];
    var col = names.indexOf(rule.column);
    if (col < 0) {
      var nearCol = closestName(rule.column, names);
      throw new UserError('NOT_IN_DUMP', 'since: ' + displayTable(rule.schema, rule.table) + ' has no column ' + displayIdentifier(rule.column) +
        (nearCol ? ': did you mean ' + rule.schema + '.' + rule.table + '.' + nearCol + '?' : ' (its columns: ' +
          names.join(', ') + ').') + ' Nothing was changed.');
    }
    if (!parsed || !parsed.columns[rule.column]) {
      throw new UserError('NOT_IN_DUMP', 'since: the dump holds no CREATE TABLE for ' + displayTable(rule.schema, rule.table) + ', so the type ' +
        'of ' + displayIdentifier(rule.column) + ' is unknown. Nothing was changed.');
    }
    var type = parsed.columns[rule.column].type;
    var autoInc = new RegExp('^\\s+`' + rule.column.replace(/`/g, '``').replace(/[.*+?^${}()|[\]\\]/g, '\\$&') +
      '`[^\\n]*AUTO_INCREMENT', 'm').test(text);
    var point = sincePoint(rule, { type: type }, model, autoInc);
    point.utc = type === 'timestamp' && model.rootJson && model.rootJson.tzUtc !== false;
    var cost = costOf(targets);
    targets.forEach(function (t) {
      if (!t.lastChunkKnown && t.chunking) {
        throw new UserError('SINCE_UNSUITED', 'since: ' + displayTable(t.schema, t.table, t.partition) + ': the last chunk is unknown, so the ' +
          'chunks cannot be searched. Fetch its .idx files, or pass listing (a listing of the complete dump).');
      }
      var fact = boundaryOf(host, t, rule, point, col, { reader: reader(), checksums: sums, scan: !!sel.sinceScan,
        exact: sel.sinceExact, cost: cost });
      fact.type = type;
      fact.sql = point.sql;
      fact.utc = point.utc;
      fact.exact = sel.sinceExact;
      out.sinceTargets[targetKey(t.schema, t.table, t.partition)] = fact;
      out.sinceFacts.push(fact);
    });
  });
  return out;
}

// read(surveyedFrom, earlier, last) → a dump model (readDumpModel with these options; last: the one the
// plan uses, the only one worth checking in depth, e.g. verify); where: {host, dir (the
// dump, or a remote dump's cache), remote (null or {source, listing}: lib/remote/dump-source.js), rsh}. With since, the model is
// read once without the since tables' chunks, their boundaries found, and read again (its metadata
// taken as read) with the chunks chosen. Returns {sel (with the boundaries), model}.
function withBoundaries(where, sel, read, chosenOnly) {
  var once = !sel.since.length || !!sel.sinceTargets;
  var model = read(chosenOnly(sel), null, once);
  if (once) return { sel: sel, model: model };
  var reader = headReader(where.host, where.dir, where.remote, where.rsh);
  var resolved = resolveSince(where.host, model, sel, function () { return reader; });
  resolved.sinceReader = { kind: reader.kind, files: reader.files, transferred: reader.transferred };
  return { sel: resolved, model: read(chosenOnly(resolved), model, true) };
}

// The plan's lines for the since facts.
function sinceLines(facts) {
  var lines = [];
  facts.forEach(function (f) {
    var first = f.heads.filter(function (h) { return h.chunk === f.boundary; })[0];
    var next = f.heads.filter(function (h) { return h.chunk === f.boundary + 1; })[0];
    lines.push('since ' + displayTable(f.schema, f.table_) + '.' + displayIdentifier(f.column) +
      (f.partition === null ? '' : ' (partition ' + displayIdentifier(f.partition) + ')') + ' >= ' + f.since + ' (' + f.how + ')');
    if (f.method === 'not chunked' || f.method === 'one chunk') {
      lines.push('  ' + (f.method === 'not chunked' ? 'dumped whole (not chunked)' : 'one chunk') + ': the ' +
        (f.partition === null ? 'table' : 'partition') + ' loads whole' +
        (f.exact ? '; restore.load deletes its rows before the point after the load' : '; sinceExact: false: its rows before the point are kept'));
      return;
    }
    var lead = displayIdentifier(f.column) + (f.ordered ? ' leads the chunking key, so chunks hold ascending ranges of it'
      : ' does not lead the chunking key (' + keyText(f.chunkKey) + ')');
    if (f.method === 'every chunk') {
      lines.push('  ' + lead + ': sinceScan: every chunk loads (' + costText(f.cost) + '), no first row read');
      lines.push('  exact: restore.load deletes the rows before the point (or NULL) from every loaded chunk after the load');
      return;
    }
    lines.push('  ' + (f.ordered ? 'the point falls in chunk ' : 'the first rows place the point in chunk ') + f.boundary + ' of ' + f.chunks +
      (first && first.first !== null ? ' (first row ' + first.first + ')' : '') + (next && next.first !== null ? '; chunk ' + next.chunk +
        ' starts at ' + next.first : '') + '; ' + f.load + ' chunk(s) load (' + describeRanges(rangeOf(f.boundary, f.chunks)) + ')');
    var how = f.method === 'checksums' ? 'the key ranges of @.checksums.json (no data file read)'
      : f.method + ' over the chunks\' first rows: ' + f.headsRead + ' head(s) read (at most ' + f.headsAllowed + ')';
    lines.push('  found by ' + how + '; ' + lead + (f.ordered ? '' : ': the rows inside chunks were not read'));
    if (f.approximate) {
      lines.push('  APPROXIMATE (sinceExact: false): rows at or after the point in chunks before ' + f.boundary + ' are not loaded; ' +
        'rows before the point in the chunks that load are kept');
    } else {
      lines.push('  ' + (f.exact ? 'exact: restore.load deletes the rows before the point (or NULL) after the load (only chunk ' + f.boundary +
        ' can hold such rows, as ' + displayIdentifier(f.column) + ' leads the key)' : 'sinceExact: false: the rows of chunk ' + f.boundary +
        ' before the point are kept'));
    }
  });
  return lines;
}

// For restore.view and restore.stub, which load whole chunks: what they leave to the user.
function wholeChunksWarning(facts) {
  if (!facts.length) return [];
  var seen = {};
  return ['since: util.loadDump loads whole chunks: the rows before the point in the chunks chosen load too (restore.load ' +
    'deletes them; after your own util.loadDump: ' + facts.filter(function (f) {
    var k = f.table_ + '\u0000' + f.schema;
    if (seen[k]) return false;
    seen[k] = true;
    return true;
  }).map(function (f) {
    var col = sqlIds.quoteIdentifier(f.column);
    var v = /^-?\d+$/.test(f.sql) ? f.sql : "'" + f.sql + "'"; // a checked time text
    return 'DELETE FROM ' + sqlIds.quoteTable(f.schema, f.table_) + ' WHERE ' + col + ' < ' + v + ' OR ' + col + ' IS NULL' +
      (f.utc ? ' (time_zone \'+00:00\')' : '');
  }).join('; ') + ').'];
}

// since with sinceExact: false, per table (or partition): what the slice may hold or lack, from the
// plan's facts (the chunks loaded, and whether the column leads the chunking key).
function approximateLines(facts) {
  var leads = facts.filter(function (f) { return !f.approximate; });
  var approx = facts.filter(function (f) { return f.approximate; });
  var lines = [];
  if (leads.length) {
    lines.push('since with sinceExact: false: the boundary chunk(s) loaded whole, their rows before the point kept (' +
      leads.map(function (f) { return f.table + ' chunk ' + f.boundary + ', before ' + f.since; }).join('; ') + ').');
  }
  approx.forEach(function (f) {
    if (f.boundary === 0) {
      lines.push('since APPROXIMATE (sinceExact: false): ' + f.table + ': every chunk loaded whole, with its rows before ' + f.since + '.');
      return;
    }
    lines.push('since APPROXIMATE (sinceExact: false): ' + f.table + ': ' + displayIdentifier(f.column) + ' does not lead the chunking ' +
      'key; chunks ' + f.boundary + '-' + (f.chunks - 1) + ' of ' + f.chunks + ' loaded whole with their rows before ' + f.since + '; rows at ' +
      'or after it in chunks before ' + f.boundary + ' (not read) are not loaded.');
  });
  return lines;
}

function rangeOf(from, to) { var r = []; for (var i = from; i < to; i++) r.push(i); return r; }

module.exports = { resolveSince: resolveSince, withBoundaries: withBoundaries, wholeChunksWarning: wholeChunksWarning, approximateLines: approximateLines, sinceLines: sinceLines, targetKey: targetKey, timeKey: timeKey,
  compareInt: compareInt };
