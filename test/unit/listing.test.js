'use strict';
// A directory listing kept as a compact name -> size map (lib/core/listing.js fileSet): the same
// answers as a Map of the entries kept, from either shape of host.files.list's answer (names and
// sizes as lists, or joined: one text and float64 sizes).
const { expect } = require('chai');
const { fileSet } = require('../../lib/core/listing.js');

function listing(names, sizes, dirs, errors) {
  return { names, sizes, dirs, errors };
}

function joined(l) {
  const bytes = new Float64Array(l.sizes.map((s) => (s === null ? NaN : s)));
  return { namesText: l.names.join('/'), sizeBytes: bytes.buffer, dirs: l.dirs, errors: l.errors };
}

function asMap(set) {
  const out = [];
  set.forEach((size, name) => out.push([name, size]));
  return out;
}

describe('a listing as a compact name -> size map (listing.js fileSet)', function () {
  const names = [];
  const sizes = [];
  for (let i = 0; i < 5000; i++) {
    names.push(`s@t${i}.json`, `s@t${i}.sql`);
    sizes.push(100 + i, null);
  }
  names.push('\u00e9t\u00e9@x.json', 'sub', 'dangling', 'locked.json', '@.done.json');
  sizes.push(7, 0, null, 12, 2 ** 40);
  const dirs = [names.indexOf('sub')];
  const errors = [[names.indexOf('dangling'), 'No such file or directory', null], [names.indexOf('locked.json'), 'Permission denied', null]];
  const keep = (i, isDir, error, size) => !isDir && (!error || size !== null);

  for (const [shape, make] of [['names and sizes as lists', (l) => l], ['joined', joined]]) {
    it(`${shape}: has, get, forEach, keys and size answer as a Map of the entries kept; set updates or adds`, function () {
      const want = new Map();
      names.forEach((n, i) => { if (keep(i, dirs.includes(i), errors.find((e) => e[0] === i), sizes[i])) want.set(n, sizes[i]); });
      const set = fileSet(make(listing(names, sizes, dirs, errors)), keep);
      expect(set.size).to.equal(want.size);
      expect(asMap(set)).to.deep.equal(Array.from(want));
      expect(set.keys()).to.deep.equal(Array.from(want.keys()));
      for (const n of [...names, 's@t5000.json', 's@t1.jso', '', 'x/y', '\u00e9t\u00e9@x.json']) {
        expect(set.has(n), n).to.equal(want.has(n));
        expect(set.get(n), n).to.equal(want.get(n));
      }
      expect(set.nameAt(names.indexOf('dangling'))).to.equal('dangling');
      expect(set.sizeAt(names.indexOf('locked.json'))).to.equal(12);
      for (const [n, s] of [['s@t3.sql', 55], ['new@0.tsv.zst', 9], ['sub', null], ['new@0.tsv.zst', 10]]) {
        set.set(n, s);
        want.set(n, s);
      }
      expect(set.size).to.equal(want.size);
      expect(asMap(set)).to.deep.equal(Array.from(want));
    });
  }

  it('an empty listing', function () {
    const set = fileSet(joined(listing([], [], [], [])), keep);
    expect(set.size).to.equal(0);
    expect(set.has('x')).to.equal(false);
    expect(set.keys()).to.deep.equal([]);
  });
});
