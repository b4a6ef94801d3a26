// How util.loadDump reads a member of a metadata file: with the Shell's own JSON value types
// (Map, Array, String, Integer, UInteger, Float, Bool, Null) and its typed getters and casts.
// Facts from MySQL Shell 9.1.0's mysqlshdk/scripting/types.cc (Value::Map_type::get_string /
// get_bool / get_uint / get_int / get_map / get_array: a missing member gives the default, a
// present one is checked with the kTypeConvertible table, then cast with Value::as_*):
// - String: a String only ("String expected, but value is Integer").
// - Bool: a Bool; a String "true"/"false" (any case) or "0"/"1"; a number (non-zero is true).
// - UInteger: a number >= 0 (integral; a Float is cast); a String of decimal digits; a Bool.
//   A negative number: "UInteger expected, but Integer value is out of range".
// - Map / Array: that type, or Null (read as absent where the loader checks for it, a crash
//   where it does not: treated as wrong here).
// - as_string (list entries, partition base names): a String, a number or a Bool is made text.
// JSON numbers without a dot or an exponent are Integer (types.cc parse_number), others Float.
// Every failure is the loader's "Invalid typecast: <T> expected, but value is <U>".

function typeName(v) {
  if (v === null) return 'Null';
  if (typeof v === 'boolean') return 'Bool';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
  if (Array.isArray(v)) return 'Array';
  return 'Map';
}

function mismatch(expected, v) {
  return { error: 'Invalid typecast: ' + expected + ' expected, but value is ' + typeName(v), expected: expected,
    found: typeName(v) };
}

function outOfRange(expected, v) {
  return { error: 'Invalid typecast: ' + expected + ' expected, but ' + typeName(v) + ' value is out of range',
    expected: expected, found: typeName(v) };
}

var MAX_EXACT = 9007199254740992; // 2^53: the Float range util.loadDump casts to an integer

// The value util.loadDump gets when it reads v as `type`: {value} or {error, expected, found}.
// Types: 'String', 'Bool', 'UInteger', 'Integer', 'Map', 'Array', 'AnyString' (as_string).
function cast(type, v) {
  var t = typeName(v);
  switch (type) {
    case 'String':
      return t === 'String' ? { value: v } : mismatch('String', v);
    case 'AnyString':
      if (t === 'String') return { value: v };
      if (t === 'Integer' || t === 'Float' || t === 'Bool') return { value: String(v) };
      return mismatch('String', v);
    case 'Bool':
      if (t === 'Bool') return { value: v };
      if (t === 'Integer' || t === 'Float') return { value: v !== 0 };
      if (t === 'String') {
        var s = v.toLowerCase();
        if (s === 'true' || v === '1') return { value: true };
        if (s === 'false' || v === '0') return { value: false };
      }
      return mismatch('Bool', v);
    case 'UInteger':
    case 'Integer':
      if (t === 'Bool') return { value: v ? 1 : 0 };
      if (t === 'String') {
        var re = type === 'UInteger' ? /^[0-9]+$/ : /^-?[0-9]+$/;
        return re.test(v) ? { value: Number(v) } : mismatch(type, v);
      }
      if (t === 'Integer' || t === 'Float') {
        if (t === 'Float' && (Math.floor(v) !== v || Math.abs(v) > MAX_EXACT)) return outOfRange(type, v);
        if (type === 'UInteger' && v < 0) return outOfRange(type, v);
        return { value: v };
      }
      return mismatch(type, v);
    case 'Map':
      return t === 'Map' ? { value: v } : mismatch('Map', v);
    case 'Array':
      return t === 'Array' ? { value: v } : mismatch('Array', v);
    default:
      throw new Error('unknown loader type ' + type);
  }
}

var TYPE_WORDS = { String: 'a string', Bool: 'a bool', UInteger: 'an unsigned integer',
  Integer: 'an integer', Map: 'a map', Array: 'an array' };

// A reader of one metadata document for util.loadDump's rules. report(fact) gets one sentence per
// member the loader would stop on, naming the file, the member (a path such as
// "options.compression"), what it found and what it expects, in the loader's words.
// get and require give undefined for a member that is absent or wrong: callers in other files test
// it with == null, as GraalJS hands undefined to another file's context as null.
function memberReader(file, report) {
  function fail(path, r) {
    report(file + ': "' + path + '" is ' + r.found + ', where util.loadDump reads ' + TYPE_WORDS[r.expected] + ' (' +
      r.expected + '): it stops with "' + r.error + '".');
    return undefined;
  }
  return {
    // The member as the loader reads it: undefined when absent (or wrong: reported), else its value.
    get: function (json, key, type, path) {
      if (!json || typeof json !== 'object' || !Object.prototype.hasOwnProperty.call(json, key)) return undefined;
      var r = cast(type, json[key]);
      return r.error ? fail(path || key, r) : r.value;
    },
    // A member the loader reads without checking it is there.
    require: function (json, key, type, path) {
      if (!json || typeof json !== 'object' || !Object.prototype.hasOwnProperty.call(json, key)) {
        report(file + ': "' + (path || key) + '" is missing; util.loadDump reads it as ' + TYPE_WORDS[type] +
          ' and cannot load the dump without it.');
        return undefined;
      }
      return this.get(json, key, type, path);
    },
    // Every entry of a list or map as the loader casts it; entries that fail are reported once.
    entries: function (container, type, path) {
      var out = [];
      if (!container) return out;
      var keys = Array.isArray(container) ? null : Object.keys(container);
      var n = keys ? keys.length : container.length;
      var failed = false;
      for (var i = 0; i < n; i++) {
        var r = cast(type, keys ? container[keys[i]] : container[i]);
        if (!r.error) { out.push(keys ? [keys[i], r.value] : r.value); continue; }
        if (!failed) fail(path + (keys ? '.' + keys[i] : '[' + i + ']'), r);
        failed = true;
      }
      return out;
    },
  };
}

// Compressions util.loadDump knows, by name, case-sensitive, optionally followed by
// ";<options>" (mysqlshdk/libs/storage/compressed_file.cc to_compression); with no name the
// extension says (".zst", ".gz", anything else none: from_extension, its error caught in
// modules/util/load/dump_reader.cc Table_info::update_metadata).
var COMPRESSIONS = { none: 'none', gzip: 'gzip', zstd: 'zstd' };

// → {compression} or {unknown: the name as written}.
function loaderCompression(name, extension) {
  if (name == null || name === '') {
    var dot = extension.lastIndexOf('.');
    var ext = dot > 0 ? extension.slice(dot) : '';
    return { compression: ext === '.zst' ? 'zstd' : ext === '.gz' ? 'gzip' : 'none' };
  }
  var type = name.indexOf(';') >= 0 ? name.slice(0, name.indexOf(';')) : name;
  if (Object.prototype.hasOwnProperty.call(COMPRESSIONS, type)) return { compression: COMPRESSIONS[type] };
  return { unknown: name };
}

module.exports = { cast: cast, typeName: typeName, memberReader: memberReader, loaderCompression: loaderCompression };
