// Times of binary logs: the files hold microseconds since the epoch (UTC); a user's time is in the
// target server's time zone unless it carries an offset. Without a session the zone is UTC, and
// every report says which zone it used.
var UserError = require('../core/user-error.js').UserError;

var TIME = /^(\d{4})-(\d\d)-(\d\d)(?:[ T](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,6}))?)?)?\s*(Z|[+-]\d\d:?\d\d)?$/i;

function pad(n, width) {
  var s = String(n);
  while (s.length < width) s = '0' + s;
  return s;
}

// The zone times are read and shown in: the session's when connected, else UTC.
function chooseZone(host) {
  if (!host.sql.connected()) {
    return { session: false, name: 'UTC', text: 'UTC (no session: connect to use the server\'s time zone, or give ' +
      'times with an offset, e.g. "2026-11-24 10:42:00+01:00")' };
  }
  var r = host.sql.run('SELECT @@session.time_zone AS tz, @@system_time_zone AS systemZone').rows[0];
  var name = String(r.tz) === 'SYSTEM' ? 'SYSTEM (' + r.systemZone + ')' : String(r.tz);
  return { session: true, name: name, text: 'the connected server\'s time zone, time_zone ' + name };
}

// Microseconds of a whole decimal number of seconds given as text ("1795799195.979571").
function microsOfDecimal(text) {
  var m = /^(\d+)(?:\.(\d*))?$/.exec(String(text));
  if (!m) return null;
  return Number(m[1]) * 1000000 + Number(((m[2] || '') + '000000').slice(0, 6));
}

// A user's time as microseconds UTC, or a refusal naming the option (of member: restore.binlogs unless given).
function parseTime(host, zone, text, option, member) {
  var who = (member || 'restore.binlogs') + ' option ';
  var m = typeof text === 'string' ? TIME.exec(text.trim()) : null;
  if (!m) {
    throw new UserError('OPTION_INVALID', who + option + ': ' + JSON.stringify(text) + ' is not a time; ' +
      'give "YYYY-MM-DD HH:MM:SS" (the server\'s time zone, else UTC), optionally with fractions of a second and an ' +
      'offset ("+01:00", "Z").');
  }
  var fraction = Number(((m[7] || '') + '000000').slice(0, 6));
  var fields = [m[1], m[2], m[3], m[4] || '00', m[5] || '00', m[6] || '00'].map(Number);
  if (m[8] || !zone.session) {
    var offset = 0;
    if (m[8] && m[8].toUpperCase() !== 'Z') {
      var o = /^([+-])(\d\d):?(\d\d)$/.exec(m[8]);
      offset = (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) * 60;
    }
    var seconds = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]) / 1000 - offset;
    return seconds * 1000000 + fraction;
  }
  var local = pad(fields[0], 4) + '-' + pad(fields[1], 2) + '-' + pad(fields[2], 2) + ' ' + pad(fields[3], 2) + ':' +
    pad(fields[4], 2) + ':' + pad(fields[5], 2) + '.' + pad(fraction, 6);
  var got = host.sql.run('SELECT CAST(UNIX_TIMESTAMP(CAST(? AS DATETIME(6))) AS CHAR) AS t', [local]).rows[0].t;
  var micros = got === null || got === undefined ? null : microsOfDecimal(got);
  if (!micros) {
    throw new UserError('OPTION_INVALID', who + option + ': the server cannot place ' +
      JSON.stringify(text) + ' in its time zone ' + zone.name + ' (out of range).');
  }
  var wall = Date.UTC(fields[0], fields[1] - 1, fields[2], fields[3], fields[4], fields[5]) / 1000;
  var readings = zoneReadings(host, wall, Math.floor(micros / 1000000));
  if (readings) {
    // The server would take one instant without a word (the hour after a gap, one of an hour that occurs twice).
    var given = local.slice(0, 19) + (fraction ? local.slice(19).replace(/0+$/, '') : '');
    throw new UserError('OPTION_INVALID', who + option + ': ' + JSON.stringify(text) + (readings.gap
      ? ' does not exist in the time zone ' + zone.name + ': its offset changes there from ' + offsetText(readings.before) + ' to ' +
        offsetText(readings.after) + ' and the clocks skip that time'
      : ' occurs twice in the time zone ' + zone.name + ': its offset changes there from ' + offsetText(readings.before) + ' to ' +
        offsetText(readings.after) + ' and the clocks go through that time again') +
      '. Give it with the offset meant: ' + [readings.before, readings.after].map(function (off) {
      return '"' + given + offsetText(off) + '" (' + utcText((wall - off) * 1000000 + fraction).slice(0, 19) + ' UTC)';
    }).join(' or ') + '.', { option: option, instants: [readings.before, readings.after].map(function (off) { return (wall - off) * 1000000 + fraction; }) });
  }
  return micros;
}

// Seconds east of UTC as +HH:MM.
function offsetText(seconds) {
  var a = Math.abs(seconds);
  return (seconds < 0 ? '-' : '+') + pad(Math.floor(a / 3600), 2) + ':' + pad(Math.floor(a % 3600 / 60), 2);
}

// A wall-clock time (its fields read as UTC, in seconds) where the session's zone changes its offset within three
// hours of the instant the server chose: {gap: the time does not exist | it occurs twice, before, after: the
// offsets}; null when the time names exactly one instant.
function zoneReadings(host, wall, chosen) {
  var asUtc = function (t) { var m = /^(\d+)-(\d+)-(\d+) (\d+):(\d+):(\d+)/.exec(String(t)); return Date.UTC(+m[1], m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000; };
  var r = host.sql.run('SELECT CAST(FROM_UNIXTIME(?) AS CHAR) AS b, CAST(FROM_UNIXTIME(?) AS CHAR) AS a', [chosen - 10800, chosen + 10800]).rows[0];
  if (r.b === null || r.a === null) return null; // near the ends of the server's range: no zone change to tell
  var before = asUtc(r.b) - (chosen - 10800);
  var after = asUtc(r.a) - (chosen + 10800);
  if (before === after) return null;
  var c = host.sql.run('SELECT CAST(FROM_UNIXTIME(?) AS CHAR) AS b, CAST(FROM_UNIXTIME(?) AS CHAR) AS a', [wall - before, wall - after]).rows[0];
  var valid = [c.b, c.a].filter(function (t) { return asUtc(t) === wall; }).length;
  return valid === 1 ? null : { gap: valid === 0, before: before, after: after };
}

function utcText(micros) {
  var seconds = Math.floor(micros / 1000000);
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ') + '.' + pad(micros - seconds * 1000000, 6);
}

// Each time as "YYYY-MM-DD HH:MM:SS.ffffff" in the zone: the server converts them when connected.
function timeTexts(host, zone, list) {
  if (!zone.session) return list.map(function (t) { return t === null ? null : utcText(t); });
  var out = [];
  for (var i = 0; i < list.length; i += 100) {
    var part = list.slice(i, i + 100);
    var cols = part.map(function (t, k) {
      return t === null ? 'NULL AS c' + k : 'CAST(FROM_UNIXTIME(' + Math.floor(t / 1000000) + '.' + pad(t % 1000000, 6) +
        ') AS CHAR) AS c' + k;
    });
    var row = host.sql.run('SELECT ' + cols.join(', ')).rows[0];
    part.forEach(function (t, k) { out.push(row['c' + k] === null ? null : String(row['c' + k])); });
  }
  return out;
}

module.exports = { chooseZone: chooseZone, parseTime: parseTime, timeTexts: timeTexts };
