'use strict';
// The same scenarios under the real mysqlsh (V8) and under the GraalJS test host
// (test/graal-host: one GraalJS context per module file, as GraalJS builds of the Shell do);
// the answers must agree. Needs Java + Maven, ../shared (real mysqlsh, with-mysql, real dumps).
// The host runs as one JVM for the whole file (run.sh --serve): a JVM per call cost ~2 s each,
// about a fifth of the suite. Each call still gets fresh contexts and a fresh plugin load (checked below).
const { expect } = require('chai');
const { spawn, spawnSync, execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const readline = require('readline');

const ROOT = path.resolve(__dirname, '..', '..');
const SHARED = process.env.RESTORE_SHARED_DIR || path.resolve(ROOT, '..', 'shared');
const MYSQLSH = process.env.RESTORE_MYSQLSH || path.join(SHARED, 'bin', 'mysqlsh');
const WITH_MYSQL = path.join(SHARED, 'bin', 'with-mysql');
const REAL_DUMPS = path.join(SHARED, 'real-dumps');
const HOST = path.join(ROOT, 'test', 'graal-host', 'run.sh');
const MARK = '@@GRAAL-HOST-RESULT@@';
const { skipBecause } = require('../support/real');
const { startServer } = require('../support/server');

function has(cmd) { return spawnSync('sh', ['-c', 'command -v ' + cmd], { stdio: 'ignore' }).status === 0; }

function missing() {
  if (!has('java')) return 'java is not installed';
  if (!has('mvn')) return 'Maven (mvn) is not installed';
  if (!fs.existsSync(MYSQLSH) || !fs.existsSync(WITH_MYSQL)) return SHARED + ' (real mysqlsh, with-mysql) is missing';
  return null;
}

// Deep-copies Shell values to plain JSON (V8 array wrappers have no Array.prototype).
const PLAIN = 'function __plain(x) { if (x === null || typeof x !== "object") return x;' +
  ' if (typeof x.getTime === "function") return String(x);' +
  ' if (typeof x.byteLength === "number") return "<binary " + x.byteLength + ">";' +
  ' if (typeof x.length === "number") { var a = []; for (var i = 0; i < x.length; i++) a.push(__plain(x[i])); return a; }' +
  ' var o = {}; Object.keys(x).forEach(function (k) { o[k] = __plain(x[k]); }); return o; }';

function wrap(body) {
  return PLAIN + '\ntry { var __r = (function () {\n' + body + '\n})(); println("' + MARK + '");' +
    ' println(JSON.stringify({value: __r === undefined ? null : __plain(__r)})); }' +
    ' catch (e) { println("' + MARK + '"); println(JSON.stringify({error: String((e && e.cause && e.cause.message) ||' +
    ' (e && e.message) || e)})); }';
}

describe('GraalJS test host: same answers as the real mysqlsh', function () {
  this.timeout(900000);
  const why = missing();
  let tmp; let server; let uri; let homes; let host;

  before(async function () {
    if (why) skipBecause(this, why);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'graal-host-test-'));
    execFileSync(path.join(ROOT, 'test', 'graal-host', 'build.sh'), { stdio: 'inherit' });
    homes = {};
    for (const engine of ['real', 'graal']) {
      homes[engine] = path.join(tmp, 'home-' + engine);
      fs.mkdirSync(homes[engine]);
      execFileSync('sh', [path.join(ROOT, 'install.sh')], { env: Object.assign({}, process.env, { MYSQLSH_USER_CONFIG_HOME: homes[engine] }), stdio: 'ignore' });
    }
    server = await startServer();
    uri = server.uri;
    host = serveHost();
  });

  after(async function () {
    if (host) await host.stop();
    if (server) await server.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  // The GraalJS host as one JVM: a call is a line {argv, env} on its stdin, its answer a line
  // {rc, out, err, moduleFiles} on its stdout, in order.
  function serveHost() {
    const child = spawn(HOST, ['--serve'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const waiting = []; let stderr = '';
    child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
    readline.createInterface({ input: child.stdout }).on('line', (l) => waiting.shift().resolve(JSON.parse(l)));
    const exited = new Promise((r) => child.once('exit', (code) => {
      while (waiting.length) waiting.shift().reject(new Error('the GraalJS host exited (' + code + ')\n' + stderr));
      r();
    }));
    return {
      call: (argv, env) => new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        child.stdin.write(JSON.stringify({ argv, env }) + '\n');
      }),
      stop: () => { child.stdin.end(); return exited; },
    };
  }

  // → {out, answer: {value} or {error}, stderr} (graal also: moduleFiles, the file each module context ran)
  async function run(engine, body, opts) {
    const args = (opts && opts.noUri ? [] : [uri]).concat(['--js', '-e', wrap(body)]);
    let r;
    if (engine === 'real') {
      const p = spawnSync(MYSQLSH, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20,
        env: Object.assign({}, process.env, { MYSQLSH_USER_CONFIG_HOME: homes[engine] }) });
      r = { rc: p.status, out: p.stdout, err: p.stderr };
    } else {
      r = await host.call(args, { MYSQLSH_USER_CONFIG_HOME: homes[engine] });
    }
    const at = r.out.lastIndexOf(MARK + '\n');
    if (at < 0) throw new Error(engine + ': no result (exit ' + r.rc + ')\n' + r.out.slice(-2000) + r.err.slice(-2000));
    return { out: r.out.slice(0, at), answer: JSON.parse(r.out.slice(at + MARK.length + 1).split('\n')[0]), stderr: r.err,
      moduleFiles: r.moduleFiles };
  }

  async function both(body, opts) {
    const real = await run('real', body, opts); const graal = await run('graal', body, opts);
    return { real, graal };
  }

  function copyDump(src, name) {
    const dst = path.join(tmp, name);
    fs.rmSync(dst, { recursive: true, force: true });
    fs.cpSync(src, dst, { recursive: true });
    return dst;
  }

  // Facts that name the engine or the Shell version, or measure time, differ by design.
  function normal(v) {
    if (Array.isArray(v)) return v.map(normal);
    if (v && typeof v === 'object') {
      const o = {};
      Object.keys(v).forEach((k) => {
        if (/^(engine|shell|shellVersion|longVersion|seconds|elapsed|durationSeconds|startedAt|finishedAt|at|time|pid|host)$/.test(k)) return;
        o[k] = normal(v[k]);
      });
      return o;
    }
    return typeof v === 'string' ? v.replace(/graal-host-test-[^/]+\/(home-)?(real|graal)/g, 'TMP') : v;
  }

  const q = JSON.stringify;
  const NONE = '{outputFormat: "none"}';

  // A body running several expressions in one call (a call costs a Shell start), each one's answer
  // kept apart: {name: {value} or {error}}.
  function several(exprs) {
    return 'var out = {};' + Object.keys(exprs).map((k) => ' try { out[' + q(k) + '] = {value: ' + exprs[k] + '}; } catch (e) { out[' +
      q(k) + '] = {error: String((e && e.cause && e.cause.message) || (e && e.message) || e)}; }').join('') + ' return out;';
  }

  it('restore.inspect agrees on every real dump (read-only)', async function () {
    const dumps = fs.readdirSync(REAL_DUMPS).filter((d) => fs.statSync(path.join(REAL_DUMPS, d)).isDirectory());
    expect(dumps.length).to.be.above(0);
    const r = await both(several(Object.fromEntries(dumps.map((d) => [d, 'restore.inspect(' + q(path.join(REAL_DUMPS, d)) + ', ' +
      NONE + ')']))), { noUri: true });
    expect(r.real.answer.error).to.equal(undefined);
    expect(r.graal.answer.error).to.equal(undefined);
    expect(Object.keys(r.real.answer.value).sort()).to.deep.equal(dumps.slice().sort());
    for (const d of dumps) {
      expect(r.graal.answer.value[d].error, d + ' under GraalJS').to.equal(undefined);
      expect(normal(r.graal.answer.value[d]), d).to.deep.equal(normal(r.real.answer.value[d]));
    }
  });

  it('restore.plan and restore.stub with latest agree (on copies)', async function () {
    const sel = '{latest: {"shop.orders": 2, "shop.audit_log": 1}, outputFormat: "none"}';
    const plans = {}; const stubs = {}; const files = {};
    for (const engine of ['real', 'graal']) {
      const dir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), 'stub-' + engine);
      // drop the older chunks, as a partial fetch would
      ['shop@orders@0.tsv.zst', 'shop@orders@1.tsv.zst', 'shop@audit_log@0.tsv.zst'].forEach((f) => fs.rmSync(path.join(dir, f), { force: true }));
      plans[engine] = (await run(engine, 'return restore.plan(' + q(dir) + ', ' + sel + ');', { noUri: true })).answer;
      stubs[engine] = (await run(engine, 'return restore.stub(' + q(dir) + ', ' + sel + ');', { noUri: true })).answer;
      files[engine] = fs.readdirSync(dir).sort().map((f) => f + ':' + fs.statSync(path.join(dir, f)).size);
    }
    expect(plans.graal.error).to.equal(undefined);
    expect(stubs.graal.error).to.equal(undefined);
    const strip = (v) => JSON.parse(JSON.stringify(normal(v)).split('stub-graal').join('DIR').split('stub-real').join('DIR'));
    expect(strip(plans.graal)).to.deep.equal(strip(plans.real));
    expect(strip(stubs.graal)).to.deep.equal(strip(stubs.real));
    expect(files.graal).to.deep.equal(files.real);
  });

  async function counts(engine, schema) {
    const name = q(schema || 'shop');
    return (await run(engine, 'var s = shell.getSession(); var r = s.runSql("SELECT table_name AS t, table_rows AS n FROM information_schema.tables WHERE table_schema = ? ORDER BY 1", [' + name + ']);' +
      ' var names = []; var row; while ((row = r.fetchOne()) !== null) names.push(row[0]);' +
      ' var out = {}; names.forEach(function (t) { out[t] = s.runSql("SELECT COUNT(*) FROM !.!", [' + name + ', t]).fetchOne()[0]; }); return out;')).answer.value;
  }

  // Set-up between loads, through a client (not a Shell start per call: about 25 of them).
  async function dropShop(schema) { await server.query('DROP SCHEMA IF EXISTS `' + (schema || 'shop').replace(/`/g, '``') + '`'); }

  it('a full load and a partial latest load give the same rows', async function () {
    const result = {};
    for (const engine of ['real', 'graal']) {
      await dropShop();
      const dir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), 'load-' + engine);
      const full = await run(engine, 'return restore.load(' + q(dir) + ', {outputFormat: "none"});');
      expect(full.answer.error, engine + ' full load\n' + full.out + full.stderr).to.equal(undefined);
      const fullCounts = await counts(engine);
      await dropShop();
      const pdir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), 'partial-' + engine);
      // a partial fetch: only the two newest chunks of shop.orders (@10, @@11) were copied
      fs.readdirSync(pdir).filter((f) => /^shop@orders@\d+\.tsv\.zst$/.test(f) && f !== 'shop@orders@10.tsv.zst')
        .forEach((f) => fs.rmSync(path.join(pdir, f)));
      const part = await run(engine, 'return restore.load(' + q(pdir) + ', {latest: {"shop.orders": 2}, outputFormat: "none"});');
      expect(part.answer.error, engine + ' partial load\n' + part.out + part.stderr).to.equal(undefined);
      result[engine] = { full: fullCounts, partial: await counts(engine) };
      await dropShop();
    }
    expect(result.real.full.orders).to.be.above(result.real.partial.orders);
    expect(result.graal).to.deep.equal(result.real);
  });

  it('restore.plan with since agrees: the same boundaries and heads read (chunk heads decoded through the companion)', async function () {
    const result = {};
    const sel = '{since: {"shop.orders.ordered_at": "2026-01-06 12:00", "shop.customers.id": 700}, sinceExact: false, outputFormat: "none"}';
    for (const engine of ['real', 'graal']) {
      const r = await run(engine, 'return restore.plan(' + q(path.join(ROOT, 'sample-dumps', 'shop')) + ', ' + sel + ').since;',
        { noUri: true });
      expect(r.answer.error, engine + '\n' + r.out + r.stderr).to.equal(undefined);
      result[engine] = r.answer.value.map((f) => [f.table, f.boundary, f.load, f.headsRead, f.method, f.heads]);
    }
    expect(result.real.find((f) => f[0] === 'shop.orders')[3]).to.be.above(0);
    expect(result.graal).to.deep.equal(result.real);
  });

  it('a load with schemaMap and definers (a view with rewritten metadata) agrees, with latest', async function () {
    const facts = {}; const rows = {};
    for (const engine of ['real', 'graal']) {
      await dropShop('shop_renamed');
      const dir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), 'rename-' + engine);
      const r = await run(engine, 'return restore.load(' + q(dir) + ', {schemaMap: {shop: "shop_renamed"}, definers: "strip", ' +
        'latest: {"shop.orders": 2}, outputFormat: "none"});');
      expect(r.answer.error, engine + ' load\n' + r.out + r.stderr).to.equal(undefined);
      facts[engine] = normal(r.answer.value.partial.rename);
      rows[engine] = await counts(engine, 'shop_renamed');
      await dropShop('shop_renamed');
    }
    expect(facts.real.schemaMap).to.deep.equal([{ from: 'shop', to: 'shop_renamed' }]);
    expect(facts.real.rewrittenFiles).to.include('@.json').and.to.include('shop.sql');
    expect(Object.keys(rows.real)).to.have.length(6);
    expect(facts.graal).to.deep.equal(facts.real);
    expect(rows.graal).to.deep.equal(rows.real);
  });

  // For each engine: a copy of the sample dump loaded by body (JS given the copy's path as `dir`,
  // returning the facts to compare), then check (JS) run on the loaded shop. → {real, graal}.
  async function loadBoth(name, body, check) {
    const result = {};
    for (const engine of ['real', 'graal']) {
      await dropShop();
      const dir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), name + '-' + engine);
      const r = await run(engine, 'var dir = ' + q(dir) + '; ' + body);
      expect(r.answer.error, engine + ' ' + name + ' load\n' + r.out + r.stderr).to.equal(undefined);
      result[engine] = { facts: r.answer.value, counts: await counts(engine), check: (await run(engine, check)).answer.value };
      await dropShop();
    }
    return result;
  }

  it('orphans "parents" through relations agrees: the same rows added from the same chunks', async function () {
    const result = await loadBoth('parents', 'var r = restore.load(dir, {latest: {"shop.orders": 2}, orphans: "parents", ' +
      'relations: {"shop.`order items`.order_id": "shop.orders.id"}, outputFormat: "none"});' +
      // Shell arrays (the member's return value): no Array.prototype there.
      ' var ts = r.snapshot.orphans.tables, out = []; for (var i = 0; i < ts.length; i++) { var f = [];' +
      ' for (var j = 0; j < ts[i].fromChunks.length; j++) f.push(ts[i].fromChunks[j]);' +
      ' out.push([ts[i].table, ts[i].added, f.join(","), ts[i].deleted]); } return out;',
    'return shell.getSession().runSql("SELECT COUNT(*) FROM shop.`order items` i LEFT JOIN ' +
      'shop.orders o ON o.id = i.order_id WHERE o.id IS NULL").fetchOne()[0];');
    expect(result.real.check).to.equal(0);
    expect(result.real.facts.some((t) => t[0] === 'orders' && t[1] > 0)).to.equal(true);
    expect(result.graal).to.deep.equal(result.real);
  });

  it('masks applied while loading and orphans "delete" with deferred indexes agree', async function () {
    const result = await loadBoth('masks', 'var r = restore.load(dir, {latest: {"shop.orders": 2}, orphans: "delete", ' +
      'relations: {"shop.`order items`.order_id": "shop.orders.id"}, mask: {"shop.customers.email": "email", ' +
      '"shop.orders.note": "text", "shop.customers.name": "name"}, maskKey: "k", outputFormat: "none"});' +
      ' var m = r.snapshot.mask.inLoad, out = []; for (var i = 0; i < m.length; i++) out.push(m[i].table + ":" + m[i].columns.length);' +
      ' return {inLoad: out, updated: r.snapshot.mask.tables.length, deleted: r.snapshot.orphans.keys[0].deleted,' +
      ' indexes: typeof r.snapshot.orphans.indexSeconds};',
    'var s = shell.getSession(); return [s.runSql("SELECT CONCAT(COUNT(*), \':\', SUM(CRC32(email)), ' +
      '\':\', SUM(CRC32(name))) FROM shop.customers").fetchOne()[0], s.runSql("SELECT CONCAT(COUNT(*), \':\', ' +
      'COALESCE(SUM(CRC32(note)), 0)) FROM shop.orders").fetchOne()[0], s.runSql("SHOW CREATE TABLE shop.orders").fetchOne()[1]];');
    expect(result.real.facts).to.deep.equal({ inLoad: ['customers:2', 'orders:1'], updated: 0,
      deleted: result.real.facts.deleted, indexes: 'number' });
    expect(result.real.facts.deleted).to.be.above(0);
    expect(result.real.check[2]).to.include('KEY `customer_id` (`customer_id`)');
    expect(result.graal).to.deep.equal(result.real);
  });

  it('load views agree: restore.view of a full dump, a partial load through a view, a load from an rsync daemon', async function () {
    const { remoteMissing, startRsyncDaemon } = require('../support/remote-host');
    const views = {}; const rows = {};
    const daemon = remoteMissing() ? null : await startRsyncDaemon({ b: path.join(ROOT, 'sample-dumps') });
    try {
      for (const engine of ['real', 'graal']) {
        const dir = copyDump(path.join(ROOT, 'sample-dumps', 'shop'), 'view-' + engine);
        const vdir = path.join(tmp, 'v-' + engine);
        const v = await run(engine, 'return restore.view(' + q(dir) + ', {latest: {"shop.orders": 2}, viewDir: ' + q(vdir) +
          ', outputFormat: "none"});', { noUri: true });
        expect(v.answer.error, engine + ' view\n' + v.out + v.stderr).to.equal(undefined);
        views[engine] = fs.readdirSync(vdir).sort().map((f) => {
          if (f === '.restore-view.json') return f; // names the engine's own copy of the dump
          const st = fs.lstatSync(path.join(vdir, f));
          return f + ':' + (st.isSymbolicLink() ? 'link ' + path.relative(dir, fs.readlinkSync(path.join(vdir, f))) : st.size);
        });
        await dropShop();
        const part = await run(engine, 'return restore.load(' + q(dir) + ', {latest: {"shop.orders": 2}, outputFormat: "none"});');
        expect(part.answer.error, engine + ' partial load\n' + part.out + part.stderr).to.equal(undefined);
        rows[engine] = { local: await counts(engine) };
        await dropShop();
        if (daemon) {
          const remote = await run(engine, 'return restore.load(' + q(daemon.url('b')) + ', {newest: true, latest: {"shop.orders": 2}, ' +
            'outputFormat: "none"});');
          expect(remote.answer.error, engine + ' remote load\n' + remote.out + remote.stderr).to.equal(undefined);
          rows[engine].remote = await counts(engine);
          await dropShop();
        }
      }
    } finally {
      if (daemon) await daemon.stop();
    }
    expect(views.real.filter((e) => /:link /.test(e)).length).to.be.above(10);
    expect(views.graal).to.deep.equal(views.real);
    expect(rows.graal).to.deep.equal(rows.real);
    if (daemon) expect(rows.real.remote).to.deep.equal(rows.real.local);
  });

  it('restore.status, restore.revert and restore.presets agree', async function () {
    const calls = { status: 'restore.status(' + NONE + ')', revert: 'restore.revert(' + NONE + ')', presets: 'restore.presets(' + NONE + ')' };
    const r = await both(several(calls));
    expect(r.real.answer.error).to.equal(undefined);
    expect(r.graal.answer.error).to.equal(undefined);
    for (const k of Object.keys(calls)) {
      const real = r.real.answer.value[k]; const graal = r.graal.answer.value[k];
      expect(real, k).to.be.an('object');
      if (real.error === undefined) {
        expect(graal.error, k).to.equal(undefined);
        expect(normal(graal), k).to.deep.equal(normal(real));
      } else {
        // both must fail the same way; engine-made TypeError texts differ after the plugin's own words
        expect(graal.error, k).to.be.a('string');
        expect(graal.error.slice(0, 38), k).to.equal(real.error.slice(0, 38));
      }
    }
  });

  it('revert removes from the state file exactly the settings it put back (by name, not by object)', async function () {
    // Two settings left by a restore that died; the newer one cannot be put back (its recorded
    // original is not a value the server takes). The state file must keep exactly that one.
    const uuid = String(await server.value('SELECT @@server_uuid'));
    const io = Number(await server.value('SELECT @@GLOBAL.innodb_io_capacity'));
    const left = {};
    for (const engine of ['real', 'graal']) {
      await server.query('SET GLOBAL innodb_io_capacity = ' + (io + 100));
      const file = path.join(homes[engine], 'restore', 'state', uuid + '.json');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ format: 1, serverUuid: uuid, server: 'test', createdAt: 'x', updatedAt: 'x',
        redoLog: null, owner: { connectionId: 2147483000, clientHost: 'gone', serverStartedAt: 0 },
        settings: [{ name: 'innodb_io_capacity', original: io, value: io + 100, by: 'restore.load' },
          { name: 'innodb_io_capacity_max', original: 'not-a-number', value: 4000, by: 'restore.load' }] }));
      const r = await run(engine, 'return restore.revert(' + NONE + ');');
      expect(Number(await server.value('SELECT @@GLOBAL.innodb_io_capacity')), engine).to.equal(io);
      left[engine] = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).settings.map((x) => x.name) : [];
      fs.rmSync(file, { force: true });
      expect(r.out + JSON.stringify(r.answer), engine).to.match(/innodb_io_capacity_max/);
    }
    expect(left.real).to.deep.equal(['innodb_io_capacity_max']);
    expect(left.graal).to.deep.equal(left.real);
  });

  it('the one host JVM keeps nothing between calls: each loads the plugin again, one new context per module file', async function () {
    const first = await run('graal', 'globalThis.__left = 1; return typeof restore;', { noUri: true });
    const second = await run('graal', 'return [typeof __left, typeof restore];', { noUri: true });
    expect(first.answer.value).to.equal('object');
    expect(second.answer.value).to.deep.equal(['undefined', 'object']);
    for (const r of [first, second]) {
      expect(r.moduleFiles[0]).to.match(/\/plugins\/restore\/restore_js\/init\.js$/);
      expect(r.moduleFiles.length).to.be.above(20); // init.js and every lib file it requires
      expect(new Set(r.moduleFiles).size).to.equal(r.moduleFiles.length); // each file once, in a context of its own
    }
    expect(second.moduleFiles).to.deep.equal(first.moduleFiles);
  });

  it('help lists the same functions', async function () {
    const r = await both('return String(restore.help()).replace(/\\x1b\\[[0-9;]*m/g, "");', { noUri: true });
    const names = (out) => (out.match(/^ {6}(\w+)\(/mg) || []).map((s) => s.trim()).sort();
    expect(names(r.graal.answer.value).length).to.be.above(5);
    expect(names(r.graal.answer.value)).to.deep.equal(names(r.real.answer.value));
  });
});
