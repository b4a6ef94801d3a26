// Object names as reports and messages show them: bare when plain, otherwise backtick-quoted
// (backticks doubled) with control characters escaped, so a table called "new\nline" stays
// on one line of a report.
var PLAIN = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
var CONTROL = /[\u0000-\u001f\u007f]/g;
var NAMED = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeControl(c) {
  return NAMED[c] || '\\x' + ('0' + c.charCodeAt(0).toString(16)).slice(-2);
}

function displayIdentifier(name) {
  var s = String(name);
  if (PLAIN.test(s)) return s;
  return '`' + s.replace(/`/g, '``').replace(CONTROL, escapeControl) + '`';
}

// "db.t", or "db.t partition p0" for one partition of a partitioned table.
function displayTable(schema, table, partition) {
  var s = displayIdentifier(schema) + '.' + displayIdentifier(table);
  return partition === undefined || partition === null ? s : s + ' partition ' + displayIdentifier(partition);
}

// The first `shown` of some names (already displayed), then how many more: "a, b, … and 3 more".
function someNames(names, shown) {
  return names.slice(0, shown).join(', ') + (names.length > shown ? ', … and ' + (names.length - shown) + ' more' : '');
}

module.exports = { displayIdentifier: displayIdentifier, displayTable: displayTable, someNames: someNames };
