// The module system of the GraalJS test host, run in the MAIN context (as MySQL Shell runs its
// core.js there). Written for this project from the rules in ../../../NOTES.md (mysqlshdk/scripts/core.js
// behaviour: ModuleHandler.__require / __find_module / __load_module); not a copy.
(function (global) {
  var cache = {};            // full path (or native name) -> module record; shared by every plugin
  var natives = __list_native_modules();

  function locate(name, searchPaths) {
    for (var i = 0; i < searchPaths.length; i++) {
      var base = searchPaths[i];
      if (!os.path.isabs(base)) base = os.path.join(os.getcwd(), base);
      var candidate = os.path.normpath(os.path.join(base, name));
      if (os.path.isfile(candidate)) return candidate;
      if (os.path.isfile(candidate + '.js')) return candidate + '.js';
      var init = os.path.join(candidate, 'init.js');
      if (os.path.isdir(candidate) && os.path.isfile(init)) return init;
    }
    throw new Error("Could not find module '" + name + "'.");
  }

  function loadModule(fullPath) {
    var record = { __filename: fullPath, __dirname: os.path.dirname(fullPath), exports: {} };
    cache[fullPath] = record;          // cached before it runs: cycles see partial exports
    __load_module(fullPath, record);   // native: a new context per file
  }

  function requireModule(name) {
    if (typeof name !== 'string') {
      throw new TypeError("The 'module_name_or_path' parameter is expected to be a string.");
    }
    if (name.length === 0) throw new Error('The path must contain at least one character.');
    if (name.indexOf('\\') !== -1) throw new Error("The '\\' character is disallowed.");
    if (os.path.isabs(name)) throw new Error('The absolute path is disallowed.');
    if (natives.indexOf(name) !== -1) {
      if (!(name in cache)) cache[name] = __load_native_module(name);
      return cache[name];
    }
    var searchPaths = [];
    if (name.indexOf('./') === 0 || name.indexOf('../') === 0) searchPaths.push(__current_module_folder());
    for (var i = 0; i < sys.path.length; i++) searchPaths.push(sys.path[i]);
    var fullPath = locate(name, searchPaths);
    if (!(fullPath in cache)) loadModule(fullPath);
    return cache[fullPath].exports;
  }

  global.require = function (name) { return requireModule(name); };
  global.require.__mh = { __load_module: loadModule, __cache: cache };
  global.dir = function (object) { var keys = []; for (var k in object) keys.push(k); return keys; };
})(this);
