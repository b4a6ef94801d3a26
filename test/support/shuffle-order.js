'use strict';
// Runs the tests in another order, to show that none depends on what ran before it (shared
// state, servers, temporary directories, environment). Not loaded by default; use it as
//   npx mocha --require test/support/shuffle-order.js test/unit/*.test.js
// with SHUFFLE_SEED=<number> (default 1; "reverse" reverses every list instead): the files' suites,
// the suites in each and the tests in each suite are put in an order made from the seed; the run
// prints the seed and the files' order first, so that a failure can be repeated.
const path = require('path');
const Mocha = require('mocha');

const given = process.env.SHUFFLE_SEED || '1';
const reverse = given === 'reverse';
let state = reverse ? 0 : (Number(given) >>> 0) || 1;

// A small linear congruential generator: the same seed gives the same order.
function random() {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 4294967296;
}

function reorder(list) {
  if (reverse) { list.reverse(); return; }
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = list[i];
    list[i] = list[j];
    list[j] = t;
  }
}

// Once every file is loaded, before the run starts (the root suite holds each file's suites).
const run = Mocha.prototype.run;
Mocha.prototype.run = function (fn) {
  (function walk(suite) {
    reorder(suite.suites);
    reorder(suite.tests);
    suite.suites.forEach(walk);
  })(this.suite);
  const files = [];
  this.suite.suites.forEach((s) => { const f = s.file && path.basename(s.file); if (f && files.indexOf(f) < 0) files.push(f); });
  process.stdout.write('Test order: SHUFFLE_SEED=' + given + ' (files: ' + files.join(', ') + ')\n');
  return run.call(this, fn);
};
