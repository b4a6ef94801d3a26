// A file operation of the host (host.files, ./host.js) refused or failed for a stated reason: the
// plugin's Python companion answers it as data ({code, path, errno, reason, message}), never as a
// traceback. A user error (isUserError): shown by its message alone, printed by outputFormat json
// as {code, message, data} like a UserError; code, path and errno are for code to test.
//   code    one of lib/core/error-codes.js FILE_CODES, e.g. 'exists', 'outside-state-dir',
//           'write-failed', 'program-missing', 'os-error'
//   data    {path: what it concerns or null, errno: the OS error number or null, reason: the
//            sentence about the path (message is "<path>: <reason>", with what a batch did before)}
function FileError(code, message, data) {
  this.name = 'FileError';
  this.code = code;
  this.message = message;
  this.data = data || {};
  this.path = this.data.path === undefined ? null : this.data.path;
  this.errno = this.data.errno === undefined ? null : this.data.errno;
  this.isUserError = true;
  this.isFileError = true;
}
FileError.prototype = Object.create(Error.prototype);
FileError.prototype.constructor = FileError;

module.exports = { FileError: FileError };
