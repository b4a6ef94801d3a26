// A mistake in the user's input, or an operation refused for a stated reason. The plugin shows
// its message alone (no stack): say what is wrong, where, and what to do. code: one of
// lib/core/error-codes.js (what a script tests, never the message); data: plain facts ({option,
// path, phase…}) for outputFormat json.
function UserError(code, message, data) {
  this.name = 'UserError';
  this.code = code;
  this.message = message;
  this.data = data || {};
  this.isUserError = true;
}
UserError.prototype = Object.create(Error.prototype);
UserError.prototype.constructor = UserError;

// A failure the plugin reports by its message alone: a refusal, a failed statement, a failed
// Shell call. Marks, not instanceof: an error thrown in another file's GraalJS context fails instanceof.
function isKnownFailure(e) {
  return !!(e && (e.isUserError || e.isSqlError || e.isShellApiError));
}

// What outputFormat json prints for a failure: {code, message, data}. A failed statement keeps
// the server's error number under data.errno; anything else is the plugin's own defect.
function errorFacts(e) {
  if (e && e.isUserError) return { code: e.code, message: e.message, data: e.data || {} };
  if (e && e.isSqlError) return { code: 'SQL_FAILED', message: e.message, data: { errno: e.code } };
  if (e && e.isShellApiError) return { code: 'SHELL_CALL_FAILED', message: e.message, data: {} };
  return { code: 'INTERNAL', message: String((e && e.message) || e), data: {} };
}

module.exports = { UserError: UserError, errorFacts: errorFacts, isKnownFailure: isKnownFailure };
