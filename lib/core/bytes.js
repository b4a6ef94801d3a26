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

// count numbers of a typed array Type (Float64Array, Int32Array) from their bytes as a host
// handed them over (the companion's sizes and lengths): copied, so that they are aligned.
function toNumbers(value, Type, count, what) {
  var out = new Type(count);
  new Uint8Array(out.buffer).set(toBytes(value, what));
  return out;
}

// An ArrayBuffer holding exactly these bytes (what crosses into Python as bytes).
function toArrayBuffer(value) {
  if (value.buffer && typeof value.byteOffset === 'number') {
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength);
  }
  return value;
}

module.exports = { isBinary: isBinary, toBytes: toBytes, toNumbers: toNumbers, toArrayBuffer: toArrayBuffer };
