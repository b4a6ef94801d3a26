// An unfinished dump (no @.done.json: still being written, or cut off) is refused by the steps
// that change something (stubs, load) unless the user says allowIncomplete: the missing files
// could be stubbed as "not chosen", or existing tables dropped before util.loadDump refuses it.
var UserError = require('../core/user-error.js').UserError;
var pathMaker = require('./dump-paths.js').pathMaker;

function refuseIncomplete(host, dir, what) {
  var pathOf = pathMaker(host, dir);
  if (!host.files.isFile(pathOf('@.json')) || host.files.isFile(pathOf('@.done.json'))) return;
  throw new UserError(what + ' refused: the dump in ' + dir + ' is unfinished (@.done.json, which MySQL Shell ' +
    'writes last, is missing: the dump is still being written or was cut off). Nothing was changed. Wait for the ' +
    'dump to finish, or pass allowIncomplete: true to go ahead with what is there.');
}

module.exports = { refuseIncomplete: refuseIncomplete };
