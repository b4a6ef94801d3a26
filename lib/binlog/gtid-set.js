// GTID sets as the server writes them ("uuid:1-5:7,uuid2:3"): parsed into intervals per source
// uuid, asked whether a GTID is in them, and the difference of two said as text (a gap named).
// Untagged GTIDs only (tagged ones, MySQL 8.3+, are refused by the callers).

// {uuid: [[lo, hi], ...]} sorted and merged; text null or '': empty.
function parseSet(text) {
  var set = {};
  String(text || '').replace(/\s+/g, '').split(',').forEach(function (part) {
    if (!part) return;
    var bits = part.split(':');
    var uuid = bits[0].toLowerCase();
    bits.slice(1).forEach(function (r) {
      var m = /^(\d+)(?:-(\d+))?$/.exec(r);
      if (!m) throw new Error('not an untagged GTID set: ' + part);
      addRange(set, uuid, Number(m[1]), Number(m[2] || m[1]));
    });
  });
  return set;
}

function addRange(set, uuid, lo, hi) {
  var list = (set[uuid] || []).concat([[lo, hi]]).sort(function (a, b) { return a[0] - b[0]; });
  var merged = [];
  list.forEach(function (r) {
    var last = merged[merged.length - 1];
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  });
  set[uuid] = merged;
}

// "uuid:n" → {uuid, n}, or null.
function splitGtid(gtid) {
  var m = /^([0-9a-fA-F-]{36}):(\d+)$/.exec(String(gtid).trim());
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

function setText(set) {
  return Object.keys(set).sort().filter(function (u) { return set[u].length; }).map(function (u) {
    return u + ':' + set[u].map(function (r) { return r[0] === r[1] ? String(r[0]) : r[0] + '-' + r[1]; }).join(':');
  }).join(',');
}

module.exports = { parseSet: parseSet, splitGtid: splitGtid, hasGtid: hasGtid, minus: minus, setText: setText };
