'use strict';
// restore.inspect must stay fast on big dumps: a 100,000-chunk table inspects in well under a
// second (batched host calls, nothing per file, nothing quadratic). Timed inside the shell, so
// only the member call counts, not starting the stand-in.
const fs = require('fs');
const path = require('path');
const { expect } = require('chai');
const { runShell } = require('../support/standin');
const { realDumpsDir } = require('../support/paths');
const { writableCopy } = require('./fixtures');

const CHUNKS = 100000;
const PRESENT = 200; // the newest chunks, copied here; the rest are missing

function timedInspect(dir) {
  const r = runShell({ uri: null, code: `(function () { var t0 = Date.now(); var r = restore.inspect(${JSON.stringify(dir)});
    return { ms: Date.now() - t0, chunks: r.totals.chunks, present: r.totals.present, missing: r.totals.missing,
      problems: r.problems.length }; })()` });
  if (r.error) throw new Error(r.error.message);
  return r.value;
}

// FedeCapo00's table turned into one of CHUNKS chunks (keyed, so "latest" means something).
function bigDump() {
  const dir = writableCopy('FedeCapo00__Database');
  const chunk = fs.readFileSync(path.join(dir, 'test@test_table@0.tsv.zst'));
  fs.readdirSync(dir).filter((f) => f.includes('.tsv.zst')).forEach((f) => fs.unlinkSync(path.join(dir, f)));
  const done = JSON.parse(fs.readFileSync(path.join(dir, '@.done.json'), 'utf8'));
  done.chunkFileBytes = {};
  for (let i = 0; i < CHUNKS; i++) {
    const name = `test@test_table@${i === CHUNKS - 1 ? '@' : ''}${i}.tsv.zst`;
    done.chunkFileBytes[name] = 2413;
    if (i >= CHUNKS - PRESENT) fs.writeFileSync(path.join(dir, name), chunk);
  }
  fs.writeFileSync(path.join(dir, '@.done.json'), JSON.stringify(done));
  return dir;
}

describe('restore.inspect: speed', () => {
  it(`a table of ${CHUNKS} chunks (the newest ${PRESENT} present) inspects in under a second`, function () {
    this.timeout(120000);
    const dir = bigDump();
    // Best of three cold runs (each in a fresh shell): the time of a busy test machine is noisy.
    let runs;
    try {
      runs = [timedInspect(dir), timedInspect(dir), timedInspect(dir)];
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(runs[0]).to.include({ chunks: CHUNKS, present: PRESENT, missing: CHUNKS - PRESENT, problems: 1 });
    expect(Math.min(...runs.map((v) => v.ms))).to.be.below(1000);
  });

  it('every real dump inspects in under a second', () => {
    fs.readdirSync(realDumpsDir(), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).forEach((name) => {
      expect(timedInspect(path.join(realDumpsDir(), name)).ms, name).to.be.below(1000);
    });
  });
});
