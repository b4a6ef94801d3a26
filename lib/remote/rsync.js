// rsync runs for a remote dump (host.files.rsync: the real program, never with a deletion
// option): listings and fetches, with failures told as what to do.
var UserError = require('../core/user-error.js').UserError;

// rsh: the remote shell for ssh sources (rsync -e), or null for rsync's default (RSYNC_RSH or ssh).
function baseArgs(source, rsh) {
  var args = [];
  if (source.kind === 'ssh' && rsh) args.push('-e', rsh);
  return args;
}

function advice(source, stderr) {
  if (/Permission denied|Host key verification failed|publickey/i.test(stderr)) {
    return 'ssh could not log in: set up key-based login for this host (ssh-copy-id), or give the remote shell with ' +
      'the rsh option (e.g. rsh: "ssh -p 2222 -i ~/.ssh/backup_key").';
  }
  if (/No such file or directory|change_dir|does not exist/i.test(stderr)) {
    return 'check the path on the backup host.';
  }
  if (/Connection refused|Could not resolve|No route|timed out|Name or service not known/i.test(stderr)) {
    return source.kind === 'daemon' ? 'check that the rsync daemon runs there and answers on that port.'
      : 'check the host name and that sshd answers there (port: the rsh option, e.g. rsh: "ssh -p 2222").';
  }
  if (/unknown module|Unknown module/i.test(stderr)) return 'check the module name (rsync --list-only rsync://host/ lists them).';
  return 'the message above is rsync\'s own.';
}

// Runs rsync; throws a UserError naming what failed when it fails. what: e.g. "listing host:/x".
function run(host, source, args, what, input) {
  var r = host.files.rsync(args, input ? { input: input } : undefined);
  if (r.status === 0) return r;
  var err = String(r.stderr || '').trim().split('\n').filter(function (l) { return l.trim() !== ''; });
  var tail = err.filter(function (l) { return !/^rsync error: /.test(l); }).slice(-2).join(' ') || err.slice(-1).join(' ');
  throw new UserError('RSYNC_FAILED', 'rsync failed ' + what + ' (exit ' + r.status + '): ' + (tail || 'no message') + '. ' +
    advice(source, err.join('\n')));
}

// One line of `rsync --list-only`: "-rw-r--r--      1,234 2026/11/24 10:00:00 name".
var LINE = /^([dl-])\S*\s+([\d,.]+)\s+\S+\s+\S+\s+(.*)$/;

// The entries of `rsync --list-only` output: [{name, size, isDir}] (names as listed, with any
// directory part when recursive; "." left out).
function parseList(text) {
  var out = [];
  String(text).split('\n').forEach(function (line) {
    var m = LINE.exec(line);
    if (!m || m[3] === '.') return;
    var name = m[1] === 'l' ? m[3].replace(/ -> .*$/, '') : m[3];
    out.push({ name: name, size: Number(m[2].replace(/[,.]/g, '')), isDir: m[1] === 'd' });
  });
  return out;
}

// Entries of a remote directory (not recursive).
function listRemote(host, source, rsh) {
  return parseList(run(host, source, baseArgs(source, rsh).concat(['--list-only', source.url + '/']), 'listing ' + source.url).stdout);
}

module.exports = { baseArgs: baseArgs, run: run, listRemote: listRemote, parseList: parseList };
