// The members of `restore`: definitions (help text, typed parameters, cli: true) come from
// ./members/*.js. They are put on restore._internal as two functions the Python companion calls:
// definitions() and run(name, argsJson). The companion registers the public members as thin
// Python functions around run(), because mysqlsh appends the JS file and line to any error a JS
// member throws ("… at …/init.js:47:9"), where an error raised in Python reads like the Shell's
// own ("ERROR: RuntimeError: <message>"). Arguments and results cross as JSON text: plain values
// on both sides, whatever the JS engine (GraalJS gives every file its own context).
var userError = require('../lib/core/user-error.js');
var isKnownFailure = userError.isKnownFailure;

var MEMBERS = [
  require('./members/version.js'),
  require('./members/status.js'),
  require('./members/inspect.js'),
  require('./members/binlogs.js'),
  require('./members/plan.js'),
  require('./members/stub.js'),
  require('./members/view.js'),
  require('./members/load.js'),
  require('./members/dump.js'),
  require('./members/presets.js'),
  require('./members/analyze.js'),
  require('./members/revert.js'),
  require('./members/disable-redo-log.js'),
  require('./members/enable-redo-log.js'),
];

// What the user reads for a failure: the message alone for a known kind (a user mistake, a
// refused operation, a failed statement or Shell call), the message and where it arose for a
// defect of the plugin, so that it can be reported.
function failureText(e) {
  var cause = e && e.cause;
  var message = (e && e.message) || (cause && cause.message) || String(e);
  if (isKnownFailure(e)) return message;
  var where = e && typeof e.stack === 'string' ? (e.stack.split('\n')[1] || '').trim() : '';
  return 'Internal error of the restore plugin: ' + message + (where ? ' (' + where + ')' : '') +
    '. Please report it; nothing after this point was done.';
}

// A member's command (its `command`, lib/commands/*.js, and what that requires: 140 of the plugin's
// 180 files) loads at the member's first call, not at every mysqlsh start: each file is a JS context
// of its own, and loading them all was 0.1 s of CPU of every start, with or without the plugin in use
// (docs/load-levers.md). A relative require resolves only while a file loads; a name without ./ is
// looked up in sys.path, where the plugin's folder goes first for that one require. Where sys.path
// cannot be set, every command loads now, as before. Returns name -> () -> the command's module.
function commandLoaders(root) {
  var loaders = {};
  if (settablePath(root)) {
    MEMBERS.forEach(function (m) {
      var module = null;
      loaders[m.name] = function () { return module || (module = requireFrom(root, m.command)); };
    });
  } else {
    // Now, while init.js (in this folder) loads: the relative name resolves against it.
    MEMBERS.forEach(function (m) {
      var module = require('../' + m.command);
      loaders[m.name] = function () { return module; };
    });
  }
  return loaders;
}

function pathList() {
  var list = [];
  for (var i = 0; i < sys.path.length; i++) list.push(String(sys.path[i]));
  return list;
}

function requireFrom(root, name) {
  var saved = pathList();
  sys.path = [root].concat(saved);
  try {
    return require(name);
  } finally {
    sys.path = saved;
  }
}

function settablePath(root) {
  try {
    var saved = pathList();
    sys.path = [root].concat(saved);
    var set = pathList();
    sys.path = saved;
    return set.length === saved.length + 1 && set[0] === root && pathList().length === saved.length;
  } catch (e) {
    return false;
  }
}

function registerMembers(restore, hostFactory) {
  var internal = shell.createExtensionObject();
  var byName = {};
  MEMBERS.forEach(function (m) { byName[m.name] = m; });
  var commands = commandLoaders(os.path.dirname(__dirname));
  shell.addExtensionObjectMember(internal, 'definitions', function () {
    return JSON.stringify(MEMBERS.map(function (m) { return { name: m.name, definition: m.definition }; }));
  }, { brief: 'The public members\' definitions, as JSON text.', parameters: [] });
  shell.addExtensionObjectMember(internal, 'run', function (name, argsJson) {
    var member = byName[name];
    try {
      if (!member) throw new Error('no member ' + name);
      var value = member.run(hostFactory(), JSON.parse(argsJson), commands[name]());
      return JSON.stringify({ value: value === undefined ? null : value });
    } catch (e) {
      // code: lib/core/error-codes.js's, for the companion to raise with (the message stays what users read).
      return JSON.stringify({ error: failureText(e), code: userError.errorFacts(e).code });
    }
  }, {
    brief: 'Runs one public member with its arguments as JSON text; returns {value} or {error, code} as JSON text.',
    parameters: [{ name: 'name', type: 'string' }, { name: 'argsJson', type: 'string' }],
  });
  shell.addExtensionObjectMember(restore, '_internal', internal, {
    brief: 'Internal: the machinery behind the functions below (not for direct use; it only creates new files, ' +
      'and changes nothing outside the plugin\'s state directory).',
  });
}

module.exports = { registerMembers: registerMembers, MEMBERS: MEMBERS };
