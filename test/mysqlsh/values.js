'use strict';
// How values cross into registered members (plugin-runtime.md §2.6, §7.3): a deep copy in which
// dictionaries become key-sorted maps and arrays become host array proxies. On V8 builds those
// proxies have no Array.prototype (a.map is undefined, Array.isArray is false) — kept here on
// purpose so plugin code that forgets Array.from() fails in tests as it would in the Shell.

const HOST_ARRAY = Symbol('hostArray');

function isArrayBuffer(v) { return Object.prototype.toString.call(v) === '[object ArrayBuffer]'; }
function isHostArray(v) { return !!(v && v[HOST_ARRAY]); }
function isDate(v) { return Object.prototype.toString.call(v) === '[object Date]'; }

function isArrayLike(v) { return Array.isArray(v) || isHostArray(v); }

function shellType(v) {
  if (v === null) return 'Null';
  if (v === undefined) return 'Undefined';
  if (typeof v === 'boolean') return 'Bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
  if (typeof v === 'bigint') return 'Integer';
  if (typeof v === 'string') return 'String';
  if (isArrayBuffer(v)) return 'Binary';
  if (isArrayLike(v)) return 'Array';
  if (typeof v === 'function') return 'Function';
  if (isDate(v)) return 'Date';
  if (v && v.__shellObject) return 'Object';
  return 'Map';
}

function makeHostArray(items) {
  const a = Object.create(HOST_ARRAY_PROTO);
  items.forEach((x, i) => { a[i] = x; });
  Object.defineProperty(a, 'length', { value: items.length, enumerable: false });
  return a;
}

const HOST_ARRAY_PROTO = Object.create(Object.prototype, {
  [HOST_ARRAY]: { value: true },
  [Symbol.iterator]: { value: function* iterate() { for (let i = 0; i < this.length; i++) yield this[i]; } },
  toJSON: { value: function toJSON() { return Array.from(this); } },
  toString: { value: function toString() { return '[object Array]'; } },
});

// profile.engine decides the array flavour: V8 proxies, or (GraalJS) arrays that behave normally.
function toShell(v, profile) {
  if (v === null || v === undefined || typeof v !== 'object') return v;
  if (isArrayBuffer(v) || isDate(v) || v.__shellObject) return v;
  if (isArrayLike(v)) {
    const items = Array.from(v, (x) => toShell(x, profile));
    return profile.engine === 'V8' ? makeHostArray(items) : items;
  }
  if (typeof v.getField === 'function') return v; // result rows pass through as they are
  const out = {};
  Object.keys(v).sort().forEach((k) => { out[k] = toShell(v[k], profile); });
  return out;
}

// Plain JS (Node-realm arrays and objects) for JSON, traces and printing.
function toPlain(v) {
  if (v === null || v === undefined || typeof v !== 'object') return v;
  if (isArrayBuffer(v) || isDate(v)) return v;
  if (isArrayLike(v)) return Array.from(v, toPlain);
  if (typeof v.getField === 'function') return Array.from({ length: v.length }, (_, i) => toPlain(v[i]));
  if (v.__shellObject) return `<${v.__shellObject}>`;
  const out = {};
  Object.keys(v).forEach((k) => { out[k] = toPlain(v[k]); });
  return out;
}

// mysqlsh's Value::descr(true): strings bare at top level, containers pretty-printed (§6.1).
function descr(v, top = true, indent = '') {
  const t = shellType(v);
  switch (t) {
    case 'Null': return 'null';
    case 'Undefined': return 'undefined';
    case 'Bool': return String(v);
    case 'Integer': case 'Float': return String(v);
    case 'String': return top ? v : JSON.stringify(v);
    case 'Binary': return Buffer.from(v).toString('hex');
    case 'Date': return v.toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
    case 'Function': return '<Function>';
    case 'Object': return `<${v.__shellObject}>`;
    case 'Array': {
      if (v && typeof v.getField === 'function') return descr(toPlain(v), top, indent);
      const items = Array.from(v);
      if (!items.length) return '[]';
      const inner = `${indent}    `;
      return `[\n${items.map((x) => inner + descr(x, false, inner)).join(', \n')}\n${indent}]`;
    }
    default: {
      if (v && typeof v.getField === 'function') return descr(toPlain(v), top, indent);
      const keys = Object.keys(v).sort();
      if (!keys.length) return '{}';
      const inner = `${indent}    `;
      return `{\n${keys.map((k) => `${inner}${JSON.stringify(k)}: ${descr(v[k], false, inner)}`).join(', \n')}\n${indent}}`;
    }
  }
}

module.exports = { toShell, toPlain, descr, shellType, isArrayBuffer, isHostArray, isArrayLike, makeHostArray };
