// The key range of each chunk as a dump made with checksum: true records it in @.checksums.json
// (data.<schema>.<table>.partitions.<partition or "">.<chunk>.boundary, a condition on the chunking
// index: "(`id` BETWEEN 1 AND 500)", or for a key of several columns "((`at`>'2026-09-01 00:07:00'
// OR(`at`='2026-09-01 00:07:00' AND(`seq`>=1)))AND(…))"). What is read here is the lowest value
// of the index's first column in each chunk: the since boundary without reading a data file.
var dumpText = require('./dump-texts.js').dumpText;

var LITERAL = "('(?:[^'\\\\]|''|\\\\.)*'|-?\\d+(?:\\.\\d+)?)";

function unquoteLiteral(text) {
  if (text[0] !== "'") return text;
  return text.slice(1, -1).replace(/''/g, "'").replace(/\\(.)/g, '$1');
}

// The lowest value of column in a boundary condition, or null when it does not say.
function lowestOf(boundary, column) {
  var q = '`' + column.replace(/`/g, '``').replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '`';
  var m = new RegExp('^\\(+' + q + '\\s*(?: BETWEEN |>=|>)\\s*' + LITERAL).exec(String(boundary));
  return m ? unquoteLiteral(m[1]) : null;
}

// model: the dump model; a lazily read and parsed @.checksums.json, shared by the targets of one plan.
// Returns function (target, column) → [lowest value text | null per chunk] or null (no checksums,
// no entry for the table, or column is not the first column of the index the checksums record).
function checksumLowest(host, model) {
  var doc;
  return function (target, column) {
    if (doc === undefined) {
      var text = dumpText(host, model, '@.checksums.json');
      try { doc = text === null ? null : JSON.parse(text); } catch (e) { doc = null; }
    }
    var t = doc && doc.data && doc.data[target.schema] && doc.data[target.schema][target.table];
    if (!t || !Array.isArray(t.indexColumns) || t.indexColumns[0] !== column || !t.partitions) return null;
    var p = t.partitions[target.partition === null ? '' : target.partition];
    if (!p) return null;
    var out = [];
    for (var i = 0; i < target.chunks.length; i++) {
      out.push(p[String(i)] && typeof p[String(i)].boundary === 'string' ? lowestOf(p[String(i)].boundary, column) : null);
    }
    return out;
  };
}

module.exports = { checksumLowest: checksumLowest, lowestOf: lowestOf };
