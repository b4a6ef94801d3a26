// A chunk's first row, read from the first bytes of its data file: for zstd the first frame's
// first block (up to 128 KiB of rows, lib/dump/zstd-frames.js firstBlocksFrame) decoded by the
// host's decoder (the zstd program), gzip's first bytes inflated, plain files as they are; then the
// first line split as the table JSON's dialect says (LOAD DATA's fields, escapes, \N for NULL).
// Where the bytes come from is the caller's reader: the dump directory, or a backup host
// (lib/remote/head-reader.js), so the same code serves every place a dump can be.
var UserError = require('../core/user-error.js').UserError;
var zstdFrames = require('./zstd-frames.js');
var chunkTable = require('./chunk-table.js');
var toBytes = require('../core/bytes.js').toBytes;

// A zstd frame's header (at most 18 bytes) and its first block (at most 128 KiB, 3 bytes of header).
var FIRST_READ = 131072 + 32;
var MOST = 16 * 1024 * 1024;

function toU8(b) { return toBytes(b, 'a chunk\'s first bytes'); }

// UTF-8 bytes → text (an invalid byte becomes U+FFFD).
function utf8(u8, from, to) {
  var out = '';
  for (var i = from; i < to;) {
    var c = u8[i++];
    if (c < 0x80) { out += String.fromCharCode(c); continue; }
    var n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;
    if (n < 0 || i + n > to) { out += '\ufffd'; continue; }
    var cp = c & (0x3f >> n);
    for (var k = 0; k < n; k++) cp = (cp << 6) | (u8[i++] & 0x3f);
    out += String.fromCodePoint(cp);
  }
  return out;
}

var ESCAPES = { '0': '\u0000', b: '\b', n: '\n', r: '\r', t: '\t', Z: '\u001a' };

// The first line of text as fields, or null when no whole line is in it (unless ended: the
// text is all the chunk holds). dialect: the table JSON's options (LOAD DATA's).
function splitFirstRow(text, dialect, ended) {
  var ft = dialect.fieldsTerminatedBy === undefined ? '\t' : dialect.fieldsTerminatedBy;
  var lt = dialect.linesTerminatedBy === undefined ? '\n' : dialect.linesTerminatedBy;
  var esc = dialect.fieldsEscapedBy === undefined ? '\\' : dialect.fieldsEscapedBy;
  var enc = dialect.fieldsEnclosedBy || '';
  var fields = [];
  var cur = '';
  var raw = true; // the field so far is exactly as written (for \N)
  var quoted = false;
  var at = 0;
  function endField() {
    fields.push(raw && esc && cur === esc + 'N' ? null : raw && esc ? unescapeField(cur, esc) : cur);
    cur = '';
    raw = true;
  }
  while (at < text.length) {
    if (enc && cur === '' && !quoted && text.substr(at, enc.length) === enc) { quoted = true; raw = false; at += enc.length; continue; }
    if (quoted) {
      if (esc && text.substr(at, esc.length) === esc) { cur += unescapeField(text.substr(at, esc.length + 1), esc); at += esc.length + 1; continue; }
      if (text.substr(at, enc.length) === enc) { quoted = false; at += enc.length; continue; }
      cur += text[at++];
      continue;
    }
    if (esc && text.substr(at, esc.length) === esc) { cur += text.substr(at, esc.length + 1); at += esc.length + 1; continue; }
    if (text.substr(at, lt.length) === lt) { endField(); return fields; }
    if (text.substr(at, ft.length) === ft) { endField(); at += ft.length; continue; }
    cur += text[at++];
  }
  if (!ended) return null;
  if (cur === '' && !fields.length) return null;
  endField();
  return fields;
}

function unescapeField(s, esc) {
  var out = '';
  for (var i = 0; i < s.length; i++) {
    if (s.substr(i, esc.length) === esc && i + esc.length < s.length) {
      var c = s[i + esc.length];
      out += Object.prototype.hasOwnProperty.call(ESCAPES, c) ? ESCAPES[c] : c;
      i += esc.length;
    } else out += s[i];
  }
  return out;
}

function decodeOne(host, compression, data, where) {
  var got = host.files.decodeHeads([{ compression: compression, data: data }])[0];
  if (!got || got.error) throw new UserError('DUMP_DAMAGED', where + ': its first rows could not be decoded (' + (got ? got.error : 'no answer') + ').');
  return toU8(got.data);
}

// target: a dump model target; index: a chunk number; reader.read(names, n) → [bytes|null] (the
// first n bytes of each file of the dump, null when it is missing). Returns the first row as
// [text | null (NULL)] in the order of the table JSON's columns, or null when the chunk holds no row.
function firstRow(host, target, index, reader) {
  var name = chunkTable.fileOf(target.chunks, index);
  var dialect = target.info.settings.loadDialect || {};
  var compression = target.compression;
  var n = FIRST_READ;
  var blocks = 1;
  for (;;) {
    var got = reader.read([name], n)[0];
    if (got === null || got === undefined) {
      throw new UserError('DUMP_FILE_MISSING', name + ' is not in the dump: since cannot read the first row of chunk ' + index + '.');
    }
    var u8 = toU8(got);
    var fileEnded = u8.length < n;
    var data;
    var ended;
    if (u8.length === 0) return null; // a zero-length stub: no row
    if (compression === 'zstd') {
      var f = zstdFrames.firstBlocksFrame(u8, blocks);
      if (f.error) throw new UserError('DUMP_DAMAGED', name + ' is not readable zstd data (' + f.error + ').');
      if (!f.frame) {
        if (fileEnded) throw new UserError('DUMP_DAMAGED', name + ' ends inside its first zstd block: the file is truncated.');
        n = Math.max(n * 4, f.needBytes);
        continue;
      }
      data = decodeOne(host, 'zstd', f.frame, name);
      ended = f.whole && fileEnded;
    } else {
      data = compression === 'gzip' ? decodeOne(host, 'gzip', u8, name) : u8;
      ended = fileEnded;
    }
    var row = splitFirstRow(utf8(data, 0, Math.min(data.length, 8 * 1024 * 1024)), dialect, ended);
    if (row !== null || ended) return row;
    if (n >= MOST) throw new UserError('DUMP_DAMAGED', name + ': no whole row in its first ' + MOST + ' bytes.');
    n *= 4;
    blocks *= 4;
  }
}

module.exports = { firstRow: firstRow, splitFirstRow: splitFirstRow, FIRST_READ: FIRST_READ };
