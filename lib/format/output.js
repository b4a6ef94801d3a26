// The outputFormat option every member takes, as util.checkForServerUpgrade does:
//   "text" (default): print the readable report, return nothing (mysqlsh prints any value a call
//                     returns, so returning the facts too would print them after the report);
//   "json":           print exactly one JSON document with the facts and nothing else, so that
//                     `mysqlsh -- restore inspect d --output-format=json | jq` works; warnings, if
//                     any, go into the document's "warnings";
//   "none":           print nothing, return the facts as a dictionary (for scripts).
// Implemented once here by wrapping host.out, so lib/ code prints unconditionally.
var userError = require('../core/user-error.js');
var settle = require('../core/memory.js').settle;
var UserError = userError.UserError;

var FORMATS = ['text', 'json', 'none'];

var OUTPUT_FORMAT_BRIEF = 'text (default): print the report and return nothing; json: print only one JSON ' +
  'document with the facts; none: print nothing and return the facts as a dictionary';

// The option definition members add to their options dictionary.
function outputFormatOption() {
  return { name: 'outputFormat', type: 'string', brief: OUTPUT_FORMAT_BRIEF };
}

// The parameters of a member whose only option is outputFormat (version, status, presets, …).
function outputOnlyParameters() {
  return [{ name: 'options', type: 'dictionary', required: false, brief: 'Output options',
    options: [outputFormatOption()] }];
}

// One paragraph for each member's details.
var OUTPUT_FORMAT_DETAILS = 'outputFormat: "text" (the default) prints the report and returns nothing; "json" ' +
  'prints one JSON document with the same facts and nothing else (warnings, if any, in its "warnings"; from ' +
  'the command line: --output-format=json); "none" prints nothing and returns the facts as a dictionary, for ' +
  'scripts: var r = restore.<member>(..., {outputFormat: "none"}).';

// For the members whose facts have an entry per table (inspect, plan, view, stub).
function factsAtScaleDetails(member) {
  return 'With tens of thousands of tables the dictionary of outputFormat "none" is big: the Shell holds every ' +
    'member of every table in its own values, a few KB a table. A script over such an estate reads the JSON ' +
    'document instead (the same facts, as plain JavaScript objects), written once from the command line: ' +
    'mysqlsh -- restore ' + member + ' ./dump' + (member === 'inspect' ? '' : ' --latest=...') +
    ' --output-format=json > facts.json, then in the script: var r = JSON.parse(os.loadTextFile("facts.json")).';
}

function chooseFormat(options) {
  var f = options && options.outputFormat;
  if (f === undefined || f === null || f === '') return 'text';
  if (FORMATS.indexOf(String(f)) < 0) {
    throw new UserError('OPTION_INVALID', 'Invalid value for outputFormat: "' + f + '". Use "text" (the default), "json" or "none".');
  }
  return String(f);
}

// The options without outputFormat: lib/ never sees it (restore.load passes unknown names on to
// util.loadDump, which would refuse it).
function withoutOutputFormat(options) {
  if (!options || typeof options !== 'object' || !('outputFormat' in options)) return options;
  var rest = {};
  Object.keys(options).forEach(function (k) { if (k !== 'outputFormat') rest[k] = options[k]; });
  return rest;
}

function quietHost(host, warnings) {
  var copy = {};
  Object.keys(host).forEach(function (k) { copy[k] = host[k]; });
  copy.out = {
    print: function () {},
    progress: function () {},
    warn: function (line) { warnings.push(String(line)); },
  };
  return copy;
}

// Facts plus the warnings printed on the way, under "warnings" when there are any (a lib result
// may carry its own "warnings" already; restore.presets' facts are a map of names, kept clean).
function withWarnings(facts, warnings) {
  if (!facts || typeof facts !== 'object' || Array.isArray(facts)) return { result: facts, warnings: warnings };
  if (!warnings.length) return facts;
  var own = Array.isArray(facts.warnings) ? facts.warnings : [];
  var seen = {};
  own.forEach(function (w) { seen['w:' + w] = true; });
  var out = {};
  Object.keys(facts).forEach(function (k) { out[k] = facts[k]; });
  out.warnings = own.concat(warnings.filter(function (w) { return !seen['w:' + w]; }));
  return out;
}

// Runs fn(host, options) -> facts in the format options.outputFormat asks for. fn may return a
// function that makes the facts: it is called only when they are wanted (a dump's facts list
// every chunk, which the text report does not need).
function runWithOutput(host, options, fn) {
  var format = chooseFormat(options);
  var rest = withoutOutputFormat(options);
  if (format === 'text') {
    fn(host, rest);
    return undefined;
  }
  var warnings = [];
  var facts;
  try {
    var made = fn(quietHost(host, warnings), rest);
    facts = withWarnings(typeof made === 'function' ? made() : made, warnings);
  } catch (e) {
    // A script reads the failure's code from the document; the error is thrown all the same.
    if (format === 'json') host.out.print(JSON.stringify(withWarnings({ error: userError.errorFacts(e) }, warnings), null, 2));
    throw e;
  }
  if (format === 'none') {
    // The facts cross into the Shell's value types once returned (50,000 tables: some 90 MB of
    // them): what made them (the dump's model) is let go and collected first.
    var value = materialized(facts);
    made = facts = null;
    settle(host, value && value.tables && value.tables.length ? value.tables.length : 0);
    return value;
  }
  printJson(facts, host.out.print);
  return undefined;
}

// Below V8's large-object size (128 KiB): larger strings stay in its large-object space until a full
// collection (20 MB of JSON in 256 KiB pieces: +20 MB in mysqlsh).
var PIECE = 32768;

// A list whose items are made one at a time when the facts are printed as JSON (a dump's facts
// list every chunk: 100,000 objects need not exist at once); a real array for outputFormat "none".
// A mark, not a class: it is read in other files (GraalJS).
function lazyList(length, itemAt) {
  return { restoreLazyList: true, length: length, itemAt: itemAt };
}

function isLazy(v) { return v !== null && typeof v === 'object' && v.restoreLazyList === true; }

// The value with every lazy list made an array.
function materialized(v) {
  if (isLazy(v)) {
    var out = [];
    for (var i = 0; i < v.length; i++) out.push(materialized(v.itemAt(i)));
    return out;
  }
  if (v === null || typeof v !== 'object' || typeof v.toJSON === 'function') return v;
  if (Array.isArray(v)) return v.map(materialized);
  var o = {};
  Object.keys(v).forEach(function (k) { o[k] = materialized(v[k]); });
  return o;
}

// Prints JSON.stringify(value, null, 2) in pieces of whole lines (about PIECE characters each): a
// dump's facts list every chunk (100,000 make 20 MB of text), never one string. Lazy lists
// (lazyList) are printed as arrays.
function printJson(value, emit) {
  var lines = [];
  var size = 0;
  function line(text) {
    lines.push(text);
    size += text.length + 1;
    if (size >= PIECE) { emit(lines.join('\n')); lines = []; size = 0; }
  }
  function write(v, pad, prefix, suffix) {
    if (v === null || typeof v !== 'object' || typeof v.toJSON === 'function') {
      line(pad + prefix + JSON.stringify(v) + suffix);
      return;
    }
    var lazy = isLazy(v);
    var isArray = lazy || Array.isArray(v);
    var keys = isArray ? null : Object.keys(v).filter(function (k) { return v[k] !== undefined && typeof v[k] !== 'function'; });
    var n = isArray ? v.length : keys.length;
    if (!n) { line(pad + prefix + (isArray ? '[]' : '{}') + suffix); return; }
    line(pad + prefix + (isArray ? '[' : '{'));
    for (var i = 0; i < n; i++) {
      var item = lazy ? v.itemAt(i) : isArray ? v[i] : v[keys[i]];
      if (isArray && (item === undefined || typeof item === 'function')) item = null;
      write(item, pad + '  ', isArray ? '' : JSON.stringify(keys[i]) + ': ', i < n - 1 ? ',' : '');
    }
    line(pad + (isArray ? ']' : '}') + suffix);
  }
  write(value, '', '', '');
  if (lines.length) emit(lines.join('\n'));
}

module.exports = {
  runWithOutput: runWithOutput,
  printJson: printJson,
  lazyList: lazyList,
  materialized: materialized,
  outputFormatOption: outputFormatOption,
  outputOnlyParameters: outputOnlyParameters,
  OUTPUT_FORMAT_DETAILS: OUTPUT_FORMAT_DETAILS,
  factsAtScaleDetails: factsAtScaleDetails,
  FORMATS: FORMATS,
  OUTPUT_FORMAT_BRIEF: OUTPUT_FORMAT_BRIEF,
};
