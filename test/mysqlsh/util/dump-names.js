'use strict';
// File names inside a dump directory (contract §2, loader-internals §1.2): each name part is
// percent-encoded on its own and the parts are joined with `@`; data files add `@N`, `@@N` (last
// chunk) or nothing (not chunked) before the extension.

// ASCII bytes the Shell encodes; everything else (letters, digits, `-._~`, non-ASCII) is kept.
const RESERVED = new Set('!"#$%&\'()*+,/:;<=>?@[\\]^`{|} '.split(''));

function encodeNamePart(name) {
  let out = '';
  for (const ch of String(name)) {
    const code = ch.codePointAt(0);
    if (code < 0x20 || code === 0x7f || RESERVED.has(ch)) {
      out += '%' + code.toString(16).toUpperCase().padStart(2, '0');
    } else {
      out += ch;
    }
  }
  return out;
}

// Long names are cut to 225 characters and numbered so that they stay unique within one dump.
const MAX_BASENAME = 225;

function createBasenames() {
  const truncated = new Map();
  function limit(basename) {
    const chars = Array.from(basename);
    if (chars.length <= MAX_BASENAME) return basename;
    const cut = chars.slice(0, MAX_BASENAME).join('');
    const ordinal = truncated.get(cut) || 0;
    truncated.set(cut, ordinal + 1);
    return cut + ordinal;
  }
  return {
    schema: (schema) => limit(encodeNamePart(schema)),
    table: (schema, table) => limit(`${encodeNamePart(schema)}@${encodeNamePart(table)}`),
    partition: (schema, table, partition) =>
      limit(`${encodeNamePart(schema)}@${encodeNamePart(table)}@${encodeNamePart(partition)}`),
  };
}

// index === null: the un-chunked file.
function dataFileName(basename, extension, index, last) {
  if (index === null || index === undefined) return `${basename}.${extension}`;
  return `${basename}@${last ? '@' : ''}${index}.${extension}`;
}

module.exports = { encodeNamePart, createBasenames, dataFileName };
