// A failed SQL statement, as every host reports it: the server's error code and message.
function SqlError(code, message) {
  this.name = 'SqlError';
  this.code = code;
  this.message = message;
}
SqlError.prototype = Object.create(Error.prototype);
SqlError.prototype.constructor = SqlError;

module.exports = { SqlError: SqlError };
