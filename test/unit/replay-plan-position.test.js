'use strict';
// The replay plan of a dump without GTIDs (lib/binlog/replay-plan.js, byPosition): from the dump's
// binlogFile:binlogPosition, each transaction numbered in the source's order whatever the stop, a
// file:position stop, a GTID stop refused, the dump's file missing refused. On a file a real server
// wrote with GTIDs off (test/fixtures/binlogs/gtidoff.000002), read by the companion in python3.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { fakeHost } = require('../support/fake-host');
const { tempDir } = require('../support/shell');
const { HAVE_PYTHON, callCompanion: companion, planFunctions } = require('../support/companion');
const { planReplay, namedStop } = require('../../lib/binlog/replay-plan.js');
const { sourceIdentity } = require('../../lib/dump/dump-metadata.js');

const U = '0f0e0d0c-0b0a-8908-8706-050403020100';
const FILE = 'binlog.000002';


describe('replay plan by file:position (a source with GTIDs off)', function () {
  this.timeout(20000);
  let dir;
  let starts; // each transaction's first byte in the file

  function plan(opts) {
    const host = fakeHost({ mount: { '/bl': dir } });
    host.sql.connected = () => false; // times in UTC, not the server's
    const real = (p) => path.join(dir, path.basename(p));
    host.files.binlogRead = (paths, spec) => companion('binlogRead', [JSON.stringify(paths.map(real)), JSON.stringify(spec)]);
    Object.assign(host.files, planFunctions(real));
    host.files.binlogPast = (paths, spec) => companion('binlogPast', [JSON.stringify(paths.map(real)), JSON.stringify(spec)]);
    host.files.binlogPieces = (p, ranges, checkOnly) => companion('binlogPieces', [real(p), JSON.stringify(ranges), checkOnly]);
    return planReplay(host, Object.assign({ where: '/bl', dumpGtids: null, dumpFile: FILE, byPosition: { uuid: U, source: 'the source x' } }, opts));
  }

  before(function () {
    if (!HAVE_PYTHON) this.skip();
    dir = tempDir('restore-bypos-');
    fs.copyFileSync(path.resolve(__dirname, '..', 'fixtures', 'binlogs', 'gtidoff.000002'), path.join(dir, FILE));
    starts = companion('binlogRead', [JSON.stringify([path.join(dir, FILE)]), JSON.stringify({ keep: 'all' })]).transactions.map((t) => t.start);
    expect(starts.length).to.equal(6);
  });

  it('from the dump\'s position: the transactions before it are the dump\'s, the rest numbered from 1; the plan says so', function () {
    const p = plan({ dumpPosition: starts[2] });
    expect(p.inDump).to.equal(2);
    expect(p.transactions.map((t) => [t.gtid, t.start])).to.deep.equal([1, 2, 3, 4].map((n) => [`${U}:${n}`, starts[n + 1]]));
    expect(p.lines.join('\n')).to.include(`GTIDs: the dump records none (gtid_mode OFF at the source): transactions replayed from the source x ${FILE}:${starts[2]} ` +
      `onward get GTIDs ${U}:1-4`).and.include(`skipped: 2 before the dump's position ${FILE}:${starts[2]} (in the dump)`);
  });

  it('a stop at a file:position: the same numbers for the same transactions; stopAfter includes it', function () {
    const before = plan({ dumpPosition: starts[2], stopBefore: `${FILE}:${starts[4]}` });
    expect(before.transactions.map((t) => t.gtid)).to.deep.equal([`${U}:1`, `${U}:2`]);
    expect(before.reached).to.equal(true);
    expect(before.lines.join('\n')).to.include(`get GTIDs ${U}:1-2`);
    const after = plan({ dumpPosition: starts[2], stopAfter: `${FILE}:${starts[4]}` });
    expect(after.transactions.map((t) => [t.gtid, t.start]).pop()).to.deep.equal([`${U}:3`, starts[4]]);
  });

  it('refused: a GTID stop, a position no transaction starts at or before the dump, the dump\'s file missing, no position at all', function () {
    const code = (fn) => { try { fn(); } catch (e) { return [e.code, e.message]; } return null; };
    const gtid = code(() => plan({ dumpPosition: starts[2], stopBefore: `${U}:1` }));
    expect(gtid[0]).to.equal('OPTION_INVALID');
    expect(gtid[1]).to.include('is a GTID, and the dump records none (GTIDs off on the source)').and.include('file:position');
    expect(code(() => plan({ dumpPosition: starts[2], stopBefore: `${FILE}:${starts[4] + 1}` }))[1]).to.include('no transaction starts there');
    expect(code(() => plan({ dumpPosition: starts[2], stopBefore: `${FILE}:${starts[1]}` }))[1]).to.include('before the dump\'s position');
    const gap = code(() => plan({ dumpFile: 'binlog.000001', dumpPosition: 4 }));
    expect(gap[0]).to.equal('BINLOG_GAP');
    expect(gap[1]).to.include('binlog.000001, where the dump ends').and.include('is not among the files');
    expect(code(() => plan({ dumpPosition: 4, byPosition: null }))[0]).to.equal('BINLOG_UNSUPPORTED');
  });

  it('stopBefore "first drop of schema.table": the file:position of the first DROP after the dump\'s position; none: BINLOG_STOP_NOT_FOUND', function () {
    // gtidoff.000002 ends with DROP DATABASE s2 (its 6th transaction): it drops s2.v (and every table of s2; none of s9).
    const p = plan({ dumpPosition: starts[2], stopBefore: 'first drop of `s2`.`v`' });
    expect(p.stopNamed).to.include({ stop: `${FILE}:${starts[5]}`, kind: 'drop-database', gtid: null });
    expect(p.transactions.map((t) => t.start)).to.deep.equal(starts.slice(2, 5));
    expect(p.reached).to.equal(true);
    expect(p.lines.join('\n')).to.include(`up to stopBefore "first drop of \`s2\`.\`v\`": the DROP DATABASE at ${FILE}:${starts[5]}, committed 20`);
    let err = null;
    try { plan({ dumpPosition: starts[2], stopBefore: 'first drop of s9.v' }); } catch (e) { err = e; }
    expect(err && err.code).to.equal('BINLOG_STOP_NOT_FOUND');
    expect(err.message).to.include('no statement drops or truncates s9.v').and.include('restore.binlogs lists');
    // Neither a GTID nor a file:position reads as a name; a name is never read as either.
    expect(namedStop('FIRST  DROP OF shop.customers')).to.deep.equal({ schema: 'shop', table: 'customers' });
    expect(namedStop('first drop of `a.b`.`c``d`')).to.deep.equal({ schema: 'a.b', table: 'c`d' });
    expect(namedStop(`${U}:7`)).to.equal(null);
    expect(namedStop('binlog.000003:1234')).to.equal(null);
    expect(namedStop('first drop of customers')).to.equal(null);
  });

  it('the source\'s identity the UUID is derived from: its server_uuid where the dump records it (Shell 9.1+), else its host name', function () {
    // The @.json shapes of Shell 9.1 (source.sysvars) and of 8.0 dumps (server only), as in ../shared/real-dumps.
    expect(sourceIdentity({ server: 'vm', source: { hostname: 'vm', binlog: { file: 'binlog.000001', position: 850 },
      sysvars: { server_uuid: '40220338-ea9c-11f1-b744-02fc00000001' } } })).to.deep.equal({ kind: 'server_uuid', text: '40220338-ea9c-11f1-b744-02fc00000001' });
    expect(sourceIdentity({ server: 'beast', binlogFile: 'binlog.000012', binlogPosition: 5798350, gtidExecuted: '' }))
      .to.deep.equal({ kind: 'host', text: 'beast' });
    expect(sourceIdentity({ binlogFile: 'binlog.000012' })).to.equal(null);
  });
});
