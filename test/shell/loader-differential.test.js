'use strict';
// inspect's verdict is the loader's verdict: a corpus of damaged dumps, each made here from the
// sample dump (written by the real MySQL Shell 9.1.0) and handed both to `restore inspect` and to
// the real util.loadDump on the suite's server: a dry run first, a real load when the dry run
// passes (what only loading meets: data files). "would load" must mean the loader loads every
// row the dump's metadata promises; "would fail" that it stops or loads fewer. One mysqlsh runs
// the whole corpus. Disagreements are printed as a table; the deliberate ones carry their reason.
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');
const { expect } = require('chai');
const { needs, SAMPLE_SHOP, HAVE, REAL_DUMPS } = require('../support/real');
const { mysqlsh, tempDir, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

const ROWS = { 'shop.audit_log': 2000, 'shop.customers': 1000, 'shop.order items': 1000, 'shop.events': 3000, 'shop.products': 100,
  'shop.orders': 12000 };
const ORDERS = 'shop@orders.json';

function editJson(dir, file, fn) {
  const p = path.join(dir, file);
  const j = JSON.parse(fs.readFileSync(p, 'utf8'));
  const r = fn(j);
  fs.writeFileSync(p, JSON.stringify(r === undefined ? j : r, null, 2));
}
const set = (file, key, value) => (d) => editJson(d, file, (j) => { j[key] = value; });
const drop = (file, key) => (d) => editJson(d, file, (j) => { delete j[key]; });
const doneEntry = (name, value) => (d) => editJson(d, '@.done.json', (j) => { j.chunkFileBytes[name] = value; });
const write = (file, content) => (d) => fs.writeFileSync(path.join(d, file), content);
const remove = (file) => (d) => fs.rmSync(path.join(d, file));
const copy = (from, to) => (d) => fs.copyFileSync(path.join(d, from), path.join(d, to));
const fifo = (file) => (d) => { remove(file)(d); spawnSync('mkfifo', [path.join(d, file)]); };
const socket = (file) => (d) => {
  remove(file)(d);
  spawnSync('python3', ['-c', 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', path.join(d, file)]);
};
const device = (file) => (d) => { remove(file)(d); fs.symlinkSync('/dev/null', path.join(d, file)); };
const directory = (file) => (d) => { remove(file)(d); fs.mkdirSync(path.join(d, file)); };
const C3 = 'shop@orders@3.tsv.zst';

// [name, damage, {rows: per-table rows the metadata promises when not the dump's own}]
const CORPUS = [
  ['untouched', () => {}],
  // @.json, as Dump_reader::open reads it
  ['@.json version Integer', set('@.json', 'version', 2)],
  ['@.json version 2.1.0', set('@.json', 'version', '2.1.0')],
  ['@.json version 2.0.9', set('@.json', 'version', '2.0.9')],
  ['@.json version 1.0.0 (mixed versions)', set('@.json', 'version', '1.0.0')],
  ['@.json schemas String', set('@.json', 'schemas', 'shop')],
  ['@.json basenames Array', set('@.json', 'basenames', [])],
  ['@.json basenames.shop Integer', (d) => editJson(d, '@.json', (j) => { j.basenames.shop = 5; })],
  ['@.json tzUtc "yes"', set('@.json', 'tzUtc', 'yes')],
  ['@.json tzUtc "true"', set('@.json', 'tzUtc', 'true')],
  ['@.json bytesPerChunk "128000"', set('@.json', 'bytesPerChunk', '128000')],
  ['@.json bytesPerChunk "128k"', set('@.json', 'bytesPerChunk', '128k')],
  ['@.json bytesPerChunk -1', set('@.json', 'bytesPerChunk', -1)],
  ['@.json origin Integer', set('@.json', 'origin', 5)],
  ['@.json gtidExecutedInconsistent 0', set('@.json', 'gtidExecutedInconsistent', 0)],
  ['@.json checksum "no"', set('@.json', 'checksum', 'no')],
  ['@.json extra member', set('@.json', 'restoreTestExtra', { a: 1 })],
  ['@.json defaultCharacterSet Array', set('@.json', 'defaultCharacterSet', [])],
  ['@.json source.binlog.position "abc"', (d) => editJson(d, '@.json', (j) => { j.source.binlog.position = 'abc'; })],
  ['@.json capabilities String', set('@.json', 'capabilities', 'x')],
  ['@.json targetVersion Integer', set('@.json', 'targetVersion', 9)],
  ['@.json tableRows-like junk member users String', set('@.json', 'users', 'x')],
  ['@.json version missing', drop('@.json', 'version')],
  ['@.json schemas lacks shop', set('@.json', 'schemas', [])],
  ['@.json empty', write('@.json', '')],
  ['@.json NUL bytes', write('@.json', Buffer.alloc(64))],
  // @.done.json, as Dump_info::parse_done_metadata reads it
  ['@.done.json dataBytes "many"', set('@.done.json', 'dataBytes', 'many')],
  ['@.done.json dataBytes "1164302"', set('@.done.json', 'dataBytes', '1164302')],
  ['@.done.json tableDataBytes Array', set('@.done.json', 'tableDataBytes', [])],
  ['@.done.json tableDataBytes.shop Integer', (d) => editJson(d, '@.done.json', (j) => { j.tableDataBytes.shop = 5; })],
  ['@.done.json tableDataBytes.shop.orders -5', (d) => editJson(d, '@.done.json', (j) => { j.tableDataBytes.shop.orders = -5; })],
  ['@.done.json tableRows String', set('@.done.json', 'tableRows', 'x')],
  ['@.done.json chunkFileBytes String', set('@.done.json', 'chunkFileBytes', 'x')],
  ['@.done.json chunkFileBytes entry "77078"', doneEntry(C3, '77078')],
  ['@.done.json chunkFileBytes entry "big"', doneEntry(C3, 'big')],
  ['@.done.json chunkFileBytes entry -1', doneEntry(C3, -1)],
  ['@.done.json chunkFileBytes entry Null', doneEntry(C3, null)],
  ['@.done.json chunkFileBytes missing', drop('@.done.json', 'chunkFileBytes')],
  ['@.done.json chunkFileBytes lacks @@11', (d) => editJson(d, '@.done.json', (j) => { delete j.chunkFileBytes['shop@orders@@11.tsv.zst']; })],
  ['@.done.json dataBytes missing', drop('@.done.json', 'dataBytes')],
  ['@.done.json tableDataBytes missing', drop('@.done.json', 'tableDataBytes')],
  ['@.done.json issues String', set('@.done.json', 'issues', 'x')],
  ['@.done.json empty', write('@.done.json', '')],
  ['@.done.json invalid UTF-8', write('@.done.json', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]))],
  ['@.done.json missing', remove('@.done.json')],
  // shop.json, as Schema_info::update_metadata reads it
  ['shop.json tables String', set('shop.json', 'tables', 'orders')],
  ['shop.json tables [1]', set('shop.json', 'tables', [1])],
  ['shop.json tables twice', (d) => editJson(d, 'shop.json', (j) => { j.tables.push('orders'); })],
  ['shop.json tables missing', drop('shop.json', 'tables')],
  ['shop.json tables lacks orders', (d) => editJson(d, 'shop.json', (j) => { j.tables = j.tables.filter((t) => t !== 'orders'); })],
  ['shop.json includesDdl missing', drop('shop.json', 'includesDdl')],
  ['shop.json includesDdl "nope"', set('shop.json', 'includesDdl', 'nope')],
  ['shop.json includesData "false"', set('shop.json', 'includesData', 'false')],
  ['shop.json basenames String', set('shop.json', 'basenames', 'x')],
  ['shop.json views Map', set('shop.json', 'views', {})],
  ['shop.json functions String', set('shop.json', 'functions', 'f')],
  ['shop.json empty', write('shop.json', '')],
  ['shop.json NUL bytes', write('shop.json', Buffer.alloc(16))],
  ['shop.json a directory', directory('shop.json')],
  // shop@orders.json, as Table_info::update_metadata reads it
  ['orders options String', set(ORDERS, 'options', 'x')],
  ['orders chunking 1', set(ORDERS, 'chunking', 1)],
  ['orders chunking "yes"', set(ORDERS, 'chunking', 'yes')],
  ['orders chunking "true"', set(ORDERS, 'chunking', 'true')],
  ['orders compression lz4', set(ORDERS, 'compression', 'lz4')],
  ['orders compression ZSTD', set(ORDERS, 'compression', 'ZSTD')],
  ['orders compression "zstd;level=3"', set(ORDERS, 'compression', 'zstd;level=3')],
  ['orders compression Integer', set(ORDERS, 'compression', 5)],
  ['orders compression missing', drop(ORDERS, 'compression')],
  ['orders extension missing', drop(ORDERS, 'extension')],
  ['orders chunking missing', drop(ORDERS, 'chunking')],
  ['orders includesData missing', drop(ORDERS, 'includesData')],
  ['orders extension Integer', set(ORDERS, 'extension', 5)],
  ['orders includesData "no"', set(ORDERS, 'includesData', 'no')],
  ['orders includesData false, files there', set(ORDERS, 'includesData', false), { rows: { 'shop.orders': 0 } }],
  ['orders primaryIndex String', set(ORDERS, 'primaryIndex', 'id')],
  ['orders triggers String', set(ORDERS, 'triggers', 't')],
  ['orders histograms [5]', set(ORDERS, 'histograms', [5])],
  ['orders histograms column Integer', set(ORDERS, 'histograms', [{ column: 5, buckets: 4 }])],
  ['orders basenames Array', set(ORDERS, 'basenames', [])],
  ['orders 1.0.x layout', (d) => editJson(d, ORDERS, (j) => {
    j.options.compression = j.compression; j.options.primaryIndex = 'id';
    delete j.compression; delete j.primaryIndex; delete j.partitions; delete j.basenames;
  })],
  ['orders json empty', write(ORDERS, '')],
  ['orders json a FIFO', fifo(ORDERS)],
  ['orders DDL missing', remove('shop@orders.sql')],
  ['orders DDL a FIFO', fifo('shop@orders.sql')],
  // data files, as Table_data_info::rescan_data finds them
  ['both @11 and @@11', copy('shop@orders@@11.tsv.zst', 'shop@orders@11.tsv.zst')],
  ['chunk 3 missing', remove(C3)],
  ['last chunk @@11 missing', remove('shop@orders@@11.tsv.zst')],
  ['chunk 3 a FIFO', fifo(C3)],
  ['chunk 3 a socket', socket(C3)],
  ['chunk 3 a device', device(C3)],
  ['chunk 3 a directory', directory(C3)],
  ['chunk 3 plain text', write(C3, 'not zstd at all\n')],
  ['chunk 3 truncated', (d) => { const p = path.join(d, C3); fs.truncateSync(p, Math.floor(fs.statSync(p).size / 2)); }],
  ['chunk 3 a copy of chunk 2', copy('shop@orders@2.tsv.zst', C3)],
  ['whole-table file beside the chunks', copy('shop@orders@0.tsv.zst', 'shop@orders.tsv.zst')],
  ['chunk @12 past @@11', copy('shop@orders@3.tsv.zst', 'shop@orders@12.tsv.zst')],
  ['an unrelated file', write('notes.txt', 'hello\n')],
  ['every .idx removed', (d) => fs.readdirSync(d).filter((f) => f.endsWith('.idx')).forEach((f) => fs.rmSync(path.join(d, f)))],
  ['partition p2026_02 missing', remove('shop@events@p2026_02@@0.tsv.zst')],
  ['customers @@0 renamed @0', (d) => fs.renameSync(path.join(d, 'shop@customers@@0.tsv.zst'), path.join(d, 'shop@customers@0.tsv.zst'))],
];

// Where the plugin deliberately says more than the loader's outcome, and why.
const DELIBERATE = {
  'real: mysql__mysql-shell__dump_instance_8.0.21': 'a fact of the target server, not of the dump: util.loadDump refuses a dump ' +
    'of MySQL 8.0 into 9.x ("MySQL version mismatch") unless ignoreVersion; inspect reads no server',
};

const MARK = '@@DIFF@@';
// Dumps restore.load, restore.view and restore.stub (latest shop.orders: 2) are also given.
const MEMBERS = ['orders compression lz4', '@.json tzUtc "yes"', 'both @11 and @@11', 'orders includesData false, files there'];
const listing = (dir) => fs.readdirSync(dir).sort().map((f) => f + ':' + fs.lstatSync(path.join(dir, f)).size).join('\n');

describe('restore inspect agrees with the real util.loadDump on a corpus of damaged dumps (real Shell)', function () {
  this.timeout(300000);
  let results = null;
  let server = null;
  let names = []; // every dump of the corpus: the damaged ones, then the real dumps

  before(async function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    const root = tempDir('restore-diff-');
    const cases = CORPUS.map(([name, damage, extra], i) => {
      const dir = copyDump(SAMPLE_SHOP, 'c' + i);
      fs.renameSync(dir, path.join(root, 'c' + i));
      damage(path.join(root, 'c' + i));
      return { name, dir: path.join(root, 'c' + i), rows: { ...ROWS, ...((extra && extra.rows) || {}) }, files: listing(path.join(root, 'c' + i)) };
    });
    // The real dumps of ../shared as they are (read only, never copied): rows as their @.done.json
    // records them (8.2+), else only the loader's own outcome counts.
    if (HAVE.dumps) {
      fs.readdirSync(REAL_DUMPS).filter((d) => fs.statSync(path.join(REAL_DUMPS, d)).isDirectory()).forEach((d) => {
        const dir = path.join(REAL_DUMPS, d);
        let rows = null;
        try {
          const t = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8')).tableRows;
          if (t) { rows = {}; Object.entries(t).forEach(([sc, tables]) => Object.entries(tables).forEach(([tb, n]) => { rows[sc + '.' + tb] = n; })); }
        } catch (e) { rows = null; }
        cases.push({ name: 'real: ' + d, dir, rows, files: listing(dir) });
      });
    }
    const infile = await server.value('SELECT @@GLOBAL.local_infile');
    if (String(infile) !== '1') await server.query('SET GLOBAL local_infile = ON');
    const script = path.join(root, 'corpus.js');
    fs.writeFileSync(script, `
var cases = ${JSON.stringify(cases)};
function column(sql, args) {
  var res = session.runSql(sql, args || []); var out = []; var row;
  while ((row = res.fetchOne())) out.push(row[0]);
  return out;
}
function why(e) { return String((e && e.message) || (e && e.cause && e.cause.message) || e); }
cases.forEach(function (c) {
  println(${JSON.stringify(MARK)} + c.name + '\\tINSPECT');
  try { restore.inspect(c.dir); } catch (e) { println('ERROR: ' + why(e)); }
  println(${JSON.stringify(MARK)} + c.name + '\\tPLAN');
  try { restore.plan(c.dir); } catch (e) { println('ERROR: ' + why(e)); }
  println(${JSON.stringify(MARK)} + c.name + '\\tLOADER');
  var r = {dry: null, load: null, rows: null};
  try { util.loadDump(c.dir, {dryRun: true, progressFile: '', showProgress: false}); r.dry = 'ok'; } catch (e) { r.dry = why(e); }
  if (r.dry === 'ok') {
    // Rows of every base table the load made (schema.table), then the schemas it made are dropped.
    var before = column("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA");
    try { util.loadDump(c.dir, {progressFile: '', showProgress: false, skipBinlog: true}); r.load = 'ok'; } catch (e) { r.load = why(e); }
    r.rows = {};
    column("SELECT SCHEMA_NAME FROM information_schema.SCHEMATA").forEach(function (s) {
      if (before.indexOf(s) >= 0) return;
      column("SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND TABLE_SCHEMA = ?", [s]).forEach(function (t) {
        r.rows[s + '.' + t] = session.runSql('SELECT COUNT(*) FROM !.!', [s, t]).fetchOne()[0];
      });
      session.runSql('DROP SCHEMA !', [s]);
    });
  }
  println(${JSON.stringify(MARK)} + c.name + '\\tRESULT\\t' + JSON.stringify(r));
});
// Item 3: the commands that change something refuse before they do; item 4: a path that is not a directory.
var MEMBERS = ${JSON.stringify(MEMBERS)};
cases.forEach(function (c) {
  if (MEMBERS.indexOf(c.name) < 0) return;
  var viewDir = c.dir + '-view';
  [['load', function () { restore.load(c.dir, {latest: {'shop.orders': 2}}); }],
   ['view', function () { restore.view(c.dir, {latest: {'shop.orders': 2}, viewDir: viewDir}); }],
   ['stub', function () { restore.stub(c.dir, {latest: {'shop.orders': 2}}); }]].forEach(function (m) {
    println(${JSON.stringify(MARK)} + c.name + '\\tMEMBER-' + m[0]);
    try { m[1](); println('OK'); } catch (e) { println('ERROR: ' + why(e)); }
    var shop = session.runSql("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'").fetchOne()[0];
    println('SCHEMA shop: ' + shop + '; VIEW DIR: ' + (os.path.isdir(viewDir) ? 'made' : 'none'));
    session.runSql('DROP SCHEMA IF EXISTS shop');
  });
});
println(${JSON.stringify(MARK)} + '/dev/null\\tINSPECT');
try { restore.inspect('/dev/null'); } catch (e) { println('ERROR: ' + why(e)); }
`);
    const started = Date.now();
    const r = mysqlsh([server.uri, '--js', '-f', script], { timeout: 280000 });
    if (String(infile) !== '1') await server.query('SET GLOBAL local_infile = ' + Number(infile));
    console.log(`      (corpus of ${cases.length} dumps through inspect and util.loadDump in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
    expect(r.signal, r.out.slice(-3000)).to.equal(null);
    results = {};
    r.stdout.split(MARK).slice(1).forEach((s) => {
      const nl = s.indexOf('\n');
      const head = (nl < 0 ? s : s.slice(0, nl)).split('\t');
      const body = nl < 0 ? '' : s.slice(nl + 1);
      const c = results[head[0]] || (results[head[0]] = { name: head[0] });
      if (head[1] === 'INSPECT') c.inspect = body;
      if (head[1] === 'PLAN') c.plan = body;
      if (/^MEMBER-/.test(head[1])) (c.members || (c.members = {}))[head[1].slice(7)] = body;
      if (head[1] === 'LOADER') c.loaderOut = body;
      if (head[1] === 'RESULT') c.loader = JSON.parse(head[2]);
    });
    names = cases.map((c) => c.name);
    cases.forEach((c) => { if (results[c.name]) { results[c.name].rows = c.rows; results[c.name].files = c.files; results[c.name].dir = c.dir; } });
  });

  after(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  function verdicts(c) {
    const inspect = /util\.loadDump would load this dump/.test(c.inspect) ? 'load'
      : /util\.loadDump would fail/.test(c.inspect) || /^ERROR: /m.test(c.inspect) ? 'fail' : '?';
    const l = c.loader;
    let loader;
    let detail;
    if (!l) { loader = '?'; detail = 'no result'; } else if (l.dry !== 'ok') { loader = 'fail'; detail = 'dryRun: ' + l.dry; } else if (l.load !== 'ok') {
      loader = 'fail'; detail = 'load: ' + l.load;
    } else {
      const short = Object.keys(c.rows || {}).filter((t) => Number((l.rows || {})[t] || 0) !== c.rows[t]);
      loader = short.length ? 'fail' : 'load';
      detail = short.length ? 'loaded, rows differ: ' + short.map((t) => `${t} ${(l.rows || {})[t] || 0}/${c.rows[t]}`).join(', ')
        : c.rows ? 'loaded every row' : 'loaded (the dump records no row counts)';
    }
    return { inspect, loader, detail };
  }

  it(`has ${CORPUS.length} damaged dumps (60 or more) and the real dumps, each through inspect and the loader`, function () {
    expect(CORPUS.length).to.be.at.least(60);
    expect(Object.keys(results).filter((n) => n !== '/dev/null')).to.deep.equal(names);
    names.forEach((name) => expect(results[name].loader, name).to.be.an('object'));
  });

  it('inspect says "would load" exactly where util.loadDump loads every row (table of disagreements)', function () {
    const rows = [];
    const unexpected = [];
    names.forEach((name) => {
      const c = results[name];
      const v = verdicts(c);
      if (v.inspect === v.loader) return;
      const reason = DELIBERATE[name];
      rows.push([name, v.inspect, v.loader, v.detail, reason || 'UNEXPECTED']);
      if (!reason) unexpected.push(name);
    });
    const widths = [0, 1, 2, 3].map((i) => Math.min(60, Math.max(...rows.map((r) => String(r[i]).length), 8)));
    const line = (r) => r.map((x, i) => (i < 4 ? String(x).slice(0, 60).padEnd(widths[i]) : x)).join(' | ');
    console.log('      Disagreements: ' + rows.length + ' of ' + names.length + '\n' + (rows.length ? ['      ' + line(['dump', 'inspect', 'loader', 'loader said', 'why']),
      ...rows.map((r) => '      ' + line(r))].join('\n') : ''));
    if (process.env.DIFF_VERBOSE) {
      names.forEach((name) => { const v = verdicts(results[name]); console.log('      ' + [name, v.inspect, v.loader, v.detail].join(' | ')); });
    }
    expect(unexpected, unexpected.map((n) => `${n}:\n${results[n].inspect}\n${JSON.stringify(results[n].loader)}`).join('\n\n')).to.deep.equal([]);
  });

  it('no raw Python or JavaScript message reaches a person (NoneType, Traceback, undefined, null, [object)', function () {
    const bad = [];
    names.forEach((name) => {
      const outputs = { inspect: results[name].inspect, plan: results[name].plan, ...(results[name].members || {}) };
      Object.entries(outputs).forEach(([what, text]) => {
        const m = /NoneType|Traceback|undefined|\bnull\b|\[object/.exec(text);
        if (m) bad.push(`${name} (${what}): ${m[0]} in\n${text}`);
      });
    });
    expect(bad, bad.join('\n\n')).to.deep.equal([]);
  });

  it('restore plan refuses, before anything changes and in inspect\'s words, every dump inspect says would fail', function () {
    const wrong = [];
    names.forEach((name) => {
      const c = results[name];
      const fails = verdicts(c).inspect === 'fail';
      // A chosen chunk missing from a local directory is what the plan lists to fetch (restore.load
      // and restore.view then refuse until it is there: test/shell/partial.test.js).
      const onlyMissing = /^\[chunk-missing\]/m.test(c.inspect) && (c.inspect.match(/^\[[a-z-]+\]/mg) || []).length === 1;
      const refused = /^ERROR: /m.test(c.plan) || (onlyMissing && /^Files to fetch: [1-9]/m.test(c.plan));
      if (refused !== fails) { wrong.push(`${name}: inspect ${fails ? 'fail' : 'load'}, plan ${refused ? 'refused' : 'planned'}:\n${c.plan}`); return; }
      if (!fails) return;
      // The plan gives one of inspect's facts whole, or names the same file (or inspect's own error).
      const facts = c.inspect.split('\n').filter((l) => /^  - |^ERROR: /.test(l)).map((l) => l.replace(/^  - |^ERROR: /, '').trim());
      const flat = c.plan.replace(/\s+/g, ' ');
      const files = facts.join(' ').match(/[\w%@.]+\.(?:json|sql|zst)\b/g) || [];
      if (!facts.some((f) => flat.indexOf(f.replace(/\s+/g, ' ')) >= 0) && !files.some((f) => flat.indexOf(f) >= 0) &&
          !(/unfinished/.test(c.inspect) && /unfinished/.test(c.plan))) {
        wrong.push(`${name}: plan not in inspect's words:\n${c.plan}\n--- inspect:\n${c.inspect}`);
      }
    });
    expect(wrong, wrong.join('\n\n')).to.deep.equal([]);
  });

  it('data files util.loadDump would skip (includesData: false) are named in the inspect verdict and the plan', function () {
    const c = results['orders includesData false, files there'];
    expect(c.inspect).to.match(/Verdict: util\.loadDump would load this dump \(1 table\(s\) whose metadata says "includesData": false are created without their data files' rows\)/);
    expect(c.plan).to.match(/WARNING: shop\.orders: shop@orders\.json says "includesData": false, but its data files are there \(shop@orders@0\.tsv\.zst\); its rows are not loaded\./);
  });

  it('restore.load, restore.view and restore.stub refuse, in inspect\'s words, before anything changes', function () {
    const failing = MEMBERS.filter((n) => verdicts(results[n]).inspect === 'fail');
    expect(failing.length).to.equal(3);
    failing.forEach((name) => {
      const c = results[name];
      const fact = c.inspect.split('\n').find((l) => /^  - /.test(l)).replace(/^  - /, '').trim();
      ['load', 'view', 'stub'].forEach((m) => {
        const out = c.members[m];
        expect(out, `${name}: ${m}`).to.match(/^ERROR: /m);
        expect(out.replace(/\s+/g, ' '), `${name}: ${m} in inspect's words`).to.include(fact.replace(/\s+/g, ' '));
        expect(out, `${name}: ${m} changed nothing`).to.include('SCHEMA shop: 0; VIEW DIR: none');
      });
      expect(listing(c.dir), `${name}: nothing written into the dump`).to.equal(c.files);
    });
  });

  it('data files util.loadDump would skip (includesData: false) are named when restore.load loads', function () {
    const out = results['orders includesData false, files there'].members.load;
    expect(out).to.match(/^OK$/m);
    expect(out).to.match(/shop\.orders: shop@orders\.json says "includesData": false, but its data files are there \(shop@orders@0\.tsv\.zst\); its rows are not loaded\./);
  });

  it('nothing is written into a real dump', function () {
    names.filter((n) => /^real: /.test(n)).forEach((n) => expect(listing(results[n].dir), n).to.equal(results[n].files));
  });

  it('a path that exists but is not a directory says what it is (/dev/null)', function () {
    expect(results['/dev/null'].inspect).to.match(/^ERROR: \/dev\/null is a device, not a directory: give the dump directory \(the one holding @\.json\)\.$/m);
  });

  it('a "would fail" says why and names the file concerned', function () {
    names.forEach((name) => {
      const c = results[name];
      if (verdicts(c).inspect !== 'fail') return;
      if (!/^ERROR: /m.test(c.inspect)) expect(c.inspect, name).to.match(/util\.loadDump would fail[^:]*: \w/);
      expect(c.inspect, name).to.match(/@\.json|@\.done\.json|shop[@.][^ ]*|\.tsv\.zst|directory/);
    });
  });
});
