'use strict';
// Fault injection for the stand-in (`--fail-at=REGEX`): the FIRST SQL statement whose text matches
// REGEX (case-insensitive, tested against the statement as the server would get it, placeholders
// already substituted) fails as if the server had refused it: MySQL error 1105 (ER_UNKNOWN_ERROR).
// Every later statement, including a second one matching REGEX, runs normally, so a test can
// break one step of a run (the tuning, util.loadDump's own statements, the analyze pass, the
// revert) and then check what the plugin left behind and whether it can repair it.
// The hook is shared by every session of one stand-in process (the global session and the ones
// util.loadDump opens), so "first" means first in the whole run. Put it before the personality
// hook so that statements the personality answers can fail too.
const FAULT_CODE = 1105;

function makeFaultInjection(regexSource) {
  let re;
  try {
    re = new RegExp(regexSource, 'i');
  } catch (e) {
    throw new Error(`--fail-at expects a regular expression: ${e.message}`);
  }
  let fired = false;
  return function faultInjection(sql) {
    if (fired || !re.test(sql)) return undefined;
    fired = true;
    const e = new Error(`Unknown error (fault injected by the stand-in: --fail-at=${regexSource})`);
    e.code = FAULT_CODE;
    throw e;
  };
}

module.exports = { makeFaultInjection, FAULT_CODE };
