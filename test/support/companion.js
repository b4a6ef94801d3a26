'use strict';
// The Python companion (plugins/restore/restore_py) run in python3 without mysqlsh: the lines that
// load the package by its path, as init.py loads it, and give `calls` (each registered function
// behind the answering wrapper: [value, None] or [None, failure]).
const path = require('path');
const { spawnSync } = require('child_process');

const PY_DIR = path.resolve(__dirname, '..', '..', 'plugins', 'restore', 'restore_py');
const HAVE_PYTHON = spawnSync('python3', ['--version'], { stdio: 'ignore' }).status === 0;

// The prelude; `before` runs after the modules are loaded, before the calls are made.
function prelude(before = '') {
  return [
    'import importlib, importlib.util, json, os, sys',
    `here = ${JSON.stringify(PY_DIR)}`,
    'spec = importlib.util.spec_from_file_location("companion_under_test", os.path.join(here, "__init__.py"), submodule_search_locations=[here])',
    'pkg = importlib.util.module_from_spec(spec); sys.modules["companion_under_test"] = pkg; spec.loader.exec_module(pkg)',
    'reg = importlib.import_module("companion_under_test.registration")',
    before,
    'calls = {name: reg._answering(fn) for name, fn, _, _ in reg.FUNCTIONS}',
  ];
}

// One companion call (name, JSON-text arguments…) in python3 -> its value, parsed; a failure thrown.
function callCompanion(name, args) {
  const script = [...prelude(), `got = calls[${JSON.stringify(name)}](*json.loads(${JSON.stringify(JSON.stringify(args))}))`,
    'print(json.dumps([got[0], got[1]]))'].join('\n');
  const r = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  const [value, failure] = JSON.parse(r.stdout);
  if (failure) throw new Error(JSON.stringify(failure));
  return JSON.parse(value);
}

// host.files.binlogPlan / binlogPlanNext for a test's host: each call of callCompanion is a python3 of its own, so the
// plan's read is made at once (binlog_plan.plan) and handed over as one batch.
function planFunctions(mapPath = (p) => p) {
  const made = [];
  return {
    binlogPlan(paths, spec) {
      const script = [...prelude(), 'bp = importlib.import_module("companion_under_test.binlog_plan")',
        `print(bp.plan(${JSON.stringify(JSON.stringify(paths.map(mapPath)))}, ${JSON.stringify(JSON.stringify(spec))}))`].join('\n');
      const r = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8', maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(r.stderr);
      made.push(Object.assign(JSON.parse(r.stdout), { done: true }));
      return { id: made.length - 1 };
    },
    binlogPlanNext(id) { return made[id]; },
  };
}

module.exports = { PY_DIR, HAVE_PYTHON, prelude, callCompanion, planFunctions };
