// Numbers the plugin passes on to util.loadDump and util.dump*, checked before anything changes:
// util.loadDump hangs for ever on threads: 0 (Shell 9.1, with the redo log off under fastest) and
// ends in "std::bad_alloc" on threads: 99999999999. Byte sizes are the Shell's strings ("64M").
var UserError = require('../core/user-error.js').UserError;

var KIB = 1024;
var TIB = KIB * KIB * KIB * KIB;
var UNITS = { '': 1, k: KIB, m: KIB * KIB, g: KIB * KIB * KIB };

// A thread per connection and per decompressing reader: 1,024 is past any client's cores and any
// server's max_connections default (151). Byte minimums are the Shell's own (../shared/mysqlsh-contract/loader-internals.md);
// the 1 TiB maximum is a single chunk or transaction no server takes in one piece.
var LIMITS = {
  threads: { min: 1, max: 1024, unit: 'threads' },
  backgroundThreads: { min: 1, max: 1024, unit: 'threads' },
  waitDumpTimeout: { min: 0, max: 31536000, unit: 'seconds', fraction: true },
  maxBytesPerTransaction: { bytes: true, min: 4096, max: TIB },
  bytesPerChunk: { bytes: true, min: 128 * KIB, max: TIB },
};

function bytesOf(text) {
  var m = /^\s*(\d+)\s*([kKmMgG]?)\s*$/.exec(String(text));
  return m ? Number(m[1]) * UNITS[m[2].toLowerCase()] : null;
}

function words(limit) {
  if (limit.bytes) return 'a size such as "64M" (k, M or G) from ' + limit.min + ' bytes to 1T';
  return (limit.fraction ? 'a number of ' : 'a whole number of ') + limit.unit + ' from ' + limit.min + ' to ' + limit.max;
}

// null, or what is wrong with value for option name (only the options in LIMITS are judged).
function limitProblem(name, value) {
  if (!Object.prototype.hasOwnProperty.call(LIMITS, name)) return null;
  var limit = LIMITS[name];
  var n = limit.bytes ? (typeof value === 'string' ? bytesOf(value) : null) : value;
  var whole = limit.fraction || Math.floor(n) === n;
  if (typeof n !== 'number' || !isFinite(n) || !whole || n < limit.min || n > limit.max) {
    return 'must be ' + words(limit) + ', not ' + JSON.stringify(value);
  }
  return null;
}

// Throws for the first option of opts out of its range, naming it.
function checkLimits(opts) {
  Object.keys(opts).forEach(function (name) {
    var problem = limitProblem(name, opts[name]);
    if (problem) throw new UserError('OPTION_INVALID', 'Option ' + name + ' ' + problem + '. Nothing was changed.');
  });
}

module.exports = { limitProblem: limitProblem, checkLimits: checkLimits, LIMITS: LIMITS };
