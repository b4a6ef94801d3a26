// Registers each member of `restore`: definitions (help text, typed parameters, cli: true) come
// from ./members/*.js; every call gets a fresh host and normalised arguments.
var formatFailure = require('./failure.js').formatFailure;
var isBinary = require('../lib/core/bytes.js').isBinary;

var MEMBERS = [
  require('./members/version.js'),
  require('./members/status.js'),
  require('./members/inspect.js'),
  require('./members/plan.js'),
  require('./members/stub.js'),
  require('./members/load.js'),
  require('./members/dump.js'),
  require('./members/presets.js'),
  require('./members/analyze.js'),
  require('./members/revert.js'),
  require('./members/disable-redo-log.js'),
  require('./members/enable-redo-log.js'),
];

// Host arrays and maps arrive as proxies (V8: no Array.prototype); lib/ gets plain values.
function plain(value) {
  if (value === null || value === undefined) return value;
  if (typeof value !== 'object') return value;
  if (isBinary(value)) return value;
  if (typeof value.getTime === 'function') return value;
  if (Array.isArray(value) || (typeof value.length === 'number' && !('getField' in value) && isIterable(value))) {
    return Array.from(value).map(plain);
  }
  var out = {};
  Object.keys(value).forEach(function (k) { out[k] = plain(value[k]); });
  return out;
}

function isIterable(v) {
  try { return typeof v[Symbol.iterator] === 'function'; } catch (e) { return false; }
}

function registerMembers(restore, hostFactory) {
  MEMBERS.forEach(function (member) {
    shell.addExtensionObjectMember(restore, member.name, function () {
      var args = Array.prototype.slice.call(arguments).map(plain);
      var host = hostFactory();
      try {
        return member.run(host, args);
      } catch (e) {
        throw formatFailure(e);
      }
    }, member.definition);
  });
}

module.exports = { registerMembers: registerMembers, MEMBERS: MEMBERS };
