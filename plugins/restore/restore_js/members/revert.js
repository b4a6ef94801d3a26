var UserError = require('../../lib/user-error.js').UserError;

module.exports = {
  name: 'revert',
  definition: {
    brief: 'Not yet available.',
    details: ['This member is not implemented yet.'],
    parameters: [{ name: 'args', type: 'array', required: false }],
    cli: true,
  },
  run: function () { throw new UserError('restore.revert() is not yet available.'); },
};
