'use strict';
// Mocha's spec reporter, then the ten slowest test files and their seconds (hooks included: a
// file's servers started in its before hook count for it), so the next slowdown is seen where it starts.
const fs = require('fs');
const Mocha = require('mocha');
const path = require('path');

const { EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_RUN_END } = Mocha.Runner.constants;

class TimingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const started = new Map();
    const seconds = new Map();
    const t0 = Date.now();
    runner.on(EVENT_SUITE_BEGIN, (suite) => {
      if (suite.file && suite.parent && suite.parent.root) started.set(suite, Date.now());
    });
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!started.has(suite)) return;
      const file = path.relative(process.cwd(), suite.file);
      seconds.set(file, (seconds.get(file) || 0) + (Date.now() - started.get(suite)) / 1000);
    });
    // After the spec reporter's counts (its own EVENT_RUN_END listener was added first). Under
    // scripts/run-tests.js (RESTORE_TEST_PART) the counts and times go to a file: it prints those of all.
    runner.once(EVENT_RUN_END, () => {
      if (process.env.RESTORE_TEST_PART) {
        const st = this.stats;
        fs.writeFileSync(process.env.RESTORE_TEST_PART + '.json', JSON.stringify({ passes: st.passes, failures: st.failures,
          pending: st.pending, seconds: Object.fromEntries(seconds) }));
        return;
      }
      const slowest = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 10);
      if (!slowest.length) return;
      const total = (Date.now() - t0) / 1000;
      process.stdout.write(`\nThe ten slowest test files (seconds, hooks included; the whole run ${total.toFixed(0)} s):\n` +
        slowest.map(([f, s]) => `  ${s.toFixed(1).padStart(7)}  ${f}`).join('\n') + '\n');
    });
  }
}

module.exports = TimingReporter;
