// The `.idx` file beside each data file: 8-byte big-endian cumulative offsets into the
// uncompressed data, the last being the chunk's uncompressed size (an empty chunk's is 8 zero
// bytes). Dumps of format 1.0.0 record chunk sizes nowhere else.
var toBytes = require('../core/bytes.js').toBytes;

// Uncompressed size from the whole content of an .idx file, or null if it is not a valid one.
function idxDataBytes(content) {
  var bytes = toBytes(content, '.idx content');
  if (bytes === null || bytes.length === 0 || bytes.length % 8 !== 0) return null;
  // Byte by byte: a DataView over a buffer from another GraalJS context is not safe.
  var value = 0;
  for (var i = bytes.length - 8; i < bytes.length; i++) value = value * 256 + bytes[i];
  return value;
}

module.exports = { idxDataBytes: idxDataBytes };
