'use strict';
// include*/exclude* options of util.loadDump (loader-internals §8): parsing, conflict errors, and
// the matchers applied to the names found in the dump metadata. Names are compared exactly;
// a filter naming something the dump does not hold is silently ignored.

const quote = (name) => '`' + String(name).replace(/`/g, '``') + '`';
const qualified = (parts) => parts.map(quote).join('.');

const IDENTIFIER_CHAR = /[A-Za-z0-9_$\u0080-\uFFFF]/;

// Splits `a.b` / `` `a`.`b` `` into parts; throws { reason } when a part is malformed.
function splitIdentifiers(text) {
  const parts = [];
  let i = 0;
  for (;;) {
    let part = '';
    if (text[i] === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw { reason: 'Missing closing backtick' };
        if (text[j] === '`') {
          if (text[j + 1] === '`') { part += '`'; j += 2; continue; }
          break;
        }
        part += text[j++];
      }
      i = j + 1;
    } else {
      while (i < text.length && text[i] !== '.') {
        if (!IDENTIFIER_CHAR.test(text[i])) throw { reason: 'Invalid character in identifier' };
        part += text[i++];
      }
    }
    parts.push(part);
    if (i >= text.length) return parts;
    if (text[i] !== '.') throw { reason: 'Invalid character in identifier' };
    i++;
  }
}

// `my db` is unquoted when it parses as one identifier, otherwise taken as written.
function parseSchemaName(value) {
  const text = String(value);
  if (text.startsWith('`')) {
    try {
      const parts = splitIdentifiers(text);
      if (parts.length === 1) return parts[0];
    } catch (e) { /* used as written */ }
  }
  return text;
}

const KINDS = {
  Tables: { noun: 'table', article: 'a', form: 'schema.table' },
  Events: { noun: 'event', article: 'an', form: 'schema.event' },
  Routines: { noun: 'routine', article: 'a', form: 'schema.routine' },
  Triggers: { noun: 'trigger', article: 'a', form: 'schema.table or schema.table.trigger' },
};

// Returns a list of name arrays ([schema, object] or, for triggers, [schema, table(, trigger)]).
function parseObjectList(values, suffix, include, fail) {
  const kind = KINDS[suffix];
  const verb = include ? 'included' : 'excluded';
  return (values || []).map((value) => {
    const text = String(value);
    let parts;
    try {
      parts = splitIdentifiers(text);
    } catch (e) {
      if (!e.reason) throw e;
      fail(`Failed to parse ${kind.noun} to be ${verb} '${text}': ${e.reason}`);
    }
    const ok = suffix === 'Triggers' ? parts.length === 2 || parts.length === 3 : parts.length === 2;
    if (!ok || !text || parts.some((p) => p === '')) {
      fail(`The ${kind.noun} to be ${verb} must be in the following form: ${kind.form}, with optional backtick quotes, wrong value: '${text}'.`);
    }
    return parts;
  });
}

const key = (parts) => JSON.stringify(parts);

// `fail(message)` throws the option error; `error(line)` prints an ERROR line.
function parseFilters(opts, { notIncludedSuffix, fail, error }) {
  const includeSchemas = (opts.includeSchemas || []).map(parseSchemaName);
  const excludeSchemas = (opts.excludeSchemas || []).map(parseSchemaName);
  const lists = {};
  for (const suffix of Object.keys(KINDS)) {
    lists[suffix] = {
      include: parseObjectList(opts[`include${suffix}`], suffix, true, fail),
      exclude: parseObjectList(opts[`exclude${suffix}`], suffix, false, fail),
    };
  }
  const filters = new LoadFilters(includeSchemas, excludeSchemas, lists);
  const conflicts = filters.conflicts(notIncludedSuffix);
  if (conflicts.length) {
    conflicts.forEach((line) => error(line));
    fail('Conflicting filtering options');
  }
  return filters;
}

class LoadFilters {
  constructor(includeSchemas, excludeSchemas, lists) {
    this.includeSchemas = new Set(includeSchemas);
    this.excludeSchemas = new Set(excludeSchemas);
    this.lists = lists;
    this.sets = {};
    for (const [suffix, l] of Object.entries(lists)) {
      this.sets[suffix] = { include: new Set(l.include.map(key)), exclude: new Set(l.exclude.map(key)) };
    }
  }

  schemaIncluded(schema) {
    if (this.includeSchemas.size && !this.includeSchemas.has(schema)) return false;
    return !this.excludeSchemas.has(schema);
  }

  objectIncluded(suffix, schema, name) {
    if (!this.schemaIncluded(schema)) return false;
    const sets = this.sets[suffix];
    const k = key([schema, name]);
    if (sets.include.size && !sets.include.has(k)) return false;
    return !sets.exclude.has(k);
  }

  // Tables and views share includeTables/excludeTables.
  tableIncluded(schema, table) { return this.objectIncluded('Tables', schema, table); }

  routineIncluded(schema, routine) { return this.objectIncluded('Routines', schema, routine); }

  eventIncluded(schema, event) { return this.objectIncluded('Events', schema, event); }

  triggerIncluded(schema, table, trigger) {
    if (!this.tableIncluded(schema, table)) return false;
    const sets = this.sets.Triggers;
    const whole = key([schema, table]);
    const one = key([schema, table, trigger]);
    if (sets.include.size && !sets.include.has(whole) && !sets.include.has(one)) return false;
    return !sets.exclude.has(whole) && !sets.exclude.has(one);
  }

  conflicts(notIncludedSuffix) {
    const lines = [];
    for (const s of this.includeSchemas) {
      if (this.excludeSchemas.has(s)) lines.push(`Both includeSchemas and excludeSchemas options contain a schema ${quote(s)}.`);
    }
    for (const suffix of Object.keys(KINDS)) this.objectConflicts(suffix, notIncludedSuffix, lines);
    return lines;
  }

  objectConflicts(suffix, notIncludedSuffix, lines) {
    const { include, exclude } = this.lists[suffix];
    const sets = this.sets[suffix];
    const describe = (parts) => {
      const k = KINDS[suffix];
      if (suffix === 'Triggers' && parts.length === 2) return `a filter ${qualified(parts)}`;
      return `${k.article} ${k.noun} ${qualified(parts)}`;
    };
    const schemaNotIncluded = (parts) => this.includeSchemas.size && !this.includeSchemas.has(parts[0]);
    for (const parts of include) {
      if (sets.exclude.has(key(parts))) lines.push(`Both include${suffix} and exclude${suffix} options contain ${describe(parts)}.`);
    }
    if (suffix === 'Triggers') {
      for (const parts of include) {
        if (parts.length === 3 && sets.exclude.has(key(parts.slice(0, 2)))) {
          lines.push(`The includeTriggers option contains ${describe(parts)} which is excluded by the value of the excludeTriggers option: ${qualified(parts.slice(0, 2))}.`);
        }
      }
    }
    for (const parts of include) {
      if (this.excludeSchemas.has(parts[0])) lines.push(`The include${suffix} option contains ${describe(parts)} which refers to an excluded schema.`);
      else if (schemaNotIncluded(parts)) lines.push(`The include${suffix} option contains ${describe(parts)} which refers to a schema which was not included${notIncludedSuffix}`);
      else if (suffix === 'Triggers') this.triggerTableConflict(parts, describe, notIncludedSuffix, lines);
    }
    for (const parts of exclude) {
      if (!this.excludeSchemas.has(parts[0]) && schemaNotIncluded(parts)) {
        lines.push(`The exclude${suffix} option contains ${describe(parts)} which refers to a schema which was not included${notIncludedSuffix}`);
      }
    }
  }

  triggerTableConflict(parts, describe, notIncludedSuffix, lines) {
    const table = key(parts.slice(0, 2));
    const tables = this.sets.Tables;
    if (tables.exclude.has(table)) {
      lines.push(`The includeTriggers option contains ${describe(parts)} which refers to an excluded table.`);
    } else if (tables.include.size && !tables.include.has(table)) {
      lines.push(`The includeTriggers option contains ${describe(parts)} which refers to a table which was not included${notIncludedSuffix}`);
    }
  }
}

module.exports = { parseFilters, parseSchemaName, splitIdentifiers, LoadFilters, quote, qualified };
