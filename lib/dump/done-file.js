// @.done.json without parsing its chunkFileBytes into an object. That map names every data file
// of the dump (100,000 entries make 3.4 MB of text): parsed whole it cost mysqlsh 21 MB for the
// text's keys alone. Here the rest of the document is parsed by JSON.parse, and the chunkFileBytes
// entries walked in place, one (name, bytes) at a time; a load view rewrites the text the same way
// (stubbed chunks recorded as 0 bytes). A file larger than WHOLE_BYTES (a million chunks make
// 34 MB) is never one string: its entries are walked in pieces read from the file, as bytes (one
// character per byte), and positions are byte offsets in the file.
// tableDataBytes and tableRows (an entry per table) are held apart too, as the place of their text:
// parsed when asked (tableFigures), by the catalog and a load view, and let go after each use
// (100,000 tables: 6 MB each as objects, for as long as the model lives).
var readText = require('./dump-metadata.js').readText;
var invalidJson = require('./dump-metadata.js').invalidJson;
var checkObject = require('./dump-metadata.js').checkObject;
var memberReader = require('./loader-json.js').memberReader;
var cast = require('./loader-json.js').cast;
var UserError = require('../core/user-error.js').UserError;
var toBytes = require('../core/bytes.js').toBytes;

var WHOLE_BYTES = 8388608;
// Small pieces: V8 keeps strings above 128 KB in its large-object space until a full collection,
// so 1 MiB pieces of a 9 MB file left 57 MB of garbage in mysqlsh; 32 KiB pieces, 13 MB.
var PIECE_BYTES = 32768;
// More than any entry ("name": bytes) takes: a file name is at most 255 bytes, 1,530 escaped.
var MARGIN = 16384;

var QUOTE = 34;
var BACKSLASH = 92;

// A strict walker over JSON text: throws {at, why} on anything JSON.parse would refuse in the
// parts it walks (the rest is JSON.parse's own). In pieces (more given): text holds the file's
// bytes from offset `base` on; between two members, more(offset) gives the bytes from that offset
// on (at least MARGIN more, unless the file ends first) or null when the text already reaches the
// end. binary: one character per byte (names holding non-ASCII bytes are decoded as UTF-8).
function walker(text, more, base0, binary) {
  var pos = 0;
  var len = text.length;
  var base = base0 || 0;
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
      if (c === BACKSLASH) escaped = true, pos++;
      else if (c > 127 && binary) escaped = true;
      pos++;
    }
    pos++;
    raw.start = start;
    raw.end = pos - 1;
    raw.decoded = null;
    if (escaped) {
      try {
        raw.decoded = JSON.parse(binary ? utf8(text.slice(start - 1, pos)) : text.slice(start - 1, pos));
      } catch (e) {
        fail('bad escape or UTF-8 in a string');
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
      if (more && len - pos < MARGIN) {
        var next = more(base + pos);
        if (next !== null) { base += pos; text = next; len = text.length; pos = 0; }
      }
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
    position: function () { return pos; },
    end: function () { ws(); if (pos < len) fail('unexpected text after the document'); },
    text: function () { return text; }, // what positions given to members' fn are in
    base: function () { return base; }, // the file offset of text's first character
  };
}

// Bytes (one character per byte) as text: UTF-8 decoded; throws on bytes that are not UTF-8.
function utf8(binary) {
  if (!/[\x80-\xff]/.test(binary)) return binary;
  return decodeURIComponent(escape(binary));
}

function binaryString(bytes) {
  var parts = [];
  for (var i = 0; i < bytes.length; i += 8192) parts.push(String.fromCharCode.apply(null, bytes.subarray(i, i + 8192)));
  return parts.join('');
}

// read(offset, length) -> the file's bytes there, one character per byte.
function byteReader(host, path) {
  return function (offset, length) {
    if (length <= 0) return '';
    var got = host.files.readRanges([{ path: path, offset: offset, length: length }])[0];
    var bytes = got === null ? null : toBytes(got, 'file content');
    if (bytes === null || bytes.length < length) {
      throw new UserError('DUMP_UNREADABLE', 'Cannot read ' + path + ': it changed or went away while it was read. Run the command again.',
        { path: path });
    }
    return binaryString(bytes);
  };
}

// The file's bytes [start, end) read a piece at a time, joined.
function readSpan(done, start, end) {
  var parts = [];
  for (var at = start; at < end; at += done.piece) parts.push(done.read(at, Math.min(done.piece, end - at)));
  return parts.join('');
}

// A walker over the chunkFileBytes object of a document read in pieces, at its opening brace.
function pieceWalker(done) {
  var text = '';
  var textBase = done.chunks.start;
  var readTo = done.chunks.start;
  function more(offset) {
    if (readTo >= done.chunks.end) return null;
    text = text.slice(offset - textBase);
    textBase = offset;
    while (readTo < done.chunks.end && textBase + text.length - offset < MARGIN + done.piece) {
      var n = Math.min(done.piece, done.chunks.end - readTo);
      text += done.read(readTo, n);
      readTo += n;
    }
    return text;
  }
  return walker(more(done.chunks.start), more, done.chunks.start, true);
}

function wrap(path, fn) {
  try {
    return fn();
  } catch (e) {
    if (e && e.jsonError) throw invalidJson(path, e.why);
    throw e;
  }
}

// → {json: the document with chunkFileBytes as {} (when it is an object), text (null when read in
// pieces), chunks: null or {start, end}: where its object lies in text (in pieces: in the file, in
// bytes)}. opts (tests): {wholeBytes, pieceBytes}.
function readDoneFile(host, path, opts) {
  var whole = opts && opts.wholeBytes !== undefined ? opts.wholeBytes : WHOLE_BYTES;
  var size = host.files.stat([path]).sizes[0];
  var inPieces = typeof size === 'number' && size > whole ? readInPieces(host, path, size, (opts && opts.pieceBytes) || PIECE_BYTES) : null;
  return inPieces || readWhole(host, path, size);
}

// The document in pieces: where chunkFileBytes' object begins is found in the bytes, its entries
// are walked to where it ends, and the rest is parsed. null when the document is not laid out so
// (no chunkFileBytes object, or the name found is not the top-level member): read whole then.
function readInPieces(host, path, size, piece) {
  var done = { json: null, text: null, chunks: null, path: path, size: size, piece: piece, read: byteReader(host, path), figures: {} };
  var KEY = /"chunkFileBytes"\s*:\s*\{/g;
  var start = -1;
  for (var at = 0, keep = ''; at < size && start < 0; at += piece) {
    var t = keep + done.read(at, Math.min(piece, size - at));
    KEY.lastIndex = 0;
    var m = KEY.exec(t);
    if (m) start = at - keep.length + m.index + m[0].length - 1;
    keep = t.slice(-64);
  }
  if (start < 0) return null;
  done.chunks = { start: start, end: size };
  var restText;
  wrap(path, function () {
    var w = pieceWalker(done);
    w.members(oddEntryCheck(done, w, true), true);
    done.chunks = { start: start, end: w.base() + w.position() };
    var head = utf8(readSpan(done, 0, start));
    restText = head + '{}' + utf8(readSpan(done, done.chunks.end, size));
    // The member found must be the document's own chunkFileBytes, at that place.
    var r = walker(restText);
    var found = -1;
    var figures = {};
    r.members(function (key, v, vs, ve) {
      if (key === 'chunkFileBytes') found = vs;
      if (FIGURES.indexOf(key) >= 0) figures[key] = restText.charCodeAt(vs) === 123 ? { start: vs, end: ve } : null;
    });
    r.end();
    if (found !== head.length) { restText = null; return; }
    // Held apart when positions in the rest are the file's bytes less chunkFileBytes' (ASCII).
    if (restText.length !== size - (done.chunks.end - start) + 2) return;
    var inFile = function (p) { return p < start ? p : p - (start + 2) + done.chunks.end; };
    restText = withoutSpans(restText, figureSpans(figures));
    FIGURES.forEach(function (k) { if (figures[k]) done.figures[k] = { start: inFile(figures[k].start), end: inFile(figures[k].end) }; });
  });
  if (restText === null) return null;
  done.json = parsedDocument(path, restText);
  return done;
}

// The document without its chunkFileBytes entries, parsed and checked to be an object.
function parsedDocument(path, text) {
  var json;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalidJson(path, e.message);
  }
  checkObject(json, path);
  return json;
}

function readWhole(host, path, size) {
  var text = readText(host, path);
  var span = null;
  var figures = {};
  // size, read and piece: to read it again in pieces once the text is let go (releaseText).
  var done = { json: null, text: text, chunks: null, path: path, oddEntry: null, figures: figures, size: size,
    read: byteReader(host, path), piece: PIECE_BYTES };
  wrap(path, function () {
    var w = walker(text);
    w.members(function (key, v, start, end) {
      if (key === 'chunkFileBytes') span = text.charCodeAt(start) === 123 ? { start: start, end: end } : null;
      if (FIGURES.indexOf(key) >= 0) figures[key] = text.charCodeAt(start) === 123 ? { start: start, end: end } : null;
    });
    w.end();
    // JSON.parse checks the rest; the entries are checked here, once (they are walked again later),
    // their types too (doneTypeProblems).
    if (span) { w.at(span.start); w.members(oddEntryCheck(done, w, false), true); }
  });
  done.json = parsedDocument(path, withoutSpans(text, [span].concat(figureSpans(figures))));
  done.chunks = span;
  return done;
}

// The members held apart as the place of their text (an object's only: {start, end}, positions as
// chunkFileBytes' are given); in done.json they are {}.
var FIGURES = ['tableDataBytes', 'tableRows'];

function figureSpans(figures) {
  return FIGURES.map(function (k) { return figures[k] || null; });
}

// text with each span (null: none) made {}: what JSON.parse is given.
function withoutSpans(text, spans) {
  var cut = spans.filter(function (s) { return s !== null; }).sort(function (a, b) { return a.start - b.start; });
  if (!cut.length) return text;
  var parts = [];
  var at = 0;
  cut.forEach(function (s) { parts.push(text.slice(at, s.start), '{}'); at = s.end; });
  parts.push(text.slice(at));
  return parts.join('');
}

// {tableDataBytes, tableRows} as JSON.parse gives them (undefined when absent), parsed afresh from
// the document's text at each call: whoever needs them lets them go after use.
function tableFigures(done) {
  var out = {};
  FIGURES.forEach(function (k) {
    var at = done.figures ? done.figures[k] : null;
    if (!at) { if (Object.prototype.hasOwnProperty.call(done.json, k)) out[k] = done.json[k]; return; }
    try {
      out[k] = JSON.parse(textOf(done, at.start, at.end));
    } catch (e) {
      throw invalidJson(done.path, k + ': ' + e.message);
    }
  });
  return out;
}

// Lets the text of a document read whole go when its positions are the file's bytes (ASCII text, as
// MySQL Shell writes it): what is walked again (a load view's rewrite, tableFigures) is then read
// from the file in pieces. A big dump's chunk lists, made from the text, no longer need it
// (100,000 tables: 7 MB). minBytes (tests): a smaller text is kept (default a megabyte).
function releaseText(done, minBytes) {
  var least = minBytes === undefined ? RELEASE_BYTES : minBytes;
  if (done.text !== null && done.read && done.text.length === done.size && done.size >= least) done.text = null;
}
var RELEASE_BYTES = 1048576;

// Calls fn(text, start, end, decoded, bytes) for every chunkFileBytes entry, whose name is
// text[start, end) (decoded: the name when it holds a JSON escape, else null), without making a
// string per entry; bytes: null when not a number.
function eachChunkEntry(done, fn) {
  if (!done.chunks) return;
  wrap(done.path, function () {
    var w = entryWalker(done);
    w.members(function (key, v) { fn(w.text(), key.start, key.end, key.decoded, v); }, true);
  });
}

// @.done.json as util.loadDump reads it (MySQL Shell 9.1.0 modules/util/load/dump_reader.cc,
// Dump_info::parse_done_metadata): dataBytes an unsigned integer, tableDataBytes a Map of
// schema -> Map of table -> unsigned integer, chunkFileBytes a Map of file -> unsigned integer,
// issues a Map whose hasInvalidViewReferences is a Bool. report(fact) gets each member it would
// stop on (the first wrong entry of a map only).
// figures: tableFigures(done) when the caller has them.
function doneTypeProblems(done, report, figures) {
  var r = memberReader('@.done.json', report);
  var json = done.json;
  r.get(json, 'dataBytes', 'UInteger');
  var tables = r.get(figures || tableFigures(done), 'tableDataBytes', 'Map');
  r.entries(tables, 'Map', 'tableDataBytes').some(function (e) {
    // The first entry the loader would not read, reported as r.entries would (no list of every
    // table's [name, bytes] made: 50,000 of them).
    var map = e[1];
    for (var key in map) {
      if (Object.prototype.hasOwnProperty.call(map, key) && cast('UInteger', map[key]).error) {
        r.get(map, key, 'UInteger', 'tableDataBytes.' + e[0] + '.' + key);
        return true;
      }
    }
    return false;
  });
  var issues = r.get(json, 'issues', 'Map');
  if (issues) r.get(issues, 'hasInvalidViewReferences', 'Bool', 'issues.hasInvalidViewReferences');
  if (!done.chunks) {
    r.get(json, 'chunkFileBytes', 'Map');
    return;
  }
  // The entries were walked when the file was read (whole or in pieces): the first wrong one is kept.
  var bad = done.oddEntry;
  if (bad) { var one = {}; one[bad.name] = bad.value; r.get(one, bad.name, 'UInteger', 'chunkFileBytes.' + bad.name); }
}

// The check of each chunkFileBytes entry as the reader walks them (w: its walker; binary: the text
// is the file's bytes): sets done.oddEntry {name, value} to the first one util.loadDump would not
// read as an unsigned integer. A plain number >= 0 is decided at once; only another value (a
// string, null, a map, a minus, a fraction) is parsed on its own.
function oddEntryCheck(done, w, binary) {
  done.oddEntry = null;
  return function (key, v, start, end) {
    if (done.oddEntry || (v !== null && v >= 0 && v % 1 === 0)) return;
    var text = w.text();
    var name = key.decoded !== null ? key.decoded : text.slice(key.start, key.end);
    var value;
    try {
      value = JSON.parse(binary ? utf8(text.slice(start, end)) : text.slice(start, end));
    } catch (e) {
      throw { jsonError: true, why: 'invalid value of chunkFileBytes entry ' + JSON.stringify(name) };
    }
    if (cast('UInteger', value).error) done.oddEntry = { name: name, value: value };
  };
}

// A walker at the chunkFileBytes object's opening brace.
function entryWalker(done) {
  if (done.text === null) return pieceWalker(done);
  var w = walker(done.text);
  w.at(done.chunks.start);
  return w;
}

// Whether chunkFileBytes positions are byte offsets in the file (fileBytes: its size): read in
// pieces, or ASCII text (as long as the file is in bytes).
function offsetsAreBytes(done, fileBytes) {
  return done.text === null || done.text.length === fileBytes;
}

// The document's text [start, end) (positions as chunkFileBytes' are given).
function textOf(done, start, end) {
  return done.text === null ? utf8(readSpan(done, start, end)) : done.text.slice(start, end);
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
  var keys = Object.keys(done.json);
  sink.text('{');
  keys.forEach(function (key, k) {
    sink.text((k ? ',' : '') + JSON.stringify(key) + ':');
    var own = Object.prototype.hasOwnProperty.call(replaced, key);
    // Figures not replaced are copied as the dump has them, never parsed (100,000 tables: 40 MB).
    var figures = FIGURES.indexOf(key) >= 0 && done.figures ? done.figures[key] : null;
    if (!own && figures) {
      sink.copy(figures.start, figures.end);
      return;
    }
    if (key !== 'chunkFileBytes' || !done.chunks) {
      // (A figure not held apart is in done.json as the dump has it.)
      sink.text(JSON.stringify(own ? replaced[key] : done.json[key]));
      return;
    }
    var from = done.chunks.start;
    var zeroing = false;
    var flush = function (to) {
      if (to > from) { if (zeroing) sink.zero(from, to); else sink.copy(from, to); }
      from = to;
    };
    var w = entryWalker(done);
    w.members(function (name, v) {
      // true from another file stays true under GraalJS (undefined would arrive as null).
      var zero = v !== null && v !== 0 && zeroed(w.text(), name.start, name.end, name.decoded) === true;
      var entry = w.base() + name.start - 1; // its opening quote
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
    copy: function (start, end) { add(textOf(done, start, end)); },
    zero: function (start, end) { add(zeroSizes(textOf(done, start, end))); },
    end: function () { if (pending.length) emit(pending.join('')); pending = []; },
  };
}

module.exports = { readDoneFile: readDoneFile, doneTypeProblems: doneTypeProblems, eachChunkEntry: eachChunkEntry, rewriteDone: rewriteDone,
  tableFigures: tableFigures, releaseText: releaseText,
  textSink: textSink, zeroSizes: zeroSizes, offsetsAreBytes: offsetsAreBytes, ZERO_SIZES: ZERO_SIZES };
