// The load report's lines for the developer-snapshot phase (lib/snapshot/snapshot-step.js):
// orphan rows per table and per foreign key, what could not be fixed, the masks and their times.
var textTable = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;

function indent(lines) { return lines.map(function (l) { return '  ' + l; }); }

function keyText(k) {
  return displayTable(k.schema, k.table) + ' (' + k.columns.map(displayIdentifier).join(', ') + ') -> ' +
    displayTable(k.refSchema, k.refTable) + ' (' + k.refColumns.map(displayIdentifier).join(', ') + ')';
}

function orphanLines(o) {
  var lines = [];
  var found = o.keys.filter(function (k) { return !k.cannotFix; });
  if (o.mode === 'delete') {
    var total = o.tables.reduce(function (n, t) { return n + t.deleted; }, 0);
    lines.push('Orphan rows removed: ' + total + ' in ' + o.seconds.toFixed(2) + ' s (' + found.length +
      ' foreign key(s), ' + o.rounds + ' round(s))' + (total ? ':' : '.'));
    if (total) {
      lines = lines.concat(indent(textTable.formatTable(['table', 'rows removed'], o.tables.map(function (t) {
        return [displayTable(t.schema, t.table), String(t.deleted)];
      }), { right: [1] })));
    }
  } else {
    lines.push('Orphan rows (counted, nothing deleted; rows that would follow them in later rounds are not counted), ' +
      o.seconds.toFixed(2) + ' s:');
    lines = lines.concat(indent(textTable.formatTable(['foreign key', 'orphans'], found.map(function (k) {
      return [keyText(k), String(k.orphans)];
    }), { right: [1] })));
  }
  o.keys.filter(function (k) { return k.cannotFix; }).forEach(function (k) {
    lines.push('Cannot fix: ' + keyText(k) + ' ' + k.cannotFix + ' (' + k.orphans + ' row(s) with a key).');
  });
  return lines;
}

function maskLines(m) {
  var lines = ['Masked in ' + m.seconds.toFixed(2) + ' s (key: ' + m.keySource + '):'];
  return lines.concat(indent(textTable.formatTable(['table', 'columns', 'rows', 'seconds'], m.tables.map(function (t) {
    return [displayTable(t.schema, t.table), t.columns.map(function (c) {
      return displayIdentifier(c.column) + ' ' + c.kind + (c.follows ? ' (follows ' + c.follows + ')' : '');
    }).join(', '), String(t.rows), t.seconds.toFixed(2)];
  }), { right: [2, 3] })));
}

// facts: report.snapshot, or null when the phase did not run.
function snapshotLines(facts) {
  if (!facts) return [];
  var lines = [];
  if (facts.orphans) lines = lines.concat(orphanLines(facts.orphans));
  if (facts.mask) lines = lines.concat(maskLines(facts.mask));
  return lines.concat(facts.notes.map(function (n) { return 'Note: ' + n + '.'; }));
}

module.exports = { snapshotLines: snapshotLines };
