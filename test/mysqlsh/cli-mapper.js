'use strict';
// `mysqlsh [uri] -- <object> <operation> [args]` (plugin-runtime.md §4): tokens interpreted as
// JSON-ish values, `--opt=value` mapped to declared dictionary options and converted to their
// declared types, the first array parameter swallowing the remaining positionals, and the
// Shell's error texts. Errors carry exitCode 10 (command-line error) or 1.

class CliError extends Error {
  constructor(message, exitCode) {
    super(message);
    this.exitCode = exitCode;
  }
}

function toCamel(s) { return s.replace(/[-_]+([a-zA-Z0-9])/g, (_, c) => c.toUpperCase()); }
function toDashes(s) { return s.replace(/([A-Z])/g, (c) => `-${c.toLowerCase()}`).replace(/_/g, '-'); }

// interpret_string_value: JSON if it parses and round-trips, else the plain string.
function interpret(token) {
  try {
    const v = JSON.parse(token);
    if (typeof v === 'number' && String(v) !== token.trim()) return token;
    return v;
  } catch (e) {
    return token;
  }
}

function splitList(token) {
  const t = token.trim();
  if (t.startsWith('[')) {
    try { const v = JSON.parse(t); if (Array.isArray(v)) return v; } catch (e) { /* a plain list */ }
  }
  const items = [];
  let cur = '';
  let quote = null;
  for (let i = 0; i < token.length; i++) {
    const c = token[i];
    if (c === '\\' && token[i + 1] === ',') { cur += ','; i++; continue; }
    if (quote) { if (c === quote) quote = null; else cur += c; continue; }
    if (c === '"' || c === "'") { quote = c; continue; }
    if (c === ',') { items.push(cur); cur = ''; continue; }
    cur += c;
  }
  items.push(cur);
  return items;
}

const TYPE_WORD = { string: 'String', integer: 'Integer', float: 'Float', bool: 'Bool', array: 'Array', dictionary: 'Map' };

function valueTypeWord(v) {
  if (v === null) return 'Null';
  if (typeof v === 'boolean') return 'Bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
  if (typeof v === 'string') return 'String';
  if (Array.isArray(v)) return 'Array';
  return 'Map';
}

// Converts a raw token to a declared type, as the CLI does (unlike API calls).
function convert(raw, type, at, explicitType) {
  const fail = (word) => { throw new CliError(`Argument error at '${at}': ${TYPE_WORD[type]} ${word}, but value is ${valueTypeWord(interpret(raw))}`, 10); };
  switch (type) {
    case 'string': return raw;
    case 'integer': {
      const v = interpret(raw);
      if (typeof v === 'number' && Number.isInteger(v)) return v;
      return fail(explicitType ? 'indicated' : 'expected');
    }
    case 'float': {
      const v = interpret(raw);
      if (typeof v === 'number') return v;
      return fail('expected');
    }
    case 'bool': {
      if (/^(true|1)$/i.test(raw)) return true;
      if (/^(false|0)$/i.test(raw)) return false;
      return fail('expected');
    }
    case 'array': return splitList(raw).map(interpret);
    case 'dictionary': {
      const v = interpret(raw);
      if (v && typeof v === 'object' && !Array.isArray(v)) return v;
      return fail('expected');
    }
    default: return interpret(raw);
  }
}

const EXPLICIT_TYPES = { str: 'string', int: 'integer', uint: 'integer', float: 'float', bool: 'bool', json: null, list: 'array', dict: 'dictionary', null: null };

// Splits tokens into positionals and named args ({name, type, value, text}).
function tokenize(tokens) {
  const positional = [];
  const named = [];
  let waiting = null;
  for (const tok of tokens) {
    if (waiting && !tok.startsWith('-')) {
      waiting.value = tok;
      waiting.text = `${waiting.text} ${tok}`;
      waiting = null;
      continue;
    }
    waiting = null;
    const m = /^--([^=:]+)(?::([a-z]+))?(?:=([\s\S]*))?$/.exec(tok);
    if (m) {
      const entry = { name: toCamel(m[1]), type: m[2], value: m[3] === undefined ? undefined : m[3], text: tok };
      named.push(entry);
      if (m[3] === undefined) waiting = entry;
      continue;
    }
    positional.push(tok);
  }
  named.forEach((n) => { if (n.value === undefined) n.value = 'true'; });
  return { positional, named };
}

// parameters: parsed definitions from the extension registry. Returns the argument list.
function mapArguments(parameters, tokens) {
  const { positional, named } = tokenize(tokens);
  const args = new Array(parameters.length).fill(undefined);
  const given = new Array(parameters.length).fill(false);
  const firstArray = parameters.findIndex((p) => p.type === 'array');
  const usedNamed = new Set();

  // Parameters reachable by position: scalars, and the first array (which swallows the rest).
  let pos = 0;
  parameters.forEach((p, i) => {
    if (p.type === 'dictionary') return;
    if (firstArray >= 0 && i > firstArray) return;
    if (p.type === 'array') {
      if (pos < positional.length) {
        args[i] = positional.slice(pos).flatMap((t) => splitList(t).map(interpret));
        given[i] = true;
        pos = positional.length;
      }
      return;
    }
    if (pos < positional.length) {
      args[i] = convert(positional[pos], p.type, positional[pos]);
      given[i] = true;
      pos++;
    }
  });
  if (pos < positional.length) throw new CliError(`The following argument is invalid: ${positional[pos]}`, 10);

  // Parameters after the first array are named: --<param>.
  parameters.forEach((p, i) => {
    if (p.type === 'dictionary' || !(firstArray >= 0 && i > firstArray)) return;
    named.forEach((n, k) => {
      if (n.name !== p.name) return;
      args[i] = convert(n.value, p.type, n.text);
      given[i] = true;
      usedNamed.add(k);
    });
  });

  // Dictionary options: --opt (or --param-opt when two dictionaries declare it).
  const dicts = parameters.map((p, i) => ({ p, i })).filter(({ p }) => p.type === 'dictionary');
  named.forEach((n, k) => {
    if (usedNamed.has(k)) return;
    const owners = dicts.filter(({ p }) => (p.options || []).some((o) => o.name === n.name || toDashes(o.name) === toDashes(n.name)));
    let target = owners.length === 1 ? owners[0] : null;
    let optName = n.name;
    if (!target) {
      const qualified = dicts.find(({ p }) => n.name.startsWith(p.name) && (p.options || []).some((o) => toCamel(`${p.name}-${o.name}`) === n.name));
      if (qualified) { target = qualified; optName = qualified.p.options.find((o) => toCamel(`${qualified.p.name}-${o.name}`) === n.name).name; }
    }
    if (!target) {
      const open = dicts.find(({ p }) => !p.options || !p.options.length);
      if (!open) return;
      if (!args[open.i]) args[open.i] = {};
      args[open.i][n.name] = n.type ? convert(n.value, EXPLICIT_TYPES[n.type], n.text, true) : interpret(n.value);
      given[open.i] = true;
      usedNamed.add(k);
      return;
    }
    const opt = target.p.options.find((o) => o.name === optName || toDashes(o.name) === toDashes(optName));
    if (!args[target.i]) args[target.i] = {};
    const declared = n.type ? EXPLICIT_TYPES[n.type] : opt.type;
    const value = convert(n.value, declared, n.text, !!n.type);
    if (declared === 'array' && Array.isArray(args[target.i][opt.name])) args[target.i][opt.name] = args[target.i][opt.name].concat(value);
    else args[target.i][opt.name] = value;
    given[target.i] = true;
    usedNamed.add(k);
  });
  const unknown = named.filter((_, k) => !usedNamed.has(k)).map((n) => `--${toDashes(n.name)}`);
  if (unknown.length === 1) throw new CliError(`The following option is invalid: ${unknown[0]}`, 10);
  if (unknown.length > 1) throw new CliError(`The following options are invalid: ${unknown.join(', ')}`, 10);

  dicts.forEach(({ p, i }) => {
    if (!given[i]) return;
    const missing = (p.options || []).filter((o) => o.required && !(o.name in args[i]));
    if (missing.length) throw new CliError(`The following required option is missing: --${toDashes(missing[0].name)}`, 1);
  });
  parameters.forEach((p, i) => {
    if (p.required && !given[i]) throw new CliError(`Missing value for required '${p.name}' parameter.`, 1);
  });

  // Omitted optionals: {} / [] only when a later argument was supplied; else undefined/default.
  let last = -1;
  given.forEach((g, i) => { if (g) last = i; });
  const out = [];
  for (let i = 0; i <= last; i++) {
    if (given[i]) out.push(args[i]);
    else if (parameters[i].type === 'dictionary') out.push({});
    else if (parameters[i].type === 'array') out.push([]);
    else out.push(parameters[i].default);
  }
  return out;
}

module.exports = { mapArguments, CliError, toCamel, toDashes, interpret };
