'use strict';
// shell.createExtensionObject / addExtensionObjectMember / registerGlobal as mysqlsh implements
// them (plugin-runtime.md §3): definition checks and call-argument checks with the Shell's
// texts, validate-but-don't-convert, `default` for parameters only, `help` preregistered.
const { shellThrowable } = require('./shell-errors');
const { toShell, shellType } = require('./values');
const { renderObjectHelp, renderMemberHelp } = require('./extension-help');

const IDENT = /^[_a-zA-Z][_a-zA-Z0-9]*$/;
const PARAM_TYPES = ['array', 'bool', 'dictionary', 'float', 'integer', 'object', 'string'];
const BASE_KEYS = ['name', 'type', 'required', 'default', 'brief', 'details'];
const KEYS_BY_TYPE = {
  string: ['values'], array: ['itemtype'], object: ['class', 'classes'], dictionary: ['options'],
  integer: [], float: [], bool: [],
};
const ALL_EXTRA = ['class', 'classes', 'itemtype', 'options', 'values'];
const ARTICLE = { string: 'a string', integer: 'an integer', float: 'a float', bool: 'a bool',
  array: 'an array', dictionary: 'a map', object: 'an object' };
const STATE = Symbol('extensionState');

// mysqlsh's camelCase → snake_case for Python member names.
function snakeName(name) {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (c >= 'A' && c <= 'Z' && i > 0 && name[i - 1] !== '_') out += `_${c.toLowerCase()}`;
    else out += c;
  }
  return out;
}

class DefinitionError extends Error {}

function ensureStringArray(where, key, v) {
  if (v === undefined) return;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new DefinitionError(`Option '${key}' String expected, but value is ${shellType(Array.isArray(v) ? v.find((x) => typeof x !== 'string') : v)}`);
  }
}

function parseParameter(p, index, ctx, isOption) {
  const label = isOption ? `${ctx}, option #${index + 1}` : `parameter #${index + 1}`;
  if (!p || typeof p !== 'object' || Array.isArray(p)) throw new DefinitionError(`Invalid definition at ${label}`);
  if (p.name === undefined) throw new DefinitionError(`Missing required options at ${label}: name`);
  if (typeof p.name !== 'string' || !IDENT.test(p.name)) {
    throw new DefinitionError(`${label} is not a valid identifier: '${p.name}'.`);
  }
  const type = p.type;
  if (type !== undefined && !PARAM_TYPES.includes(type)) {
    throw new DefinitionError(`Unsupported type used at ${isOption ? `${ctx}, option '${p.name}'` : `parameter '${p.name}'`}. Allowed types: ${PARAM_TYPES.join(', ')}`);
  }
  const allowed = BASE_KEYS.concat(type ? KEYS_BY_TYPE[type] : []);
  const extra = Object.keys(p).filter((k) => !allowed.includes(k)).sort();
  if (extra.length) {
    const what = isOption ? `${ctx}, ${type || ''} option '${p.name}'`.replace(',  option', ', option') : `${type ? `${type} ` : ''}parameter '${p.name}'`;
    throw new DefinitionError(`Invalid options at ${what}: ${extra.join(', ')}`);
  }
  if (p.required !== undefined && typeof p.required !== 'boolean') {
    throw new DefinitionError(`Option 'required' Bool expected, but value is ${shellType(p.required)}`);
  }
  if (p.brief !== undefined && typeof p.brief !== 'string') {
    throw new DefinitionError(`Option 'brief' is expected to be of type String, but is ${shellType(p.brief)}`);
  }
  ensureStringArray(label, 'details', p.details);
  ensureStringArray(label, 'values', p.values);
  const param = {
    name: p.name, type, required: p.required === undefined ? !isOption : p.required,
    default: p.default, brief: p.brief || '', details: p.details || [], values: p.values,
    itemtype: p.itemtype, class: p.class, classes: p.classes,
  };
  if (type === 'dictionary' && p.options !== undefined) {
    if (!Array.isArray(p.options)) throw new DefinitionError(`Option 'options' is expected to be of type Array, but is ${shellType(p.options)}`);
    const optCtx = `parameter '${p.name}'`;
    const seen = new Set();
    param.options = p.options.map((o, i) => {
      const opt = parseParameter(o, i, optCtx, true);
      if (seen.has(opt.name.toLowerCase())) throw new DefinitionError(`${optCtx}, option '${opt.name}' is already defined.`);
      seen.add(opt.name.toLowerCase());
      return opt;
    });
  }
  return param;
}

function parseFunctionDefinition(def, profile) {
  if (def === undefined || def === null) return { brief: '', details: [], parameters: [], cli: false };
  const allowed = ['brief', 'details', 'parameters'].concat(profile.cli ? ['cli'] : []);
  const extra = Object.keys(def).filter((k) => !allowed.includes(k)).sort();
  if (extra.length) throw new DefinitionError(`Invalid options at function definition: ${extra.join(', ')}`);
  if (def.brief !== undefined && typeof def.brief !== 'string') {
    throw new DefinitionError(`Option 'brief' is expected to be of type String, but is ${shellType(def.brief)}`);
  }
  ensureStringArray('function definition', 'details', def.details);
  if (def.parameters !== undefined && !Array.isArray(def.parameters)) {
    throw new DefinitionError(`Option 'parameters' is expected to be of type Array, but is ${shellType(def.parameters)}`);
  }
  if (def.cli !== undefined && typeof def.cli !== 'boolean') {
    throw new DefinitionError(`Option 'cli' Bool expected, but value is ${shellType(def.cli)}`);
  }
  const seen = new Set();
  let optionalSeen = null;
  const parameters = (def.parameters || []).map((p, i) => {
    const param = parseParameter(p, i, '', false);
    if (seen.has(param.name.toLowerCase())) throw new DefinitionError(`parameter '${param.name}' is already defined.`);
    seen.add(param.name.toLowerCase());
    if (param.required && optionalSeen) {
      throw new DefinitionError(`parameter '${param.name}' can not be required after optional parameter '${optionalSeen}'`);
    }
    if (!param.required) optionalSeen = param.name;
    return param;
  });
  return { brief: def.brief || '', details: def.details || [], parameters, cli: !!def.cli };
}

// kTypeConvertible: may value v be passed where `type` is declared?
function compatible(v, type) {
  if (!type || v === undefined) return true;
  const t = shellType(v);
  const convertibleString = (s) => {
    if (type === 'integer') return /^-?\d+$/.test(s.trim());
    if (type === 'float') return s.trim() !== '' && !isNaN(Number(s));
    if (type === 'bool') return /^(true|false|1|0)$/i.test(s.trim());
    return false;
  };
  switch (type) {
    case 'string': return t === 'String' || t === 'Binary';
    case 'integer': case 'float': case 'bool':
      return ['Integer', 'Float', 'Bool'].includes(t) || (t === 'String' && convertibleString(v));
    case 'array': return t === 'Array' || t === 'Null';
    case 'dictionary': return t === 'Map' || t === 'Null';
    case 'object': return t === 'Object' || t === 'Null';
    default: return true;
  }
}

function checkOptions(param, value, argLabel, fail) {
  if (!param.options || !param.options.length || value === null || value === undefined) return;
  for (const opt of param.options) {
    if (!(opt.name in value)) continue;
    if (!compatible(value[opt.name], opt.type)) {
      fail('TypeError', `${argLabel}, option '${opt.name}' is expected to be ${ARTICLE[opt.type]}`);
    }
    if (opt.values && !opt.values.includes(value[opt.name])) {
      fail('ArgumentError', `${argLabel}, option '${opt.name}' only accepts the following values: ${opt.values.join(', ')}.`);
    }
    checkOptions(opt, value[opt.name], `${argLabel}, option '${opt.name}'`, fail);
  }
  const names = param.options.map((o) => o.name);
  const invalid = Object.keys(value).filter((k) => !names.includes(k)).sort();
  const missing = param.options.filter((o) => o.required && !(o.name in value)).map((o) => o.name).sort();
  if (invalid.length && missing.length) {
    fail('ArgumentError', `Invalid and missing options at ${argLabel} (invalid: ${invalid.join(', ')}), (missing: ${missing.join(', ')})`);
  }
  if (invalid.length) fail('ArgumentError', `Invalid options at ${argLabel}: ${invalid.join(', ')}`);
  if (missing.length) fail('ArgumentError', `Missing required options at ${argLabel}: ${missing.join(', ')}`);
}

function createRegistry({ profile, onRegisterGlobal, existingGlobals, formatMemberError }) {
  const globals = new Map();

  function stateOf(obj) {
    return obj && typeof obj === 'object' ? obj[STATE] : undefined;
  }

  function makeObject() {
    const state = { name: null, registered: false, members: new Map(), parent: null, cli: false };
    const target = {};
    const proxy = new Proxy(target, {
      get(_, prop) {
        if (prop === STATE) return state;
        if (prop === '__shellObject') return state.registered ? state.name : 'ExtensionObject';
        if (prop === 'toString' || prop === Symbol.toPrimitive) return () => `<${state.registered ? state.name : 'ExtensionObject'}>`;
        if (typeof prop === 'symbol') return undefined;
        if (prop === 'help') return (...args) => help(state, args);
        const m = state.members.get(prop);
        if (!m) {
          if (profile.engine === 'V8') throw shellThrowable(profile, 'RuntimeError', `Invalid object member ${prop}`);
          return undefined;
        }
        if (!state.registered) {
          throw shellThrowable(profile, 'RuntimeError', 'Unable to access members in an unregistered extension object.');
        }
        if (m.kind === 'function') return m.callable;
        return m.value;
      },
      has(_, prop) { return prop === 'help' || state.members.has(prop); },
      set(_, prop, value) {
        const m = state.members.get(prop);
        if (!state.registered) throw shellThrowable(profile, 'RuntimeError', 'Unable to modify members in an unregistered extension object.');
        if (!m || m.kind !== 'value') throw shellThrowable(profile, 'RuntimeError', `Unable to modify member ${String(prop)}`);
        m.value = value;
        return true;
      },
      ownKeys() { return Array.from(state.members.keys()); },
      getOwnPropertyDescriptor(_, prop) {
        if (!state.members.has(prop)) return undefined;
        return { configurable: true, enumerable: true, value: state.members.get(prop).value };
      },
    });
    return proxy;
  }

  function help(state, args) {
    const text = args.length ? renderMemberHelp(state, args[0], profile) : renderObjectHelp(state);
    return text;
  }

  function callMember(state, name, member, args) {
    const where = profile.prefix ? `${state.name}.${name}` : null;
    const fail = (type, message) => { throw shellThrowable(profile, type, message, undefined, where); };
    const params = member.def.parameters;
    const min = params.filter((p) => p.required).length;
    const max = params.length;
    if (args.length < min || args.length > max) {
      fail('ArgumentError', `Invalid number of arguments, expected ${min === max ? min : `${min} to ${max}`} but got ${args.length}`);
    }
    const full = params.map((p, i) => (i < args.length ? args[i] : p.default));
    params.forEach((p, i) => {
      const v = full[i];
      if (i >= args.length) return;
      if (!compatible(v, p.type)) fail('TypeError', `Argument #${i + 1} is expected to be ${ARTICLE[p.type]}`);
      if (p.values && v !== undefined && !p.values.includes(v)) {
        fail('ArgumentError', `Argument #${i + 1} only accepts the following values: ${p.values.join(', ')}.`);
      }
      if (p.type === 'dictionary') checkOptions(p, v, `Argument #${i + 1}`, fail);
    });
    while (full.length && full[full.length - 1] === undefined && full.length > args.length) full.pop();
    const shellArgs = full.map((v) => toShell(v, profile));
    try {
      return member.fn.apply(undefined, shellArgs);
    } catch (e) {
      throw formatMemberError(e, `${state.name}.${name}`);
    }
  }

  function addMember(obj, name, member, definition) {
    const where = profile.prefix ? 'Shell.addExtensionObjectMember' : null;
    const fail = (type, message) => { throw shellThrowable(profile, type, message, undefined, where); };
    if (!obj || typeof obj !== 'object') fail('TypeError', 'Argument #1 is expected to be an object');
    const state = stateOf(obj);
    if (!state) fail('TypeError', 'Argument #1 is expected to be an extension object');
    if (typeof name !== 'string') fail('TypeError', 'Argument #2 is expected to be a string');
    if (definition !== undefined && (definition === null || typeof definition !== 'object' || Array.isArray(definition))) {
      fail('TypeError', 'Argument #4 is expected to be a map');
    }
    if (name === 'help' || state.members.has(name)) fail('ArgumentError', `The object already has a '${name}' member.`);
    const isFunction = typeof member === 'function';
    if (!IDENT.test(name)) fail('ArgumentError', `The ${isFunction ? 'function' : 'member'} name '${name}' is not a valid identifier.`);
    try {
      if (isFunction) {
        const def = parseFunctionDefinition(definition, profile);
        const entry = { kind: 'function', fn: member, def, snake: snakeName(name) };
        entry.callable = (...args) => callMember(state, name, entry, args);
        state.members.set(name, entry);
        if (def.cli) markCli(state);
      } else if (stateOf(member)) {
        const child = stateOf(member);
        if (child === state) fail('ArgumentError', 'An extension object can not be member of itself.');
        if (child.parent) fail('ArgumentError', 'The provided extension object is already registered as part of another extension object.');
        if (child.registered) fail('ArgumentError', `The provided extension object is already registered as: ${child.name}`);
        child.parent = state;
        child.name = name;
        state.members.set(name, { kind: 'object', value: member, def: { brief: (definition && definition.brief) || '' } });
        if (child.cli) markCli(state);
        if (state.registered) registerTree(child, name);
      } else {
        const t = shellType(member);
        if (t === 'Object') fail('ArgumentError', 'Unsupported member type, object members need to be ExtensionObjects.');
        if (t === 'Date' || t === 'Binary') fail('ArgumentError', 'Unsupported member type.');
        const extra = Object.keys(definition || {}).filter((k) => !['brief', 'details'].includes(k)).sort();
        if (extra.length) fail('ArgumentError', `Invalid options at member definition: ${extra.join(', ')}`);
        state.members.set(name, { kind: 'value', value: member, def: { brief: (definition && definition.brief) || '' } });
      }
    } catch (e) {
      if (e instanceof DefinitionError) fail('ArgumentError', e.message);
      throw e;
    }
  }

  function markCli(state) {
    for (let s = state; s; s = s.parent) s.cli = true;
  }

  function registerTree(state, name) {
    state.registered = true;
    state.name = name;
    for (const [childName, m] of state.members) {
      if (m.kind === 'object') registerTree(stateOf(m.value), childName);
    }
  }

  function registerGlobal(name, obj, definition) {
    const where = profile.prefix ? 'Shell.registerGlobal' : null;
    const fail = (type, message) => { throw shellThrowable(profile, type, message, undefined, where); };
    if (typeof name !== 'string') fail('TypeError', 'Argument #1 is expected to be a string');
    if (!obj || typeof obj !== 'object') fail('TypeError', 'Argument #2 is expected to be an object');
    const state = stateOf(obj);
    if (!state) fail('TypeError', 'Argument #2 is expected to be an extension object');
    if (definition !== undefined && (definition === null || typeof definition !== 'object' || Array.isArray(definition))) {
      fail('TypeError', 'Argument #3 is expected to be a map');
    }
    if (!IDENT.test(name)) fail('ArgumentError', `The name '${name}' is not a valid identifier.`);
    if (state.parent) fail('ArgumentError', 'The provided extension object is already registered as part of another extension object.');
    if (state.registered) fail('ArgumentError', `The provided extension object is already registered as: ${state.name}`);
    if (globals.has(name) || existingGlobals().includes(name)) fail('ArgumentError', `A global named '${name}' already exists.`);
    if (['mysql', 'mysqlx'].includes(name)) fail('ArgumentError', `The name '${name}' is reserved.`);
    const extra = Object.keys(definition || {}).filter((k) => !['brief', 'details'].includes(k)).sort();
    if (extra.length) fail('ArgumentError', `Invalid options at object definition.: ${extra.join(', ')}`);
    state.brief = (definition && definition.brief) || '';
    state.details = (definition && definition.details) || [];
    registerTree(state, name);
    globals.set(name, obj);
    onRegisterGlobal(name, obj);
  }

  // Members added from the Python companion: fn receives the marshalled arguments.
  return {
    createExtensionObject: (...args) => {
      if (args.length) {
        throw shellThrowable(profile, 'ArgumentError', `Invalid number of arguments, expected 0 but got ${args.length}`,
          undefined, profile.prefix ? 'Shell.createExtensionObject' : null);
      }
      return makeObject();
    },
    addExtensionObjectMember: addMember,
    registerGlobal,
    globals,
    stateOf,
    snakeName,
  };
}

module.exports = { createRegistry, snakeName, parseFunctionDefinition, STATE };
