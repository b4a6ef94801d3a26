// A failed SQL statement, as every host reports it: the server's error code and message.
function SqlError(code, message) {
  this.name = 'SqlError';
  this.code = code;
  this.message = message;
  this.isSqlError = true; // a mark, not instanceof: errors cross GraalJS contexts
}
SqlError.prototype = Object.create(Error.prototype);
SqlError.prototype.constructor = SqlError;

module.exports = { SqlError: SqlError };
