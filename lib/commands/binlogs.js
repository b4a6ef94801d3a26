// restore.binlogs(where, {since, until, tables, manyRows}): what a folder of binary log files holds,
// measured from the files: each file, the time range, transactions and rows per table, and the
// dangerous events (DROP TABLE / DATABASE, TRUNCATE, ALTER TABLE … DROP, a transaction deleting or
// updating many rows of one table), each with its commit time, GTID and file:position. Reads only.
var UserError = require('../core/user-error.js').UserError;
var optionTable = require('../options/option-table.js');
var text = require('../format/text-table.js');
var folderOf = require('../binlog/binlog-folder.js');
var binlogSource = require('../binlog/binlog-source.js');
var times = require('../binlog/binlog-times.js');
var statements = require('../binlog/statements.js');
var secrets = require('../options/secrets.js');

var KIND_TEXT = { 'drop-table': 'DROP TABLE', 'drop-database': 'DROP DATABASE', truncate: 'TRUNCATE',
  'alter-drop': 'ALTER TABLE … DROP', 'many-deletes': 'DELETE of many rows', 'many-updates': 'UPDATE of many rows' };

function checkOptions(options) {
  var o = options || {};
  ['since', 'until', 'tables', 'manyRows', 'rsh'].forEach(function (name) {
    var problem = o[name] === undefined || o[name] === null ? null : optionTable.valueProblem(name, o[name]);
    if (name === 'since' && o.since !== undefined && o.since !== null && typeof o.since !== 'string') problem = 'must be a time (text)';
    if (problem) throw new UserError('OPTION_INVALID', 'restore.binlogs option ' + name + ' ' + problem + '.');
  });
  return o;
}

function patternsOf(list) {
  return (list || []).map(function (p) { return String(p).replace(/`/g, '').trim(); });
}

// The dangerous events of the notable transactions the reader kept, narrowed to the chosen tables.
function dangerousEvents(trxs, manyRows, patterns) {
  var out = [];
  trxs.forEach(function (t) {
    var base = { gtid: t.gtid, file: t.file, position: t.start, end: t.end, time: t.commit };
    t.statements.forEach(function (s) {
      var c = statements.classify(s.text, s.schema);
      if (!c) return;
      var chosen = c.kind === 'drop-database' ? statements.schemaChosen(c.schema, patterns)
        : c.tables.some(function (n) { return statements.tableChosen(n, patterns); });
      if (!chosen) return;
      out.push(Object.assign({ kind: c.kind, tables: c.tables, schema: c.schema, statement: secrets.statement(s.text).slice(0, 300), rows: null }, base));
    });
    Object.keys(t.tables).forEach(function (name) {
      var c = t.tables[name];
      if (!statements.tableChosen(name, patterns)) return;
      if (c[2] >= manyRows) out.push(Object.assign({ kind: 'many-deletes', tables: [name], schema: null, statement: null, rows: c[2] }, base));
      if (c[1] >= manyRows) out.push(Object.assign({ kind: 'many-updates', tables: [name], schema: null, statement: null, rows: c[1] }, base));
    });
  });
  return out;
}

function gtidRange(f) {
  if (!f.firstGtid) return f.transactions ? 'GTIDs OFF (by file:position)' : 'none';
  var a = f.firstGtid.split(':');
  var b = f.lastGtid.split(':');
  return a[0] === b[0] ? a[0] + ':' + a[1] + (a[1] === b[1] ? '' : '-' + b[1]) : f.firstGtid + ' … ' + f.lastGtid;
}

function binlogsCommand(host, where, options) {
  if (!where) throw new UserError('ARGUMENT_MISSING', 'restore.binlogs needs where the binary log files are: a folder (restore.binlogs("/backups/binlogs")), host:/path, ' +
    'rsync://host/module/path, s3://bucket/prefix, or a live server (user@host:3306).');
  var o = checkOptions(options);
  var manyRows = o.manyRows || optionTable.OPTIONS.filter(function (x) { return x.name === 'manyRows'; })[0].default;
  var patterns = patternsOf(o.tables);
  var zone = times.chooseZone(host);
  var since = o.since ? times.parseTime(host, zone, o.since, 'since') : null;
  var until = o.until ? times.parseTime(host, zone, o.until, 'until') : null;
  // Only the files from the last one whose first transaction is before since are read (fetched, from elsewhere).
  var folder = binlogSource.openBinlogs(host, where, o, { startFile: null, until: until, stopGtid: null, since: since }, true);
  var got = folderOf.readFolder(host, folder, { since: since, until: until, keep: 'notable', manyRows: manyRows });
  var dangerous = dangerousEvents(got.transactions, manyRows, patterns);
  var undecoded = [];
  got.transactions.forEach(function (t) {
    t.undecoded.concat(t.unsized || []).forEach(function (why) { undecoded.push({ gtid: t.gtid, file: t.file, position: t.start, reason: why }); });
    if (t.incomplete) undecoded.push({ gtid: t.gtid, file: t.file, position: t.start, reason: t.incomplete });
  });
  // Every time shown, converted in one go.
  var wanted = [since, until, got.first && got.first.commit, got.last && got.last.commit];
  got.files.forEach(function (f) { wanted.push(f.firstCommit, f.lastCommit); });
  dangerous.forEach(function (d) { wanted.push(d.time); });
  var shown = times.timeTexts(host, zone, wanted.map(function (t) { return t === undefined ? null : t; }));
  var at = 4;
  var files = got.files.map(function (f) {
    var r = { name: host.files.basename(f.path), size: f.size, serverVersion: f.serverVersion, checksum: f.checksum,
      previousGtids: f.previousGtids, gtids: gtidRange(f), transactions: f.transactions,
      firstEventTime: f.firstEventTime, lastEventTime: f.lastEventTime, undecoded: f.undecoded, timesFromHeaders: f.timesFromHeaders,
      firstCommit: f.firstCommit, lastCommit: f.lastCommit, firstCommitText: shown[at], lastCommitText: shown[at + 1],
      next: f.next, error: f.error };
    at += 2;
    return r;
  });
  dangerous.forEach(function (d) { d.timeText = shown[at++]; });
  var tables = Object.keys(got.tables).filter(function (n) { return statements.tableChosen(n, patterns); }).sort()
    .map(function (n) {
      var c = got.tables[n];
      return { table: n, transactions: c[0], inserted: c[1], updated: c[2], deleted: c[3] };
    });
  var facts = { folder: folder.dir, source: folder.source, fetched: folder.fetched || null, fetchedLine: folder.line || null,
    sinceSkip: folder.sinceSkip || null, order: folder.order, timeZone: zone.name, timeZoneText: zone.text,
    since: since, until: until, sinceText: shown[0], untilText: shown[1], manyRows: manyRows, tables: tables,
    files: files, skipped: folder.skipped, missing: folder.missing, transactions: got.counted,
    first: got.first ? Object.assign({ timeText: shown[2] }, got.first) : null,
    last: got.last ? Object.assign({ timeText: shown[3] }, got.last) : null,
    dangerous: dangerous, undecoded: undecoded, tableFilter: patterns };
  printReport(host, facts);
  return facts;
}

// What was skipped, a line per file, or per reason where many share one (a dump's folder given by
// mistake: thousands of files); the facts list every file.
var SKIPPED_NAMED = 5;
function skippedLines(skipped) {
  var byReason = {};
  var reasons = [];
  skipped.forEach(function (s) {
    if (!byReason['r:' + s.reason]) { byReason['r:' + s.reason] = []; reasons.push(s.reason); }
    byReason['r:' + s.reason].push(s.file);
  });
  var lines = [];
  reasons.forEach(function (reason) {
    var files = byReason['r:' + reason];
    if (files.length <= SKIPPED_NAMED) {
      files.forEach(function (file) { lines.push('Skipped ' + file + ': ' + reason + '.'); });
      return;
    }
    var named = files.slice().sort().slice(0, SKIPPED_NAMED);
    lines.push('Skipped ' + files.length + ' files: ' + reason + ': ' + named.join(', ') + ' and ' + (files.length - named.length) +
      ' more (outputFormat json lists them under "skipped").');
  });
  return lines;
}

function printReport(host, f) {
  var out = host.out;
  var bytes = f.files.reduce(function (s, x) { return s + x.size; }, 0);
  out.print('Binary logs in ' + f.folder + ': ' + f.files.length + ' file(s), ' + text.formatBytes(bytes) + ', in the order of the ' + f.order + '.');
  if (f.fetchedLine) out.print('Fetched ' + f.fetchedLine + '.');
  if (f.sinceSkip && f.sinceSkip.files) {
    out.print('Not read: the ' + f.sinceSkip.files + ' file(s) before ' + f.sinceSkip.first + ' (nothing in them at or after since: the ' +
      'first transaction of ' + f.sinceSkip.first + ' is before it; told by reading ' + f.sinceSkip.heads + ' file(s) up to their first transaction).');
  }
  out.print('Times in ' + f.timeZoneText + '.');
  if (f.files.length) {
    text.formatTable(['file', 'bytes', 'transactions', 'first commit', 'last commit', 'GTIDs'], f.files.map(function (x) {
      return [x.name, x.size, x.transactions, x.firstCommitText || '-', x.lastCommitText || '-', x.gtids];
    }), { right: [1, 2] }).forEach(function (l) { out.print('  ' + l); });
  }
  f.files.forEach(function (x) {
    if (x.error) out.warn(x.name + ': read up to position ' + x.error.position + ' only: ' + x.error.reason + '.');
    Object.keys(x.undecoded).forEach(function (why) { out.warn(x.name + ': ' + why + ' (' + x.undecoded[why] + ').'); });
    if (x.timesFromHeaders) {
      out.warn(x.name + ': ' + x.timesFromHeaders + ' transaction(s) carry no commit timestamp (written before MySQL 8.0.1, or ' +
        'a tagged GTID): their time is the second their first event began.');
    }
  });
  skippedLines(f.skipped).forEach(out.warn);
  if (f.missing.length) out.warn('Missing from the folder: ' + f.missing.join(', ') + ' (a gap: transactions in them are not here).');
  var window = f.since !== null || f.until !== null
    ? ' committed ' + (f.since !== null ? 'from ' + f.sinceText : '') + (f.since !== null && f.until !== null ? ' ' : '') +
      (f.until !== null ? 'before ' + f.untilText : '') : '';
  if (!f.transactions) {
    out.print('Transactions' + window + (f.tableFilter.length ? ' (all tables)' : '') + ': none.');
  } else {
    out.print('Transactions' + window + (f.tableFilter.length ? ' (all tables)' : '') + ': ' + f.transactions + ', from ' + f.first.timeText + ' (' + (f.first.gtid || f.first.file + ':' + f.first.start) +
      ') to ' + f.last.timeText + ' (' + (f.last.gtid || f.last.file + ':' + f.last.start) + ').');
  }
  if (f.tables.length) {
    out.print('Per table (row events):');
    text.formatTable(['table', 'transactions', 'inserted', 'updated', 'deleted'], f.tables.map(function (t) {
      return [t.table, t.transactions, t.inserted, t.updated, t.deleted];
    }), { right: [1, 2, 3, 4] }).forEach(function (l) { out.print('  ' + l); });
  }
  out.print(f.dangerous.length ? 'Dangerous events (' + f.dangerous.length + '; many rows: at least ' + f.manyRows + ' in one transaction):'
    : 'Dangerous events: none (DROP TABLE / DATABASE, TRUNCATE, ALTER TABLE … DROP, at least ' + f.manyRows + ' rows deleted or updated in one transaction).');
  f.dangerous.forEach(function (d) {
    var what = d.rows !== null ? KIND_TEXT[d.kind] + ': ' + d.rows + ' rows of ' + d.tables[0] : d.statement.replace(/\s+/g, ' ');
    out.print('  ' + d.timeText + '  ' + (d.gtid || 'no GTID') + '  ' + d.file + ':' + d.position + '  ' + what);
  });
  var dropped = f.dangerous.filter(function (d) { return d.kind === 'drop-table' || d.kind === 'truncate'; })[0];
  if (dropped && dropped.tables.length) {
    out.print('To replay up to just before one: restore.load(dump, {binlogs: …, stopBefore: "first drop of ' + dropped.tables[0] +
      '"}) (the first DROP or TRUNCATE of that table after the dump), or its GTID.');
  }
  f.undecoded.slice(0, 20).forEach(function (u) {
    out.warn('Not decoded in ' + (u.gtid || u.file + ':' + u.position) + ': ' + u.reason + '.');
  });
  if (f.undecoded.length > 20) out.warn('… and ' + (f.undecoded.length - 20) + ' more not decoded.');
}

module.exports = { binlogsCommand: binlogsCommand };
