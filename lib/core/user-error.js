// A mistake in the user's input, or an operation refused for a stated reason. The plugin shows
// its message alone (no stack): say what is wrong, where, and what to do.
function UserError(message, details) {
  this.name = 'UserError';
  this.message = message;
  this.isUserError = true;
  if (details) this.details = details;
}
UserError.prototype = Object.create(Error.prototype);
UserError.prototype.constructor = UserError;

module.exports = { UserError: UserError };
