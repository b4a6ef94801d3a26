'use strict';
// Client-side placeholder substitution as runSql does it: `?` takes a value, `!` an identifier;
// placeholders inside quotes and comments are skipped. Note the Shell's own gotcha, kept here:
// with args given, the `!` of `!=` is a placeholder too.

function quoteValue(v, index) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`Invalid type for placeholder value at index #${index}`);
    return String(v);
  }
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof ArrayBuffer || Object.prototype.toString.call(v) === '[object ArrayBuffer]') {
    return `X'${Buffer.from(v).toString('hex')}'`;
  }
  if (typeof v === 'string') {
    return `'${v.replace(/[\0\n\r\b\t\x1a'"\\]/g, (c) => ({
      '\0': '\\0', '\n': '\\n', '\r': '\\r', '\b': '\\b', '\t': '\\t', '\x1a': '\\Z', "'": "\\'", '"': '\\"', '\\': '\\\\',
    })[c])}'`;
  }
  throw new Error(`Invalid type for placeholder value at index #${index}`);
}

function quoteIdentifier(v, index) {
  if (typeof v !== 'string') {
    throw new Error(`Error formatting SQL query: invalid escape for numeric argument while substituting placeholder value at index #${index}`);
  }
  return '`' + v.replace(/`/g, '``') + '`';
}

function substitute(sql, args) {
  let out = '';
  let i = 0;
  let argIndex = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n) {
        if (sql[j] === '\\' && c !== '`') { j += 2; continue; }
        if (sql[j] === c) { if (sql[j + 1] === c) { j += 2; continue; } break; }
        j++;
      }
      out += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (c === '-' && sql[i + 1] === '-' && /\s/.test(sql[i + 2] || ' ')) {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    if (c === '#') {
      const j = sql.indexOf('\n', i);
      const end = j < 0 ? n : j;
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    if (c === '/' && sql[i + 1] === '*' && sql[i + 2] !== '!') {
      const j = sql.indexOf('*/', i + 2);
      const end = j < 0 ? n : j + 2;
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    if (c === '?' || c === '!') {
      if (argIndex >= args.length) throw new Error('Insufficient number of values for placeholders in query');
      const v = args[argIndex];
      out += c === '?' ? quoteValue(v, argIndex) : quoteIdentifier(v, argIndex);
      argIndex++;
      i++;
      continue;
    }
    out += c;
    i++;
  }
  if (argIndex < args.length) {
    throw new Error(`Error formatting SQL query: more arguments than escapes while substituting placeholder value at index #${argIndex}`);
  }
  return out;
}

module.exports = { substitute, quoteValue, quoteIdentifier };
