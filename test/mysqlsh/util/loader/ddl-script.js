'use strict';
// Splits a dump's .sql file into the statements the server gets, as the mysql client does:
// `DELIMITER x` lines change the terminator (and are never sent); a terminator inside quotes,
// backticks or comments does not end a statement; statements holding only comments are dropped.
// Versioned comments (`/*!80016 … */`) are code for the server, so they stay in the text, but
// like the mysql client we do not look for the terminator inside them.

function skipQuoted(text, i, quote) {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (c === '\\' && quote !== '`') { j += 2; continue; }
    if (c === quote) {
      if (text[j + 1] === quote) { j += 2; continue; }
      return j + 1;
    }
    j++;
  }
  return j;
}

function lineEnd(text, i) {
  const j = text.indexOf('\n', i);
  return j < 0 ? text.length : j;
}

function isLineComment(text, i) {
  if (text[i] === '#') return true;
  return text[i] === '-' && text[i + 1] === '-' && (i + 2 >= text.length || /\s/.test(text[i + 2]));
}

// `DELIMITER x` at the start of a line (leading blanks allowed), as the mysql client reads it.
function delimiterCommand(text, i) {
  let k = i;
  while (k < text.length && (text[k] === ' ' || text[k] === '\t')) k++;
  const m = /^delimiter[ \t]+(\S+)[^\n]*/i.exec(text.slice(k, lineEnd(text, k)));
  return m ? { delimiter: m[1], end: lineEnd(text, k) } : null;
}

// Text without comments (versioned comments kept): what tells an empty statement from a real one.
function stripComments(sql) {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') { const j = skipQuoted(sql, i, c); out += sql.slice(i, j); i = j; continue; }
    if (isLineComment(sql, i)) { i = lineEnd(sql, i); continue; }
    if (c === '/' && sql[i + 1] === '*' && sql[i + 2] !== '!') {
      const j = sql.indexOf('*/', i + 2);
      i = j < 0 ? sql.length : j + 2;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

// The dumper brackets each routine, event and trigger with `-- begin <type> <schema>.<name>` and
// `-- end <type> <schema>.<name>` lines; filters drop the statements between them.
const SECTION_MARK = /^-- (begin|end) (\w+) (.*)$/;

// Returns [{ sql, line, section }]: each statement without its terminator, the 1-based line it
// starts on, and the section it sits in ({ type, name } or null).
function splitStatements(text) {
  const statements = [];
  let delimiter = ';';
  let start = 0;
  let i = 0;
  let atLineStart = true;
  let section = null;
  let stmtSection;
  let codeStart = -1;
  // Leading comment lines (file headers, `-- begin …` marks) are not part of the statement.
  const push = (end) => {
    if (codeStart >= 0 && codeStart < end) {
      const sql = text.slice(codeStart, end).trim();
      if (sql && stripComments(sql).trim()) {
        statements.push({ sql, line: text.slice(0, codeStart).split('\n').length, section: stmtSection || null });
      }
    }
    stmtSection = undefined;
    codeStart = -1;
  };
  while (i < text.length) {
    if (atLineStart) {
      const cmd = delimiterCommand(text, i);
      if (cmd && !stripComments(text.slice(start, i)).trim()) {
        delimiter = cmd.delimiter;
        i = cmd.end;
        start = i;
        continue;
      }
    }
    const c = text[i];
    atLineStart = c === '\n';
    if (isLineComment(text, i)) {
      const mark = SECTION_MARK.exec(text.slice(i, lineEnd(text, i)).trimEnd());
      if (mark) section = mark[1] === 'begin' ? { type: mark[2], name: mark[3] } : null;
      i = lineEnd(text, i);
      continue;
    }
    if (c === '/' && text[i + 1] === '*' && text[i + 2] !== '!') {
      const j = text.indexOf('*/', i + 2);
      i = j < 0 ? text.length : j + 2;
      continue;
    }
    if (codeStart < 0 && !/\s/.test(c)) { stmtSection = section; codeStart = i; }
    if (c === "'" || c === '"' || c === '`') { i = skipQuoted(text, i, c); continue; }
    if (c === '/' && text[i + 1] === '*') {
      const j = text.indexOf('*/', i + 2);
      i = j < 0 ? text.length : j + 2;
      continue;
    }
    if (text.startsWith(delimiter, i)) {
      push(i);
      i += delimiter.length;
      start = i;
      continue;
    }
    i++;
  }
  push(text.length);
  return statements;
}

module.exports = { splitStatements, stripComments };
