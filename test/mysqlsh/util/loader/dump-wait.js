'use strict';
// waitDumpTimeout (loader-internals §2.2 e): without @.done.json the loader re-lists the directory
// until the file appears, or until nothing new has appeared for the timeout. The stand-in only
// waits; it does not load the chunks that are already there while waiting (documented gap).
const { shellThrowable } = require('../../shell-errors');

const WHERE = 'Util.loadDump';
const POLL_MS = 200;

function sleepMs(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

// Returns when @.done.json is listed (dumpDir.listing is then the listing loading starts from).
function waitForDumpEnd(dumpDir, timeoutSeconds, { profile, out }) {
  out.print('Dump is still ongoing, data will be loaded as it becomes available.');
  out.print('Waiting for more data to become available...');
  let seen = [...dumpDir.listing].sort().join('\n');
  let lastChange = Date.now();
  for (;;) {
    sleepMs(Math.min(POLL_MS, Math.max(1, timeoutSeconds * 1000)));
    const listing = dumpDir.list();
    if (listing.has('@.done.json')) return;
    const now = [...listing].sort().join('\n');
    if (now !== seen) { seen = now; lastChange = Date.now(); }
    if (Date.now() - lastChange >= timeoutSeconds * 1000) {
      out.warn('Timeout while waiting for dump to finish. Imported data may be incomplete.');
      throw shellThrowable(profile, 'RuntimeError', 'Dump timeout', 53022, WHERE);
    }
  }
}

module.exports = { waitForDumpEnd, sleepMs };
