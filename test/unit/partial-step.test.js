'use strict';
// The partial-import step of restore.load (lib/run/partial-step.js) on the sample dump in memory:
// what util.loadDump is pointed at and with which options, the plan's lines, the load view it
// makes (never a byte into the dump), refusals before anything changes, and the report's lines.
const { expect } = require('chai');
const { sampleHost } = require('../support/sample-dump.js');
const step = require('../../lib/run/partial-step.js');
const optionsValue = require('../../lib/run/load-options-value.js');

const VIEWS = '/home/u/.mysqlsh/restore/views/';
// The plugin's session can hand the mask key to the loader's sessions (load-masks.js keyThread).
const KEY_THREAD = [
  [/FROM performance_schema\.threads WHERE PROCESSLIST_ID = CONNECTION_ID\(\)$/, { rows: [{ t: 9 }] }],
  [/FROM performance_schema\.user_variables_by_thread WHERE THREAD_ID = \? AND VARIABLE_NAME = 'restore_mask_probe'$/, { rows: [{ v: 'ok' }] }],
  [/^SELECT HEX\(RANDOM_BYTES\(32\)\) AS k$/, { rows: [{ k: 'K' }] }],
];

// The step's ctx as restore.load's preflight makes it (lib/run/load-preflight.js).
function ctxOf(host, options) {
  const r = optionsValue.resolveLoadOptions(host, options, step.optionNames);
  return Object.freeze({ host, dumpDir: '/d', source: null, serverUuid: host.sql.serverInfo().uuid, options: r.all, own: r.own,
    loadOptions: r.loadDump, shellVersion: host.shell.version, dryRun: !!r.own.dryRun });
}
function dumpBytes(host) {
  return host.fs.paths().filter((p) => p.startsWith('/d/')).map((p) => p + ' ' + host.fs.bytes(p).toString('base64'));
}
function refusal(fn) {
  try { fn(); } catch (e) { return e; }
  throw new Error('expected a refusal');
}
const LATEST2 = { latest: { 'shop.orders': 2 } };

describe('the partial-import step of restore.load (lib/run/partial-step.js)', function () {
  it('a full load reads the dump as it is: no view, no option added, nothing to say; viewDir is refused there', function () {
    const h = sampleHost();
    const p = step.plan(ctxOf(h, {}));
    expect([p.local, p.viewed, p.loadDir, p.loadOptions, p.lines]).to.deep.equal([true, false, '/d', {}, []]);
    expect(step.prepare(ctxOf(h, {}), p)).to.equal(null);
    expect(refusal(() => step.plan(ctxOf(sampleHost(), { viewDir: '/tmp/v' }))).message).to.match(
      /^viewDir is for a partial import \(latest\), masks, or a load with schemaMap or definers: a full load reads the dump directory as it is\./);
  });

  it('latest: util.loadDump loads a view with its progress file inside, by LOAD DATA; the plan says what is stubbed', function () {
    const h = sampleHost();
    const p = step.plan(ctxOf(h, LATEST2));
    expect(p.loadDir.startsWith(VIEWS + 'd-')).to.equal(true);
    expect(p.loadOptions).to.deep.equal({ progressFile: p.loadDir + '/load-progress.json', disableBulkLoad: true });
    expect(p.lines).to.include.members(['Chunks stubbed: 10', 'shop.orders  2            2      0     10']);
    expect(p.lines.slice(-1)[0]).to.equal('Load view: ' + p.loadDir + " (to be made: links to the dump's 39 metadata and " +
      'chosen data files, 10 empty stub(s); nothing is written into the dump)');
    expect(h.fs.paths().filter((x) => !x.startsWith('/d/')), 'the plan writes nothing').to.deep.equal([]);
    // Before BULK LOAD (Shell 8.4), or when the user chose: no disableBulkLoad added.
    expect(step.plan(ctxOf(sampleHost({ shell: { version: '8.0.35' } }), LATEST2)).loadOptions).to.not.have.property('disableBulkLoad');
    expect(step.plan(ctxOf(sampleHost(), Object.assign({ disableBulkLoad: false }, LATEST2))).loadOptions)
      .to.not.have.property('disableBulkLoad');
  });

  it('prepare makes the view: the chosen chunks linked, the others stubbed, its own @.done.json; the dump untouched', function () {
    const h = sampleHost();
    const before = dumpBytes(h);
    const c = ctxOf(h, LATEST2);
    const p = step.plan(c);
    const r = step.prepare(c, p);
    expect([r.facts.view.links, r.facts.view.stubs, r.facts.view.reused]).to.deep.equal([39, 10, false]);
    const inView = (name) => h.fs.bytes(p.loadDir + '/' + name);
    expect(inView('shop@orders@@11.tsv.zst').equals(h.fs.bytes('/d/shop@orders@@11.tsv.zst'))).to.equal(true);
    expect(inView('shop@orders@3.tsv.zst').length).to.be.below(16); // an empty frame
    expect(JSON.parse(h.fs.text(p.loadDir + '/@.done.json')).dataBytes).to.be.below(JSON.parse(h.fs.text('/d/@.done.json')).dataBytes);
    expect(dumpBytes(h)).to.deep.equal(before);
    expect(h.printed.join('\n')).to.contain(p.loadDir);
  });

  it('a view left by an unfinished load is resumed, or started afresh with dropExisting', function () {
    const h = sampleHost();
    const c = ctxOf(h, LATEST2);
    const first = step.plan(c);
    step.prepare(c, first);
    // Stopped before util.loadDump (a server step failed): nothing to resume, and the plan says so.
    expect(step.plan(ctxOf(h, LATEST2)).lines.slice(-1)[0]).to.match(/^Load view: \S+ \(made by an earlier load of the same dump and selection that did not finish: util\.loadDump did not start from it, no progress file to resume from\)$/);
    h.fs.put(first.loadOptions.progressFile, '{"op":"SERVER-UUID"}\n');
    const again = step.plan(ctxOf(h, LATEST2));
    expect(again.lines.slice(-1)[0]).to.match(/^Load view: \S+ \(made by an earlier load of the same dump and selection that did not finish: util\.loadDump resumes from its progress file\)$/);
    expect(again.loadOptions).to.not.have.property('resetProgress');
    const fresh = step.plan(ctxOf(h, Object.assign({ dropExisting: true }, LATEST2)));
    expect(fresh.loadOptions.resetProgress).to.equal(true);
    expect(fresh.lines.slice(-1)[0]).to.match(/; dropExisting starts it afresh\)$/);
  });

  it('refuses, before anything is written, a chosen chunk that is not there, and warns about a progressFile of its own', function () {
    const h = sampleHost();
    h.files.remove(['/d/shop@orders@@11.tsv.zst']);
    const e = refusal(() => step.plan(ctxOf(h, LATEST2)));
    expect(e.message).to.match(/^The selection chooses 1 data file\(s\) that are not in the dump directory \(shop@orders@@11\.tsv\.zst\)\. Fetch them first: /);
    expect(h.calls('files.write')).to.deep.equal([]);
    const p = step.plan(ctxOf(sampleHost(), Object.assign({ progressFile: '/tmp/p.json' }, LATEST2)));
    expect(p.loadOptions).to.not.have.property('progressFile');
    expect(p.lines).to.include('WARNING: progressFile /tmp/p.json will record the stubbed chunks as loaded: do not reuse it for a later full load.');
  });

  it('masks: the view\'s table JSON masks while loading; without a way to hand over the key, every mask waits', function () {
    const h = sampleHost({ sql: KEY_THREAD });
    const c = ctxOf(h, { mask: { 'shop.customers.name': 'name' } });
    const p = step.plan(c);
    expect([p.viewed, p.loadMasks.masks.map((m) => m.column), p.loadMasks.after]).to.deep.equal([true, ['name'], []]);
    step.prepare(c, p);
    const json = JSON.parse(h.fs.text(p.loadDir + '/shop@customers.json'));
    expect(json.options.decodeColumns.name).to.match(/^LEFT\(CONCAT\(ELT\(/);
    expect(JSON.parse(h.fs.text('/d/shop@customers.json')).options.decodeColumns).to.equal(undefined);
    // The random key is gone once that load stopped: its rows cannot be resumed with another.
    expect(refusal(() => step.plan(ctxOf(h, { mask: { 'shop.customers.name': 'name' } }))).message).to.match(
      /that did not finish\. The rows it loaded were masked with a random key that is gone, so the load cannot resume: load again with dropExisting: true/);
    const blind = step.plan(ctxOf(sampleHost(), { mask: { 'shop.customers.name': 'name' } }));
    expect([blind.viewed, blind.loadDir, blind.loadMasks.after.map((a) => a.why)]).to.deep.equal([false, '/d',
      ["the key cannot reach the loader's sessions unlogged (performance_schema.user_variables_by_thread is not readable)"]]);
  });

  it('the report: what was stubbed, why no row was loaded, the view removed once loaded or kept to resume', function () {
    const h = sampleHost();
    const c = ctxOf(h, LATEST2);
    const p = step.plan(c);
    step.prepare(c, p);
    // A server step failed before util.loadDump: no progress file, nothing to resume.
    expect(step.report(c, p, { error: new Error('x'), tables: [], loaded: false }).lines).to.deep.equal([
      'Stubbed (not loaded): shop.orders 10 chunk(s).', 'Load view kept: ' + p.loadDir + ' (util.loadDump did not start from it: ' +
      'no progress file): run the same restore.load again; it is removed once a load from it finishes.']);
    h.fs.put(p.loadOptions.progressFile, '{"op":"SERVER-UUID"}\n');
    expect(step.report(c, p, { error: new Error('x'), tables: [], loaded: false }).lines).to.deep.equal([
      'Stubbed (not loaded): shop.orders 10 chunk(s).', 'Load view kept: ' + p.loadDir + " (util.loadDump's progress file is " +
      'there): run the same restore.load again to resume; it is removed once a load from it finishes.']);
    expect(step.report(c, p, { error: null, tables: [{ rows: 5 }], loaded: true }).lines.slice(-1)).to.deep.equal([
      'Load view removed: ' + p.loadDir + '.']);
    expect(h.fs.paths().filter((x) => x.startsWith(p.loadDir))).to.deep.equal([]);
    const none = sampleHost();
    const c0 = ctxOf(none, { includeTables: ['shop.orders'], latest: { 'shop.orders': 0 } });
    const p0 = step.plan(c0);
    expect(step.report(c0, p0, { error: null, tables: [{ rows: 0 }], loaded: true }).lines).to.include('No data loaded, because the ' +
      'chunks chosen hold no data (latest: 0, or only empty chunks were chosen). restore.plan(dir, {…}) shows what a selection chooses.');
    // No row left because the steps after the load deleted them: said so, never "no data loaded".
    const gone = step.report(c0, p0, { error: null, tables: [{ rows: 0 }], loaded: true, snapshot: { since: [{ deleted: 40 }],
      orphans: { mode: 'delete', tables: [{ deleted: 2 }] } } }).lines;
    expect(gone).to.include('No rows left: the steps after util.loadDump deleted every row it loaded (since\'s trim 40 row(s), ' +
      'orphans 2 row(s)).');
    expect(gone.join('\n')).to.not.include('No data loaded');
  });
});
