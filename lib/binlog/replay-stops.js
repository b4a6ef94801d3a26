// Where a replay stops (lib/binlog/replay-plan.js): the stop options read and checked (until, stopBefore, stopAfter: a GTID,
// a file:position, "first drop of schema.table"), the named stop found in the files, the transactions past the stop
// (a target holding one is refused, lib/binlog/replay-record.js; the first is the applier's UNTIL, replay-channel.js),
// and the plan's words for the stop.
var UserError = require('../core/user-error.js').UserError;
var gtids = require('./gtid-set.js');
var statements = require('./statements.js');

function said(text) {
  return 'restore.load with binlogs: ' + text + ' Nothing was changed.';
}

// A stop given as file:position (a transaction's first byte, as restore.binlogs and REPLAY_FAILED name it):
// {file, position}, or null when the text is not of that form.
function splitPosition(text) {
  var m = /^(.*[^\s:]):(\d+)$/.exec(String(text).trim());
  return m && !gtids.splitGtid(text) ? { file: m[1], position: Number(m[2]) } : null;
}

// Whether transaction t is the one a stop names (a GTID, or file:position).
function isStop(t, text) {
  if (!text) return false;
  var at = splitPosition(text);
  return at ? t.file === at.file && t.start === at.position : t.gtid === text;
}

// stopBefore "first drop of shop.customers" (or `shop`.`customers`): the preview's finding named, never a GTID
// (no colon needed) nor a file:position. -> {schema, table}, or null when the text is not of that form.
var NAMED = /^\s*first\s+drop\s+of\s+(?:`((?:[^`]|``)+)`|([^\s.`]+))\.(?:`((?:[^`]|``)+)`|([^\s.`]+))\s*$/i;

function namedStop(text) {
  var m = NAMED.exec(String(text));
  if (!m) return null;
  var unquote = function (q, plain) { return q !== undefined ? q.replace(/``/g, '`') : plain; };
  return { schema: unquote(m[1], m[2]), table: unquote(m[3], m[4]) };
}

// The first statement of t that drops the named table (DROP TABLE, DROP DATABASE of its schema) or empties
// it (TRUNCATE): the same classification restore.binlogs lists its dangerous events by. Or null.
function dropsNamed(t, named) {
  var full = named.schema + '.' + named.table;
  for (var k = 0; k < t.statements.length; k++) {
    var c = statements.classify(t.statements[k].text, t.statements[k].schema);
    if (!c) continue;
    if ((c.kind === 'drop-table' || c.kind === 'truncate') && c.tables.indexOf(full) >= 0) return c.kind;
    if (c.kind === 'drop-database' && c.schema === named.schema) return c.kind;
  }
  return null;
}

var DROP_TEXT = { 'drop-table': 'DROP TABLE', truncate: 'TRUNCATE', 'drop-database': 'DROP DATABASE' };

// The stop options checked before anything is read: one of until, stopBefore, stopAfter; a stop a GTID, a file:position or
// (stopBefore) "first drop of schema.table"; a GTID only where the dump records GTIDs. Returns the named stop ({schema, table}) or null.
function checkStops(opts, byPosition) {
  var targets = ['until', 'stopBefore', 'stopAfter'].filter(function (n) { return opts[n] !== undefined && opts[n] !== null; });
  if (targets.length > 1) {
    throw new UserError('OPTION_CONFLICT', 'restore.load: ' + targets.join(' and ') + ' both name where the replay stops: give one.',
      { options: targets });
  }
  var named = opts.stopBefore ? namedStop(opts.stopBefore) : null;
  ['stopBefore', 'stopAfter'].forEach(function (n) {
    if (!opts[n] || splitPosition(opts[n]) || (n === 'stopBefore' && named)) return;
    if (!gtids.splitGtid(opts[n])) {
      throw new UserError('OPTION_INVALID', 'restore.load option ' + n + ': ' + JSON.stringify(opts[n]) + ' is not a GTID ' +
        '(source_uuid:number) nor a file:position (binlog.000003:1234), as restore.binlogs lists them' +
        (n === 'stopBefore' ? ', nor "first drop of schema.table"' : '') + '.');
    }
    if (byPosition) {
      throw new UserError('OPTION_INVALID', said(n + ' ' + opts[n] + ' is a GTID, and the dump records none (GTIDs off on the source): ' +
        'give the transaction\'s file:position instead (' + n + ': "binlog.000003:1234", as restore.binlogs lists it), or until.'));
    }
  });
  return named;
}

// The transaction the stop falls on (t: the first one in the files not replayed because of it), {gtid, file, start,
// end}: the replay's applier road has the target stop before it by itself (START REPLICA UNTIL SQL_BEFORE_GTIDS).
// null where there is none (no stop, or the files end first), or its GTID is not the one the target would see
// (a tagged GTID not read, none at all), or it is not whole in the files. byPosition: planReplay's (GTIDs derived).
function firstPastStop(t, out, byPosition) {
  if (!t || !out.reached || t.incomplete || (t.undecoded && t.undecoded.length)) return null;
  // Its own GTID, or the one the replay would derive for it (a source with GTIDs off: the next number); else none.
  var gtid = t.gtid || (byPosition ? byPosition.uuid + ':' + (out.numbered + 1) : null);
  return gtid ? { gtid: gtid, file: t.file, start: t.start, end: t.end } : null;
}

// names: the files in order → t → whether transaction t starts before file:position.
function beforePosition(names, file, position) {
  var at = names.indexOf(file);
  return function (t) {
    var k = names.indexOf(t.file);
    return k < at || (k === at && t.start < position);
  };
}

// The first transaction after the dump (not in its gtidExecuted; with beforeDump, a dump that records no
// GTIDs: not before its position) that drops or truncates the named table: {stop: its GTID, or file:position
// without one, gtid, file, position, time, kind}, or null.
function resolveNamed(trxs, named, dumpSet, beforeDump) {
  for (var k = 0; k < trxs.length; k++) {
    var t = trxs.at(k);
    if (beforeDump ? beforeDump(t) : t.gtid && gtids.hasGtid(dumpSet, t.gtid)) continue;
    var kind = dropsNamed(t, named);
    if (kind) {
      return { stop: t.gtid && !beforeDump ? t.gtid : t.file + ':' + t.start, gtid: t.gtid, file: t.file, position: t.start,
        time: t.commit, kind: kind };
    }
  }
  return null;
}

// The plan's words for where the replay stops. shown: the times as text ([until, …, …, the named stop's commit]).
function targetText(opts, until, zone, resolved, shown) {
  return until !== null ? 'until ' + shown[0] + ' (' + zone.name + ')' : resolved ? 'stopBefore "' + resolved.asked + '": the ' +
      DROP_TEXT[resolved.kind] + ' at ' + (resolved.stop === resolved.gtid ? resolved.gtid + ' (' + resolved.file + ':' + resolved.position + ')'
        : resolved.stop) + ', committed ' + shown[3]
    : opts.stopBefore ? 'stopBefore ' + opts.stopBefore
    : opts.stopAfter ? 'stopAfter ' + opts.stopAfter : 'the end of the files';
}

module.exports = { splitPosition: splitPosition, isStop: isStop, namedStop: namedStop, checkStops: checkStops, resolveNamed: resolveNamed,
  beforePosition: beforePosition, firstPastStop: firstPastStop, targetText: targetText };
