// The `.idx` file beside each data file: 8-byte big-endian cumulative offsets into the
// uncompressed data, the last being the chunk's uncompressed size (an empty chunk's is 8 zero
// bytes). Dumps of format 1.0.0 record chunk sizes nowhere else.
var toBytes = require('./chunk-state.js').toBytes;

// Uncompressed size from the whole content of an .idx file, or null if it is not a valid one.
function idxDataBytes(content) {
  var bytes = toBytes(content);
  if (bytes === null || bytes.length === 0 || bytes.length % 8 !== 0) return null;
  var view = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 8, 8);
  return view.getUint32(0) * 4294967296 + view.getUint32(4);
}

module.exports = { idxDataBytes: idxDataBytes };
