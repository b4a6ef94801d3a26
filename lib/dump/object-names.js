// Object names as users write them (and loadDump's filters take them): `schema.table` with
// optional backticks, a backtick inside a quoted name doubled.
var UserError = require('../core/user-error.js').UserError;

// "`my db`.t" → ['my db', 't']; "*" and "shop.*" keep '*' as a wildcard part.
function splitName(text, what) {
  var parts = [];
  var s = String(text);
  var i = 0;
  while (i <= s.length) {
    var part = '';
    if (s[i] === '`') {
      i++;
      for (;;) {
        if (i >= s.length) throw new UserError('NAME_INVALID', what + ': unterminated backtick in ' + JSON.stringify(text) + '.');
        if (s[i] === '`') {
          if (s[i + 1] === '`') { part += '`'; i += 2; continue; }
          i++;
          break;
        }
        part += s[i++];
      }
      if (i < s.length && s[i] !== '.') {
        throw new UserError('NAME_INVALID', what + ': expected "." after a quoted name in ' + JSON.stringify(text) + '.');
      }
    } else {
      while (i < s.length && s[i] !== '.') part += s[i++];
      if (part === '') throw new UserError('NAME_INVALID', what + ': empty name part in ' + JSON.stringify(text) + '.');
    }
    parts.push(part);
    i++;
  }
  return parts;
}

// "a:1,`b,c`:2" → ['a:1', '`b,c`:2']: a command line's list, a comma inside backticks the name's.
function splitList(text) {
  var entries = [];
  var cur = '';
  var quoted = false;
  for (var i = 0; i <= text.length; i++) {
    var c = text[i];
    if (c === '`') quoted = !quoted;
    if (i === text.length || (c === ',' && !quoted)) {
      if (cur.trim() !== '') entries.push(cur.trim());
      cur = '';
    } else {
      cur += c;
    }
  }
  return entries;
}

module.exports = { splitName: splitName, splitList: splitList };
