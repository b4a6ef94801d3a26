// Binary data as the hosts hand it over: an ArrayBuffer (mysqlsh), a typed array, or null.
// Duck-typed on purpose: under GraalJS an ArrayBuffer made in another context (the Shell's
// main one, or another plugin file) fails tag checks and ArrayBuffer.isView, yet still has
// byteLength and wraps into a Uint8Array.
function isBinary(value) {
  return !!value && typeof value === 'object' && typeof value.byteLength === 'number';
}

// A Uint8Array over the bytes (a view, not a copy); null stays null.
function toBytes(value, what) {
  if (value === null || value === undefined) return null;
  if (!isBinary(value)) throw new Error((what || 'data') + ' must be binary, got ' + typeof value);
  if (value.buffer && typeof value.byteOffset === 'number') {
    return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  return new Uint8Array(value);
}

// An ArrayBuffer holding exactly these bytes (what crosses into Python as bytes).
function toArrayBuffer(value) {
  if (value.buffer && typeof value.byteOffset === 'number') {
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  }
  return value;
}

module.exports = { isBinary: isBinary, toBytes: toBytes, toArrayBuffer: toArrayBuffer };
