// MySQL statement text as tokens, for rewriting names and DEFINER clauses in a dump's DDL without
// touching anything else: every token keeps its place in the text (start, end), so a change
// replaces exactly the characters of one token.
// Types: ws, comment (--, #, /* */, optimizer hints /*+ */), vopen (/*!NNNNN: the text up to its */
// is code, as the server runs it), vclose, string ('…' or "…"; "…" is an identifier only under
// ANSI_QUOTES, which callers treat as uncertain), qident (`…`), word (unquoted names, keywords,
// numbers), var (@name, @'x', @@global.x), punct (any other character).

function isWordChar(c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '$' ||
    c > '\u007f';
}

// The end of a quoted run starting at i (text[i] is the quote): a doubled quote stays inside;
// in strings a backslash escapes the next character (the default sql_mode, as dumps are written).
function quotedEnd(text, i, q, backslash) {
  var j = i + 1;
  while (j < text.length) {
    var c = text[j];
    if (backslash && c === '\\') { j += 2; continue; }
    if (c === q) {
      if (text[j + 1] === q) { j += 2; continue; }
      return j + 1;
    }
    j++;
  }
  return text.length;
}

function tokenize(text) {
  var out = [];
  var i = 0;
  var inVersioned = 0; // depth of /*! … */ being read as code
  var n = text.length;
  function push(type, end) { out.push({ type: type, start: i, end: end }); i = end; }
  while (i < n) {
    var c = text[i];
    var d = text[i + 1];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f') {
      var w = i + 1;
      while (w < n && /[ \t\n\r\f]/.test(text[w])) w++;
      push('ws', w);
    } else if (c === '*' && d === '/' && inVersioned) {
      inVersioned--;
      push('vclose', i + 2);
    } else if (c === '/' && d === '*' && text[i + 2] === '!') {
      var v = i + 3;
      while (v < n && text[v] >= '0' && text[v] <= '9') v++;
      inVersioned++;
      push('vopen', v);
    } else if (c === '/' && d === '*') {
      var close = text.indexOf('*/', i + 2);
      push('comment', close < 0 ? n : close + 2);
    } else if (c === '#' || (c === '-' && d === '-' && (i + 2 >= n || /[ \t\n\r\f]/.test(text[i + 2])))) {
      var nl = text.indexOf('\n', i);
      push('comment', nl < 0 ? n : nl);
    } else if (c === '\'' || c === '"') {
      push('string', quotedEnd(text, i, c, true));
    } else if (c === '`') {
      push('qident', quotedEnd(text, i, '`', false));
    } else if (c === '@') {
      var a = i + 1;
      if (text[a] === '@') a++;
      if (text[a] === '\'' || text[a] === '"' || text[a] === '`') {
        // @'name' is a variable only right after @ with nothing before it that makes it an account
        // ('u'@'h'): callers read accounts from punct '@', so a quoted part after @ stays apart.
        push('punct', i + 1);
      } else if (a < n && (isWordChar(text[a]) || text[a] === '.')) {
        while (a < n && (isWordChar(text[a]) || text[a] === '.')) a++;
        push('var', a);
      } else {
        push('punct', i + 1);
      }
    } else if (isWordChar(c)) {
      var e = i + 1;
      while (e < n && isWordChar(text[e])) e++;
      push('word', e);
    } else {
      push('punct', i + 1);
    }
  }
  return out;
}

// The tokens that carry meaning: no whitespace or comments, and the /*! */ markers dropped (their
// content is code).
function significant(tokens) {
  return tokens.filter(function (t) { return t.type !== 'ws' && t.type !== 'comment' && t.type !== 'vopen' && t.type !== 'vclose'; });
}

// The name a word, `quoted identifier` or 'string' token stands for.
function tokenValue(text, t) {
  var s = text.slice(t.start, t.end);
  if (t.type === 'qident') return s.slice(1, -1).replace(/``/g, '`');
  if (t.type === 'string') {
    var q = s[0];
    return s.slice(1, s[s.length - 1] === q ? -1 : s.length).replace(new RegExp(q + q, 'g'), q)
      .replace(/\\(.)/g, function (m, x) { return ({ n: '\n', t: '\t', r: '\r', '0': '\u0000' })[x] || x; });
  }
  return s;
}

function isName(t) { return t.type === 'word' || t.type === 'qident'; }

function isWord(text, t, word) {
  return t && t.type === 'word' && text.slice(t.start, t.end).toUpperCase() === word;
}

module.exports = { tokenize: tokenize, significant: significant, tokenValue: tokenValue, isName: isName, isWord: isWord };
