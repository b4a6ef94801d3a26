// The problems inspect reports, each {code, message, file}. A blocking problem is one that makes
// util.loadDump stop with an error (contract §3); the others are facts the user should know.
var BLOCKING = {
  'dump-incomplete': true, // no @.done.json: "Incomplete dump" before anything is loaded
  'metadata-missing': true, // "some of the metadata files are missing"
  'chunk-missing': true, // "some of the data files are missing"
  'last-chunk-unknown': true, // no @@N among the files: the loader cannot finish the table either
  'chunks-conflict': true, // e.g. both @N and @@N: the loader's scan stops short
  'chunk-corrupt': true, // "zstd.read: Unknown frame descriptor" or a gzip error
  'format-newer': false,
  'whole-and-chunked': false, // the loader takes the whole-table file and ignores the chunks
  'unlisted-files': false,
};

function makeProblem(code, message, file) {
  if (!Object.prototype.hasOwnProperty.call(BLOCKING, code)) throw new Error('unknown problem code ' + code);
  return { code: code, message: message, file: file === undefined ? null : file };
}

function isBlocking(problem) { return BLOCKING[problem.code] === true; }

module.exports = { makeProblem: makeProblem, isBlocking: isBlocking };
