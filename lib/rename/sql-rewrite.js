// One DDL text of a dump rewritten for a load under other schema names and other definers:
//   - schema names the map renames, where the text names a schema for certain: `shop`.`orders`
//     when the dump holds an object orders in shop, `shop`.* , `shop`.`orders`.`id`, CREATE / ALTER
//     DATABASE, USE;
//   - DEFINER clauses per the definers option (SQL SECURITY is never touched);
//   - warnings, naming the object, for what cannot be rewritten with certainty: a renamed schema's
//     name inside a string, dynamic SQL (PREPARE … FROM a variable), `shop`.x where the dump holds
//     no object x in shop (an alias, or an object outside the dump).
// Nothing else in the text changes: only the characters of the tokens rewritten.
var tokens = require('./sql-tokens.js');
var displayTable = require('../format/display-name.js').displayTable;
var quoteIdentifier = require('../core/sql-identifiers.js').quoteIdentifier;
var secrets = require('../options/secrets.js');

var KINDS = { VIEW: 1, TRIGGER: 1, EVENT: 1, PROCEDURE: 1, FUNCTION: 1, TABLE: 1, DATABASE: 1, SCHEMA: 1 };
var HEADER_STOPS = { AS: 1, SELECT: 1, BEGIN: 1, ON: 1, DO: 1, RETURN: 1, RETURNS: 1 };

function escapeRegex(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'); }

// A test for "the text names one of these schemas": `shop` or shop followed by a dot.
function mentionTest(names) {
  if (!names.length) return null;
  var alt = names.map(function (n) { return escapeRegex(n); }).join('|');
  var quoted = names.map(function (n) { return escapeRegex('`' + n.replace(/`/g, '``') + '`'); }).join('|');
  var re = new RegExp('(?:^|[^A-Za-z0-9_$\\u0080-\\uffff])(?:' + alt + ')\\s*\\.|' + quoted);
  return function (s) { return re.test(s); };
}

function short(s) {
  var one = s.replace(/\s+/g, ' ');
  return one.length > 60 ? one.slice(0, 57) + '...' : one;
}

// opts: {rename(schema) -> new name or null, renamed: [dump schema names the map renames],
//   known(schema, name) -> whether the dump holds object `name` in schema, definers: {mode, sql}
//   (mode keep | strip | current | account), bodies: also report names inside strings and dynamic
//   SQL, schema: the dump schema the file belongs to (objects are named with it), object: what the
//   text creates when it has no CREATE header of its own}.
// Returns {text, changed, warnings: [{object, message}], definers: [{user, host, current, object}]}.
function rewriteSql(text, opts) {
  var all = tokens.tokenize(text);
  var sig = tokens.significant(all);
  var edits = [];
  var warnings = [];
  var definers = [];
  var shownText = null; // the text as it may be shown, made when a string is to be quoted
  var mentions = opts.bodies ? mentionTest(opts.renamed || []) : null;
  var object = opts.object || null;
  var defMode = opts.definers ? opts.definers.mode : 'keep';
  function val(t) { return tokens.tokenValue(text, t); }
  function word(t, w) { return tokens.isWord(text, t, w); }
  function punct(t, p) { return t && t.type === 'punct' && text[t.start] === p; }
  function warn(message) { warnings.push({ object: object, message: message }); }
  function renameToken(t) {
    var to = t && tokens.isName(t) ? opts.rename(val(t)) : null;
    if (to !== null && to !== undefined) edits.push({ start: t.start, end: t.end, text: quoteIdentifier(to) });
  }

  // CREATE … kind name: what the following text belongs to (for warnings), and a schema name.
  function header(i) {
    for (var k = i + 1; k < sig.length && k < i + 24; k++) {
      var t = sig[k];
      if (t.type !== 'word') continue;
      var w = text.slice(t.start, t.end).toUpperCase();
      if (HEADER_STOPS[w]) return;
      if (!KINDS[w]) continue;
      var n = k + 1;
      if (word(sig[n], 'IF')) n += word(sig[n + 1], 'NOT') ? 3 : 2;
      if (!tokens.isName(sig[n])) return;
      if (w === 'DATABASE' || w === 'SCHEMA') { renameToken(sig[n]); return; }
      var schema = opts.schema;
      var name = val(sig[n]);
      if (punct(sig[n + 1], '.') && tokens.isName(sig[n + 2])) { schema = name; name = val(sig[n + 2]); }
      object = w.toLowerCase() + ' ' + (schema ? displayTable(schema, name) : name);
      return;
    }
  }

  // DEFINER = account at sig[i]: the clause's last token index, or i when it is no clause.
  function definer(i) {
    if (!punct(sig[i + 1], '=')) return i;
    var k = i + 2;
    var u = sig[k];
    if (!u) return i;
    var found;
    var end = k;
    if (word(u, 'CURRENT_USER')) {
      if (punct(sig[k + 1], '(') && punct(sig[k + 2], ')')) end = k + 2;
      found = { current: true, user: null, host: null };
    } else if (u.type === 'qident' || u.type === 'string' || u.type === 'word') {
      found = { current: false, user: val(u), host: '%' };
      if (punct(sig[k + 1], '@') && sig[k + 2] && (sig[k + 2].type === 'qident' || sig[k + 2].type === 'string' ||
        sig[k + 2].type === 'word')) {
        found.host = val(sig[k + 2]);
        end = k + 2;
      } else if (sig[k + 1] && sig[k + 1].type === 'var' && sig[k + 1].start === u.end) {
        found.host = text.slice(sig[k + 1].start + 1, sig[k + 1].end);
        end = k + 1;
      }
    } else {
      return i;
    }
    found.object = object;
    definers.push(found);
    var from = sig[i].start;
    var to = sig[end].end;
    if (defMode === 'strip') {
      while (to < text.length && (text[to] === ' ' || text[to] === '\t')) to++;
      edits.push({ start: from, end: to, text: '' });
    } else if (defMode === 'current') {
      edits.push({ start: from, end: to, text: 'DEFINER=CURRENT_USER' });
    } else if (defMode === 'account') {
      edits.push({ start: from, end: to, text: 'DEFINER=' + opts.definers.sql });
    }
    return end;
  }

  // A name chain a.b[.c] starting at sig[i]: renamed when a is a schema the map renames and the
  // chain names one of its objects for certain. Returns the chain's last token index.
  function chain(i) {
    var parts = [sig[i]];
    var k = i;
    while (punct(sig[k + 1], '.') && sig[k + 2] && (tokens.isName(sig[k + 2]) || punct(sig[k + 2], '*'))) {
      parts.push(sig[k + 2]);
      k += 2;
    }
    if (parts.length < 2) return i;
    var head = val(parts[0]);
    if (parts[0].type === 'word' && /^[0-9]/.test(head)) return k; // a number: 1.5, 2e3
    var to = opts.rename(head);
    if (to === null || to === undefined) return k;
    var second = punct(parts[1], '*') ? '*' : val(parts[1]);
    if (parts.length >= 3 || second === '*' || opts.known(head, second)) {
      renameToken(parts[0]);
    } else {
      warn(displayTable(head, second) + ': the dump holds no object ' + second + ' in ' + head + ' (a table alias, ' +
        'or an object outside the dump?), so it was left as it is; it is not renamed to ' + to);
    }
    return k;
  }

  for (var i = 0; i < sig.length; i++) {
    var t = sig[i];
    if (t.type === 'string') {
      if (mentions && mentions(val(t))) {
        // A literal that may be a password or an account's hash is not quoted.
        var literal = text.slice(t.start, t.end);
        shownText = shownText === null ? secrets.statement(text) : shownText;
        warn('a renamed schema is named inside the string ' + (shownText.indexOf(literal) >= 0 ? short(literal) : '(not shown: it may hold a ' +
          'password)') + ': not rewritten ' +
          '(data, or SQL run dynamically?)');
      }
      continue;
    }
    if (t.type === 'word') {
      var w = text.slice(t.start, t.end).toUpperCase();
      if (w === 'CREATE') header(i);
      else if (w === 'DEFINER') { i = definer(i); continue; }
      else if (w === 'USE' && tokens.isName(sig[i + 1]) && !punct(sig[i + 2], '.')) { renameToken(sig[i + 1]); i++; continue; }
      else if ((w === 'ALTER' || w === 'DROP') && (word(sig[i + 1], 'DATABASE') || word(sig[i + 1], 'SCHEMA'))) {
        var n = i + 2;
        if (word(sig[n], 'IF')) n += 2;
        if (tokens.isName(sig[n]) && !/^(CHARACTER|CHARSET|DEFAULT|COLLATE|READ|ENCRYPTION)$/i.test(val(sig[n]))) renameToken(sig[n]);
        i = n;
        continue;
      } else if (w === 'PREPARE' && opts.bodies && (opts.renamed || []).length && tokens.isName(sig[i + 1]) &&
        word(sig[i + 2], 'FROM') && sig[i + 3] && sig[i + 3].type !== 'string') {
        warn('runs dynamic SQL (PREPARE … FROM ' + text.slice(sig[i + 3].start, sig[i + 3].end) + '): schema names in ' +
          'it are not rewritten');
      }
    }
    if (tokens.isName(t) && !punct(sig[i - 1], '.')) i = chain(i);
  }
  if (!edits.length) return { text: text, changed: false, warnings: warnings, definers: definers };
  edits.sort(function (a, b) { return a.start - b.start; });
  var out = [];
  var at = 0;
  edits.forEach(function (e) {
    if (e.start < at) return; // never twice the same characters
    out.push(text.slice(at, e.start), e.text);
    at = e.end;
  });
  out.push(text.slice(at));
  return { text: out.join(''), changed: true, warnings: warnings, definers: definers };
}

module.exports = { rewriteSql: rewriteSql };
