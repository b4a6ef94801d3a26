'use strict';
// Where ../shared lives: beside the checkout (CI and developers), or RESTORE_SHARED_DIR.
const path = require('path');
const fs = require('fs');

function sharedDir() {
  if (process.env.RESTORE_SHARED_DIR) return process.env.RESTORE_SHARED_DIR;
  const beside = path.resolve(__dirname, '..', '..', '..', 'shared');
  if (fs.existsSync(beside)) return beside;
  throw new Error(`../shared not found beside the checkout (looked at ${beside}); set RESTORE_SHARED_DIR`);
}

module.exports = {
  sharedDir,
  contractDir: () => path.join(sharedDir(), 'mysqlsh-contract'),
  realDumpsDir: () => path.join(sharedDir(), 'real-dumps'),
};
