'use strict';
// @.done.json read without parsing chunkFileBytes into an object (lib/dump/done-file.js), and data
// file names matched in place (lib/dump/chunk-names.js): the same answers as JSON.parse and as
// names taken one by one, on text a dumper writes and on text it does not; read whole, and in
// pieces (as a file larger than done-file.js WHOLE_BYTES is: never one string).
const { expect } = require('chai');
const { readDoneFile, doneTypeProblems, eachChunkEntry, rewriteDone, textSink, zeroSizes, tableFigures, releaseText } = require('../../lib/dump/done-file.js');
const { makeNameMatcher } = require('../../lib/dump/chunk-names.js');

// A host with the file's text; MODE.opts: how readDoneFile reads it (whole, or in pieces of a few bytes).
const MODE = { opts: undefined };
const hostWith = (text) => {
  const bytes = Buffer.from(text, 'utf8');
  return { files: { loadText: () => text, stat: () => ({ sizes: [bytes.length], dirs: [], errors: [] }),
    readRanges: (list) => list.map((r) => bytes.subarray(r.offset, r.offset + r.length)) } };
};
// MODE.release: the text let go once read (releaseText), as after a big dump's chunk lists: walked again from the file.
const read = (text) => {
  const done = readDoneFile(hostWith(text), '/d/@.done.json', MODE.opts);
  if (MODE.release) releaseText(done, 0);
  return done;
};
// The text [a, b) as the positions chunkFileBytes' walk gives are taken: bytes when read in pieces.
const span = (text, a, b) => (MODE.opts ? Buffer.from(text, 'utf8').subarray(a, b).toString('utf8') : text.slice(a, b));

const DONE = {
  end: '2026-01-01 01:00:00',
  dataBytes: 300,
  tableDataBytes: { shop: { orders: 300 } },
  chunkFileBytes: {
    'shop@orders@0.tsv.zst': 100,
    'shop@orders@1.tsv.zst': 1.5e2,
    'shop@orders@@2.tsv.zst': 50,
    'shop@\u00e9t\u00e9@0.tsv.zst': 7,
    'odd\\"name': 'not a number',
  },
  tableRows: { shop: { orders: 3 } },
};

function entries(done) {
  const out = [];
  eachChunkEntry(done, (text, start, end, decoded, bytes) => out.push([decoded === null ? text.slice(start, end) : decoded, bytes]));
  return out;
}

for (const [mode, opts, release] of [['read whole', undefined, false], ['read in pieces', { wholeBytes: 0, pieceBytes: 7 }, false],
  ['read whole, then let go', undefined, true]]) describe(`@.done.json walked in place (done-file.js), ${mode}`, function () {
  before(function () { MODE.opts = opts; MODE.release = release; });
  after(function () { MODE.opts = undefined; MODE.release = false; });
  const ascii = (t) => t.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
  for (const [what, text] of [['compact', JSON.stringify(DONE)], ['indented', JSON.stringify(DONE, null, 4)],
    ['ASCII (escaped)', ascii(JSON.stringify(DONE, null, 1))]]) {
    it(`${what} text: the entries, the rest of the document and a rewrite agree with JSON.parse`, function () {
      const done = read(text);
      // Let go only when its positions are the file's bytes (ASCII).
      expect(done.text === null, 'never one string').to.equal(!!MODE.opts || (MODE.release && !/[^\x00-\x7f]/.test(text)));
      expect(done.json.chunkFileBytes).to.deep.equal({});
      // The per-table figures held apart, parsed when asked.
      expect(tableFigures(done)).to.deep.equal({ tableDataBytes: DONE.tableDataBytes, tableRows: DONE.tableRows });
      expect(entries(done)).to.deep.equal(Object.entries(DONE.chunkFileBytes).map(([k, v]) => [k, typeof v === 'number' ? v : null]));
      // As text (any dump), and as edits of the dump's own text (what the companion applies).
      const zeroed = (t, s, e, decoded) => (decoded === null ? t.slice(s, e) : decoded).indexOf('@@') < 0;
      let out = '';
      const sink = textSink(done, (piece) => { out += piece; }, 16);
      rewriteDone(done, zeroed, { dataBytes: 50 }, sink);
      sink.end();
      let edited = '';
      rewriteDone(done, zeroed, { dataBytes: 50 }, { text: (t) => { edited += t; },
        copy: (a, b) => { edited += span(text, a, b); }, zero: (a, b) => { edited += zeroSizes(span(text, a, b)); } });
      expect(edited).to.equal(out);
      const want = JSON.parse(text);
      want.dataBytes = 50;
      for (const k of Object.keys(want.chunkFileBytes)) {
        if (typeof want.chunkFileBytes[k] === 'number' && k.indexOf('@@') < 0) want.chunkFileBytes[k] = 0;
      }
      expect(JSON.parse(out)).to.deep.equal(want);
    });
  }

  it('a rewrite of 20,000 entries goes out as a few spans, cut between entries', function () {
    const big = { end: 'x', chunkFileBytes: {} };
    for (let i = 0; i < 20000; i++) big.chunkFileBytes[`s@t@${i}.tsv.zst`] = 1000 + i;
    const text = JSON.stringify(big, null, 2);
    const done = read(text);
    const ops = [];
    let edited = '';
    rewriteDone(done, (t, s, e) => /@1\d*\./.test(t.slice(s, e)), {}, { text: (t) => { edited += t; },
      copy: (a, b) => { ops.push('c'); edited += span(text, a, b); }, zero: (a, b) => { ops.push('z'); edited += zeroSizes(span(text, a, b)); } });
    const got = JSON.parse(edited).chunkFileBytes;
    for (let i = 0; i < 20000; i++) expect(got[`s@t@${i}.tsv.zst`]).to.equal(/^1/.test(String(i)) ? 0 : 1000 + i);
    expect(ops.length).to.be.below(40);
  });

  it('damaged text is refused as JSON.parse would, naming the file', function () {
    for (const bad of ['{"chunkFileBytes": {"a": 1,}}', '{"chunkFileBytes": {"a": 01}}', '{"chunkFileBytes": {"a": 1}',
      '{"chunkFileBytes": {"a\u0001": 1}}', '{"end": "x"} trailing', '[1]']) {
      expect(() => read(bad), bad).to.throw(/\/d\/@\.done\.json (is not valid JSON|does not hold a JSON object)/);
    }
  });

  it('damaged per-table figures are refused when first parsed, naming the file', function () {
    const done = read('{"dataBytes": 1, "tableRows": {"s": {"t": 1,}}, "chunkFileBytes": {}}');
    expect(() => tableFigures(done)).to.throw(/\/d\/@\.done\.json is not valid JSON \(tableRows: /);
  });

  it('a chunkFileBytes nested deeper than the top level is not taken for the document\'s', function () {
    const text = JSON.stringify({ note: { chunkFileBytes: { 'x@y@0.tsv.zst': 1 } }, chunkFileBytes: { 'shop@orders@0.tsv.zst': 5 } });
    const done = read(text);
    expect(done.json.note).to.deep.equal({ chunkFileBytes: { 'x@y@0.tsv.zst': 1 } });
    expect(entries(done)).to.deep.equal([['shop@orders@0.tsv.zst', 5]]);
  });

  it('chunkFileBytes values util.loadDump would not read as unsigned integers: the first one is named', function () {
    const problems = (cfb) => {
      const out = [];
      doneTypeProblems(read(JSON.stringify({ dataBytes: 1, chunkFileBytes: cfb }, null, 1)), (f) => out.push(f));
      return out;
    };
    // Digits in a string, a bool, a float without a fraction: cast as the loader casts them.
    expect(problems({ 'a@b@0.tsv.zst': 5, 'a@b@1.tsv.zst': '77078', 'a@b@2.tsv.zst': true, 'a@b@3.tsv.zst': 2.0 })).to.deep.equal([]);
    for (const [value, found] of [['big', 'String'], [-1, 'Integer'], [1.5, 'Float'], [null, 'Null'], [{}, 'Map'], [[1], 'Array']]) {
      const got = problems({ 'a@b@0.tsv.zst': 5, 'a@\u00e9@1.tsv.zst': value, 'a@b@2.tsv.zst': 'worse' });
      expect(got, JSON.stringify(value)).to.have.length(1);
      expect(got[0]).to.contain(`"chunkFileBytes.a@\u00e9@1.tsv.zst" is ${found}, where util.loadDump reads an unsigned integer`);
    }
  });

  it('a document without chunkFileBytes (format 1.0.0) has no chunk list', function () {
    const done = read('{"end": "x", "dataBytes": 5}');
    expect(done.chunks).to.equal(null);
    expect(entries(done)).to.deep.equal([]);
  });
});

describe('data file names matched in place (chunk-names.js)', function () {
  const targets = [{ base: 'shop@orders', ext: 'tsv.zst' }, { base: 'shop@orders@2024', ext: 'tsv.zst' },
    { base: 'shop@log', ext: 'csv' }];
  const { match, matchAt } = makeNameMatcher(targets);
  const cases = {
    'shop@orders@0.tsv.zst': ['shop@orders', 0, false, false],
    'shop@orders@@12.tsv.zst': ['shop@orders', 12, true, false],
    'shop@orders@2024.tsv.zst': ['shop@orders@2024', 0, true, true], // a partition dumped whole wins
    'shop@log.csv': ['shop@log', 0, true, true],
    'shop@orders@01.tsv.zst': null, // the Shell writes no leading zeros
    'shop@orders@3.csv': null,
    'shop@other@3.tsv.zst': null,
    '@3.tsv.zst': null,
  };
  for (const [name, want] of Object.entries(cases)) {
    it(`${name}: ${want ? `${want[0]} chunk ${want[1]}` : 'no data file of a known table'}`, function () {
      const m = match(name);
      expect(m && [m.target.base, m.index, m.last, m.whole]).to.deep.equal(want);
      // The same inside a longer text.
      const text = `xx"${name}"yy`;
      const out = {};
      expect(matchAt(text, 3, 3 + name.length, out)).to.equal(!!want);
    });
  }
});
