// Keeps every path derived from dump metadata inside the dump directory. Base names and
// extensions come from JSON files anyone can edit; they only ever name a file in the dump
// directory itself, so a separator, `.` or `..` means the metadata was altered or damaged.
var UserError = require('../core/user-error.js').UserError;

var ESCAPES = /[\/\\\u0000]/;

// value: a base name or extension; what: e.g. "table `db`.`t`"; source: the metadata file.
function checkFileNamePart(value, what, source) {
  if (typeof value !== 'string' || value === '') {
    throw new UserError('DUMP_PATH_UNSAFE', source + ' gives ' + what + ' an empty or non-text file name (' + JSON.stringify(value) +
      '): the metadata is damaged. Take the dump again, or restore this file from the original dump.');
  }
  if (value === '.' || value === '..' || ESCAPES.test(value)) {
    throw new UserError('DUMP_PATH_UNSAFE', 'Refusing the dump: ' + source + ' gives ' + what + ' the file name ' + JSON.stringify(value) +
      ', which would point outside the dump directory. MySQL Shell never writes such names: the metadata was ' +
      'altered or damaged. Check where this dump came from before loading anything from it.');
  }
  return value;
}

// A file name's length in bytes (UTF-8) when it is longer than a name may be (255 bytes on Linux, macOS and Windows
// file systems: NAME_MAX), else null: such a file cannot exist, whatever the owner or mode.
var NAME_MAX = 255;
function tooLongName(name) {
  var n = 0;
  for (var i = 0; i < name.length; i++) {
    var c = name.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < name.length) { n += 4; i++; } else n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return n > NAME_MAX ? n : null;
}

// The fact said of a name too long, or null.
function tooLongFact(name, namedBy) {
  var n = tooLongName(name);
  return n === null ? null : name.slice(0, 40) + '… is ' + n + ' bytes long, more than the ' + NAME_MAX + ' bytes a file name may have: ' +
    'no such file can exist (' + namedBy + ' names it).';
}

// Absolute dump directory from what the user typed (relative to the current directory, as in mysqlsh).
function resolveDumpDir(host, dir) {
  var f = host.files;
  return f.normpath(f.isAbs(dir) ? dir : f.join(f.cwd(), dir));
}

// Returns name -> full path inside dir. Names must have passed checkFileNamePart (or be built
// from parts that did); one host call for the separator, then plain string work per file.
function pathMaker(host, dir) {
  var probe = host.files.join(dir, 'x');
  var prefix = probe.slice(0, -1);
  return function (name) { return prefix + name; };
}

module.exports = { tooLongName: tooLongName, tooLongFact: tooLongFact, NAME_MAX: NAME_MAX, checkFileNamePart: checkFileNamePart, resolveDumpDir: resolveDumpDir, pathMaker: pathMaker };
