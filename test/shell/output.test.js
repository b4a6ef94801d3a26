'use strict';
// What a person and a script get from restore.* in the real mysqlsh: the readable report only
// (nothing printed after it), one parseable JSON document with --output-format=json, and the
// facts as a value with outputFormat "none".
const { expect } = require('chai');
const { needs, SAMPLE_SHOP: COMMITTED_SHOP } = require('../support/real');
const { cli, runJs, copyDump } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');

// A copy: no test points the Shell at the committed sample dump.
let SAMPLE_SHOP = null;

describe('restore output formats (real Shell)', function () {
  before(function () { SAMPLE_SHOP = copyDump(COMMITTED_SHOP); });
  it('a one-liner prints the report and nothing after it', function () {
    needs(this, ['shell']);
    const r = cli(null, ['inspect', SAMPLE_SHOP]);
    expect(r.status, r.out).to.equal(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[lines.length - 1]).to.equal('Verdict: util.loadDump would load this dump.');
    expect(r.stdout).to.not.match(/^\s*[{}[\]]/m, 'no dictionary printed after the report');
    // Table lines sorted by schema, table, partition.
    const tables = lines.filter((l) => /^shop\./.test(l)).map((l) => l.split(/\s{2,}/)[0]);
    expect(tables).to.deep.equal(['shop.audit_log', 'shop.customers', 'shop.events partition p2026_01',
      'shop.events partition p2026_02', 'shop.events partition p2026_03', 'shop.events partition pmax',
      'shop.`order items`', 'shop.orders', 'shop.products']);
  });

  it('--output-format=json prints one JSON document with the facts of the report', function () {
    needs(this, ['shell']);
    const text = cli(null, ['inspect', SAMPLE_SHOP]).stdout;
    const r = cli(null, ['inspect', SAMPLE_SHOP, '--output-format=json']);
    expect(r.status, r.out).to.equal(0);
    const doc = JSON.parse(r.stdout); // the whole of stdout, nothing else
    expect(doc.totals.tables).to.equal(6);
    expect(doc.totals.chunks).to.equal(21);
    expect(text).to.match(/6 table\(s\)/).and.to.match(/Data files: 21 \(20 present, 1 empty/);
    expect(doc.totals.present).to.equal(20);
    expect(doc.totals.empty).to.equal(1);
    expect(doc.loadable).to.equal(true);
    expect(doc.warnings || []).to.deep.equal([]);
  });

  it('outputFormat "none" prints nothing and returns the facts; the default returns nothing', function () {
    needs(this, ['shell']);
    const none = runJs(null, `restore.inspect(${JSON.stringify(SAMPLE_SHOP)}, {outputFormat: 'none'})`);
    expect(none.error, none.out).to.equal(null);
    expect(none.printed).to.equal('');
    const json = JSON.parse(cli(null, ['inspect', SAMPLE_SHOP, '--output-format=json']).stdout);
    expect(none.value).to.deep.equal(json);
    // Chunks as counts and ranges per state, never a dictionary per chunk (a million chunks).
    const orders = none.value.tables.find((t) => t.table === 'orders');
    expect(orders).to.include({ basename: 'shop@orders', extension: 'tsv.zst', chunks: 12, lastChunkKnown: true });
    expect(orders.states).to.deep.equal({ present: '0-11' });
    expect(none.value.tables.find((t) => t.table === 'audit_log').states).to.deep.equal({ present: '0', empty: '1' });

    const text = runJs(null, `restore.inspect(${JSON.stringify(SAMPLE_SHOP)})`);
    expect(text.error, text.out).to.equal(null);
    expect(text.value).to.equal(null);
    expect(text.printed).to.match(/^Verdict: util\.loadDump would load this dump\.$/m);
  });

  it('an unknown outputFormat is refused, saying which ones exist', function () {
    needs(this, ['shell']);
    const r = cli(null, ['inspect', SAMPLE_SHOP, '--output-format=yaml']);
    expect(r.status).to.equal(1);
    expect(r.out).to.include('Invalid value for outputFormat: "yaml". Use "text" (the default), "json" or "none".');
    expect(r.out).to.not.match(/restore_js\/| at \//);
  });

  it('a refusal with --output-format=json prints one JSON document with its code, and fails', function () {
    needs(this, ['shell']);
    const r = cli(null, ['inspect', SAMPLE_SHOP + '-not-there', '--output-format=json']);
    expect(r.status, r.out).to.equal(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.code).to.equal('DUMP_NOT_FOUND');
    expect(doc.error.message).to.include(SAMPLE_SHOP + '-not-there');
    expect(r.out).to.not.match(/restore_js\/| at \//);
    // A schema filter's typo: refused before anything, naming the schema meant (else all of shop would load).
    const typo = cli(null, ['plan', SAMPLE_SHOP, '--exclude-schemas=shp', '--output-format=json']);
    expect(typo.status, typo.out).to.equal(1);
    expect(JSON.parse(typo.stdout).error).to.include({ code: 'PARTIAL_BLOCKED' });
    expect(JSON.parse(typo.stdout).error.message).to.include('excludeSchemas: shp names no schema of the dump: did you mean shop?');
  });

  it('inspect of a dump on a backup host is refused as such, not as a missing relative directory', function () {
    needs(this, ['shell']);
    const r = cli(null, ['inspect', 'backup@backuphost.invalid:/backups/2026-11-24', '--output-format=json']);
    expect(r.status, r.out).to.equal(1);
    const doc = JSON.parse(r.stdout);
    expect(doc.error.code).to.equal('REMOTE_UNSUPPORTED');
    expect(doc.error.message).to.include('backup@backuphost.invalid:/backups/2026-11-24 is on a backup host. restore.plan reads its metadata');
    expect(r.out).to.not.match(/does not exist|restore_js\/| at \//);
  });

  it('without a connection: the command line to run repeats the one given, quoted where a shell needs it', function () {
    needs(this, ['shell']);
    for (const [args, line] of [[['load', '/backups/nov 24', '--preset=fastest'], "restore load '/backups/nov 24' --preset=fastest"],
      [['load', './dump', '--include-schemas=shop,crm', '--analyze=false', '--threads=3'],
        'restore load ./dump --analyze=false --include-schemas=shop,crm --threads=3'],
      [['analyze', '--dump-dir=./dump', '--mode=histogram'], 'restore analyze --dump-dir=./dump --mode=histogram'],
      [['dump', './out'], 'restore dump ./out'],
      [['dump', './out', '--preset=fastest'], 'restore dump ./out --preset=fastest'],
      // An address's password is never repeated (lib/options/secrets.js).
      [['load', 'bk:s3cret@backuphost:/dumps/nov'], "restore load 'bk:(set, not shown)@backuphost:/dumps/nov'"]]) {
      const r = cli(null, args);
      expect(r.status, r.out).to.equal(1);
      expect(r.stderr).to.include(`needs a connection to the server: connect first (\\connect root@host), or run mysqlsh root@host -- ${line}\n`);
      expect(r.out).to.not.include('s3cret');
    }
  });

  it('members without other options take outputFormat too (version, status)', async function () {
    needs(this, ['shell', 'server']);
    const server = suiteServer();
    const v = cli(null, ['version', '--output-format=json']);
    expect(v.status, v.out).to.equal(0);
    expect(JSON.parse(v.stdout)).to.include({ plugin: require('../../package.json').version });
    const s = cli(server.uri, ['status', '--output-format=json']);
    expect(s.status, s.out).to.equal(0);
    expect(JSON.parse(s.stdout).redoLog).to.equal(await server.redoLog());
    const t = cli(server.uri, ['status']);
    expect(t.stdout).to.match(/InnoDB redo log: +ON/);
    expect(t.stdout).to.not.match(/^\s*[{}]/m);
  });
});
