'use strict';
// Whether the binary logs can be replayed onto the dump (lib/binlog/replay-history.js through planReplay): the dump's
// gtidExecuted inside the history the files carry (else another server's, or copied before the dump), its
// binlogFile:binlogPosition where a transaction begins or ends (GTIDs off; GTIDs on in the dumped server's own files:
// at the gtidExecuted's point), until after the dump's own point, no
// INCIDENT between the dump and the stop. On files a real server wrote (test/fixtures/binlogs), one with an INCIDENT
// crafted in (test/support/binlog-craft.js), read by the companion in python3.
const { expect } = require('chai');
const fs = require('fs');
const path = require('path');
const { fakeHost } = require('../support/fake-host');
const { tempDir } = require('../support/shell');
const { HAVE_PYTHON, callCompanion: companion, planFunctions } = require('../support/companion');
const { events, withIncident } = require('../support/binlog-craft');
const { planReplay } = require('../../lib/binlog/replay-plan.js');

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'binlogs');
const U = 'e53c4a01-ea84-11f1-84d7-02fc00000001'; // types.000002: U:1-11, previous GTIDs empty
const OTHER = '0f0e0d0c-0b0a-8908-8706-050403020100';
const FILE = 'binlog.000002';


// A folder holding one fixture (its bytes, or bytes given) as binlog.000002.
function folder(fixture, bytes) {
  const dir = tempDir('restore-history-');
  fs.writeFileSync(path.join(dir, FILE), bytes || fs.readFileSync(path.join(FIXTURES, fixture)));
  return dir;
}

function plan(dir, opts) {
  const host = fakeHost({ mount: { '/bl': dir } });
  host.sql.connected = () => false; // times in UTC
  const real = (p) => path.join(dir, path.basename(p));
  host.files.binlogRead = (paths, spec) => companion('binlogRead', [JSON.stringify(paths.map(real)), JSON.stringify(spec)]);
  Object.assign(host.files, planFunctions(real));
  host.files.binlogPast = (paths, spec) => companion('binlogPast', [JSON.stringify(paths.map(real)), JSON.stringify(spec)]);
  host.files.binlogPieces = (p, ranges, checkOnly) => companion('binlogPieces', [real(p), JSON.stringify(ranges), checkOnly]);
  return planReplay(host, Object.assign({ where: '/bl', dumpFile: FILE }, opts));
}

function refusal(fn) {
  try { fn(); } catch (e) { return e; }
  return null;
}

describe('replay history: files, dump and stop that belong together (lib/binlog/replay-history.js)', function () {
  this.timeout(30000);
  let types, gtidoff;

  before(function () {
    if (!HAVE_PYTHON) this.skip();
    types = folder('types.000002');
    gtidoff = folder('gtidoff.000002');
  });

  it('GTIDs on: the dump\'s gtidExecuted inside what the files carry, never logged (its gtid_purged), or the dumped server\'s own; else refused, saying which case', function () {
    expect(plan(types, { dumpGtids: `${U}:1-4`, stopBefore: `${U}:9` }).transactions.length).to.equal(4); // 9: compressed, not sent yet
    const other = refusal(() => plan(types, { dumpGtids: `${U}:1-4,${OTHER}:1-3` }));
    expect(other.code).to.equal('BINLOG_OTHER_HISTORY');
    expect(other.message).to.include(`the files of ${FILE} are not the history of the dumped server: the dump holds ${OTHER}:1-3`)
      .and.include(`they carry ${U}:1-11`).and.include('another server\'s').and.include('SHOW BINARY LOGS');
    expect(other.data).to.deep.equal({ file: FILE, missing: `${OTHER}:1-3` });
    // GTIDs the dumped server never logged (SET gtid_purged): not looked for in the files.
    expect(plan(types, { dumpGtids: `${U}:1-4,${OTHER}:1-3`, dumpPurged: `${OTHER}:1-3`, stopBefore: `${U}:9` }).inDump).to.equal(4);
    // The dumped server's own transactions its source's files cannot hold (a replica's local writes): named in the plan.
    const local = plan(types, { dumpGtids: `${U}:1-4,${OTHER}:1-3`, dumpServerUuid: OTHER, stopBefore: `${U}:9` });
    expect(local.lines.join('\n')).to.include(`the dump's ${OTHER}:1-3 (the dumped server's own transactions, e.g. a replica's local writes) ` +
      'are in none of these files');
    // Not when the files carry nothing else of the dump (another server's), nor when they carry that uuid.
    expect(refusal(() => plan(types, { dumpGtids: `${OTHER}:1-3`, dumpServerUuid: OTHER })).code).to.equal('BINLOG_OTHER_HISTORY');
    expect(refusal(() => plan(types, { dumpGtids: `${U}:1-13`, dumpServerUuid: U })).code).to.equal('BINLOG_OTHER_HISTORY');
    const early = refusal(() => plan(types, { dumpGtids: `${U}:1-13` }));
    expect(early.code).to.equal('BINLOG_OTHER_HISTORY');
    expect(early.message).to.include(`the dump holds ${U}:12-13`).and.include('they were copied before the dump was taken');
  });

  it('GTIDs on, the dumped server\'s own file (its server_id, its server_uuid\'s transactions): binlogFile:binlogPosition at the gtidExecuted\'s point; else refused, naming file:position', function () {
    // types.000002 was written by server_id 1; U:1-4 end at 1788.
    const own = { dumpGtids: `${U}:1-4`, dumpServerId: '1', dumpServerUuid: U, stopBefore: `${U}:9` };
    expect(plan(types, Object.assign({ dumpPosition: 1788 }, own)).inDump).to.equal(4);
    const after = refusal(() => plan(types, Object.assign({ dumpPosition: 2513 }, own)));
    expect(after.code).to.equal('BINLOG_DUMP_POINT');
    expect(after.message).to.include(`the dump ends at ${FILE}:2513 (its binlogFile:binlogPosition) with the transactions of its gtidExecuted, and in ` +
      `${FILE} here, written by the dumped server (server_id 1, as @.json records it), transaction ${U}:5 at ${FILE}:1788, before that position, ` +
      'is not in the dump\'s gtidExecuted').and.include('RESET BINARY LOGS AND GTIDS').and.include('Nothing was changed.');
    expect(after.data).to.deep.equal({ file: FILE, position: 2513 });
    expect(refusal(() => plan(types, Object.assign({ dumpPosition: 1429 }, own))).message)
      .to.include(`transaction ${U}:4 at ${FILE}:1429, from that position on, is in the dump's gtidExecuted`);
    expect(refusal(() => plan(types, Object.assign({ dumpPosition: 1500 }, own))).message)
      .to.include(`no transaction begins or ends at 1500 (transaction ${U}:4, at 1429, runs to 1788)`);
    // Not the dumped server's file: another server_id (a replica's file of the same name), or none of its server_uuid's
    // transactions (a server loaded from the dump that kept server_id 1), or no server_id in the dump: not held to the position.
    for (const o of [{ dumpServerId: '2' }, { dumpServerUuid: OTHER }, { dumpServerId: null }]) {
      expect(plan(types, Object.assign({}, own, { dumpPosition: 2513 }, o)).inDump, JSON.stringify(o)).to.equal(4);
    }
    // A group member's own file: its transactions are the group name's.
    expect(refusal(() => plan(types, Object.assign({}, own, { dumpServerUuid: OTHER, dumpGroupName: U, dumpPosition: 2513 }))).code).to.equal('BINLOG_DUMP_POINT');
  });

  it('GTIDs off: the dump\'s binlogFile:binlogPosition where a transaction begins or ends; elsewhere or past the file\'s end: refused', function () {
    const by = { dumpGtids: null, byPosition: { uuid: OTHER, source: 'the source x' } };
    expect(plan(gtidoff, Object.assign({ dumpPosition: 613 }, by)).inDump).to.equal(2);
    // The end of the file's last transaction (a ROTATE event follows it): every transaction in the dump.
    expect(plan(gtidoff, Object.assign({ dumpPosition: 2104 }, by))).to.include({ inDump: 6, numbered: 0 });
    const inside = refusal(() => plan(gtidoff, Object.assign({ dumpPosition: 700 }, by)));
    expect(inside.code).to.equal('BINLOG_OTHER_HISTORY');
    expect(inside.message).to.include(`the dump ends at ${FILE}:700 (its binlogFile:binlogPosition), and the ${FILE} here has no transaction ` +
      'beginning or ending there (its transaction at 613 runs to 1060)').and.include('another server\'s file of the same name');
    const past = refusal(() => plan(gtidoff, Object.assign({ dumpPosition: 9000 }, by)));
    expect(past.message).to.include(`the ${FILE} here ends at 2148, before it`);
  });

  it('until before the dump\'s own point: refused naming the dump\'s last transaction and both times; a file begun after until, a file:position stop in the dump: refused', function () {
    // U:4 committed 1795799195.987550: in the dump, after this until.
    const e = refusal(() => plan(types, { dumpGtids: `${U}:1-4`, until: '2026-11-27 17:06:35.987100' }));
    expect(e.code).to.equal('OPTION_INVALID');
    expect(e.message).to.include(`until 2026-11-27 17:06:35.987100 is before the dump's own point: transaction ${U}:4 (${FILE}:1429), ` +
      'committed 2026-11-27 17:06:35.987550, is in the dump (its gtidExecuted)').and.include('times in UTC');
    expect(plan(types, { dumpGtids: `${U}:1-4`, until: '2026-11-27 17:06:35.988000' }).transactions.length).to.equal(0); // U:5 committed at .988478
    // A stop given as the file:position of a transaction of the dump: refused as its GTID is.
    const inside = refusal(() => plan(types, { dumpGtids: `${U}:1-4`, stopBefore: `${FILE}:913` }));
    expect(inside.code).to.equal('OPTION_INVALID');
    expect(inside.message).to.include(`stopBefore ${FILE}:913 is transaction ${U}:3: already in the dump (its gtidExecuted).`);
    // GTIDs off, the dump at the file's first transaction: the dump came after the file began, until before that.
    const off = refusal(() => plan(gtidoff, { dumpGtids: null, byPosition: { uuid: OTHER, source: 'x' }, dumpPosition: 158, until: '2026-11-27 17:12:00' }));
    expect(off.message).to.include(`until 2026-11-27 17:12:00.000000 is before the first file here, ${FILE}, began (2026-11-27 17:12:25.000000`)
      .and.include(`the dump ends in it, at ${FILE}:158, so after until`);
  });

  it('an INCIDENT between the dump and the stop: refused, the stop before it offered; before the dump or past the stop: replayed', function () {
    const buf = fs.readFileSync(path.join(FIXTURES, 'types.000002'));
    const at = 2513; // after U:5, before U:6
    const crafted = withIncident(buf, at);
    const dir = folder(null, crafted);
    const next = events(crafted).find((x) => x.pos > at && x.type === 33).pos;
    const e = refusal(() => plan(dir, { dumpGtids: `${U}:1-4` }));
    expect(e.code).to.equal('BINLOG_INCIDENT');
    expect(e.message).to.include(`an INCIDENT event at ${FILE}:${at} (the source lost events there`)
      .and.include(`stopBefore: "${FILE}:${next}" (the transaction after it), or stopAfter: "${FILE}:1788"`);
    expect(e.data).to.deep.equal({ file: FILE, position: at });
    expect(plan(dir, { dumpGtids: `${U}:1-4`, stopBefore: `${FILE}:${next}` }).transactions.map((t) => t.gtid)).to.deep.equal([`${U}:5`]);
    expect(plan(dir, { dumpGtids: `${U}:1-4`, stopAfter: `${U}:5` }).transactions.length).to.equal(1);
    // Before the dump's point (the transaction after it in the dump): no matter.
    expect(plan(dir, { dumpGtids: `${U}:1-6`, stopBefore: `${U}:9` }).transactions.map((t) => t.gtid)).to.deep.equal([`${U}:7`, `${U}:8`]);
    // Right after the dump's last transaction: nothing after the dump before it, so no stopAfter to offer.
    expect(refusal(() => plan(dir, { dumpGtids: `${U}:1-5` })).message).to.include(`stopBefore: "${FILE}:${next}" (the transaction after it).`);
    // At the end of the files: the last transaction before it offered.
    const end = folder(null, withIncident(buf, buf.length));
    const last = refusal(() => plan(end, { dumpGtids: `${U}:1-4` }));
    expect(last.message).to.include(`an INCIDENT event at ${FILE}:${buf.length}`).and.include(`stopAfter: "${FILE}:3954" (the last transaction before it)`);
  });
});
