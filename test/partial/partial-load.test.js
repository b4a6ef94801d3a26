'use strict';
// restore.load with a partial selection, end to end through the stand-in and MariaDB: exactly the
// rows of the chosen chunks, other chosen tables whole, excluded tables absent, real files
// untouched, and a later full load with the real files loads everything.
const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const { execFileSync } = require('child_process');
const { expect } = require('chai');
const { runShell } = require('../support/standin');
const { tempDir, copyRealDump } = require('../support/paths');
const { shopDump, dataFiles } = require('../support/shop-dump');

function ids(file) {
  return execFileSync('zstd', ['-dcq', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
    .split('\n').filter(Boolean).map((l) => Number(l.split('\t')[0]));
}

function hash(file) { return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex'); }

function sql(code) {
  const r = runShell({ code });
  if (r.error) throw new Error(r.error.message);
  return r.value;
}

function load(dir, options) {
  const r = runShell({ code: `restore.load(${JSON.stringify(dir)}, ${JSON.stringify(options)})` });
  if (r.error) throw new Error(`${r.error.message}\n${r.stdout}\n${r.stderr}`);
  return r;
}

describe('partial imports: restore.load with latest', function () {
  this.timeout(300000);
  let dump;
  before(() => { dump = shopDump(); });
  afterEach(() => sql("shell.getSession().runSql('DROP DATABASE IF EXISTS shop')"));

  it('loads exactly the newest 2 chunks of orders, other tables whole, excluded tables absent', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    const orders = dataFiles(dir, 'shop@orders@');
    const kept = orders.slice(-2);
    orders.slice(0, -2).forEach((f) => fs.rmSync(path.join(dir, f)));
    const real = {};
    fs.readdirSync(dir).forEach((f) => { real[f] = hash(path.join(dir, f)); });
    const expected = kept.flatMap((f) => ids(path.join(dir, f))).sort((a, b) => a - b);

    const r = load(dir, { latest: { 'shop.orders': 2 }, excludeTables: ['shop.audit_log'], preset: 'dev', force: true });
    expect(r.stdout).to.include('Stubbed (not loaded): shop.orders 6 chunk(s).');
    const loaded = sql("var rows = shell.getSession().runSql('SELECT id FROM shop.orders ORDER BY id').fetchAll(); rows.map(function (r) { return r[0]; })");
    expect(loaded).to.deep.equal(expected);
    const counts = sql(`var s = shell.getSession(); ({customers: s.runSql('SELECT COUNT(*) FROM shop.customers').fetchOne()[0],
      events: s.runSql('SELECT COUNT(*) FROM shop.events').fetchOne()[0],
      items: s.runSql('SELECT COUNT(*) FROM shop.\`order items\`').fetchOne()[0],
      audit: s.runSql("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'shop' AND table_name = 'audit_log'").fetchOne()[0]})`);
    expect(counts).to.deep.equal({ customers: 1000, events: 3000, items: 1000, audit: 0 });
    for (const [f, h] of Object.entries(real)) expect(hash(path.join(dir, f))).to.equal(h, `${f} changed`);
    // The partial run left the default progress file alone: no later load will skip a chunk.
    expect(fs.readdirSync(dir).filter((f) => /^load-progress\.[^.]+\.json$/.test(f))).to.deep.equal([]);

    // The real files arrive (rsync writes over the stubs); a full load with default progress loads everything.
    orders.forEach((f) => fs.copyFileSync(path.join(dump.dir, f), path.join(dir, f)));
    load(dir, { dropExisting: true, force: true });
    const all = sql("shell.getSession().runSql('SELECT COUNT(*), MIN(id), MAX(id) FROM shop.orders').fetchOne()[0]");
    expect(all).to.equal(dump.orders);
  });

  it('refuses to start when a chosen chunk is missing, and names what to fetch', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    const orders = dataFiles(dir, 'shop@orders@');
    fs.rmSync(path.join(dir, orders[orders.length - 1]));
    const r = runShell({ code: `restore.load(${JSON.stringify(dir)}, {latest: {'shop.orders': 2}})` });
    expect(r.error.message).to.include(`The selection chooses 1 data file(s) that are not in the dump directory (${orders[orders.length - 1]})`);
    expect(sql("shell.getSession().runSql(\"SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'shop'\").fetchOne()[0]")).to.equal(0);
  });

  it('refuses checksum: true when chunks are stubbed', () => {
    const dir = tempDir();
    fs.cpSync(dump.dir, dir, { recursive: true });
    dataFiles(dir, 'shop@orders@').slice(0, -1).forEach((f) => fs.rmSync(path.join(dir, f)));
    const r = runShell({ code: `restore.load(${JSON.stringify(dir)}, {latest: {'shop.orders': 1}, checksum: true})` });
    expect(r.error.message).to.include('checksum: true re-checks every chunk on the target');
  });

  it('on a real dump with metadata only: creates the tables and says why no data was loaded', () => {
    const dir = copyRealDump('fortunewalla__dvdstore__mysql_ds2');
    fs.readdirSync(dir).filter((f) => /\.tsv\.zst$/.test(f)).forEach((f) => fs.rmSync(path.join(dir, f)));
    const r = load(dir, { latest: { 'ds2.*': 0 }, excludeTables: ['ds2.cust_hist', 'ds2.reorder'], force: true });
    expect(r.stdout).to.include('No data loaded, because the chunks chosen hold no data');
    const tables = sql("shell.getSession().runSql(\"SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'ds2'\").fetchOne()[0]");
    expect(tables).to.equal(6);
    sql("shell.getSession().runSql('DROP DATABASE ds2')");
  });
});
