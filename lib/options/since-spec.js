// since: a slice of a table by time (or by key): {"shop.orders.created_at": "2026-10-25 00:00:00"},
// a duration counted back from the dump's own time ("30 days", "30d", "12h", "2w"), or a number
// (an integer epoch column, or the key itself: {"shop.orders.id": 182000000}). Command line:
// shop.orders.created_at:30d,shop.events.at:2026-10-25 (the first colon outside backticks ends
// the name: a time keeps its own colons). Only the text is checked here; what it means for a
// column (its type, the dump's time) is decided against the dump (lib/partial/since-boundary.js).
var UserError = require('../core/user-error.js').UserError;
var splitName = require('../dump/object-names.js').splitName;
var splitList = require('../dump/object-names.js').splitList;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;

var UNITS = { s: 1, sec: 1, second: 1, seconds: 1, min: 60, minute: 60, minutes: 60, h: 3600, hour: 3600, hours: 3600,
  d: 86400, day: 86400, days: 86400, w: 604800, week: 604800, weeks: 604800 };
var DAYS_IN = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
var FORMS = '"2026-10-25 00:00:00", "2026-10-25", a duration back from the dump\'s time ("30 days", 30d, 12h, 2w) ' +
  'or a whole number (an epoch column or the key)';

function pad(n, w) { var s = String(n); while (s.length < w) s = '0' + s; return s; }

// "2026-10-25 7:05" → "2026-10-25 07:05:00" (fraction kept), or null when it is no valid time.
function normalTime(text) {
  var m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2})(\.\d{1,6})?)?)?$/.exec(text);
  if (!m) return null;
  var y = Number(m[1]), mo = Number(m[2]), d = Number(m[3]);
  var h = Number(m[4] || 0), mi = Number(m[5] || 0), s = Number(m[6] || 0);
  var leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  if (mo < 1 || mo > 12 || d < 1 || d > (mo === 2 && !leap ? 28 : DAYS_IN[mo - 1]) || h > 23 || mi > 59 || s > 59) return null;
  return pad(y, 4) + '-' + pad(mo, 2) + '-' + pad(d, 2) + ' ' + pad(h, 2) + ':' + pad(mi, 2) + ':' + pad(s, 2) + (m[7] || '');
}

// One value → {kind: 'time', time} | {kind: 'duration', seconds} | {kind: 'number', number (decimal text)}.
function parseValue(v, where) {
  if (typeof v === 'number') {
    if (!isFinite(v) || Math.floor(v) !== v) throw new UserError('OPTION_INVALID', 'since: ' + where + ' needs ' + FORMS + ', got ' + String(v) + '.');
    return { kind: 'number', number: String(v), text: String(v) };
  }
  if (typeof v !== 'string' || v.trim() === '') {
    throw new UserError('OPTION_INVALID', 'since: ' + where + ' needs ' + FORMS + ', got ' + JSON.stringify(v) + '.');
  }
  var t = v.trim();
  if (/^-?\d+$/.test(t)) return { kind: 'number', number: t.replace(/^(-?)0+(?=\d)/, '$1'), text: t };
  var d = /^(\d+)\s*([A-Za-z]+)$/.exec(t);
  if (d) {
    var unit = UNITS[d[2].toLowerCase()];
    if (!unit) {
      throw new UserError('OPTION_INVALID', 'since: ' + where + ': ' + JSON.stringify(t) + ' has an unknown unit "' + d[2] + '": use s, min, h, ' +
        'd or w (seconds, minutes, hours, days, weeks; months and years vary in length: give a date instead).');
    }
    return { kind: 'duration', seconds: Number(d[1]) * unit, text: t };
  }
  var time = normalTime(t);
  if (time === null) throw new UserError('OPTION_INVALID', 'since: ' + where + ': ' + JSON.stringify(t) + ' does not parse: give ' + FORMS + '.');
  return { kind: 'time', time: time, text: t };
}

// "a.b.c:30d,x.y.z:2026-10-25 00:00:00" → [[name, value], ...]; a colon inside backticks is the name's.
function parseSinceText(text) {
  var entries = splitList(text);
  return entries.map(function (e) {
    var q = false;
    for (var j = 0; j < e.length; j++) {
      if (e[j] === '`') q = !q;
      if (e[j] === ':' && !q) return [e.slice(0, j).trim(), e.slice(j + 1).trim()];
    }
    throw new UserError('OPTION_INVALID', 'since: ' + JSON.stringify(e) + ' must be schema.table.column:value, e.g. ' +
      'shop.orders.created_at:30d or shop.orders.created_at:2026-10-25.');
  });
}

function rule(name, value) {
  var parts = splitName(name, 'since');
  if (parts.length !== 3 || parts.some(function (p) { return p === '*' || p === ''; })) {
    throw new UserError('OPTION_INVALID', 'since: ' + JSON.stringify(name) + ' must name one column as schema.table.column (backticks ' +
      'allowed, no wildcards), e.g. shop.orders.created_at.');
  }
  var where = parts.map(quoteIdentifier).join('.');
  var r = { schema: parts[0], table: parts[1], column: parts[2], name: where };
  r.value = parseValue(value, where);
  return r;
}

// The option's value → [{schema, table, column, name, value}]; [] when not given.
function parseSince(v) {
  if (v === undefined || v === null) return [];
  var list;
  if (typeof v === 'string') list = parseSinceText(v);
  else if (typeof v === 'object' && !Array.isArray(v)) list = Object.keys(v).map(function (k) { return [k, v[k]]; });
  else {
    throw new UserError('OPTION_INVALID', 'since must be {"schema.table.column": value} or schema.table.column:value,… (value: ' + FORMS + ').');
  }
  var seen = {};
  return list.map(function (e) {
    var r = rule(e[0], e[1]);
    var key = JSON.stringify([r.schema, r.table]);
    if (seen[key]) throw new UserError('OPTION_CONFLICT', 'since names the table of ' + r.name + ' twice: give one column per table.');
    seen[key] = true;
    return r;
  });
}

// "2026-11-25 15:57:23" minus seconds, in the same notation (calendar arithmetic, no time zone).
function timeMinus(time, seconds) {
  var m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(time);
  var ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) - seconds * 1000;
  var d = new Date(ms);
  return pad(d.getUTCFullYear(), 4) + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2) + ' ' +
    pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2);
}

// Seconds since 1970-01-01 00:00:00 of a time read as UTC (whole seconds, decimal text).
function epochOf(time) {
  var m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})/.exec(time);
  return String(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000);
}

module.exports = { parseSince: parseSince, parseValue: parseValue, normalTime: normalTime, timeMinus: timeMinus,
  epochOf: epochOf };
