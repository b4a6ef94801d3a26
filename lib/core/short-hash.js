// Short, stable text for any text (FNV-1a, 32 bits, 8 hex digits): names of files and directories
// the plugin derives from paths or choices stay short whatever those are.
function shortHash(text) {
  var h = 0x811c9dc5;
  for (var i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return ('0000000' + h.toString(16)).slice(-8);
}

module.exports = { shortHash: shortHash };
