#!/usr/bin/env node
'use strict';
// The stand-in's command line, mirroring mysqlsh's:
//   node test/mysqlsh/cli.js [uri] [--mysqlsh-version=X.Y.Z] [--profile=v8|graal] [--trace=FILE]
//        [--personality=mysql-8.4] [--fail-at=REGEX] [-i|--interactive] --js -e CODE
//   … --js -f FILE [script args]
//   … [uri] -- restore <member> [args] [--option=value]
const fs = require('fs');
const { createShell } = require('./shell-runtime');
const { mapArguments, CliError, toCamel } = require('./cli-mapper');
const { errorText, errorCode } = require('./shell-errors');
const { descr } = require('./values');

const USAGE = `Usage: node test/mysqlsh/cli.js [uri] [options] (--js -e CODE | --js -f FILE | -- <object> <member> [args])
Options: --mysqlsh-version=X.Y.Z (default 8.4.0), --profile=v8|graal, --trace=FILE,
         --personality=mysql-8.4, --fail-at=REGEX, -i/--interactive, --uri=URI`;

function parseArgv(argv) {
  const o = { code: null, file: null, cliTokens: null, scriptArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => { const eq = a.indexOf('='); if (eq >= 0) return a.slice(eq + 1); i++; return argv[i]; };
    if (a === '--') { o.cliTokens = argv.slice(i + 1); break; }
    if (a === '--js' || a === '--javascript') continue;
    if (a === '-e' || a === '--execute') { o.code = argv[++i]; continue; }
    if (a.startsWith('--execute=')) { o.code = value(); continue; }
    if (a === '-f' || a === '--file') { o.file = argv[++i]; o.scriptArgs = argv.slice(i + 1); break; }
    if (a.startsWith('--mysqlsh-version')) { o.version = value(); continue; }
    if (a.startsWith('--profile')) { o.profileName = value(); continue; }
    if (a.startsWith('--trace')) { o.trace = value(); continue; }
    if (a.startsWith('--personality')) { o.personality = value(); continue; }
    if (a.startsWith('--fail-at')) { o.failAt = value(); continue; }
    if (a.startsWith('--uri')) { o.uri = value(); continue; }
    if (a === '-i' || a === '--interactive') { o.interactive = true; continue; }
    if (a === '-h' || a === '--help') { o.help = true; continue; }
    if (!a.startsWith('-') && !o.uri) { o.uri = a; continue; }
    throw new CliError(`Unknown option ${a}\n${USAGE}`, 10);
  }
  return o;
}

// How mysqlsh shows an uncaught error: "<message> (<type>)", MySQL errors with their code.
function uncaughtText(e) {
  const payload = e && e.cause ? e.cause : e;
  const msg = errorText(e);
  if (payload && payload.type === 'MySQL Error') return `${msg} (MySQL Error ${errorCode(e)})`;
  if (payload && payload.type && payload.type !== 'ScriptingError') return `${msg} (${payload.type})`;
  return msg;
}

function runCliOperation(sh, tokens) {
  const [objectName, ...rest] = tokens;
  if (!objectName) throw new CliError('Missing object name', 10);
  const obj = sh.registeredGlobals.get(objectName);
  const state = obj && sh.registry.stateOf(obj);
  if (!state || !state.cli) throw new CliError(`There is no object registered under name '${objectName}'`, 10);
  const [op, ...args] = rest;
  if (!op || op === '--help' || op === '-h') { sh.out.print(obj.help()); return; }
  const member = toCamel(op);
  const m = state.members.get(member);
  if (!m || m.kind !== 'function' || !m.def.cli) throw new CliError(`Invalid operation for ${objectName} object: ${op}`, 10);
  if (args.includes('--help') || args.includes('-h')) { sh.out.print(obj.help(member)); return; }
  const mapped = mapArguments(m.def.parameters, args);
  const result = sh.callMember(objectName, member, mapped);
  if (result !== undefined && result !== null) sh.print(result);
}

function main(argv) {
  let o;
  try {
    o = parseArgv(argv);
  } catch (e) {
    process.stderr.write(`${e.message}\n`);
    return e.exitCode || 10;
  }
  if (o.help) { process.stdout.write(`${USAGE}\n`); return 0; }
  let sh;
  try {
    sh = createShell({ ...o, argv: o.file ? [o.file, ...o.scriptArgs] : [] });
  } catch (e) {
    process.stderr.write(`ERROR: ${uncaughtText(e)}\n`);
    return 1;
  }
  try {
    if (o.cliTokens) {
      if (!sh.profile.cli) throw new CliError(`The command line integration needs MySQL Shell 8.0.24 or later (emulating ${sh.profile.version})`, 10);
      runCliOperation(sh, o.cliTokens);
    } else if (o.code !== null) {
      const v = sh.runJs(o.code);
      if (v !== undefined && v !== null) sh.print(v);
    } else if (o.file) {
      sh.runJs(fs.readFileSync(o.file, 'utf8'), o.file);
    }
    return 0;
  } catch (e) {
    if (e instanceof CliError) {
      process.stderr.write(`ERROR: ${e.message}\n`);
      return e.exitCode;
    }
    process.stderr.write(o.cliTokens ? `ERROR: ${errorText(e).replace(/^[A-Za-z]+\.[A-Za-z]+: /, '')}\n` : `${uncaughtText(e)}\n`);
    return 1;
  } finally {
    sh.close();
  }
}

if (require.main === module) process.exitCode = main(process.argv.slice(2));

module.exports = { main, parseArgv };
