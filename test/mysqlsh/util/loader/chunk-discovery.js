'use strict';
// Which data files of a table (or partition) the loader will load, from the metadata and the one
// directory listing, exactly as loader-internals §2.1 describes `rescan_data`:
//   1. the un-chunked `<base>.<ext>` counts as the whole, complete data;
//   2. otherwise, when the table was dumped with chunking, probe `<base>@0`, `@1`, … and at the
//      first gap probe `<base>@@<gap>` once, then stop.
// Complete only when the last (`@@`) chunk was seen. chunkFileBytes is never consulted here.

// listing: Set of file names. Returns { chunks: [{ id, file, last }], complete }.
// `id` is the progress-log chunk number: -1 for an un-chunked file (§7).
function discoverChunks(listing, basename, extension, chunking) {
  const whole = `${basename}.${extension}`;
  if (listing.has(whole)) return { chunks: [{ id: -1, file: whole, last: true }], complete: true };
  const chunks = [];
  if (!chunking) return { chunks, complete: false };
  for (let i = 0; ; i++) {
    const file = `${basename}@${i}.${extension}`;
    if (listing.has(file)) { chunks.push({ id: i, file, last: false }); continue; }
    const lastFile = `${basename}@@${i}.${extension}`;
    if (listing.has(lastFile)) {
      chunks.push({ id: i, file: lastFile, last: true });
      return { chunks, complete: true };
    }
    return { chunks, complete: false };
  }
}

module.exports = { discoverChunks };
