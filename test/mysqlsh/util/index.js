'use strict';
// The stand-in's `util` global: loadDump and the dump functions, version-gated like the Shell
// (dumpTables from 8.0.22), every call recorded by --trace as one JSON line.
const fs = require('fs');
const { toPlain } = require('../values');
const { shellThrowable } = require('../shell-errors');

const { createLoadDump } = require('./load-dump');
const { createDumpers } = require('./dump-writer');

function traceLine(fn, args) {
  return JSON.stringify({ fn, args: args.map((a) => toPlain(a === undefined ? null : a)) }, (k, v) => {
    if (Object.prototype.toString.call(v) === '[object ArrayBuffer]') return { binary: Buffer.from(v).toString('hex') };
    return v;
  }) + '\n';
}

function createUtil({ profile, openSession, out, cwd, traceFile }) {
  const deps = { profile, openSession, out, cwd };
  const loadDump = createLoadDump(deps);
  const dumpers = createDumpers(deps);
  function traced(fn, impl, minArgs, maxArgs) {
    return (...args) => {
      while (args.length && args[args.length - 1] === undefined) args.pop();
      if (traceFile) fs.appendFileSync(traceFile, traceLine(fn, args));
      if (args.length < minArgs || args.length > maxArgs) {
        throw shellThrowable(profile, 'ArgumentError',
          `Invalid number of arguments, expected ${minArgs} to ${maxArgs} but got ${args.length}`, undefined,
          fn.replace('util.', 'Util.'));
      }
      return impl(...args);
    };
  }
  const util = {
    loadDump: traced('util.loadDump', loadDump, 1, 2),
    dumpInstance: traced('util.dumpInstance', dumpers.dumpInstance, 1, 2),
    dumpSchemas: traced('util.dumpSchemas', dumpers.dumpSchemas, 2, 3),
  };
  if (profile.atLeast('8.0.22')) util.dumpTables = traced('util.dumpTables', dumpers.dumpTables, 3, 4);
  Object.defineProperty(util, '__shellObject', { value: 'Util' });
  return util;
}

module.exports = { createUtil };
