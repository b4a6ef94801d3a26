// When the engine asks the host to collect garbage (host.shell.collectGarbage): between the phases
// of reading a big dump, whose objects die in bulk at each phase's end (the table JSONs as parsed,
// the listing's columns). mysqlsh on V8 collects in full only when a call returns, so without this
// a phase's garbage stays in the peak of the next. A full collection costs some 20-50 ms on such
// a heap: asked for only where there are many (BIG) names.
var BIG = 5000;

// count: how many names (tables, files) the phase went through.
function settle(host, count) {
  if (count < BIG || !host.shell || typeof host.shell.collectGarbage !== 'function') return;
  host.shell.collectGarbage();
}

module.exports = { settle: settle, BIG: BIG };
