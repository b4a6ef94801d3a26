// Files of a dump directory that belong to no schema listed in @.json, e.g. the leftovers of an
// earlier dump into the same directory. util.loadDump ignores them; the user should know they
// are not part of what gets loaded.
var makeProblem = require('./dump-problems.js').makeProblem;

var SHOWN = 5;

// The plugin's own files in a load view or a remote dump's cache (lib/partial/load-view.js, the
// companion's view.py, lib/remote/dump-cache.js): never a leftover of another dump.
var PLUGIN_FILE = /^\.restore-(view\.json|view-complete|cache\.json|stub-[0-9a-f]{16})$/;

// Root files (@.json, @.done.json, @.sql, …), the loader's own progress files (load-progress.json,
// the name restore.view prints, among them) and the plugin's.
function isDumpLevelFile(name) {
  return name.charAt(0) === '@' || /^load-progress(\..*)?\.json$/.test(name) || PLUGIN_FILE.test(name);
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
