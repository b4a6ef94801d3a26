// Whether a dump is finished: MySQL Shell writes @.done.json last, so without it the dump is still
// being written or was cut off. The dump model's `complete` is this fact; the refusal below is for
// the commands that change something (stubs, load, view) unless the user says allowIncomplete:
// the missing files could be stubbed as "not chosen", or existing tables dropped before
// util.loadDump refuses it. restore.load and restore.view ask before the model is read (an
// unfinished dump is refused before its chunks are listed); restore.plan and restore.stub ask
// their model.
var UserError = require('../core/user-error.js').UserError;
var pathMaker = require('./dump-paths.js').pathMaker;

// pathOf: the dump directory's name -> path (dump-paths.js pathMaker).
function isComplete(host, pathOf) {
  return host.files.isFile(pathOf('@.done.json'));
}

function incompleteError(dir, what) {
  return new UserError('DUMP_INCOMPLETE', what + ' refused: the dump in ' + dir + ' is unfinished (@.done.json, which MySQL Shell ' +
    'writes last, is missing: the dump is still being written or was cut off). Nothing was changed. Wait for the ' +
    'dump to finish, or pass allowIncomplete: true to go ahead with what is there.', { path: dir });
}

// Before the model is read: a directory without @.json is left to the model's own message.
function refuseIncomplete(host, dir, what) {
  var pathOf = pathMaker(host, dir);
  if (!host.files.isFile(pathOf('@.json')) || isComplete(host, pathOf)) return;
  throw incompleteError(dir, what);
}

// model: lib/dump/dump-model.js's.
function refuseIncompleteModel(model, what) {
  if (!model.complete) throw incompleteError(model.dir, what);
}

module.exports = { isComplete: isComplete, refuseIncomplete: refuseIncomplete, refuseIncompleteModel: refuseIncompleteModel };
