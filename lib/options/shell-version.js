// MySQL Shell versions: "Ver 8.4.0 for Linux …" → "8.4.0", and comparisons.
function parse(longVersion) {
  var m = /(\d+)\.(\d+)\.(\d+)/.exec(String(longVersion));
  if (!m) throw new Error('Cannot read the MySQL Shell version from: ' + longVersion);
  return m[1] + '.' + m[2] + '.' + m[3];
}

function compare(a, b) {
  var x = parse(a).split('.').map(Number);
  var y = parse(b).split('.').map(Number);
  for (var i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  return 0;
}

function atLeast(version, min) { return compare(version, min) >= 0; }

module.exports = { parse: parse, compare: compare, atLeast: atLeast };
