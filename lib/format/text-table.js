// Aligned plain-text tables for println: one string per line, columns padded, numbers right-aligned.
function cellText(v) {
  if (v === null || v === undefined) return '';
  return String(v);
}

// headers: ['name', ...]; rows: [[...], ...]; opts.right: indexes of right-aligned columns.
function formatTable(headers, rows, opts) {
  var out = [];
  eachTableLine(headers, rows.length, function (k) { return rows[k]; }, opts, function (l) { out.push(l); });
  return out;
}

// The same lines given one by one to emit(line), the rows made on demand by rowAt(k) (k < count),
// twice (the widths, then the lines): a table of 50,000 rows never exists whole (its rows and
// lines, kept until the last was made, raised mysqlsh's peak).
function eachTableLine(headers, count, rowAt, opts, emit) {
  var right = (opts && opts.right) || [];
  var widths = headers.map(function (h) { return cellText(h).length; });
  for (var k = 0; k < count; k++) {
    var r = rowAt(k);
    for (var i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i], cellText(r[i]).length);
  }
  function line(r) {
    return r.map(function (v, i) {
      var c = cellText(v);
      var pad = new Array(widths[i] - c.length + 1).join(' ');
      return right.indexOf(i) >= 0 ? pad + c : c + pad;
    }).join('  ').replace(/\s+$/, '');
  }
  emit(line(headers));
  emit(widths.map(function (w) { return new Array(w + 1).join('-'); }).join('  '));
  for (k = 0; k < count; k++) emit(line(rowAt(k)));
}

// "key: value" lines with the keys padded to one width.
function formatPairs(pairs) {
  var w = pairs.reduce(function (m, p) { return Math.max(m, p[0].length); }, 0);
  return pairs.map(function (p) {
    return p[0] + ':' + new Array(w - p[0].length + 2).join(' ') + cellText(p[1]);
  });
}

function formatBytes(n) {
  if (n === null || n === undefined) return '?';
  var units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  var v = n;
  var i = 0;
  while (v >= 1024 && i < units.length - 1) { v /= 1024; i++; }
  return (i === 0 ? String(v) : v.toFixed(1)) + ' ' + units[i];
}

module.exports = { formatTable: formatTable, eachTableLine: eachTableLine, formatPairs: formatPairs, formatBytes: formatBytes };
