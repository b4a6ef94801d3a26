// Progress of a long step, in the Shell's style: "Writing stubs - 45% (45,000 / 100,000)", then
// "Writing stubs - done (100,000 files, 3.2 s)". mysqlsh's println always ends the line and a
// plugin cannot tell whether stdout is a terminal, so these are plain lines at a bounded rate:
// nothing during the first 2 s (a short step just reports its result), then one line when
// another tenth is done or 2 s have passed, whichever comes first. Goes through
// host.out.progress, so outputFormat "json" / "none" silence it (lib/format/output.js).
//
// Use: var p = startProgress(host, 'Checking chunks', total, {unit: 'files'});
//      p.update(done) as work goes on (cheap: call it per item or per batch); p.done() at the end.
var REPORT_EVERY_MS = 2000;
var REPORT_EVERY_PERCENT = 10;
var QUIET_FIRST_MS = 2000;

function groupDigits(n) {
  var s = String(Math.floor(n));
  var out = '';
  while (s.length > 3) {
    out = ',' + s.slice(-3) + out;
    s = s.slice(0, -3);
  }
  return s + out;
}

function startProgress(host, label, total, opts) {
  opts = opts || {};
  var unit = opts.unit ? ' ' + opts.unit : '';
  var format = opts.format || groupDigits; // e.g. text-table's formatBytes for a byte count
  var quietMs = opts.quietMs === undefined ? QUIET_FIRST_MS : opts.quietMs;
  var now = opts.now || function () { return Date.now(); };
  var started = now();
  var lastAt = started;
  var lastPercent = 0;
  var shown = false;

  function line(text) { host.out.progress(label + ' - ' + text); }

  return {
    // note: more of the same progress, e.g. "12 / 40 files" beside a byte count.
    update: function (done, note) {
      if (!(total > 0) || done >= total) return;
      var t = now();
      if (t - started < quietMs) return;
      var percent = Math.floor(done * 100 / total);
      if (!shown || percent >= lastPercent + REPORT_EVERY_PERCENT || t - lastAt >= REPORT_EVERY_MS) {
        line(percent + '% (' + format(done) + ' / ' + format(total) + unit + (note ? '; ' + note : '') + ')');
        lastPercent = percent - (percent % REPORT_EVERY_PERCENT);
        lastAt = t;
        shown = true;
      }
    },
    // The closing line, only when progress lines were shown (a short step just reports its result).
    done: function (summary) {
      if (!shown) return;
      var seconds = ((now() - started) / 1000).toFixed(1);
      line('done (' + (summary || format(total) + unit) +
        ', ' + seconds + ' s)');
    },
  };
}

module.exports = { startProgress: startProgress, groupDigits: groupDigits };
