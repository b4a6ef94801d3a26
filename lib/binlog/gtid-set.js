// GTID sets as the server writes them ("uuid:1-5:7,uuid2:3"; tagged, MySQL 8.3+: "uuid:1-5:tag:1-3",
// each tag followed by its intervals): parsed into intervals per source uuid (a tagged GTID's
// source is "uuid:tag"), asked whether a GTID is in them, and the difference of two said as text
// (a gap named) in the server's own order (a uuid's untagged intervals first, then its tags sorted).
var UserError = require('../core/user-error.js').UserError;

var UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
var TAG = /^[a-z_][a-z0-9_]{0,31}$/i; // the server's tag rule (it prints tags in lower case)

// {source: [[lo, hi], ...]} sorted and merged; text null or '': empty. where: what the text is (for the
// refusal: "the target's gtid_executed"); a text that is no GTID set is refused (GTID_SET_INVALID).
function parseSet(text, where) {
  var set = {};
  String(text || '').replace(/\s+/g, '').split(',').forEach(function (part) {
    if (!part) return;
    var bits = part.split(':');
    var uuid = bits[0].toLowerCase();
    var source = uuid;
    var bad = !UUID.test(uuid) || bits.length < 2;
    bits.slice(1).forEach(function (r) {
      if (bad) return;
      var m = /^(\d+)(?:-(\d+))?$/.exec(r);
      if (m) addRange(set, source, Number(m[1]), Number(m[2] || m[1]));
      else if (TAG.test(r)) source = uuid + ':' + r.toLowerCase();
      else bad = true;
    });
    // A tag must be followed by its intervals.
    if (bad || TAG.test(bits[bits.length - 1])) {
      throw new UserError('GTID_SET_INVALID', (where || 'A GTID set') + ' holds ' + JSON.stringify(part) + ', which is not a GTID set ' +
        'as MySQL writes it (uuid:1-5, or uuid:tag:1-5 with MySQL 8.3+ tags). Nothing was changed. Check the value where it comes from ' +
        '(SELECT @@GLOBAL.gtid_executed on the server, or the dump\'s @.json).', { where: where || null, text: part });
    }
  });
  return set;
}

function addRange(set, source, lo, hi) {
  var list = (set[source] || []).concat([[lo, hi]]).sort(function (a, b) { return a[0] - b[0]; });
  var merged = [];
  list.forEach(function (r) {
    var last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  });
  set[source] = merged;
}

// "uuid:n" or "uuid:tag:n" → {uuid (the source: "uuid" or "uuid:tag"), n}, or null.
function splitGtid(gtid) {
  var m = /^([0-9a-fA-F-]{36}(?::[A-Za-z_][A-Za-z0-9_]{0,31})?):(\d+)$/.exec(String(gtid).trim());
  return m ? { uuid: m[1].toLowerCase(), n: Number(m[2]) } : null;
}

function hasGtid(set, gtid) {
  var g = splitGtid(gtid);
  return !!g && (set[g.uuid] || []).some(function (r) { return g.n >= r[0] && g.n <= r[1]; });
}

// The GTIDs of a not in b, as a set.
function minus(a, b) {
  var out = {};
  Object.keys(a).forEach(function (uuid) {
    a[uuid].forEach(function (r) {
      var pieces = [[r[0], r[1]]];
      (b[uuid] || []).forEach(function (c) {
        var next = [];
        pieces.forEach(function (p) {
          if (c[1] < p[0] || c[0] > p[1]) { next.push(p); return; }
          if (c[0] > p[0]) next.push([p[0], c[0] - 1]);
          if (c[1] < p[1]) next.push([c[1] + 1, p[1]]);
        });
        pieces = next;
      });
      pieces.forEach(function (p) { addRange(out, uuid, p[0], p[1]); });
    });
  });
  return out;
}

// As the server writes it: one part per uuid, its untagged intervals first, then each tag and its intervals.
function setText(set) {
  var parts = {};
  var order = [];
  Object.keys(set).sort().filter(function (s) { return set[s].length; }).forEach(function (s) {
    var colon = s.indexOf(':');
    var uuid = colon < 0 ? s : s.slice(0, colon);
    if (!parts[uuid]) { parts[uuid] = [uuid]; order.push(uuid); }
    if (colon >= 0) parts[uuid].push(s.slice(colon + 1));
    parts[uuid].push(set[s].map(function (r) { return r[0] === r[1] ? String(r[0]) : r[0] + '-' + r[1]; }).join(':'));
  });
  return order.map(function (u) { return parts[u].join(':'); }).join(',');
}

// The connected server's gtid_executed as one text without the server's line breaks (comparable as it is).
function executedText(host) {
  return String(host.sql.run('SELECT @@GLOBAL.gtid_executed AS g').rows[0].g || '').replace(/\s+/g, '');
}

// The same, parsed (tagged GTIDs too).
function executed(host) {
  return parseSet(executedText(host), 'The target\'s gtid_executed');
}

module.exports = { parseSet: parseSet, executed: executed, executedText: executedText, addRange: addRange, splitGtid: splitGtid, hasGtid: hasGtid, minus: minus, setText: setText };
