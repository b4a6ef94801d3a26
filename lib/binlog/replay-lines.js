// The replay plan's lines (lib/binlog/replay-plan.js): the files, what is replayed up to where, what is skipped and why,
// the GTIDs given where the dump records none, the time zone times are read in (and the source's).
var replayFilter = require('./replay-filter.js');

// out: planReplay's (files, transactions, target, last, lastText, inDump, counts, reached, numbered, ownGtids); p: {folder, until,
// stopGtid, shown (the times as text), byPosition, opts (planReplay's), checked (lib/binlog/replay-history.js checkFiles'), zone,
// unread (the files past the stop, not read), lastRead (the last file read)}.
function linesOf(out, p) {
  var folder = p.folder;
  var until = p.until;
  var stopGtid = p.stopGtid;
  var shown = p.shown;
  var byPosition = p.byPosition;
  var opts = p.opts;
  var checked = p.checked;
  var zone = p.zone;
  var lines = ['Binary logs: ' + out.files.length + ' file(s) in ' + folder.dir + ' (' + out.files[0] + ' … ' + out.files[out.files.length - 1] +
      ', ordered by ' + folder.order + ')',
    '  replay: ' + out.transactions.length + ' transaction(s) after the dump, up to ' + out.target +
      (out.last ? '; the last ' + out.last.gtid + ' committed ' + out.lastText : ''),
    '  skipped: ' + out.inDump + (byPosition ? ' before the dump\'s position ' + opts.dumpFile + ':' + opts.dumpPosition + ' (in the dump)'
      : ' already in the dump (its gtidExecuted)') +
      replayFilter.skippedText(out, opts.filter) +
      '; on the target, GTIDs it already holds are skipped too'];
  if (!out.reached && (until !== null || stopGtid)) {
    lines.push('  the files end before ' + out.target + ' (the last transaction in them committed ' + shown[2] +
      '): every transaction in them is replayed');
  }
  if (byPosition) {
    // What a DBA finds in gtid_executed afterwards, said before: the numbers are the transactions' order from the position.
    lines.splice(2, 0, '  GTIDs: the dump records none (gtid_mode OFF at the source): transactions replayed from ' + byPosition.source + ' ' + opts.dumpFile + ':' +
      opts.dumpPosition + ' onward get GTIDs ' + byPosition.uuid + ':1-' + out.numbered + ' (n: the n-th transaction of its binary log ' +
      'from there; the UUID is derived from the source and that position, so the same command again skips what the target holds)' +
      (out.ownGtids ? '; ' + out.ownGtids + ' of them carry a GTID of their own (GTIDs turned on at the source later): kept, their numbers unused' : ''));
  }
  if (checked.note) lines.push('  ' + checked.note);
  var unread = p.unread || [];
  if (unread.length) {
    lines.push('  the ' + unread.length + ' file(s) after ' + p.lastRead + ' (' + unread[0] + (unread.length > 1 ? ' … ' +
      unread[unread.length - 1] : '') + ') are past the stop: not read');
  }
  if (folder.line) lines.splice(1, 0, '  ' + folder.line);
  lines.push('  ' + zone.text.replace(/^./, function (c) { return 'Times in ' + c; }) + sourceZoneText(zone, opts.sourceZone));
  return lines;
}

// The source's time zone as the dump records it (@.json source.sysvars), offered beside the zone times are read in.
function sourceZoneText(zone, source) {
  if (!source || !source.timeZone) return '';
  var name = source.timeZone === 'SYSTEM' && source.systemZone ? 'SYSTEM (' + source.systemZone + ')' : source.timeZone;
  return name === zone.name ? ' (the source\'s too, as the dump records it)'
    : '; the source\'s, as the dump records it: time_zone ' + name + ' (a time on its clock is given with its UTC offset, e.g. ' +
      '"2026-11-24 10:42:00+01:00")';
}


module.exports = { linesOf: linesOf };
