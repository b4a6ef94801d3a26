'use strict';
// The stand-in behaves as the contract says mysqlsh does (README §1, plugin-runtime.md):
// one test per rule, each with a throwaway plugin written to a private config home.
const fs = require('fs');
const os = require('os');
const path = require('path');
const { expect } = require('chai');
const { runShell, runCli } = require('../support/standin');

function pluginHome(files) {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-fid-'));
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(home, 'plugins', rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return home;
}

const DEMO = `
var demo = shell.createExtensionObject();
shell.addExtensionObjectMember(demo, 'echo', function (s, o) { return {s: s, o: o}; }, {
  brief: 'Echoes.', cli: true,
  parameters: [{name: 's', type: 'string'},
    {name: 'o', type: 'dictionary', required: false, options: [
      {name: 'threads', type: 'integer'}, {name: 'dryRun', type: 'bool'}, {name: 'tags', type: 'array'},
      {name: 'mode', type: 'string', values: ['a', 'b']}]}]});
shell.addExtensionObjectMember(demo, 'probe', function (a) {
  return {isArray: Array.isArray(a), mapType: typeof a.map, items: Array.from(a).length,
    noProcess: typeof process, noBuffer: typeof Buffer, noTimer: typeof setTimeout, session: session,
    hasSession: shell.getSession() !== null};
}, {parameters: [{name: 'a', type: 'array'}]});
shell.addExtensionObjectMember(demo, 'late', function () { return require('./helper.js'); }, {});
shell.addExtensionObjectMember(demo, 'fail', function () { throw new Error('boom'); }, {cli: true});
shell.registerGlobal('demo', demo, {brief: 'A demo.'});
`;

function run(home, code, extra = {}) {
  return runShell({ code, configHome: home, uri: null, ...extra });
}

describe('stand-in fidelity: plugin loading (contract §1)', () => {
  it('a plugin that requires a Node module fails to load, is logged, and the others still load', () => {
    const home = pluginHome({
      'bad/init.js': "var fs = require('fs');\nshell.registerGlobal('bad', shell.createExtensionObject());",
      'demo/init.js': DEMO,
    });
    const r = run(home, 'typeof demo');
    expect(r.value).to.equal('object');
    expect(r.stderr).to.include('WARNING: Found errors loading plugins, for more details look at the log at:');
    expect(fs.readFileSync(path.join(home, 'mysqlsh.log'), 'utf8')).to.include("Could not find module 'fs'.");
    expect(run(home, 'bad').error.message).to.include('bad is not defined');
  });

  it('init.js and init.py in one folder: a warning and neither file is loaded', () => {
    const home = pluginHome({ 'two/init.js': "shell.registerGlobal('two', shell.createExtensionObject());", 'two/init.py': 'x = 1\n' });
    const r = run(home, 'two');
    expect(r.stderr).to.include("Found multiple plugin initialization files for plugin 'two'");
    expect(r.error.message).to.include('two is not defined');
  });

  it('groups are searched one level deep and dot-folders are skipped', () => {
    const home = pluginHome({
      'grp/a/init.js': "shell.registerGlobal('ga', shell.createExtensionObject());",
      'grp/a/deeper/b/init.js': "shell.registerGlobal('gb', shell.createExtensionObject());",
      '.hidden/init.js': "shell.registerGlobal('gh', shell.createExtensionObject());",
    });
    expect(run(home, '[typeof ga, typeof gb, typeof gh].join()').value).to.equal('object,undefined,undefined');
  });

  it('JS plugins load before Python ones; Python adds members to the JS global', () => {
    const home = pluginHome({
      'zz_js/init.js': "var o = shell.createExtensionObject(); shell.registerGlobal('mixed', o);",
      'aa_py/init.py': [
        'import mysqlsh',
        'def hello(d, b):',
        '    return {"keys": list(d.keys()), "bytes": b + b"!", "isList": isinstance([], list)}',
        'shell.add_extension_object_member(mysqlsh.globals.mixed, "hello", hello,',
        '  {"parameters": [{"name": "d", "type": "dictionary"}, {"name": "b"}]})',
      ].join('\n'),
    });
    const r = run(home, "var x = mixed.hello({z: 1, a: 2}, new Uint8Array([104, 105]).buffer); [Array.from(x.keys).join(), String.fromCharCode.apply(null, new Uint8Array(x.bytes))]");
    expect(r.error).to.equal(null);
    expect(r.value).to.deep.equal(['a,z', 'hi!']);
  });
});

describe('stand-in fidelity: the JS realm of a plugin (contract §1)', () => {
  const home = pluginHome({ 'demo/init.js': DEMO, 'demo/helper.js': 'module.exports = 1;' });

  it('has no Node globals, a null session, and V8 host arrays without Array.prototype', () => {
    const r = run(home, 'demo.probe([1, 2, 3])', { uri: process.env.MYSQL_TEST_URI });
    expect(r.value).to.deep.equal({ hasSession: true, isArray: false, items: 3, mapType: 'undefined',
      noBuffer: 'undefined', noProcess: 'undefined', noTimer: 'undefined', session: null });
  });

  it('on GraalJS builds arrays are real arrays', () => {
    const r = run(home, 'demo.probe([1])', { version: '9.4.0' });
    expect(r.value.mapType).to.equal('function');
  });

  it('a relative require made at call time resolves against the cwd, not the plugin folder', () => {
    const r = run(home, 'demo.late()');
    expect(r.error.message).to.include("Could not find module './helper.js'.");
  });

  it('refuses absolute requires', () => {
    expect(run(home, "require('/etc/passwd')").error.message).to.include('The absolute path is disallowed.');
  });
});

describe('stand-in fidelity: member calls are validated like mysqlsh (contract §1, §3.4)', () => {
  const home = pluginHome({ 'demo/init.js': DEMO });

  it('wrong type: prefixed up to 9.0, bare from 9.1', () => {
    expect(run(home, 'demo.echo(1)').error.message).to.equal('demo.echo: Argument #1 is expected to be a string');
    expect(run(home, 'demo.echo(1)', { version: '9.1.0' }).error.message).to.equal('Argument #1 is expected to be a string');
  });

  it('unknown dictionary option and bad value', () => {
    expect(run(home, "demo.echo('x', {zz: 1, bogus: 2})").error.message).to.equal('demo.echo: Invalid options at Argument #2: bogus, zz');
    expect(run(home, "demo.echo('x', {mode: 'c'})").error.message)
      .to.equal("demo.echo: Argument #2, option 'mode' only accepts the following values: a, b.");
  });

  it('argument count, and values are checked but not converted', () => {
    expect(run(home, 'demo.echo()').error.message).to.equal('demo.echo: Invalid number of arguments, expected 1 to 2 but got 0');
    expect(run(home, "demo.echo('x', {threads: '4'}).o.threads").value).to.equal('4');
  });

  it('errors thrown by Shell APIs have the engine shape: plain object on V8, Error with cause on GraalJS', () => {
    const code = "try { demo.echo(1) } catch (e) { [e instanceof Error, e.type || e.cause.type] }";
    expect(run(home, code).value).to.deep.equal([false, 'TypeError']);
    expect(run(home, code, { version: '9.4.0' }).value).to.deep.equal([true, 'TypeError']);
  });

  it('a bad definition is refused with the Shell text', () => {
    const h = pluginHome({ 'x/init.js': "var o = shell.createExtensionObject(); shell.addExtensionObjectMember(o, 'f', function () {}, {brief: 'b', extra: 1}); shell.registerGlobal('xx', o);" });
    run(h, '1');
    expect(fs.readFileSync(path.join(h, 'mysqlsh.log'), 'utf8')).to.include('Invalid options at function definition: extra');
  });
});

describe('stand-in fidelity: the command line (contract §1, plugin-runtime §4)', () => {
  const home = pluginHome({ 'demo/init.js': DEMO });

  it('converts options to their declared types and prints the returned value', () => {
    const r = runCli(['--', 'demo', 'echo', 'hi', '--threads=4', '--dry-run', '--tags=a,b'], { configHome: home });
    expect(r.status).to.equal(0);
    expect(JSON.parse(r.stdout)).to.deep.equal({ o: { dryRun: true, tags: ['a', 'b'], threads: 4 }, s: 'hi' });
  });

  it('exit code 10 for a command-line error, 1 for an error raised by the call', () => {
    const bad = runCli(['--', 'demo', 'echo', 'hi', '--threads=abc'], { configHome: home });
    expect(bad.status).to.equal(10);
    expect(bad.stderr).to.include("Argument error at '--threads=abc': Integer expected, but value is String");
    const unknown = runCli(['--', 'demo', 'echo', 'hi', '--nope=1'], { configHome: home });
    expect(unknown.status).to.equal(10);
    expect(unknown.stderr).to.include('The following option is invalid: --nope');
    const fail = runCli(['--', 'demo', 'fail'], { configHome: home });
    expect(fail.status).to.equal(1);
    expect(fail.stderr).to.include('boom');
  });

  it('a flag followed by a value-looking token swallows it (put positionals first)', () => {
    const r = runCli(['--', 'demo', 'echo', '--dry-run', '/path'], { configHome: home });
    expect(r.status).to.equal(10);
    expect(r.stderr).to.include("Argument error at '--dry-run /path': Bool expected, but value is String");
  });
});

describe('stand-in fidelity: sessions (contract §1, plugin-runtime §5)', () => {
  it('runSql substitutes ? and !, and keeps the != gotcha', () => {
    const ok = runShell({ code: "shell.getSession().runSql('SELECT ? AS a, ! AS b FROM (SELECT 1 AS `x y`) t', ['v', 'x y']).fetchOne().b" });
    expect(ok.value).to.equal(1);
    const gotcha = runShell({ code: "shell.getSession().runSql('SELECT 1 FROM dual WHERE 1 != ?', [2])" });
    expect(gotcha.error.message).to.match(/placeholder|Insufficient/);
  });

  it('SQL errors carry the server code', () => {
    const r = runShell({ code: "shell.getSession().runSql('SELECT nope')" });
    expect(r.error.code).to.equal(1054);
    expect(r.error.message).to.match(/^ClassicSession\.runSql: Unknown column 'nope'/);
  });

  it('a session keeps its state across statements (one connection)', () => {
    const r = runShell({ code: "var s = shell.getSession(); s.runSql('SET @x = 41'); s.runSql('SELECT @x + 1').fetchOne()[0]" });
    expect(r.value).to.equal(42);
  });

  it('a confirm prompt outside interactive mode is refused (mysqlsh would loop forever)', () => {
    const r = runShell({ code: "shell.prompt('sure? ', {type: 'confirm'})", uri: null });
    expect(r.error.message).to.include('loops forever');
  });
});
