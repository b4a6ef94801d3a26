'use strict';
// lib/format/output.js (outputFormat text / json / none) and lib/format/progress.js (bounded-rate
// progress lines) are plain JS: checked here under Node, with a host whose out records what
// would be printed. The real Shell's side is test/shell/output.test.js.
const { expect } = require('chai');
const { runWithOutput, printJson, lazyList } = require('../../lib/format/output');
const { startProgress, groupDigits } = require('../../lib/format/progress');
const { formatBytes } = require('../../lib/format/text-table');

function recordingHost() {
  const printed = [];
  return {
    printed,
    sql: { run() { throw new Error('not used'); } },
    out: {
      print: (l) => printed.push(l),
      warn: (l) => printed.push('WARNING: ' + l),
      progress: (l) => printed.push(l),
    },
  };
}

// A member body as lib/ writes them: prints unconditionally (also through an unbound function).
function member(host, options) {
  [host.out.print][0]('report line');
  host.out.progress('Doing things - 50% (1 / 2)');
  host.out.warn('something to know');
  return { answer: 42, got: options };
}

describe('outputFormat (lib/format/output.js)', function () {
  it('text (default) prints the report and returns nothing', function () {
    const host = recordingHost();
    expect(runWithOutput(host, undefined, member)).to.equal(undefined);
    expect(host.printed).to.deep.equal(['report line', 'Doing things - 50% (1 / 2)', 'WARNING: something to know']);
  });

  it('json prints one JSON document with the facts and the warnings, nothing else', function () {
    const host = recordingHost();
    expect(runWithOutput(host, { outputFormat: 'json', x: 1 }, member)).to.equal(undefined);
    expect(host.printed).to.have.length(1);
    expect(JSON.parse(host.printed[0])).to.deep.equal({ answer: 42, got: { x: 1 }, warnings: ['something to know'] });
  });

  it('none prints nothing and returns the facts; outputFormat never reaches lib/', function () {
    const host = recordingHost();
    const r = runWithOutput(host, { outputFormat: 'none' }, member);
    expect(host.printed).to.deep.equal([]);
    expect(r).to.deep.equal({ answer: 42, got: {}, warnings: ['something to know'] });
  });

  it('keeps a result\'s own warnings once', function () {
    const host = recordingHost();
    const r = runWithOutput(host, { outputFormat: 'none' }, (h) => {
      h.out.warn('w1');
      h.out.warn('w2');
      return { warnings: ['w1'] };
    });
    expect(r.warnings).to.deep.equal(['w1', 'w2']);
  });

  it('refuses an unknown format before running anything', function () {
    const host = recordingHost();
    let ran = false;
    expect(() => runWithOutput(host, { outputFormat: 'yaml' }, () => { ran = true; }))
      .to.throw(/Invalid value for outputFormat: "yaml"\. Use "text" \(the default\), "json" or "none"/);
    expect(ran).to.equal(false);
  });
});

describe('JSON documents printed in pieces (lib/format/output.js printJson)', function () {
  it('prints exactly JSON.stringify(value, null, 2), in pieces of whole lines', function () {
    const values = [null, 3, 'x"y', [], {}, [1, [2, []], { a: {} }], { a: undefined, b: () => 1, c: [undefined, NaN, 'é'], d: { e: null } },
      { tables: Array.from({ length: 300 }, (_, t) => ({ table: `t${t}`, chunks: Array.from({ length: 100 }, (x, i) => ({ index: i, state: 'present' })) })) }];
    for (const v of values) {
      const pieces = [];
      printJson(v, (p) => pieces.push(p));
      expect(pieces.join('\n')).to.equal(JSON.stringify(v, null, 2));
    }
    const pieces = [];
    printJson(values[values.length - 1], (p) => pieces.push(p));
    expect(pieces.length, 'a large document goes out in several pieces').to.be.above(5);
  });

  it('a lazy list is printed as the array it stands for, and made an array for outputFormat "none"', function () {
    const made = [];
    const facts = { tables: [{ chunks: lazyList(3, (i) => { made.push(i); return { index: i }; }) }] };
    const want = { tables: [{ chunks: [{ index: 0 }, { index: 1 }, { index: 2 }] }] };
    const pieces = [];
    printJson(facts, (p) => pieces.push(p));
    expect(pieces.join('\n')).to.equal(JSON.stringify(want, null, 2));
    expect(made).to.deep.equal([0, 1, 2]);
    const host = { out: { print: () => {}, warn: () => {}, progress: () => {} } };
    expect(runWithOutput(host, { outputFormat: 'none' }, () => facts)).to.deep.equal(want);
  });
});

describe('progress lines (lib/format/progress.js)', function () {
  function run(total, steps) {
    const host = recordingHost();
    let t = 0;
    const p = startProgress(host, 'Writing stubs', total, { unit: 'files', now: () => t });
    steps.forEach(([at, done]) => { t = at; p.update(done); });
    t += 100;
    p.done();
    return host.printed;
  }

  it('stays quiet for a step shorter than 2 s', function () {
    expect(run(100000, [[500, 50000], [1500, 100000]])).to.deep.equal([]);
  });

  it('prints percent and counts at most every tenth or every 2 s, then done', function () {
    const steps = [];
    for (let i = 1; i <= 100; i++) steps.push([2000 + i * 10, i * 1000]); // 1 s for 100,000 files after 2 s
    const lines = run(100000, steps);
    expect(lines[0]).to.equal('Writing stubs - 1% (1,000 / 100,000 files)');
    expect(lines).to.include('Writing stubs - 10% (10,000 / 100,000 files)');
    expect(lines).to.include('Writing stubs - 90% (90,000 / 100,000 files)');
    expect(lines.length).to.be.at.most(12);
    expect(lines[lines.length - 1]).to.equal('Writing stubs - done (100,000 files, 3.1 s)');
  });

  it('prints every 2 s when each tenth takes longer', function () {
    const lines = run(1000, [[2500, 1], [3000, 2], [4600, 3], [7000, 4]]);
    expect(lines).to.deep.equal([
      'Writing stubs - 0% (1 / 1,000 files)',
      'Writing stubs - 0% (3 / 1,000 files)',
      'Writing stubs - 0% (4 / 1,000 files)',
      'Writing stubs - done (1,000 files, 7.1 s)',
    ]);
  });

  it('shows amounts with the step\'s own format (bytes for verify), and the summary it is given', function () {
    const host = recordingHost();
    let t = 0;
    const p = startProgress(host, 'Verifying data files', 4 * 1048576, { format: formatBytes, now: () => t });
    t = 2500;
    p.update(1048576);
    t = 3000;
    p.done('20 files, 4.0 MiB');
    expect(host.printed).to.deep.equal(['Verifying data files - 25% (1.0 MiB / 4.0 MiB)',
      'Verifying data files - done (20 files, 4.0 MiB, 3.0 s)']);
  });

  it('shows a second measure of the same progress beside the first (bytes and files of a fetch)', function () {
    const host = recordingHost();
    let t = 0;
    const p = startProgress(host, 'Fetching data files', 4 * 1048576, { format: formatBytes, now: () => t });
    t = 2500;
    p.update(2 * 1048576, '5 / 11 files');
    t = 3000;
    p.done('11 files, 4.0 MiB');
    expect(host.printed).to.deep.equal(['Fetching data files - 50% (2.0 MiB / 4.0 MiB; 5 / 11 files)',
      'Fetching data files - done (11 files, 4.0 MiB, 3.0 s)']);
  });

  it('groups digits like the Shell', function () {
    expect([0, 999, 1000, 45000, 1234567].map(groupDigits)).to.deep.equal(['0', '999', '1,000', '45,000', '1,234,567']);
  });
});
