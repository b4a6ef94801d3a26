// @.done.json without parsing its chunkFileBytes into an object. That map names every data file
// of the dump (100,000 entries make 3.4 MB of text): parsed whole it cost mysqlsh 21 MB for the
// text's keys alone. Here the text is read once, the rest of the document parsed by JSON.parse,
// and the chunkFileBytes entries walked in place, one (name, bytes) at a time; a load view
// rewrites the text the same way (stubbed chunks recorded as 0 bytes).
var readText = require('./dump-metadata.js').readText;
var invalidJson = require('./dump-metadata.js').invalidJson;
var checkObject = require('./dump-metadata.js').checkObject;
var memberReader = require('./loader-json.js').memberReader;
var cast = require('./loader-json.js').cast;

var QUOTE = 34;
var BACKSLASH = 92;

// A strict walker over JSON text: throws {at, why} on anything JSON.parse would refuse in the
// parts it walks (the rest is JSON.parse's own).
function walker(text) {
  var pos = 0;
  var len = text.length;
  function fail(why) { throw { jsonError: true, why: why + ' at position ' + pos }; }
  function ws() {
    while (pos < len) {
      var c = text.charCodeAt(pos);
      if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return;
      pos++;
    }
  }
  function expect(ch) {
    ws();
    if (text.charCodeAt(pos) !== ch.charCodeAt(0)) fail('expected ' + ch);
    pos++;
  }
  var raw = { start: 0, end: 0, decoded: null }; // the last string read: its content's place
  // Reads a string; returns its text (as = 'text') or nothing: raw then says where its content
  // lies and, only when it holds an escape, its decoded text.
  function string(as) {
    ws();
    if (text.charCodeAt(pos) !== QUOTE) fail('expected a string');
    var start = ++pos;
    var escaped = false;
    for (;;) {
      if (pos >= len) fail('unterminated string');
      var c = text.charCodeAt(pos);
      if (c === QUOTE) break;
      if (c < 32) fail('control character in a string');
      if (c === BACKSLASH) { escaped = true; pos++; }
      pos++;
    }
    pos++;
    raw.start = start;
    raw.end = pos - 1;
    raw.decoded = null;
    if (escaped) {
      try {
        raw.decoded = JSON.parse(text.slice(start - 1, pos));
      } catch (e) {
        fail('bad escape in a string');
      }
    }
    if (as !== 'text') return null;
    return escaped ? raw.decoded : text.slice(start, pos - 1);
  }
  // A plain integer, read without making a substring; null when the text there is another number.
  function integer() {
    var start = pos;
    var n = 0;
    while (pos < len) {
      var c = text.charCodeAt(pos);
      if (c < 48 || c > 57) break;
      n = n * 10 + (c - 48);
      pos++;
    }
    var c2 = pos < len ? text.charCodeAt(pos) : 44;
    var digits = pos - start;
    if (digits && digits < 16 && !(digits > 1 && text.charCodeAt(start) === 48) &&
        (c2 === 44 || c2 === 125 || c2 === 93 || c2 === 32 || c2 === 9 || c2 === 10 || c2 === 13)) return n;
    pos = start;
    return null;
  }
  // A number's value, or null (after skipping it) for any other value.
  function value() {
    ws();
    var c = text.charCodeAt(pos);
    if (c === QUOTE) { string(); return null; }
    if (c === 123 || c === 91) { container(c === 123 ? 125 : 93); return null; }
    var n = integer();
    if (n !== null) return n;
    var start = pos;
    while (pos < len) {
      c = text.charCodeAt(pos);
      if (c === 44 || c === 125 || c === 93 || c === 32 || c === 9 || c === 10 || c === 13) break;
      pos++;
    }
    var word = text.slice(start, pos);
    if (word === 'true' || word === 'false' || word === 'null') return null;
    if (!/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(word)) fail('unexpected ' + JSON.stringify(word.slice(0, 20)));
    return Number(word);
  }
  // Skips a nested object or array (its opening bracket already read), checking brackets only:
  // what lies inside is JSON.parse's to check, except for chunkFileBytes (walked by members()).
  function container(close) {
    pos++;
    var depth = [close];
    while (depth.length) {
      if (pos >= len) fail('unterminated object or array');
      var c = text.charCodeAt(pos);
      if (c === QUOTE) { string(); continue; }
      if (c === 123) depth.push(125);
      else if (c === 91) depth.push(93);
      else if (c === 125 || c === 93) { if (depth.pop() !== c) fail('mismatched bracket'); }
      pos++;
    }
  }
  // Calls fn(key, number or null, valueStart, valueEnd) for each member of the object at pos;
  // with inPlace, fn(raw, number or null, valueStart, valueEnd): raw as string() leaves it.
  function members(fn, inPlace) {
    var place = { start: 0, end: 0, decoded: null }; // the key's, kept apart from a string value's
    expect('{');
    ws();
    if (text.charCodeAt(pos) === 125) { pos++; return; }
    for (;;) {
      var key = string(inPlace ? null : 'text');
      place.start = raw.start;
      place.end = raw.end;
      place.decoded = raw.decoded;
      expect(':');
      ws();
      var start = pos;
      var v = value();
      fn(inPlace ? place : key, v, start, pos);
      ws();
      var c = text.charCodeAt(pos++);
      if (c === 125) return;
      if (c !== 44) { pos--; fail('expected , or }'); }
    }
  }
  return {
    members: members,
    at: function (p) { pos = p; },
    end: function () { ws(); if (pos < len) fail('unexpected text after the document'); },
  };
}

function wrap(path, fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.jsonError) throw invalidJson(path, e.why);
    throw e;
  }
}

// → {json: the document with chunkFileBytes as {} (when it is an object), text, chunks: null or
// {start, end}: where its object lies in text}.
function readDoneFile(host, path) {
  var text = readText(host, path);
  var span = null;
  wrap(path, function () {
    var w = walker(text);
    w.members(function (key, v, start, end) {
      if (key === 'chunkFileBytes') span = text.charCodeAt(start) === 123 ? { start: start, end: end } : null;
    });
    w.end();
    // JSON.parse checks the rest; the entries are checked here, once (they are walked again later).
    if (span) { w.at(span.start); w.members(function () {}, true); }
  });
  var rest = span ? text.slice(0, span.start) + '{}' + text.slice(span.end) : text;
  var json;
  try {
    json = JSON.parse(rest);
  } catch (e) {
    throw invalidJson(path, e.message);
  }
  checkObject(json, path);
  return { json: json, text: text, chunks: span, path: path };
}

// Calls fn(text, start, end, decoded, bytes) for every chunkFileBytes entry, whose name is
// text[start, end) (decoded: the name when it holds a JSON escape, else null), without making a
// string per entry; bytes: null when not a number.
function eachChunkEntry(done, fn) {
  if (!done.chunks) return;
  var text = done.text;
  wrap(done.path, function () {
    var w = walker(text);
    w.at(done.chunks.start);
    w.members(function (key, v) { fn(text, key.start, key.end, key.decoded, v); }, true);
  });
}

// @.done.json as util.loadDump reads it (MySQL Shell 9.1.0 modules/util/load/dump_reader.cc,
// Dump_info::parse_done_metadata): dataBytes an unsigned integer, tableDataBytes a Map of
// schema -> Map of table -> unsigned integer, chunkFileBytes a Map of file -> unsigned integer,
// issues a Map whose hasInvalidViewReferences is a Bool. report(fact) gets each member it would
// stop on (the first wrong entry of a map only).
function doneTypeProblems(done, report) {
  var r = memberReader('@.done.json', report);
  var json = done.json;
  r.get(json, 'dataBytes', 'UInteger');
  var tables = r.get(json, 'tableDataBytes', 'Map');
  r.entries(tables, 'Map', 'tableDataBytes').some(function (e) {
    return r.entries(e[1], 'UInteger', 'tableDataBytes.' + e[0]).length < Object.keys(e[1]).length;
  });
  var issues = r.get(json, 'issues', 'Map');
  if (issues) r.get(issues, 'hasInvalidViewReferences', 'Bool', 'issues.hasInvalidViewReferences');
  if (!done.chunks) {
    r.get(json, 'chunkFileBytes', 'Map');
    return;
  }
  // One native scan first: a value that does not start as a plain unsigned integer (a string,
  // null, a map, a minus, a fraction). Only then are the entries walked, in place (a million of
  // them), and such a value parsed on its own.
  var text = done.text;
  var suspect = /"\s*:\s*(?:[^0-9\s]|[0-9]+[.eE])/g;
  suspect.lastIndex = done.chunks.start;
  var hit = suspect.exec(text);
  if (!hit || hit.index >= done.chunks.end) return;
  var bad = null;
  wrap(done.path, function () {
    var w = walker(text);
    w.at(done.chunks.start);
    w.members(function (key, v, start, end) {
      if (bad) return;
      var value = v !== null ? v : JSON.parse(text.slice(start, end));
      if (cast('UInteger', value).error) bad = { name: key.decoded !== null ? key.decoded : text.slice(key.start, key.end), value: value };
    }, true);
  });
  if (bad) { var one = {}; one[bad.name] = bad.value; r.get(one, bad.name, 'UInteger', 'chunkFileBytes.' + bad.name); }
}

// A chunkFileBytes span is cut between entries once it holds this many characters.
var SPAN = 262144;
// An entry "name": number, the number apart (a zero span's entries all have numbers).
var ENTRY = /("[^"\\]*(?:\\.[^"\\]*)*"\s*:\s*)-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/g;

// The entries of text[start, end) with every size made 0 (the text of a zero span).
function zeroSizes(text) { return text.replace(ENTRY, '$10'); }

// The same edit as data, for a host that copies a zero span from the file itself (host.files
// viewAppendFrom): every match of pattern becomes its first group followed by text.
var ZERO_SIZES = { pattern: ENTRY.source, text: '0' };

// The document with the sizes of some chunkFileBytes entries made 0, given to `sink` piece by
// piece (a million entries are never one string, nor an edit each): sink.text(string), then for
// chunkFileBytes spans of the dump's own text, sink.copy(start, end) (as written) or
// sink.zero(start, end) (every entry's size 0: zeroSizes). zeroed(text, start, end, decoded),
// called with an entry's name as eachChunkEntry gives it, says whether its size is made 0.
// Other members are written from `replaced` {key: value} or as the dump has them.
function rewriteDone(done, zeroed, replaced, sink) {
  var text = done.text;
  var keys = Object.keys(done.json);
  sink.text('{');
  keys.forEach(function (key, k) {
    sink.text((k ? ',' : '') + JSON.stringify(key) + ':');
    if (key !== 'chunkFileBytes' || !done.chunks) {
      sink.text(JSON.stringify(Object.prototype.hasOwnProperty.call(replaced, key) ? replaced[key] : done.json[key]));
      return;
    }
    var from = done.chunks.start;
    var zeroing = false;
    var flush = function (to) {
      if (to > from) { if (zeroing) sink.zero(from, to); else sink.copy(from, to); }
      from = to;
    };
    var w = walker(text);
    w.at(from);
    w.members(function (name, v) {
      // true from another file stays true under GraalJS (undefined would arrive as null).
      var zero = v !== null && v !== 0 && zeroed(text, name.start, name.end, name.decoded) === true;
      var entry = name.start - 1; // its opening quote
      if (zero !== zeroing || entry - from >= SPAN) {
        flush(entry);
        zeroing = zero;
      }
    }, true);
    flush(done.chunks.end);
  });
  sink.text('}');
}

// A sink for rewriteDone writing the document as text, given to emit(text) in pieces of about
// `piece` characters.
function textSink(done, emit, piece) {
  var pending = [];
  var size = 0;
  function add(t) {
    pending.push(t);
    size += t.length;
    if (size >= piece) { emit(pending.join('')); pending = []; size = 0; }
  }
  return {
    text: add,
    copy: function (start, end) { add(done.text.slice(start, end)); },
    zero: function (start, end) { add(zeroSizes(done.text.slice(start, end))); },
    end: function () { if (pending.length) emit(pending.join('')); pending = []; },
  };
}

module.exports = { readDoneFile: readDoneFile, doneTypeProblems: doneTypeProblems, eachChunkEntry: eachChunkEntry, rewriteDone: rewriteDone,
  textSink: textSink, zeroSizes: zeroSizes, ZERO_SIZES: ZERO_SIZES };
