'use strict';
// One emulated mysqlsh process: globals, the global session, plugin loading (JS then Python,
// all before any call), running -e / -f code, and calling members from the `--` command line.
const fs = require('fs');
const os = require('os');
const path = require('path');
const vm = require('vm');
const { SyncBridge } = require('./sync-bridge');
const { ClassicSession } = require('./classic-session');
const { makeProfile } = require('./profile');
const { shellThrowable, errorText } = require('./shell-errors');
const { createRegistry } = require('./extension-objects');
const { createModuleSystem } = require('./module-system');
const { discoverPlugins } = require('./plugin-discovery');
const { startPythonPlugins } = require('./python-companion');
const { makeOs } = require('./os-module');
const { descr, toShell, shellType } = require('./values');
const { createUtil } = require('./util');

function defaultConfigHome(env) {
  return env.MYSQLSH_USER_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.mysqlsh');
}

// Where a JS error was raised in plugin code, for the engine-formatted message.
function location(e) {
  const m = /\n\s+at (?:.*?\()?([^()\n]+?:\d+:\d+)\)?/.exec((e && e.stack) || '');
  return m ? m[1] : '(unknown)';
}

function sqlHooksFor({ personality, failAt }) {
  const hooks = [];
  if (failAt) hooks.push(require('./fault-injection').makeFaultInjection(failAt));
  if (personality) {
    if (personality !== 'mysql-8.4') throw new Error(`--personality expects mysql-8.4, got '${personality}'`);
    hooks.push(require('./personality-mysql84').makeMysql84Personality({}));
  }
  return hooks;
}

function createShell(opts = {}) {
  const env = { ...process.env, ...(opts.env || {}) };
  const profile = makeProfile(opts.version || '8.4.0', opts.profileName);
  const write = {
    stdout: opts.stdout || ((t) => process.stdout.write(t)),
    stderr: opts.stderr || ((t) => process.stderr.write(t)),
  };
  let cwd = opts.cwd || process.cwd();
  const configHome = opts.configHome || defaultConfigHome(env);
  const logFile = path.join(configHome, 'mysqlsh.log');
  const bridge = new SyncBridge();
  const hooks = sqlHooksFor(opts);
  const traceFile = opts.trace ? path.resolve(cwd, opts.trace) : null;
  const statementLog = opts.statementLog || null;
  let globalSession = null;
  let pluginLoadFailed = false;

  function log(level, message) {
    try {
      fs.mkdirSync(configHome, { recursive: true });
      fs.appendFileSync(logFile, `${new Date().toISOString()}: ${level}: ${message}\n`);
    } catch (e) { /* logging must never break a run */ }
  }

  function openSession(uri) {
    return new ClassicSession({ bridge, uri, profile, sqlHooks: hooks, onStatement: statementLog });
  }

  const out = {
    print: (t) => write.stdout(`${t}\n`),
    error: (t) => write.stderr(`ERROR: ${t}\n`),
    warn: (t) => write.stderr(`WARNING: ${t}\n`),
    note: (t) => write.stderr(`NOTE: ${t}\n`),
  };

  const util = createUtil({
    profile,
    out,
    cwd: () => cwd,
    traceFile,
    openSession: () => {
      if (!globalSession) {
        throw shellThrowable(profile, 'RuntimeError', 'An open session is required to perform this operation.');
      }
      return openSession(globalSession._uri);
    },
  });

  const shellPrint = (newline) => (...args) => {
    write.stdout(args.map((a) => descr(a)).join(' ') + (newline ? '\n' : ''));
  };
  // GraalJS's own print, which plugin modules get on Graal builds: String() of each, plus newline.
  const graalPrint = (...args) => write.stdout(`${args.map((a) => String(a)).join(' ')}\n`);

  const osGlobal = makeOs({ profile, env, cwd: () => cwd });
  let sysPath = [path.join(configHome, 'modules', 'js')]
    .concat((env.MYSQLSH_JS_MODULE_PATH || '').split(';').filter(Boolean));
  const sys = {
    get path() { return toShell(sysPath, profile); },
    set path(v) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
        throw shellThrowable(profile, 'TypeError', 'The sys.path property must be an array of strings');
      }
      sysPath = v.slice();
    },
    argv: toShell(opts.argv || [], profile),
  };
  Object.defineProperty(sys, '__shellObject', { value: 'Sys' });

  let promptAnswers = (opts.promptAnswers || []).slice();
  const options = { interactive: !!opts.interactive, useWizards: true, resultFormat: 'table' };

  const shell = {
    get version() { return profile.longVersion; },
    options,
    getSession: () => globalSession,
    connect: (uri) => { setGlobalSession(openSession(typeof uri === 'string' ? uri : uri.uri)); return globalSession; },
    openSession: (uri) => {
      if (uri === undefined) {
        if (!globalSession) throw shellThrowable(profile, 'RuntimeError', 'An open session is required when duplicating sessions.');
        return openSession(globalSession._uri);
      }
      return openSession(uri);
    },
    prompt: (message, o = {}) => {
      write.stdout(String(message));
      if (promptAnswers.length) { const a = promptAnswers.shift(); write.stdout(`${a}\n`); return a; }
      const type = o.type || 'text';
      if (type === 'confirm' || type === 'select') {
        throw new Error(`stand-in: a ${type} prompt at end of input loops forever in mysqlsh (ask only when shell.options.interactive)`);
      }
      write.stdout('\n');
      return o.defaultValue !== undefined ? o.defaultValue : '';
    },
    log: (level, message) => log(level, message),
    createExtensionObject: null,
    addExtensionObjectMember: null,
    registerGlobal: null,
  };
  Object.defineProperty(shell, '__shellObject', { value: 'Shell' });
  const dba = {};
  Object.defineProperty(dba, '__shellObject', { value: 'Dba' });

  // The main realm: user code from -e/-f and the snapshot source for plugin realms.
  const mainGlobals = {
    shell, util, dba, os: osGlobal, sys,
    session: null, db: null,
    print: shellPrint(false), println: shellPrint(true),
    type: (v) => (v && v.__shellObject ? v.__shellObject : shellType(v) === 'Map' ? 'Object' : shellType(v)),
    repr: (v) => JSON.stringify(v),
    unrepr: (s) => JSON.parse(s),
    dir: (v) => Object.keys(v || {}),
  };
  const registeredGlobals = new Map();

  const registry = createRegistry({
    profile,
    existingGlobals: () => ['shell', 'util', 'dba', 'os', 'sys', 'session', 'db', ...registeredGlobals.keys()],
    onRegisterGlobal: (name, obj) => {
      registeredGlobals.set(name, obj);
      mainContext[name] = obj;
      log('debug', `The '${name}' extension object has been registered as a global object.`);
    },
    formatMemberError: (e, qualified) => {
      if (e && (e.type === 'ScriptingError' || e.traceback)) {
        return shellThrowable(profile, 'ScriptingError', e.message, e.code, null);
      }
      // A JS exception escaping a member becomes a ScriptingError with the engine's formatting.
      const msg = errorText(e);
      const text = profile.engine === 'V8' ? `Error: ${msg} at ${location(e)}` : `${msg} (Error)\n at ${location(e)}`;
      return shellThrowable(profile, 'ScriptingError', text, undefined, profile.prefix ? qualified : null);
    },
  });
  shell.createExtensionObject = registry.createExtensionObject;
  shell.addExtensionObjectMember = registry.addExtensionObjectMember;
  shell.registerGlobal = registry.registerGlobal;

  const mysqlNative = {
    getClassicSession: (uri) => openSession(typeof uri === 'string' ? uri : uri.uri),
    getSession: (uri) => openSession(typeof uri === 'string' ? uri : uri.uri),
  };
  Object.defineProperty(mysqlNative, '__shellObject', { value: 'mysql' });
  const nativeModules = { mysql: () => mysqlNative, mysqlx: () => { throw new Error('stand-in: the X protocol (mysqlx) is not emulated'); } };
  if (opts.startsInJs !== false && profile.startsInJs) mainGlobals.mysql = mysqlNative;

  const mainContext = vm.createContext({ ...mainGlobals });
  profile.realmError = vm.runInContext('Error', mainContext);
  let baseFolder = () => cwd;

  const modules = createModuleSystem({
    baseFolder: () => baseFolder(),
    sysPath: () => sysPath,
    nativeModules,
    snapshotGlobals: () => {
      const snap = {};
      for (const k of Object.keys(mainContext)) snap[k] = mainContext[k];
      snap.session = null; // plugin realms never see the global session (§2.1)
      snap.db = null;
      if (profile.engine === 'GraalJS') snap.print = graalPrint;
      return snap;
    },
  });
  mainContext.require = modules.requireModule;

  function setGlobalSession(s) {
    globalSession = s;
    mainContext.session = s;
  }

  function loadPlugins() {
    const pluginsDir = path.join(configHome, 'plugins');
    const found = discoverPlugins(pluginsDir, { order: opts.pluginOrder, warn: (m) => out.warn(m) });
    for (const p of found.js) {
      try {
        modules.loadModule(p.file);
      } catch (e) {
        pluginLoadFailed = true;
        log('error', `Error loading JavaScript file '${p.file}':\n\tExecution failed: ${errorText(e)}\n${e && e.stack ? e.stack : ''}`);
      }
    }
    if (found.py.length) {
      const py = startPythonPlugins({ bridge, plugins: found.py, pluginsDir, globalNames: [...registeredGlobals.keys()], profile, env });
      for (const err of py.errors) {
        pluginLoadFailed = true;
        log('error', `Error loading Python file '${err.file}':\n\t${err.error}`);
      }
      for (const r of py.registrations) {
        try {
          registry.addExtensionObjectMember(registeredGlobals.get(r.object), r.name, r.member, r.definition);
        } catch (e) {
          pluginLoadFailed = true;
          log('error', `Error loading Python file: ${errorText(e)}`);
        }
      }
    }
    if (pluginLoadFailed) out.warn(`Found errors loading plugins, for more details look at the log at: ${logFile}`);
  }

  // Runs JS as -e/-f does; returns the value of the last expression (throws what the code throws).
  function runJs(code, filename = '(command line)') {
    if (filename !== '(command line)') baseFolder = () => path.dirname(path.resolve(cwd, filename));
    return vm.runInContext(code, mainContext, { filename });
  }

  function callMember(objectName, member, args) {
    const obj = registeredGlobals.get(objectName);
    return obj[member](...args);
  }

  if (opts.uri) setGlobalSession(openSession(opts.uri));
  if (opts.loadPlugins !== false) loadPlugins();

  return {
    profile, out, runJs, callMember, registry, registeredGlobals, configHome,
    getSession: () => globalSession,
    print: (v) => write.stdout(`${descr(v)}\n`),
    close() {
      try { if (globalSession) globalSession.close(); } catch (e) { /* closing anyway */ }
      bridge.close();
    },
  };
}

module.exports = { createShell };
