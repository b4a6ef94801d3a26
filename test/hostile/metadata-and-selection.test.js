'use strict';
// Classes 3, 5, 6, 8 and 9 of issue 12 in the real Shell: absurd or damaged metadata is reported
// by inspect naming the file and the entry, in bounded time; broken files are named, not crashed
// on; an unfinished dump is refused by stub and load unless allowIncomplete; meaningless or
// conflicting selections and presets are refused. Every refusal leaves the sandbox unchanged.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli, mysqlsh } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { sandbox, expectRefused, editJson } = require('./hostile-helpers');

describe('hostile 3/5/6/8/9: damaged metadata, broken files, unfinished dumps, meaningless input', function () {
  let server;
  let sb;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    sb = sandbox();
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  function inspect() {
    const before = sb.hash();
    const t0 = Date.now();
    const r = cli(null, ['inspect', sb.dump], { configHome: sb.home });
    r.seconds = (Date.now() - t0) / 1000;
    expect(r.out).to.not.match(/restore_js\/|\/lib\/|\sat \//);
    expect(sb.hash()).to.deep.equal(before);
    return r;
  }

  it('3: a bogus chunkFileBytes entry is reported naming the entry, in seconds', function () {
    editJson(path.join(sb.dump, '@.done.json'), (d) => { d.chunkFileBytes['shop@orders@9999999.tsv.zst'] = 1; });
    const r = inspect();
    expect(r.seconds).to.be.below(20);
    expect(r.out).to.match(/metadata-damaged/).and.match(/@\.done\.json lists the data file "shop@orders@9999999\.tsv\.zst"/);
    expect(r.out).to.match(/Verdict: util\.loadDump would fail/);
  });

  it('3: a stray chunk file numbered millions past the others is reported and left out, in seconds', function () {
    // Without chunkFileBytes entries for the table, its chunks come from the files present.
    editJson(path.join(sb.dump, '@.done.json'), (d) => {
      for (const k of Object.keys(d.chunkFileBytes)) if (k.startsWith('shop@orders@')) delete d.chunkFileBytes[k];
    });
    fs.copyFileSync(path.join(sb.dump, 'shop@orders@0.tsv.zst'), path.join(sb.dump, 'shop@orders@5000000.tsv.zst'));
    const r = inspect();
    expect(r.seconds).to.be.below(20);
    expect(r.out).to.match(/the data file shop@orders@5000000\.tsv\.zst is numbered \d+ past the next one found and past the last chunk @@\d+: a stray or damaged name, left out/);
    expect(r.out).to.match(/Verdict: util\.loadDump would fail/);
  });

  it('8: wrong JSON types, a name that is a number, two tables sharing a file name are reported as util.loadDump reads them', function () {
    // A name listed twice is one object for the loader (it keeps them in a map): not a problem.
    editJson(path.join(sb.dump, '@.json'), (d) => { d.schemas = ['shop', 'shop']; });
    editJson(path.join(sb.dump, 'shop.json'), (d) => {
      d.tables = d.tables.concat(['orders', 42]);
      d.views = 'v1';
      d.basenames.customers = 'shop@products';
    });
    const r = inspect();
    expect(r.out).to.not.match(/twice/);
    expect(r.out).to.match(/The table metadata file shop@42\.json is missing/)
      .and.match(/shop\.json: "views" is String, where util\.loadDump reads an array \(Array\): it stops with "Invalid typecast: Array expected, but value is String"/)
      .and.match(/share the file name shop@products/).and.match(/util\.loadDump would fail/);
  });

  it('8: a file name the metadata makes longer than a file name may be is said so, not missing nor unreadable; util.loadDump stops on it', function () {
    editJson(path.join(sb.dump, 'shop.json'), (d) => { d.basenames.orders = 'shop@' + 'o'.repeat(300); });
    const r = inspect();
    expect(r.out).to.match(/\[name-too-long\]/).and.match(/The table metadata file shop@o+… is 310 bytes long, more than the 255 bytes a file name may have: no such file can exist/);
    expect(r.out).to.not.match(/ACLs|owner|is missing/);
    expect(r.out).to.match(/Verdict: util\.loadDump would fail: 1 file name\(s\) too long to exist\./);
    const loader = mysqlsh([server.uri, '--js', '-e', `util.loadDump(${JSON.stringify(sb.dump)}, {dryRun: true, progressFile: '', showProgress: false})`],
      { configHome: sb.home });
    expect(loader.out).to.include('Dump directory is corrupted, some of the metadata files are missing');
  });

  it('8: both @7 and @@7, and a chunk past the last, are conflicts', function () {
    const d = sb.dump;
    fs.copyFileSync(path.join(d, 'shop@orders@7.tsv.zst'), path.join(d, 'shop@orders@@7.tsv.zst'));
    editJson(path.join(d, '@.done.json'), (x) => { x.chunkFileBytes['shop@orders@@7.tsv.zst'] = 1; });
    const r = inspect();
    expect(r.out).to.match(/both shop@orders@7\.tsv\.zst and shop@orders@@7\.tsv\.zst exist/);
    expect(r.out).to.match(/util\.loadDump would fail/);
  });

  it('5: a dangling symlink and a symlink loop in place of chunks are named, not crashed on', function () {
    fs.rmSync(path.join(sb.dump, 'shop@orders@3.tsv.zst'));
    fs.symlinkSync('/nonexistent/chunk', path.join(sb.dump, 'shop@orders@3.tsv.zst'));
    fs.rmSync(path.join(sb.dump, 'shop@orders@4.tsv.zst'));
    fs.symlinkSync('shop@orders@4.tsv.zst', path.join(sb.dump, 'shop@orders@4.tsv.zst'));
    const r = inspect();
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/shop@orders@3\.tsv\.zst cannot be read \(No such file or directory\)/)
      .and.match(/shop@orders@4\.tsv\.zst cannot be read \(Too many levels of symbolic links\)/)
      .and.match(/util\.loadDump would fail/);
    // Tests run as root: chmod 000 does not stop reads, so unreadable files cannot be made here.
  });

  it('6: without @.done.json, stub and load refuse unless allowIncomplete; inspect says why', function () {
    fs.rmSync(path.join(sb.dump, '@.done.json'));
    const before = sb.hash();
    expectRefused(cli(server.uri, ['stub', sb.dump, '--latest=shop.orders:1'], { configHome: sb.home }),
      [/restore\.stub refused/, /@\.done\.json/, /allowIncomplete/], sb, before);
    expectRefused(cli(server.uri, ['load', sb.dump, '--drop-existing'], { configHome: sb.home }),
      [/restore\.load refused/, /unfinished/, /allowIncomplete/], sb, before);
    expect(inspect().out).to.match(/unfinished dump/);
    // plan and view present nothing as loadable either; allowIncomplete lets them go ahead.
    expectRefused(cli(null, ['plan', sb.dump, '--latest=shop.orders:1'], { configHome: sb.home }),
      [/restore\.plan refused/, /@\.done\.json/, /allowIncomplete/], sb, before);
    expectRefused(cli(null, ['view', sb.dump, '--latest=shop.orders:1', `--view-dir=${path.join(sb.outside, 'v')}`],
      { configHome: sb.home }), [/restore\.view refused/, /unfinished/], sb, before);
    const asked = cli(null, ['plan', sb.dump, '--latest=shop.orders:1', '--allow-incomplete'], { configHome: sb.home });
    expect(asked.status, asked.out).to.equal(0);
  });

  it('issue 26, 3: a histogram bucket count outside 1..1024 in the metadata is refused before anything changes', async function () {
    editJson(path.join(sb.dump, 'shop@customers.json'), (d) => { d.histograms = [{ column: 'name', buckets: 99999 }]; });
    const before = sb.hash();
    expectRefused(cli(server.uri, ['load', sb.dump, '--analyze=histogram'], { configHome: sb.home }),
      [/The histogram of column name in shop@customers\.json has 99999 buckets; MySQL takes a whole number from 1 to 1024/,
        /Nothing was changed/], sb, before);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
  });

  it('issue 20, 1: missing metadata of a chosen table is refused by plan, stub and load; outside the selection it is a warning', async function () {
    fs.rmSync(path.join(sb.dump, 'shop@orders.json'));
    const before = sb.hash();
    const named = [/The table metadata file shop@orders\.json is missing/, /Copy the file from the original dump/, /Nothing was changed/];
    expectRefused(cli(null, ['plan', sb.dump, '--latest=shop.orders:1'], { configHome: sb.home }), named, sb, before);
    expectRefused(cli(null, ['stub', sb.dump, '--latest=shop.orders:1'], { configHome: sb.home }), named, sb, before);
    expectRefused(cli(server.uri, ['load', sb.dump, '--latest=shop.customers:1'], { configHome: sb.home }), named, sb, before);
    expectRefused(cli(server.uri, ['load', sb.dump], { configHome: sb.home }), named, sb, before);
    expect(Number(await server.value("SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'shop'"))).to.equal(0);
    // Left out of the load, the table is named in a warning, and the rest loads.
    const r = cli(server.uri, ['load', sb.dump, '--exclude-tables=shop.orders', '--preset=safe'], { configHome: sb.home });
    expect(r.status, r.out).to.equal(0);
    expect(r.out).to.match(/Outside the selection \(table `shop`\.`orders`, not loaded\): The table metadata file shop@orders\.json is missing/);
    expect(Number(await server.value('SELECT COUNT(*) FROM shop.customers'))).to.be.above(0);
  });

  it('issue 20, 1: a damaged chunkFileBytes entry of a chosen table is refused by plan and load; of another table, a warning', function () {
    editJson(path.join(sb.dump, '@.done.json'), (d) => { d.chunkFileBytes['shop@orders@9999999.tsv.zst'] = 1; });
    const before = sb.hash();
    const named = [/@\.done\.json lists the data file "shop@orders@9999999\.tsv\.zst"/, /Copy @\.done\.json again/];
    expectRefused(cli(null, ['plan', sb.dump, '--latest=shop.orders:1'], { configHome: sb.home }), named, sb, before);
    expectRefused(cli(server.uri, ['load', sb.dump, '--dry-run'], { configHome: sb.home }), named, sb, before);
    const other = cli(null, ['plan', sb.dump, '--latest=shop.customers:1', '--exclude-tables=shop.orders'], { configHome: sb.home });
    expect(other.status, other.out).to.equal(0);
    expect(other.out).to.match(/WARNING: Outside the selection \(table `shop`\.`orders`, not loaded\): @\.done\.json lists the data file "shop@orders@9999999\.tsv\.zst"/);
  });

  it('8: latest outside the filters, a table twice, bad counts, --latest=[1,2], an empty preset are refused', function () {
    const before = sb.hash();
    const plan = (...args) => cli(null, ['plan', sb.dump, ...args], { configHome: sb.home });
    expectRefused(plan('--latest=shop.orders:1', '--exclude-tables=shop.orders'), [/latest names `shop`\.`orders`/, /leave out/], sb, before);
    expectRefused(plan('--latest=shop.orders:1', '--include-tables=shop.customers'), [/latest names `shop`\.`orders`/], sb, before);
    expectRefused(plan('--include-tables=shop.orders,shop.orders'), [/includeTables names `shop`\.`orders` twice/], sb, before);
    expectRefused(plan('--latest=shop.orders:1,shop.orders:2'), [/twice/], sb, before);
    expectRefused(plan('--latest=shop.orders:-1'), [/shop\.orders/], sb, before);
    expectRefused(plan('--latest=[1,2]'), [/latest names \* twice/], sb, before); // the CLI makes it [1, 2]
    expectRefused(cli(server.uri, ['load', sb.dump, '--preset='], { configHome: sb.home }), [/preset is empty/], sb, before);
  });

  it('8: a misspelled option in a dump preset is refused, naming the file and the key', function () {
    fs.mkdirSync(sb.stateDir, { recursive: true });
    fs.writeFileSync(path.join(sb.stateDir, 'presets.json'), JSON.stringify({ nightly: { kind: 'dump', trheads: 4 } }));
    const before = sb.hash();
    const r = cli(null, ['presets'], { configHome: sb.home });
    expectRefused(r, [/presets\.json/, /'trheads'/, /did you mean 'threads'/], sb, before);
  });
});
