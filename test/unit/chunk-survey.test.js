'use strict';
// The survey's verdicts (lib/dump/chunk-survey.js) on the sample dump in memory: each data file's
// state from its size and first bytes, one problem per table and kind that names the first file,
// what a survey of the newest chunks leaves unread, and the sizes a stub is told from an empty
// chunk by.
const { expect } = require('chai');
const { readDumpModel } = require('../../lib/dump/dump-model.js');
const { sampleHost, editDone, targetOf, statesOf } = require('../support/sample-dump.js');
const crypto = require('crypto');
const { spawnSync } = require('child_process');
const { skipBecause } = require('../support/real');

const EMPTY_FRAME = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00]); // MySQL Shell's empty chunk
const NOT_ZSTD = Buffer.from('1\tplain text where a zstd frame should start\n');

function problems(model, code) { return model.problems.filter((p) => p.code === code); }
// The survey's sentence of each problem of that code (the advice lib/dump/dump-problems.js adds follows it).
function said(model, code, sentences) {
  const got = problems(model, code).map((p) => p.message);
  expect(got.map((m, i) => m.slice(0, (sentences[i] || '').length))).to.deep.equal(sentences);
}
// The names host.files runs stand for ([prefix, from, to, suffix] or [name]).
function runNames(runs) {
  const out = [];
  runs.forEach((r) => { if (r.length === 1) out.push(r[0]); else for (let i = r[1]; i < r[2]; i++) out.push(r[0] + i + r[3]); });
  return out;
}

describe('chunk survey: the verdict on each data file (lib/dump/chunk-survey.js)', function () {
  it('missing files: one problem per table naming the first file and the chunk numbers', function () {
    const one = sampleHost();
    one.files.remove(['/d/shop@orders@3.tsv.zst']);
    const m1 = readDumpModel(one, '/d', {});
    said(m1, 'chunk-missing', ['shop.orders: the data file shop@orders@3.tsv.zst (1 of 12) is missing.']);
    expect(problems(m1, 'chunk-missing')[0].file).to.equal('shop@orders@3.tsv.zst');
    const three = sampleHost();
    three.files.remove(['/d/shop@orders@3.tsv.zst', '/d/shop@orders@4.tsv.zst', '/d/shop@orders@9.tsv.zst']);
    const m3 = readDumpModel(three, '/d', {});
    said(m3, 'chunk-missing', ['shop.orders: 3 of 12 data files (chunks 3-4, 9; first shop@orders@3.tsv.zst) are missing.']);
    expect(statesOf(targetOf(m3, 'orders')).filter((s) => s === 'missing')).to.have.length(3);
    expect(m3.loadable).to.equal(false);
  });

  it('a file that does not start as zstd is corrupt; a truncated one names what its walk found', function () {
    const host = sampleHost();
    host.fs.put('/d/shop@customers@@0.tsv.zst', NOT_ZSTD);
    const raw = host.fs.bytes('/d/shop@orders@5.tsv.zst');
    host.fs.put('/d/shop@orders@5.tsv.zst', raw.subarray(0, 100));
    const m = readDumpModel(host, '/d', {});
    expect(statesOf(targetOf(m, 'customers'))).to.deep.equal(['corrupt']);
    expect(statesOf(targetOf(m, 'orders'))[5]).to.equal('corrupt');
    const texts = problems(m, 'chunk-corrupt').map((p) => p.message);
    expect(texts).to.have.length(2);
    expect(texts.find((t) => /^shop\.customers: /.test(t))).to.match(new RegExp('^shop\\.customers: its data file ' +
      'shop@customers@@0\\.tsv\\.zst is not valid zstd data \\(not the start of a zstd frame, or shorter than any\\)\\.'));
    expect(texts.find((t) => /^shop\.orders: /.test(t))).to.match(
      /^shop\.orders: the data file shop@orders@5\.tsv\.zst \(1 of 12\) is not valid zstd data \(shop@orders@5\.tsv\.zst: truncated block .+ at byte \d+ of 100\)\. /);
    expect(m.loadable).to.equal(false);
  });

  it('walks many files of many blocks side by side: one host read per round of block headers; a truncated one is found', function () {
    const host = sampleHost();
    const sizes = {};
    for (let n = 0; n < 6; n++) {
      const data = crypto.randomBytes(2 * 1024 * 1024); // raw 128 KiB blocks: 16 block headers to walk in each file
      const z = spawnSync('zstd', ['-c', '-q', '-1'], { input: data, maxBuffer: 1 << 24 });
      if (z.status !== 0) skipBecause(this, 'it needs the zstd program');
      const name = `shop@orders@${n}.tsv.zst`;
      host.fs.put(`/d/${name}`, n === 5 ? z.stdout.subarray(0, z.stdout.length - 1000) : z.stdout);
      sizes[name] = data.length;
    }
    editDone(host, (d) => Object.assign(d.chunkFileBytes, sizes));
    let calls = 0;
    const readRanges = host.files.readRanges;
    host.files.readRanges = (r) => { calls++; return readRanges(r); };
    const m = readDumpModel(host, '/d', {});
    expect(statesOf(targetOf(m, 'orders')).slice(0, 6)).to.deep.equal(['present', 'present', 'present', 'present', 'present', 'corrupt']);
    expect(problems(m, 'chunk-corrupt')[0].message).to.match(/shop@orders@5\.tsv\.zst: truncated block/);
    expect(calls).to.be.within(15, 20); // one by one: 6 × 16
  });

  it('a file that holds no data is a stub when the dump recorded data for its chunk, else an empty chunk', function () {
    const host = sampleHost();
    host.fs.put('/d/shop@orders@3.tsv.zst', EMPTY_FRAME);
    host.fs.put('/d/shop@orders@4.tsv.zst', Buffer.alloc(0));
    const m = readDumpModel(host, '/d', {});
    const orders = targetOf(m, 'orders');
    expect(statesOf(orders).slice(3, 5)).to.deep.equal(['stub', 'stub']);
    expect(orders.counts).to.include({ present: 10, stub: 2, missing: 0, corrupt: 0 });
    // The sample's audit_log ends with a chunk the dumper wrote empty (0 bytes recorded): no stub.
    expect(statesOf(targetOf(m, 'audit_log'))).to.deep.equal(['present', 'empty']);
    expect(problems(m, 'chunk-missing').concat(problems(m, 'chunk-corrupt'))).to.deep.equal([]);
  });

  it('without chunkFileBytes (format 1.0.0), a chunk\'s recorded size comes from its .idx file', function () {
    const host = sampleHost();
    editDone(host, (done) => { delete done.chunkFileBytes; });
    host.fs.put('/d/shop@orders@3.tsv.zst', EMPTY_FRAME);
    host.fs.put('/d/shop@orders@4.tsv.zst', EMPTY_FRAME);
    host.files.remove(['/d/shop@orders@4.tsv.zst.idx']);
    const orders = targetOf(readDumpModel(host, '/d', {}), 'orders');
    // The .idx of chunk 3 says it had data: a stub. Chunk 4's size is recorded nowhere: empty.
    expect(statesOf(orders).slice(3, 5)).to.deep.equal(['stub', 'empty']);
    // Chunk 4's size unknown: so are the bytes a load of this table gets.
    expect(orders.usableDataBytes).to.equal(null);
  });

  it('a table of one chunk without a per-chunk record takes the table\'s total as its chunk\'s', function () {
    const host = sampleHost();
    editDone(host, (done) => { delete done.chunkFileBytes; });
    host.files.remove(['/d/shop@customers@@0.tsv.zst.idx']);
    host.fs.put('/d/shop@customers@@0.tsv.zst', EMPTY_FRAME);
    const m = readDumpModel(host, '/d', {});
    expect(statesOf(targetOf(m, 'customers'))).to.deep.equal(['stub']);
    expect(targetOf(m, 'customers').dataBytes).to.equal(53679);
  });

  it('counts the bytes a load gets: present and empty chunks only, not those found damaged', function () {
    const whole = targetOf(readDumpModel(sampleHost(), '/d', {}), 'orders');
    expect(whole.usableDataBytes).to.equal(whole.dataBytes);
    const host = sampleHost();
    host.files.remove(['/d/shop@orders@0.tsv.zst']);
    host.fs.put('/d/shop@orders@1.tsv.zst', host.fs.bytes('/d/shop@orders@1.tsv.zst').subarray(0, 100)); // found by the walk
    const done = JSON.parse(host.fs.text('/d/@.done.json'));
    const lost = done.chunkFileBytes['shop@orders@0.tsv.zst'] + done.chunkFileBytes['shop@orders@1.tsv.zst'];
    const orders = targetOf(readDumpModel(host, '/d', {}), 'orders');
    expect(orders.dataBytes).to.equal(whole.dataBytes);
    expect(orders.usableDataBytes).to.equal(whole.dataBytes - lost);
  });

  it('an entry the listing cannot read is corrupt with its reason, reported once (as unreadable), never read', function () {
    const host = sampleHost();
    const list = host.files.list;
    host.files.list = (dir, opts) => {
      const out = list(dir, opts);
      const at = out.names.indexOf('shop@orders@2.tsv.zst');
      if (at >= 0) out.errors.push([at, 'Permission denied']);
      return out;
    };
    const readRuns = host.files.readRuns;
    const read = [];
    host.files.readRuns = (dir, runs, n) => { read.push(...runNames(runs)); return readRuns(dir, runs, n); };
    const m = readDumpModel(host, '/d', {});
    const orders = targetOf(m, 'orders');
    expect(statesOf(orders)[2]).to.equal('corrupt');
    expect(require('../../lib/dump/chunk-table.js').problemOf(orders.chunks, 2)).to.equal('cannot be read: Permission denied');
    expect(problems(m, 'chunk-corrupt')).to.deep.equal([]);
    expect(problems(m, 'file-unreadable').map((p) => p.file)).to.deep.equal(['shop@orders@2.tsv.zst']);
    expect(read, 'files read').to.include('shop@orders@1.tsv.zst').and.not.include('shop@orders@2.tsv.zst');
  });

  it('chunks copied over each other are reported as copies, not as corrupt zstd', function () {
    const host = sampleHost();
    host.fs.put('/d/shop@orders@6.tsv.zst', host.fs.bytes('/d/shop@orders@5.tsv.zst'));
    editDone(host, (done) => { done.chunkFileBytes['shop@orders@6.tsv.zst'] = done.chunkFileBytes['shop@orders@5.tsv.zst']; });
    const m = readDumpModel(host, '/d', {});
    said(m, 'chunk-corrupt', [
      'shop.orders: 2 of 12 data files (chunks 5-6; first shop@orders@5.tsv.zst) look like copies of each other ' +
      '(shop@orders@5.tsv.zst has the same size and first 11191 bytes as shop@orders@6.tsv.zst: a copy of another chunk ' +
      '(a botched copy or rsync?), whose rows would load in place of its own).']);
  });

  it('a survey of the newest chunks leaves the older ones unchecked, whatever they hold', function () {
    const damaged = () => {
      const host = sampleHost();
      host.fs.put('/d/shop@orders@2.tsv.zst', NOT_ZSTD);
      host.files.remove(['/d/shop@orders@4.tsv.zst']);
      return host;
    };
    const latest2 = { surveyedFrom: (t) => (t.table === 'orders' ? 10 : 0) };
    const m = readDumpModel(damaged(), '/d', latest2);
    const orders = targetOf(m, 'orders');
    expect(statesOf(orders)).to.deep.equal(Array(10).fill('unchecked').concat(['present', 'present']));
    expect(orders.counts).to.include({ unchecked: 10, present: 2, missing: 0, corrupt: 0 });
    expect(m.problems).to.deep.equal([]);
    expect(m.loadable).to.equal(true);
    // A newest chunk damaged is still found.
    const host = damaged();
    host.fs.put('/d/shop@orders@10.tsv.zst', NOT_ZSTD);
    expect(statesOf(targetOf(readDumpModel(host, '/d', latest2), 'orders')).slice(10)).to.deep.equal(['corrupt', 'present']);
  });
});
