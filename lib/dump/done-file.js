// @.done.json without parsing its chunkFileBytes into an object. That map names every data file
// of the dump (100,000 entries make 3.4 MB of text): parsed whole it cost mysqlsh 21 MB for the
// text's keys alone. Here the text is read once, the rest of the document parsed by JSON.parse,
// and the chunkFileBytes entries walked in place, one (name, bytes) at a time; a load view
// rewrites the text the same way (stubbed chunks recorded as 0 bytes).
var readText = require('./dump-metadata.js').readText;
var invalidJson = require('./dump-metadata.js').invalidJson;
var checkObject = require('./dump-metadata.js').checkObject;

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

// The document with chunkFileBytes entries rewritten, given piece by piece to emit(text) (a
// million entries are never one string): bytesFor(text, start, end, decoded, bytes), called as
// eachChunkEntry's fn, returns the new number, or null to keep the entry as written; other
// members from `replaced` {key: value}.
function rewriteDone(done, bytesFor, replaced, emit) {
  var text = done.text;
  var keys = Object.keys(done.json);
  emit('{');
  keys.forEach(function (key, k) {
    emit((k ? ',' : '') + JSON.stringify(key) + ':');
    if (key !== 'chunkFileBytes' || !done.chunks) {
      emit(JSON.stringify(Object.prototype.hasOwnProperty.call(replaced, key) ? replaced[key] : done.json[key]));
      return;
    }
    var parts = [];
    var at = done.chunks.start;
    var w = walker(text);
    w.at(at);
    w.members(function (key, v, start, end) {
      var now = bytesFor(text, key.start, key.end, key.decoded, v);
      // undefined from another file arrives as null under GraalJS: both mean "as written".
      if (now === undefined || now === null || now === v) return;
      parts.push(text.slice(at, start), String(now));
      at = end;
      if (parts.length >= 4000) { emit(parts.join('')); parts = []; }
    }, true);
    parts.push(text.slice(at, done.chunks.end));
    emit(parts.join(''));
  });
  emit('}');
}

module.exports = { readDoneFile: readDoneFile, eachChunkEntry: eachChunkEntry, rewriteDone: rewriteDone };
