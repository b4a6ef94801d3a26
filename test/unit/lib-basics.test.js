'use strict';
// lib/ is host-independent plain JS: its pure parts run under Node too, without the real Shell.
const { expect } = require('chai');
const { quoteIdentifier, quoteTable } = require('../../lib/core/sql-identifiers');
const { splitName } = require('../../lib/dump/object-names');
const names = require('../../lib/dump/chunk-names');
const { idxDataBytes } = require('../../lib/dump/idx-file');
const bytes = require('../../lib/core/bytes');

describe('lib basics (no Shell needed)', function () {
  it('quotes identifiers with backticks doubled', function () {
    expect(quoteIdentifier('a`b')).to.equal('`a``b`');
    expect(quoteTable('s', 'order items')).to.equal('`s`.`order items`');
  });

  it('splits schema.table names with optional backticks', function () {
    expect(splitName('shop.orders')).to.deep.equal(['shop', 'orders']);
    expect(splitName('`sh.op`.`a``b`')).to.deep.equal(['sh.op', 'a`b']);
  });

  it('recognises chunk, last-chunk and whole data file names of known tables only', function () {
    const t = { base: 'shop@orders', ext: 'tsv.zst' };
    const { match } = names.makeNameMatcher([t]);
    expect(match('shop@orders@3.tsv.zst')).to.include({ index: 3, last: false, whole: false });
    expect(match('shop@orders@@11.tsv.zst')).to.include({ index: 11, last: true });
    expect(match('shop@orders.tsv.zst')).to.include({ whole: true });
    expect(match('shop@orders@03.tsv.zst')).to.equal(null);
    expect(match('shop@other@1.tsv.zst')).to.equal(null);
    expect(names.chunkFileName('shop@orders', 'tsv.zst', 7, true)).to.equal('shop@orders@@7.tsv.zst');
  });

  it('reads the uncompressed size from an .idx file (last big-endian 8-byte offset)', function () {
    const idx = new Uint8Array(16);
    idx[15] = 0x10; idx[14] = 0x01; // 0x0110 = 272
    expect(idxDataBytes(idx.buffer)).to.equal(272);
    expect(idxDataBytes(new Uint8Array(7).buffer)).to.equal(null);
  });

  it('treats anything with a byteLength as binary (duck typing works across GraalJS contexts)', function () {
    const foreignLike = { byteLength: 2, 0: 1, 1: 2 }; // no ArrayBuffer tag, as under GraalJS
    expect(bytes.isBinary(foreignLike)).to.equal(true);
    expect(bytes.isBinary('text')).to.equal(false);
    const view = new Uint8Array([9, 8, 7, 6]).subarray(1, 3);
    expect(Array.from(bytes.toBytes(view))).to.deep.equal([8, 7]);
    expect(new Uint8Array(bytes.toArrayBuffer(view))).to.deep.equal(new Uint8Array([8, 7]));
  });
});
