// util.loadDump's progressFile is written over (resetProgress) or appended to: a path naming a
// chunk, @.json or any other file would be destroyed. Nothing inside the dump directory is
// accepted (the plugin writes nothing into a dump), and an existing file must already be a
// loadDump progress file (JSON lines, each {"op": …}); anything else is refused.
var UserError = require('../core/user-error.js').UserError;
var bytes = require('../core/bytes.js');

var HEAD = 4096;

function looksLikeProgress(head) {
  var b = bytes.toBytes(head);
  if (!b || !b.length) return false;
  var text = '';
  for (var i = 0; i < b.length && b[i] !== 10; i++) text += String.fromCharCode(b[i]);
  try {
    var first = JSON.parse(text);
    return !!first && typeof first === 'object' && typeof first.op === 'string';
  } catch (e) {
    return false;
  }
}

function inside(host, dir, full) {
  var prefix = host.files.join(dir, 'x').slice(0, -1);
  return full.indexOf(prefix) === 0;
}

// A new progress file: its folder must be there and writable, else the record written beside it
// (lib/snapshot/row-ownership.js) and util.loadDump fail after the server steps changed settings.
function refuseFolder(host, full) {
  var f = host.files;
  var folder = f.dirname(full);
  var why = !f.isDir(folder) ? (f.isFile(folder) ? 'is a file, not a folder' : 'does not exist')
    : !f.canWrite(folder) ? 'cannot be written by the user running mysqlsh' : null;
  if (why === null) return full;
  throw new UserError('PATH_REFUSED', 'Refusing progressFile ' + full + ': its folder ' + folder + ' ' + why + '. Nothing was changed. ' +
    'Give a file in a folder that exists and can be written, or leave progressFile out.', { option: 'progressFile', path: full });
}

// dir: the absolute dump directory; file: the progressFile option as given.
function checkProgressFile(host, dir, file) {
  if (file === '') return ''; // util.loadDump's own meaning: no progress file at all
  if (typeof file !== 'string') {
    throw new UserError('OPTION_INVALID', 'Option progressFile must name a file, not ' + JSON.stringify(file) + '.',
      { option: 'progressFile' });
  }
  var f = host.files;
  var full = f.normpath(f.isAbs(file) ? file : f.join(f.cwd(), file));
  if (f.isDir(full)) throw new UserError('PATH_REFUSED', 'progressFile ' + full + ' is a directory: give a file name.',
    { option: 'progressFile', path: full });
  if (full === dir || inside(host, dir, full)) {
    throw new UserError('PATH_REFUSED', 'Refusing progressFile ' + full + ': it is inside the dump directory ' + dir + ', and the plugin ' +
      'writes nothing into a dump (util.loadDump writes its progress file as the load goes). Nothing was changed. ' +
      'Leave progressFile out (the plugin keeps it outside the dump), or give a path outside the dump directory.',
        { option: 'progressFile', path: full });
  }
  if (!f.isFile(full)) return refuseFolder(host, full);
  var head;
  try {
    head = f.readHeads([full], HEAD)[0];
  } catch (e) {
    throw new UserError('PATH_REFUSED', 'progressFile ' + full + ' cannot be read (' + e.message + '): give another file.',
      { option: 'progressFile', path: full });
  }
  if (!looksLikeProgress(head)) {
    throw new UserError('PATH_REFUSED', 'Refusing progressFile ' + full + ': the file exists and is not a util.loadDump progress ' +
      'file, and the load ' +
      'would write over it. Nothing was changed. Give a new file name, or leave progressFile out.',
        { option: 'progressFile', path: full });
  }
  return full;
}

module.exports = { checkProgressFile: checkProgressFile };
