// Aligned plain-text tables for println: one string per line, columns padded, numbers right-aligned.
function cellText(v) {
  if (v === null || v === undefined) return '';
  return String(v);
}

// headers: ['name', ...]; rows: [[...], ...]; opts.right: indexes of right-aligned columns.
function formatTable(headers, rows, opts) {
  var right = (opts && opts.right) || [];
  var all = [headers].concat(rows).map(function (r) { return r.map(cellText); });
  var widths = headers.map(function (_, i) {
    return all.reduce(function (w, r) { return Math.max(w, (r[i] || '').length); }, 0);
  });
  function line(r) {
    return r.map(function (c, i) {
      var pad = new Array(widths[i] - c.length + 1).join(' ');
      return right.indexOf(i) >= 0 ? pad + c : c + pad;
    }).join('  ').replace(/\s+$/, '');
  }
  var out = [line(all[0]), widths.map(function (w) { return new Array(w + 1).join('-'); }).join('  ')];
  all.slice(1).forEach(function (r) { out.push(line(r)); });
  return out;
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

module.exports = { formatTable: formatTable, formatPairs: formatPairs, formatBytes: formatBytes };
