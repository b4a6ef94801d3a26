'use strict';
// Errors thrown by Shell APIs, in the shape of the emulated engine (plugin-runtime.md §0.1):
// V8 builds throw a plain {type, message, code}; GraalJS builds an Error whose cause holds it.

class ShellError {
  constructor(type, message, code) {
    this.type = type;
    this.message = message;
    if (code !== undefined) this.code = code;
  }
}

function withPrefix(profile, where, message) {
  return profile.prefix && where ? `${where}: ${message}` : message;
}

// The value to throw into plugin code.
function shellThrowable(profile, type, message, code, where) {
  const text = withPrefix(profile, where, message);
  const payload = { type, message: text };
  if (code !== undefined && code !== null) payload.code = code;
  if (profile.engine === 'GraalJS') {
    const ErrorInRealm = profile.realmError || Error; // GraalJS builds it in the main JS realm
    return new ErrorInRealm(text, { cause: payload });
  }
  return new ShellError(type, text, payload.code);
}

// What mysqlsh prints for an uncaught error: message of either shape.
function errorText(e) {
  if (e && e.cause && e.cause.message) return e.cause.message;
  if (e && typeof e.message === 'string') return e.message;
  return String(e);
}

function errorCode(e) {
  if (e && e.cause && e.cause.code !== undefined) return e.cause.code;
  return e ? e.code : undefined;
}

module.exports = { ShellError, shellThrowable, errorText, errorCode, withPrefix };
