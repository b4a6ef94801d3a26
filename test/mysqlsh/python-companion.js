'use strict';
// Runs the plugin's Python sub-plugins for real, in one python3 process (python/companion_host.py),
// and turns the members they add into callable functions. Arguments cross as mysqlsh marshals
// them: ArrayBuffer → bytes, maps → key-sorted dicts; results come back with bytes → ArrayBuffer.
const path = require('path');
const { isArrayBuffer, isArrayLike, toShell } = require('./values');

function encode(v) {
  if (v === undefined) return null;
  if (v === null || typeof v !== 'object') return v;
  if (isArrayBuffer(v)) return { __bytes__: Buffer.from(v).toString('base64') };
  if (ArrayBuffer.isView(v)) throw new Error('Uint8Array is not a Shell binary value: pass an ArrayBuffer');
  if (isArrayLike(v)) return Array.from(v, encode);
  const out = {};
  Object.keys(v).sort().forEach((k) => { out[k] = encode(v[k]); });
  return out;
}

function decode(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(decode);
  if (Object.keys(v).length === 1 && '__bytes__' in v) {
    const b = Buffer.from(v.__bytes__, 'base64');
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  }
  const out = {};
  Object.keys(v).forEach((k) => { out[k] = decode(v[k]); });
  return out;
}

// plugins: [{file, main}] from discovery; pluginsDir: the root they were found in.
function startPythonPlugins({ bridge, plugins, pluginsDir, globalNames, profile, env }) {
  const config = {
    globals: globalNames,
    plugins: plugins.map((p) => ({ file: p.file, root: pluginsDir })), // sys.path[0] is the plugins root for groups too
  };
  const started = bridge.call('py.start', {
    argv: [path.join(__dirname, 'python', 'companion_host.py'), JSON.stringify(config)],
    env: env || {},
  });
  const registrations = started.registrations.map((r) => ({
    ...r,
    definition: r.definition ? decode(r.definition) : undefined,
    member: r.id !== undefined
      ? (...args) => toShell(decode(bridge.call('py.call', { id: r.id, args: args.map(encode) })), profile)
      : decode(r.value),
  }));
  return { registrations, errors: started.errors };
}

module.exports = { startPythonPlugins, encode, decode };
