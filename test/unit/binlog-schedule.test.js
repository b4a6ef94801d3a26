'use strict';
// The replay's schedule (plugins/restore/restore_py/binlog_replay.py wait_indexes): which transaction
// must have committed before each one starts, from the logical clock the source wrote. Sequence
// numbers restart in each file, so a file's first transaction waits for the previous file's last.
const { expect } = require('chai');
const { spawnSync } = require('child_process');
const { HAVE_PYTHON, prelude } = require('../support/companion');

function waitIndexes(items) {
  const script = [...prelude(), 'r = importlib.import_module("companion_under_test.binlog_replay")',
    `print(json.dumps(r.wait_indexes(json.loads(${JSON.stringify(JSON.stringify(items))}))))`].join('\n');
  const got = spawnSync('python3', ['-B', '-c', script], { encoding: 'utf8' });
  if (got.status !== 0) throw new Error(got.stderr);
  return JSON.parse(got.stdout);
}

// [file, start, end, gtid, lastCommitted, sequenceNumber, time]
const t = (file, lc, seq) => [file, 0, 0, null, lc, seq, 0];

describe('the replay\'s schedule by the logical clock', function () {
  before(function () { if (!HAVE_PYTHON) this.skip(); });

  it('a transaction waits for the last one at or below its last_committed; a new file for the previous file\'s end', function () {
    expect(waitIndexes([
      t('b.1', 0, 1), t('b.1', 0, 2), t('b.1', 1, 3), t('b.1', 3, 4), // 1 and 2 side by side; 3 after 1; 4 after 3
      t('b.2', 0, 1), t('b.2', 0, 2), // the next file: after b.1's last (index 3)
    ])).to.deep.equal([-1, -1, 0, 2, 3, 3]);
  });

  it('transactions left out (in the dump, on the target) do not hold others back; no clock: one after another', function () {
    // seq 2 and 3 not replayed: seq 4 (last_committed 3) waits for seq 1, the last below it.
    expect(waitIndexes([t('b.1', 0, 1), t('b.1', 3, 4), t('b.1', 4, 5)])).to.deep.equal([-1, 0, 1]);
    expect(waitIndexes([t('b.1', null, null), t('b.1', null, null)])).to.deep.equal([-1, 0]);
  });
});
