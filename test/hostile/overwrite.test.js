'use strict';
// Class 2 (and the file faults of class 5) of issue 12: the plugin never writes over a file it
// did not create, never writes into the dump directory but stubs and its own progress files, never
// through an unexpected symlink; a bad path is a clear error naming it, before anything is written.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { needs } = require('../support/real');
const { cli } = require('../support/shell');
const { suiteServer } = require('../support/root-hooks');
const { diffSandbox } = require('../support/sandbox-hash');
const { sandbox, expectRefused } = require('./hostile-helpers');

describe('hostile 2: no file written over, nothing written where it does not belong', function () {
  let server;
  let sb;
  let before;
  beforeEach(function () {
    needs(this, ['shell', 'server']);
    server = suiteServer();
    sb = sandbox();
    before = sb.hash();
  });
  afterEach(async function () {
    if (server) await server.query('DROP SCHEMA IF EXISTS shop');
  });

  function plan(listFile) {
    return cli(server.uri, ['plan', sb.dump, '--latest=shop.orders:1', `--fetch-list-file=${listFile}`], { configHome: sb.home });
  }

  it('fetch list: an existing file outside the dump is refused and left as it was', function () {
    const file = path.join(sb.outside, 'notes.txt');
    fs.writeFileSync(file, 'precious\n');
    before = sb.hash();
    expectRefused(plan(file), [/Refusing fetchListFile/, /notes\.txt/, /exists/], sb, before);
  });

  it('fetch list: a real chunk, @.json or a new name inside the dump directory is refused', function () {
    for (const name of ['shop@orders@0.tsv.zst', '@.json', 'fetch.txt']) {
      expectRefused(plan(path.join(sb.dump, name)), [/inside the dump directory/, new RegExp(name.replace(/[.@]/g, '\\$&'))], sb, before);
    }
  });

  it('fetch list: a dangling symlink is not followed; a missing directory and a too long name are named', function () {
    const link = path.join(sb.outside, 'link.txt');
    fs.symlinkSync(path.join(sb.outside, 'target-that-would-appear.txt'), link);
    before = sb.hash();
    expectRefused(plan(link), [/link\.txt/, /symbolic link/], sb, before);
    expectRefused(plan(path.join(sb.outside, 'no', 'such', 'dir', 'f.txt')), [/does not exist/, /no\/such\/dir/], sb, before);
    expectRefused(plan(path.join(sb.outside, 'x'.repeat(300))), [/Cannot write fetchListFile/, /too long/i], sb, before);
  });

  it('fetch list: a new file outside is written, and the rsync command quotes every path', function () {
    const dir = path.join(sb.outside, "it's here");
    fs.mkdirSync(dir);
    const file = path.join(dir, 'fetch.txt');
    fs.rmSync(path.join(sb.dump, 'shop@orders@@11.tsv.zst'));
    before = sb.hash();
    const r = plan(file);
    expect(r.status, r.out).to.equal(0);
    expect(fs.readFileSync(file, 'utf8')).to.equal('shop@orders@@11.tsv.zst\n');
    expect(r.stdout).to.include(`rsync -a --files-from='${dir.replace("'", "'\\''")}/fetch.txt' <backup-host>:<dump-dir>/ '${sb.dump}/'`);
    const d = diffSandbox(before, sb.hash(), (p) => p === file);
    expect(d).to.deep.equal({ changed: [], removed: [], added: [] });
  });

  it('progressFile anywhere in the dump directory, or naming any non-progress file, is refused', function () {
    const other = path.join(sb.outside, 'keep.json');
    fs.writeFileSync(other, '{"mine": true}\n');
    before = sb.hash();
    for (const target of [path.join(sb.dump, 'shop@orders@0.tsv.zst'), path.join(sb.dump, '@.json'),
      path.join(sb.dump, 'load-progress.new.json')]) {
      const r = cli(server.uri, ['load', sb.dump, `--progress-file=${target}`], { configHome: sb.home });
      expectRefused(r, [/Refusing progressFile/, new RegExp(path.basename(target).replace(/[.@]/g, '\\$&')),
        /is inside the dump directory .*, and the plugin writes nothing into a dump/], sb, before);
    }
    const r = cli(server.uri, ['load', sb.dump, `--progress-file=${other}`], { configHome: sb.home });
    expectRefused(r, [/Refusing progressFile/, /keep\.json/, /not a util\.loadDump progress file/], sb, before);
  });
});
