'use strict';
// The loader's reading of metadata members (lib/dump/loader-json.js): the casts of MySQL Shell
// 9.1.0's shcore::Value (mysqlshdk/scripting/types.cc), and the dump model's problems in the
// loader's words. The real loader's agreement: test/shell/loader-differential.test.js.
const { expect } = require('chai');
const { cast, loaderCompression } = require('../../lib/dump/loader-json.js');
const { fakeHost } = require('../support/fake-host.js');
const { readDumpModel } = require('../../lib/dump/dump-model.js');

function sampleHost() { return fakeHost({ mount: { '/d': 'sample-dumps/shop' } }); }
function editJson(host, p, fn) {
  const j = JSON.parse(host.fs.text(p));
  fn(j);
  host.fs.put(p, JSON.stringify(j, null, 4));
}

describe('metadata members as util.loadDump reads them (lib/dump/loader-json.js)', function () {
  it('casts as shcore::Value does: Bool, UInteger, String, Map, Array, text of list entries', function () {
    const ok = (type, v, want) => expect(cast(type, v), `${type} ${JSON.stringify(v)}`).to.deep.equal({ value: want });
    const bad = (type, v, error) => expect(cast(type, v).error, `${type} ${JSON.stringify(v)}`).to.equal(error);
    ok('Bool', true, true); ok('Bool', 'TRUE', true); ok('Bool', 'false', false); ok('Bool', '1', true); ok('Bool', 0, false); ok('Bool', 2.5, true);
    bad('Bool', 'yes', 'Invalid typecast: Bool expected, but value is String');
    bad('Bool', null, 'Invalid typecast: Bool expected, but value is Null');
    bad('Bool', [], 'Invalid typecast: Bool expected, but value is Array');
    ok('UInteger', 7, 7); ok('UInteger', '128000', 128000); ok('UInteger', true, 1); ok('UInteger', 3.0, 3);
    bad('UInteger', '128k', 'Invalid typecast: UInteger expected, but value is String');
    bad('UInteger', '+5', 'Invalid typecast: UInteger expected, but value is String');
    bad('UInteger', -1, 'Invalid typecast: UInteger expected, but Integer value is out of range');
    bad('UInteger', 1.5, 'Invalid typecast: UInteger expected, but Float value is out of range');
    bad('UInteger', {}, 'Invalid typecast: UInteger expected, but value is Map');
    ok('String', 'x', 'x');
    bad('String', 5, 'Invalid typecast: String expected, but value is Integer');
    bad('String', true, 'Invalid typecast: String expected, but value is Bool');
    ok('AnyString', 5, '5'); ok('AnyString', true, 'true');
    bad('AnyString', null, 'Invalid typecast: String expected, but value is Null');
    ok('Map', {}, {}); bad('Map', [], 'Invalid typecast: Map expected, but value is Array');
    bad('Array', 'x', 'Invalid typecast: Array expected, but value is String');
  });

  it('knows the compressions by their exact names, options after ";", else from the extension', function () {
    expect(loaderCompression('zstd', 'tsv.zst')).to.deep.equal({ compression: 'zstd' });
    expect(loaderCompression('zstd;level=3', 'tsv.zst')).to.deep.equal({ compression: 'zstd' });
    expect(loaderCompression('ZSTD', 'tsv.zst')).to.deep.equal({ unknown: 'ZSTD' });
    expect(loaderCompression('lz4', 'tsv')).to.deep.equal({ unknown: 'lz4' });
    expect(loaderCompression(undefined, 'tsv.gz')).to.deep.equal({ compression: 'gzip' });
    expect(loaderCompression('', 'tsv.lz4')).to.deep.equal({ compression: 'none' });
    expect(loaderCompression(undefined, 'tsv')).to.deep.equal({ compression: 'none' });
  });

  it('the dump model reads members with the loader\'s casts and reports the rest naming file, member, found and expected type', function () {
    const host = sampleHost();
    editJson(host, '/d/shop@orders.json', (j) => { j.chunking = 1; j.compression = 'ZSTD'; j.triggers = 't'; });
    editJson(host, '/d/@.done.json', (j) => { j.chunkFileBytes['shop@orders@3.tsv.zst'] = '77078'; j.chunkFileBytes['shop@orders@4.tsv.zst'] = 'big'; });
    editJson(host, '/d/@.json', (j) => { j.bytesPerChunk = '128000'; j.tzUtc = 'yes'; });
    const model = readDumpModel(host, '/d');
    const orders = model.targets.find((t) => t.table === 'orders');
    expect(orders.chunking, 'chunking 1 is true for the loader').to.equal(true);
    expect(orders.chunks.length).to.equal(12);
    const facts = model.problems.map((p) => p.fact);
    expect(facts).to.include('shop@orders.json: "compression" is "ZSTD", which util.loadDump does not know; it stops with "Unknown compression type: ZSTD".');
    expect(facts).to.include('shop@orders.json: "triggers" is String, where util.loadDump reads an array (Array): it stops with "Invalid typecast: Array expected, but value is String".');
    expect(facts).to.include('@.done.json: "chunkFileBytes.shop@orders@4.tsv.zst" is String, where util.loadDump reads an unsigned integer (UInteger): it stops with "Invalid typecast: UInteger expected, but value is String".');
    expect(facts).to.include('@.json: "tzUtc" is String, where util.loadDump reads a bool (Bool): it stops with "Invalid typecast: Bool expected, but value is String".');
    expect(facts.join('\n')).to.not.match(/bytesPerChunk|shop@orders@3\.tsv\.zst/);
    expect(model.loadable).to.equal(false);
  });

  it('includesData false with data files there is named (not blocking: the loader loads the table empty)', function () {
    const host = sampleHost();
    editJson(host, '/d/shop@orders.json', (j) => { j.includesData = false; });
    const model = readDumpModel(host, '/d');
    expect(model.loadable).to.equal(true);
    expect(model.problems.map((p) => p.code)).to.deep.equal(['data-not-loaded']);
    expect(model.problems[0].fact).to.equal('shop.orders: shop@orders.json says "includesData": false, but its data files are there (shop@orders@0.tsv.zst); its rows are not loaded.');
  });

  it('the loader\'s listing decides: @N beside @@N, a whole-table file beside chunks, chunkFileBytes without the last chunk', function () {
    let host = sampleHost();
    host.fs.put('/d/shop@orders@11.tsv.zst', 'copy of the last chunk');
    expect(readDumpModel(host, '/d').problems.map((p) => p.code)).to.include('chunks-conflict');
    host = sampleHost();
    host.fs.put('/d/shop@orders.tsv.zst', 'a whole-table file');
    expect(readDumpModel(host, '/d').problems.map((p) => p.code)).to.include('whole-and-chunked');
    host = sampleHost();
    editJson(host, '/d/@.done.json', (j) => { delete j.chunkFileBytes['shop@orders@@11.tsv.zst']; });
    const model = readDumpModel(host, '/d');
    expect(model.loadable, model.problems.map((p) => p.message).join('\n')).to.equal(true);
    expect(model.targets.find((t) => t.table === 'orders').chunks.length).to.equal(12);
  });

  it('finds the same names when the listing leaves chunk files out (inspect, plan and stub; a load view)', function () {
    const lean = [{ chunksInFiles: false }, { chunksInFiles: false, surveyedFrom: () => 0 }, { surveyedFrom: (t) => t.chunks.length - 1 }];
    lean.forEach((options) => {
      let host = sampleHost();
      host.fs.put('/d/shop@orders@11.tsv.zst', 'copy of the last chunk');
      expect(readDumpModel(host, '/d', options).problems.map((p) => p.code)).to.include('chunks-conflict');
      host = sampleHost();
      host.fs.put('/d/shop@orders.tsv.zst', 'a whole-table file');
      expect(readDumpModel(host, '/d', options).problems.map((p) => p.code)).to.include('whole-and-chunked');
      host = sampleHost();
      editJson(host, '/d/shop@orders.json', (j) => { j.includesData = false; });
      expect(readDumpModel(host, '/d', options).problems.map((p) => p.code)).to.deep.equal(['data-not-loaded']);
    });
  });
});
