'use strict';
// A replay under schemaMap: events rewritten to the new names by the companion
// (plugins/restore/restore_py/binlog_rewrite.py), on files a real server wrote (test/fixtures/binlogs):
// each TABLE_MAP and QUERY event of a file rewritten and the file read again by the reader, which checks
// every event's CRC32 and length; the pieces a replay sends carry the new names.
const { expect } = require('chai');
const path = require('path');
const { spawnSync } = require('child_process');
const { tempDir } = require('../support/shell');
const { HAVE_PYTHON, prelude } = require('../support/companion');

const FIXTURES = path.resolve(__dirname, '..', 'fixtures', 'binlogs');

function python(lines) {
  const script = [...prelude(), 'rw = importlib.import_module("companion_under_test.binlog_rewrite")',
    'ev = importlib.import_module("companion_under_test.binlog_events")', 'import struct', ...lines].join('\n');
  const r = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

// Every TABLE_MAP and QUERY event of `name` rewritten with `map` into a new file; that file read by the
// reader (CRC32 checked) beside the original: [rewritten read, original read, events whose bytes changed].
function rewrittenFile(name, map) {
  const src = path.join(FIXTURES, name);
  const dst = path.join(tempDir('restore-rewrite-'), name);
  return python([
    `data = open(${JSON.stringify(src)}, "rb").read(); m = json.loads(${JSON.stringify(JSON.stringify(map))})`,
    'out, pos, crc, posts, changed = [data[:4]], 4, False, None, 0',
    'while pos < len(data):',
    '    size = struct.unpack_from("<I", data, pos + 9)[0]; kind = data[pos + 4]; raw = data[pos:pos + size]; new = raw',
    '    if kind == 15: _, _, posts, crc = ev._post_lengths(raw[19:])',
    '    elif kind == 19: new = rw.rewrite_table_map(raw, m, crc, posts[18])',
    '    elif kind == 2: new = rw.rewrite_query(raw, m, crc, posts[1])',
    '    changed += new != raw; out.append(new); pos += size',
    `open(${JSON.stringify(dst)}, "wb").write(b"".join(out))`,
    'read = lambda p: json.loads(calls["binlogRead"](json.dumps([p]), json.dumps({"keep": "all"}))[0])',
    `print(json.dumps([read(${JSON.stringify(dst)}), read(${JSON.stringify(src)}), changed]))`,
  ]);
}

describe('binary log events rewritten for schemaMap (Python companion, real files)', function () {
  this.timeout(20000);
  before(function () { if (!HAVE_PYTHON) this.skip(); });

  it('TABLE_MAP and QUERY events with CRC32: new names, lengths and checksums the reader accepts', function () {
    const [got, was, changed] = rewrittenFile('types.000002', { shop: 'shop_copy', other: 'x' });
    expect(got.files[0]).to.include({ error: null, checksum: 'crc32', transactions: 11 });
    // The compressed transaction (GTID 9) keeps its inner events: the replay refuses it anyway.
    expect(got.tables).to.deep.equal({ 'shop_copy.t1': [5, 4, 3, 1], 'shop_copy.c': [1, 1, 0, 0], 'shop.c': [1, 2, 0, 0] });
    expect(was.tables).to.deep.equal({ 'shop.t1': [5, 4, 3, 1], 'shop.c': [2, 3, 0, 0] });
    // The one statement run with shop as its default schema: the default schema renamed, the text untouched.
    const stmts = got.transactions.flatMap((t) => t.statements);
    expect(stmts[0]).to.include({ schema: 'shop_copy', text: 'CREATE DATABASE shop' });
    expect(stmts.slice(1).map((s) => s.schema)).to.deep.equal(['', '', '', '']);
    expect(stmts.map((s) => s.text)).to.deep.equal(was.transactions.flatMap((t) => t.statements).map((s) => s.text));
    expect(got.files[0].size - was.files[0].size).to.equal(changed * 5); // "shop" -> "shop_copy" in each changed event
    expect(changed).to.be.above(5);
  });

  it('without checksums (binlog_checksum NONE); a map that renames nothing leaves every byte', function () {
    const [got] = rewrittenFile('nochecksum.000002', { s2: 'copy2' });
    expect(got.files[0]).to.include({ error: null, checksum: 'none', transactions: 6 });
    expect(got.tables).to.deep.equal({ 'copy2.v': [3, 2, 2, 2] });
    const [same, was, changed] = rewrittenFile('nochecksum.000002', { shop: 'x', s2: 's2' });
    expect(changed).to.equal(0);
    expect(same.files[0].size).to.equal(was.files[0].size);
  });

  it('the pieces a replay sends: table maps renamed in the BINLOG bytes, default schemas mapped, statements replaced by position', function () {
    const file = path.join(FIXTURES, 'nochecksum.000002');
    const [plain, renamed] = python([
      `f = ${JSON.stringify(file)}; ranges = json.dumps([[154, 325], [325, 593], [593, 1020]])`,
      'p = lambda r: json.loads(calls["binlogPieces"](f, ranges, False, r)[0])',
      'print(json.dumps([p(None), p(json.dumps({"schemaMap": {"s2": "copy2"}, "texts": {"400": "CREATE TABLE copy2.v (id INT)"}}))]))',
    ]);
    expect(plain.transactions[0][0]).to.include({ schema: 's2', query: 'CREATE DATABASE s2' });
    expect(renamed.transactions[0][0]).to.include({ schema: 'copy2', query: 'CREATE DATABASE s2' });
    expect(renamed.transactions[1][0]).to.include({ schema: '', query: 'CREATE TABLE copy2.v (id INT)' });
    const was = Buffer.from(plain.transactions[2].find((x) => x.binlog).binlog, 'base64');
    const now = Buffer.from(renamed.transactions[2].find((x) => x.binlog).binlog, 'base64');
    expect(now[4]).to.equal(19); // TABLE_MAP first
    expect(now.readUInt32LE(9)).to.equal(was.readUInt32LE(9) + 3);
    expect(now.length).to.equal(was.length + 3);
    expect(now.includes(Buffer.from('\u0005copy2\u0000'))).to.equal(true);
    expect(now.includes(Buffer.from('\u0002s2\u0000'))).to.equal(false);
    // The statement replaced inside its QUERY event (rewrite_event): the reader reads the new text from the event.
    const [one] = python([
      `data = open(${JSON.stringify(file)}, "rb").read(); size = struct.unpack_from("<I", data, 400 + 9)[0]`,
      'posts = ev._post_lengths(data[4 + 19:4 + struct.unpack_from("<I", data, 4 + 9)[0]])[2]',
      'new = rw.rewrite_event(2, data[400:400 + size], 400, {"schemaMap": {"s2": "copy2"}, "texts": {"400": "CREATE TABLE copy2.v (id INT)"}}, False, posts)',
      'print(json.dumps([list(ev.query(new[19:], posts[1])) + [struct.unpack_from("<I", new, 9)[0] == len(new)]]))',
    ]);
    expect(one).to.deep.equal(['', 'CREATE TABLE copy2.v (id INT)', true]);
    // The rows event after it is the same bytes.
    expect(now.subarray(now.readUInt32LE(9)).equals(was.subarray(was.readUInt32LE(9)))).to.equal(true);
  });
});
