'use strict';
// util.* option checks, from ../shared/mysqlsh-contract/options.json for the emulated version:
// type errors first (in the order given), then unknown names (sorted), enum values case-insensitive.
// Every problem with the options dictionary is reported as `Argument #N: <problem>` (mysql-shell
// unittest/scripts/auto/js_shell/validation/util_load_dump_norecord.js, 8.x and 9.x).
const fs = require('fs');
const path = require('path');
const { atLeast } = require('../profile');
const { shellThrowable } = require('../shell-errors');
const { contractDir } = require('../contract-paths');
const { shellType } = require('../values');

let cached = null;
function optionsTable() {
  if (!cached) cached = JSON.parse(fs.readFileSync(path.join(contractDir(), 'options.json'), 'utf8'));
  return cached;
}

const CLASS_NAMES = { 'util.loadDump': 'Util.loadDump', 'util.dumpInstance': 'Util.dumpInstance',
  'util.dumpSchemas': 'Util.dumpSchemas', 'util.dumpTables': 'Util.dumpTables' };

// Shell value type names as the Shell's messages spell them.
function shellTypeOf(v) {
  const t = shellType(v);
  return t === 'Undefined' ? 'Null' : t;
}

const TYPE_LABEL = { bool: 'Bool', uint: 'UInteger', int: 'Integer', float: 'Float', string: 'String',
  array: 'Array', dict: 'Map', enum: 'String' };

// Returns an error message, or null when v is acceptable for the declared type.
function typeProblem(name, spec, v) {
  const t = shellTypeOf(v);
  const expected = TYPE_LABEL[spec.type];
  // A string that does not convert fails in the conversion, with the converter's wording
  // (`waitDumpTimeout: "???"` → Option 'waitDumpTimeout' Float expected, but value is String).
  const bad = () => (t === 'String' && spec.type !== 'array' && spec.type !== 'dict'
    ? `Option '${name}' ${expected} expected, but value is String`
    : `Option '${name}' is expected to be of type ${expected}, but is ${t}`);
  switch (spec.type) {
    case 'bool':
      // Numbers convert to Bool (the Shell's own tests pass {all: -1}, {all: 1.2} to dumpTables).
      if (t === 'Bool' || t === 'Integer' || t === 'Float') return null;
      if (t === 'String' && /^(true|false|1|0)$/i.test(v)) return null;
      return bad();
    case 'uint':
      if (t === 'Integer') return v < 0 ? `Option '${name}' UInteger expected, but Integer value is out of range` : null;
      if (t === 'String' && /^\d+$/.test(v)) return null;
      return bad();
    case 'int':
      if (t === 'Integer' || (t === 'String' && /^-?\d+$/.test(v))) return null;
      return bad();
    case 'float':
      if (t === 'Integer' || t === 'Float' || (t === 'String' && v.trim() !== '' && !isNaN(Number(v)))) return null;
      return bad();
    case 'string':
    case 'enum':
      return t === 'String' ? null : bad();
    case 'array':
      return t === 'Array' ? null : bad();
    case 'dict':
      return t === 'Map' ? null : bad();
    default:
      return null;
  }
}

function enumProblem(name, spec, v) {
  if (spec.type !== 'enum') return null;
  if (spec.values.includes(String(v).toLowerCase())) return null;
  const sorted = spec.values.slice().sort();
  const list = sorted.length > 1
    ? `${sorted.slice(0, -1).map((x) => `'${x}'`).join(', ')} and '${sorted[sorted.length - 1]}'`
    : `'${sorted[0]}'`;
  return `Invalid value '${v}' for ${name} option, allowed values: ${list}.`;
}

// The option names `fn` accepts in `version` (option spec by name).
function knownOptions(fn, version) {
  const all = optionsTable().methods[fn];
  const out = {};
  for (const [name, spec] of Object.entries(all)) {
    if (!atLeast(version, spec.since)) continue;
    if (spec.until && atLeast(version, spec.until)) continue;
    out[name] = spec;
  }
  return out;
}

// Throws the Shell's error for the first problem; returns a plain copy of the options.
function validateOptions(profile, fn, options, argIndex) {
  const where = CLASS_NAMES[fn];
  if (options === undefined || options === null) return {};
  if (shellTypeOf(options) !== 'Map') {
    throw shellThrowable(profile, 'TypeError', `Argument #${argIndex} is expected to be a map`, undefined, where);
  }
  const known = knownOptions(fn, profile.version);
  const given = Object.keys(options);
  for (const name of given) {
    const spec = known[name];
    if (!spec) continue;
    const problem = typeProblem(name, spec, options[name]);
    if (problem) throw shellThrowable(profile, 'TypeError', `Argument #${argIndex}: ${problem}`, undefined, where);
    const enumBad = enumProblem(name, spec, options[name]);
    if (enumBad) throw shellThrowable(profile, 'ArgumentError', `Argument #${argIndex}: ${enumBad}`, undefined, where);
  }
  const unknown = given.filter((n) => !known[n]).sort();
  if (unknown.length) {
    throw shellThrowable(profile, 'ArgumentError', `Argument #${argIndex}: Invalid options: ${unknown.join(', ')}`, undefined, where);
  }
  const copy = {};
  for (const name of given) copy[name] = known[name].type === 'enum' ? String(options[name]).toLowerCase() : options[name];
  return copy;
}

module.exports = { validateOptions, knownOptions, optionsTable, shellTypeOf };
