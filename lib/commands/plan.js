// restore.plan(dump, selection): what a partial import would fetch, stub and skip; optionally
// the list of data files to fetch. Nothing in the dump is touched.
var openDumpSource = require('../remote/dump-source.js').openDumpSource;
var UserError = require('../core/user-error.js').UserError;
var refuseIncompleteModel = require('../dump/dump-complete.js').refuseIncompleteModel;
var partialPlan = require('../partial/partial-plan.js');
var planReport = require('../partial/plan-report.js');

// A new file only: never over an existing one (it may be a chunk, @.json or anything the user
// keeps), never inside the dump directory (nothing is written into a dump), never through a
// symlink (the companion opens it O_EXCL|O_NOFOLLOW and reports it skipped).
function writeFetchList(host, plan, file) {
  var f = host.files;
  if (typeof file !== 'string' || file.trim() === '') throw new UserError('OPTION_INVALID', 'fetchListFile must name a file.',
    { option: 'fetchListFile' });
  var full = f.normpath(f.isAbs(file) ? file : f.join(f.cwd(), file));
  if (f.isDir(full)) throw new UserError('PATH_REFUSED', 'fetchListFile ' + full + ' is a directory: give a file name.',
    { option: 'fetchListFile', path: full });
  var prefix = f.join(plan.dir, 'x').slice(0, -1);
  if (full.indexOf(prefix) === 0) {
    throw new UserError('PATH_REFUSED', 'Refusing fetchListFile ' + full + ': it is inside the dump directory ' + plan.dir + ', where the ' +
      'plugin writes nothing (restore.stub alone writes stubs there, when asked). Write the list outside it, e.g. ' + f.join(f.dirname(plan.dir), 'fetch.txt') + '.',
        { option: 'fetchListFile', path: full });
  }
  if (f.isFile(full)) {
    throw new UserError('PATH_REFUSED', 'Refusing fetchListFile ' + full + ': the file exists and the plugin never writes over a file. ' +
      'Remove it first, or give a new name.', { option: 'fetchListFile', path: full });
  }
  var parent = f.dirname(full);
  if (!f.isDir(parent)) {
    throw new UserError('PATH_MISSING', 'Cannot write fetchListFile ' + full + ': its directory ' + parent + ' does not exist. Create it first.',
      { option: 'fetchListFile', path: full });
  }
  var r;
  try {
    r = f.writeFiles([{ path: full, data: plan.fetch.join('\n') + (plan.fetch.length ? '\n' : '') }], { overwrite: false });
  } catch (e) {
    if (!e || !e.isFileError) throw e;
    throw new UserError('WRITE_FAILED', 'Cannot write fetchListFile ' + full + ': ' + e.data.reason + '. Nothing was written.',
      { option: 'fetchListFile', path: full, cause: e.code });
  }
  if (r.skipped.length) {
    throw new UserError('PATH_REFUSED', 'Refusing fetchListFile ' + full + ': something exists there already (a symbolic link, or a file ' +
      'created meanwhile); nothing was written. Remove it first, or give a new name.', { option: 'fetchListFile', path: full });
  }
  return full;
}

// 'text' for a POSIX shell: single quotes, an embedded ' written as '\''.
function shellQuote(text) {
  return "'" + String(text).replace(/'/g, "'\\''") + "'";
}

function planCommand(host, dumpDir, options) {
  var src = openDumpSource(host, dumpDir, options);
  var r = planReport.modelAndPlan(host, src.dir, options, { source: src.source });
  // What restore.load would refuse, the plan does not present as loadable.
  if (!(options && options.allowIncomplete)) refuseIncompleteModel(r.model, 'restore.plan');
  partialPlan.refuseBlocked(r.plan);
  var listFile = options && options.fetchListFile ? writeFetchList(host, r.plan, options.fetchListFile) : null;
  // A local directory lacking chosen files (a partial download): named, as restore.load names them
  // when it refuses.
  if (!src.source && r.plan.fetch.length) {
    r.plan.warnings.push('The selection chooses ' + r.plan.fetch.length + ' data file(s) that are not in the dump ' +
      'directory (' + r.plan.fetch.slice(0, 5).join(', ') + (r.plan.fetch.length > 5 ? ', …' : '') + '): restore.load ' +
      'refuses until they are there' + (listFile ? '.' : ' (fetchListFile writes their list), or choose fewer chunks with latest.'));
  }
  planReport.printPlan(host, r.plan, { fetchListFile: listFile });
  if (src.source && r.plan.fetch.length) {
    host.out.print('restore.load of ' + src.source.source.url + ' with the same selection fetches them into ' + src.dir + '.');
  } else if (listFile && r.plan.fetch.length) {
    host.out.print('Fetch them with: rsync -a --files-from=' + shellQuote(listFile) + ' <backup-host>:<dump-dir>/ ' +
      shellQuote(r.plan.dir + '/'));
  }
  var result = planReport.planFacts(r.plan);
  result.fetchListFile = listFile;
  return result;
}

module.exports = { planCommand: planCommand };
