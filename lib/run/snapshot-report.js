// The load report's lines for the developer-snapshot phase (lib/snapshot/snapshot-step.js):
// per table the rows from the chosen chunks, added as parents (from which chunks) and deleted as
// orphans (by which key, why), per foreign key the counts, what could not be fixed, the masks.
var textTable = require('../format/text-table.js');
var displayTable = require('../format/display-name.js').displayTable;
var displayIdentifier = require('../format/display-name.js').displayIdentifier;
var describeRange = require('../snapshot/row-ownership.js').describeRange;

function indent(lines) { return lines.map(function (l) { return '  ' + l; }); }

function keyText(k) {
  return displayTable(k.schema, k.table) + ' (' + k.columns.map(displayIdentifier).join(', ') + ') -> ' +
    displayTable(k.refSchema, k.refTable) + ' (' + k.refColumns.map(displayIdentifier).join(', ') + ')' +
    (k.virtual ? ' [relation]' : '');
}

// "0-3, 7" (chunk numbers, ascending).
function chunkRanges(list) {
  var out = [];
  list.forEach(function (n) {
    var last = out[out.length - 1];
    if (last && last[1] === n - 1) last[1] = n;
    else out.push([n, n]);
  });
  return out.map(function (r) { return r[0] === r[1] ? String(r[0]) : r[0] + '-' + r[1]; }).join(', ');
}

// Rows of t before the step: now (the load report's count) - added + deleted; "~" when now is an estimate.
function loadedText(t, counts) {
  var c = (counts || []).filter(function (x) { return x.schema === t.schema && x.table === t.table; })[0];
  if (!c || c.rows === null || c.rows === undefined) return '?';
  return (c.exact ? '' : '~') + String(c.rows - (t.added || 0) + (t.deleted || 0));
}

function whyDeleted(o, t) {
  return t.by.map(function (b) {
    var k = o.keys[b.key];
    return b.deleted + ' by ' + keyText(k) + (k.why ? ': ' + k.why : '');
  }).join('; ');
}

// Per table: rows from the chosen chunks, added as parents (from which chunks), deleted (why).
function tableLines(o, counts) {
  var parents = o.mode === 'parents';
  var shown = o.tables.filter(function (t) { return parents || t.deleted; });
  if (!shown.length) return [];
  var headers = parents ? ['table', 'from chosen chunks', 'added as parents', 'from chunks', 'deleted as orphans']
    : ['table', 'from chosen chunks', 'deleted as orphans'];
  var rows = shown.map(function (t) {
    var name = displayTable(t.schema, t.table);
    if (!parents) return [name, loadedText(t, counts), String(t.deleted)];
    return [name, loadedText(t, counts), String(t.added), t.added ? chunkRanges(t.fromChunks) + ' (of ' + t.chunkCount + ')' : '',
      String(t.deleted)];
  });
  var lines = indent(textTable.formatTable(headers, rows, { right: parents ? [1, 2, 4] : [1, 2] }));
  shown.forEach(function (t) {
    if (parents && t.staged.length) {
      lines.push('  ' + displayTable(t.schema, t.table) + ': chunks read for parents ' + chunkRanges(t.staged) +
        (t.absent.length ? '; not in the dump directory: ' + chunkRanges(t.absent) : ''));
    }
    if (t.deleted) lines.push('  Deleted from ' + displayTable(t.schema, t.table) + ': ' + whyDeleted(o, t) + '.');
  });
  return lines;
}

function orphanLines(o, counts) {
  var lines = [];
  var found = o.keys.filter(function (k) { return !k.cannotFix; });
  var removed = o.mode === 'report' ? 0 : o.tables.reduce(function (n, t) { return n + t.deleted; }, 0);
  if (o.mode === 'parents') {
    var added = o.tables.reduce(function (n, t) { return n + t.added; }, 0);
    lines.push('Parents added: ' + added + ' row(s) from the chunks latest left out, orphan rows removed: ' + removed +
      ', in ' + o.seconds.toFixed(2) + ' s (' + found.length + ' foreign key(s), ' + o.completionRounds + ' round(s) of ' +
      'parents, ' + o.rounds + ' of removal)' + (o.tables.length ? ':' : '.'));
    lines = lines.concat(tableLines(o, counts));
  } else if (o.mode === 'delete') {
    lines.push('Orphan rows removed: ' + removed + ' in ' + o.seconds.toFixed(2) + ' s (' + found.length +
      ' foreign key(s), ' + o.rounds + ' round(s))' + (removed ? ':' : '.'));
    lines = lines.concat(tableLines(o, counts));
    if (typeof o.indexSeconds === 'number') {
      lines.push('Secondary indexes and foreign keys built after the deletes (util.loadDump, loadIndexes): ' +
        o.indexSeconds.toFixed(2) + ' s.');
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
  var lines = [];
  if (m.inLoad && m.inLoad.length) {
    lines.push('Masked while loading (key: ' + m.keySource + '): ' + m.inLoad.map(function (t) {
      return displayTable(t.schema, t.table) + ' ' + t.columns.map(function (c) {
        return displayIdentifier(c.column) + ' ' + c.kind;
      }).join(', ');
    }).join('; '));
  }
  if (!m.tables.length) return lines.concat(['Masked in ' + m.seconds.toFixed(2) + ' s after the load: nothing left to mask.']);
  lines.push('Masked in ' + m.seconds.toFixed(2) + ' s (key: ' + m.keySource + '):');
  return lines.concat(indent(textTable.formatTable(['table', 'columns', 'rows', 'seconds'], m.tables.map(function (t) {
    return [displayTable(t.schema, t.table), t.columns.map(function (c) {
      return displayIdentifier(c.column) + ' ' + c.kind + (c.follows ? ' (follows ' + c.follows + ')' : '');
    }).join(', '), String(t.rows), t.seconds.toFixed(2)];
  }), { right: [2, 3] })));
}

// facts: report.snapshot, or null when the phase did not run; counts: the report's rows per table
// (lib/server/row-counts.js), from which the rows of the chosen chunks are told.
function snapshotLines(facts, counts) {
  if (!facts) return [];
  var lines = [];
  (facts.since || []).forEach(function (t) {
    // What the DELETE's WHERE covered (lib/snapshot/row-ownership.js measured the table's own rows).
    var chunks = t.every ? 'every chunk loaded: sinceScan' : 'boundary chunk' + (t.boundaries.length > 1 ? 's ' : ' ') + t.boundaries.join(', ');
    lines.push('since: ' + t.deleted + ' row(s) of ' + displayTable(t.schema, t.table) + ' before ' + t.value + ' removed ' + (t.range
      ? 'among the loaded chunks\' keys only (' + describeRange(t.range) + ' and after: ' + (t.every ? chunks : 'the ' + chunks + ' on') +
        '), so the DELETE did not reach the rows the table held before the load (all below).'
      : '(the DELETE covered the whole table, which held no row before the load; ' + chunks + ').'));
  });
  if (facts.orphans) lines = lines.concat(orphanLines(facts.orphans, counts));
  if (facts.mask) lines = lines.concat(maskLines(facts.mask));
  return lines.concat(facts.notes.map(function (n) { return 'Note: ' + n + '.'; }));
}

module.exports = { snapshotLines: snapshotLines };
