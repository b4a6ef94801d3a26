// Turns what a member throws into what the user reads: a UserError (a mistake in the input or a
// refused operation) becomes a plain Error with its message alone, so mysqlsh shows that message
// first; anything else is passed on untouched.
function formatFailure(e) {
  if (e && e.isUserError) return new Error(e.message);
  return e;
}

module.exports = { formatFailure: formatFailure };
