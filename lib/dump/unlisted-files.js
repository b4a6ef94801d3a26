// Files of a dump directory that belong to no schema listed in @.json, e.g. the leftovers of an
// earlier dump into the same directory. util.loadDump ignores them; the user should know they
// are not part of what gets loaded.
var makeProblem = require('./dump-problems.js').makeProblem;

var SHOWN = 5;

// Root files (@.json, @.done.json, @.sql, …) and the loader's own progress files.
function isDumpLevelFile(name) {
  return name.charAt(0) === '@' || /^load-progress\..*\.json$/.test(name);
}

// files: the directory's files (a Map name -> size); schemas: [{basename}]. Returns a problem or null.
function unlistedFiles(files, schemas) {
  var bases = new Set(schemas.map(function (s) { return s.basename; }));
  var unlisted = [];
  files.forEach(function (size, name) {
    if (isDumpLevelFile(name)) return;
    // `@` is percent-encoded inside names, so the text before the first one is a schema base name.
    var at = name.indexOf('@');
    if (at > 0) {
      if (!bases.has(name.slice(0, at))) unlisted.push(name);
      return;
    }
    // Schema files (<base>.json, <base>.sql, …): a schema base name may itself hold dots.
    if (!schemas.some(function (s) { return name.slice(0, s.basename.length + 1) === s.basename + '.'; })) unlisted.push(name);
  });
  unlisted.sort();
  if (!unlisted.length) return null;
  return makeProblem('unlisted-files', unlisted.length + (unlisted.length === 1 ? ' file belongs' : ' files belong') +
    ' to no schema listed in @.json: ' + unlisted.slice(0, SHOWN).join(', ') + (unlisted.length > SHOWN ? ', …' : '') +
    '.', unlisted[0]);
}

module.exports = { unlistedFiles: unlistedFiles };
