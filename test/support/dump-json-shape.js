'use strict';
// Compares two JSON documents by shape: the same keys in the same order for records, the same
// value types everywhere. Paths listed as maps (names → values, e.g. `basenames`) are compared by
// the type of their values only, since their keys are object names. Returns a list of differences.

function typeOf(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

// patterns: 'a.b' matches exactly, '*' matches one path step.
function matchesAny(path, patterns) {
  return patterns.some((p) => {
    const a = p.split('.');
    const b = path.split('.');
    return a.length === b.length && a.every((x, i) => x === '*' || x === b[i]);
  });
}

function shapeDiff(real, mine, { maps = [], ignore = [] } = {}, path = '') {
  const at = path || '(root)';
  if (typeOf(real) !== typeOf(mine)) return [`${at}: ${typeOf(real)} in the real dump, ${typeOf(mine)} here`];
  const child = (key) => (path ? `${path}.${key}` : key);
  if (Array.isArray(real)) {
    return real.length && mine.length ? shapeDiff(real[0], mine[0], { maps, ignore }, child('[]')) : [];
  }
  if (typeOf(real) !== 'object') return [];
  if (matchesAny(path, maps)) {
    const sample = Object.values(real)[0];
    if (sample === undefined) return [];
    return Object.entries(mine).flatMap(([k, v]) => shapeDiff(sample, v, { maps, ignore }, child(k)));
  }
  const keys = (o) => Object.keys(o).filter((k) => !matchesAny(child(k), ignore));
  const realKeys = keys(real);
  const myKeys = keys(mine);
  const diffs = [];
  const missing = realKeys.filter((k) => !myKeys.includes(k));
  const extra = myKeys.filter((k) => !realKeys.includes(k));
  if (missing.length) diffs.push(`${at}: missing keys ${missing.join(', ')}`);
  if (extra.length) diffs.push(`${at}: extra keys ${extra.join(', ')}`);
  if (!missing.length && !extra.length && realKeys.join() !== myKeys.join()) {
    diffs.push(`${at}: key order ${myKeys.join(', ')} instead of ${realKeys.join(', ')}`);
  }
  for (const k of realKeys.filter((x) => myKeys.includes(x))) diffs.push(...shapeDiff(real[k], mine[k], { maps, ignore }, child(k)));
  return diffs;
}

module.exports = { shapeDiff, typeOf };
