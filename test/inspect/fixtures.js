'use strict';
// Real dumps are read-only; tests that change one work on a writable temporary copy.
const fs = require('fs');
const path = require('path');
const { copyRealDump } = require('../support/paths');

function writableCopy(name) {
  const dir = copyRealDump(name);
  fs.chmodSync(dir, 0o755);
  fs.readdirSync(dir).forEach((f) => fs.chmodSync(path.join(dir, f), 0o644));
  return dir;
}

module.exports = { writableCopy };
