'use strict';
// Object names given in dump filter options: `schema.object` (triggers: `schema.table` or
// `schema.table.trigger`), each part bare or in backticks, with the Shell's error texts.

function isBareChar(ch) {
  return /[A-Za-z0-9_$]/.test(ch) || ch.codePointAt(0) >= 0x80;
}

// Splits a dotted name into its parts; throws Error(<Shell's parser message>).
function splitDotted(text, maxParts) {
  const parts = [];
  let i = 0;
  for (;;) {
    let part = '';
    if (text[i] === '`') {
      i++;
      for (;;) {
        if (i >= text.length) throw new Error('Invalid identifier: missing closing backtick');
        if (text[i] === '`') {
          if (text[i + 1] === '`') { part += '`'; i += 2; continue; }
          i++;
          break;
        }
        part += text[i++];
      }
    } else {
      while (i < text.length && isBareChar(text[i])) part += text[i++];
      if (!part) throw new Error('Invalid character in identifier');
    }
    parts.push(part);
    if (i >= text.length) return parts;
    if (text[i] !== '.' || parts.length === maxParts) {
      throw new Error(`Invalid object name, expected end of name, but got: '${text[i]}'`);
    }
    i++;
  }
}

// kind: 'table' | 'event' | 'routine'; action: 'included' | 'excluded'.
function parseSchemaObject(text, kind, action) {
  let parts;
  try {
    parts = splitDotted(text, 2);
  } catch (e) {
    throw new Error(`Failed to parse ${kind} to be ${action} '${text}': ${e.message}`);
  }
  if (parts.length < 2) {
    throw new Error(`The ${kind} to be ${action} must be in the following form: schema.${kind}, with optional backtick quotes, wrong value: '${text}'.`);
  }
  return { schema: parts[0], name: parts[1] };
}

// Triggers: {schema, table, trigger|null}.
function parseTriggerFilter(text, action) {
  let parts;
  try {
    parts = splitDotted(text, 3);
  } catch (e) {
    throw new Error(`Failed to parse trigger to be ${action} '${text}': ${e.message}`);
  }
  if (parts.length < 2) {
    throw new Error(`The trigger to be ${action} must be in the following form: schema.table or schema.table.trigger, with optional backtick quotes, wrong value: '${text}'.`);
  }
  return { schema: parts[0], table: parts[1], trigger: parts.length === 3 ? parts[2] : null };
}

// Keys of the `where` and `partitions` options.
function parseTableKey(text, optionName) {
  let parts = null;
  try { parts = splitDotted(text, 2); } catch (e) { parts = null; }
  if (!parts || parts.length < 2) {
    throw new Error(`The table name key of the '${optionName}' option must be in the following form: schema.table, with optional backtick quotes, wrong value: '${text}'.`);
  }
  return { schema: parts[0], name: parts[1] };
}

// Accounts in includeUsers/excludeUsers: 'user'@'host' or 'user' (every host).
function parseAccount(text) {
  const unquote = (s) => {
    const m = /^(['"`])(.*)\1$/s.exec(s);
    return m ? m[2].replace(new RegExp(m[1] + m[1], 'g'), m[1]) : s;
  };
  const m = /^((?:'(?:[^']|'')*'|"(?:[^"]|"")*"|`(?:[^`]|``)*`|[^@]*))(?:@(.*))?$/s.exec(text);
  if (!m || m[1] === '') throw new Error(`Failed to parse account '${text}'`);
  return { user: unquote(m[1]), host: m[2] === undefined ? null : unquote(m[2]) };
}

module.exports = { splitDotted, parseSchemaObject, parseTriggerFilter, parseTableKey, parseAccount };
