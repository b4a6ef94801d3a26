// What the Python companion says of an entry it cannot list or stat (plugins/restore/restore_py,
// _special): a text. Whether the entry is not a regular file (a pipe, a socket, a device), and
// which, is read from it here and nowhere else, until the companion returns structured errors
// (issue 36): then this file reads their fields instead.
var NOT_REGULAR = /^not a regular file \((.*)\)$/;

// 'a device', 'a named pipe'…, or null for any other error.
function notRegularKind(why) {
  var m = NOT_REGULAR.exec(String(why));
  return m ? m[1] : null;
}

function isNotRegular(why) { return notRegularKind(why) !== null; }

module.exports = { notRegularKind: notRegularKind, isNotRegular: isNotRegular };
