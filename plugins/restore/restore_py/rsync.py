# The programs that reach a backup host: rsync (never with a deletion option) and the remote shell
# it uses (ssh), for the first bytes of a few files there.
import json as _json
import shutil as _shutil
import subprocess as _subprocess

from .errors import Refusal

_NO_RSYNC = ("A remote dump is fetched with the rsync program, and it is not on PATH. Install it (apt-get install "
             "rsync openssh-client, dnf install rsync openssh-clients, or brew install rsync) and run again.")
_REFUSED = ("--delete", "--del", "--remove-source-files", "--remove-sent-files")


def rsync(args_json, timeout=0, input_text=""):
    # Runs the real rsync with these arguments (no shell); nothing is ever deleted on either side.
    # input_text goes to its standard input (a --files-from=- list).
    args = _json.loads(args_json)
    for a in args:
        if any(a == r or a.startswith(r + "-") or a.startswith(r + "=") for r in _REFUSED):
            raise Refusal("option-refused", a, "the restore plugin never deletes files with rsync")
    program = _shutil.which("rsync")
    if program is None:
        raise Refusal("program-missing", None, _NO_RSYNC)
    try:
        p = _subprocess.run([program] + args, input=(input_text or "").encode("utf-8"), stdout=_subprocess.PIPE,
                            stderr=_subprocess.PIPE, timeout=timeout or None)
    except _subprocess.TimeoutExpired:
        return _json.dumps({"status": -1, "stdout": "", "stderr": "rsync did not finish within %d s" % timeout})
    return _json.dumps({"status": p.returncode, "stdout": p.stdout.decode("utf-8", "replace"),
                        "stderr": p.stderr.decode("utf-8", "replace")})


def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def remote_heads(rsh_json, target, paths_json, n):
    # The first n bytes of files on an ssh host: `head -c n` there, through the remote shell argv
    # (the one rsync uses). One command per file (since reads a few, one after the other).
    # -> [bytes or None, ...]; None: no path, or the file is not there. A failure names the remote
    # path in its reason (its path field is for local paths).
    rsh = _json.loads(rsh_json)
    shell = rsh[0] if rsh else "ssh"
    out = []
    for path in _json.loads(paths_json):
        if path is None:
            out.append(None)
            continue
        q = _shell_quote(path)
        command = "if [ -f %s ]; then head -c %d -- %s; else exit 3; fi" % (q, int(n), q)
        try:
            p = _subprocess.run(rsh + [target, command], stdin=_subprocess.DEVNULL, stdout=_subprocess.PIPE,
                                stderr=_subprocess.PIPE, timeout=300)
        except FileNotFoundError:
            raise Refusal("program-missing", None, "the remote shell %s is not installed (the rsh option, or "
                          "$RSYNC_RSH)" % shell)
        except _subprocess.TimeoutExpired:
            raise Refusal("remote-timeout", None, "reading the first bytes of %s on %s took more than 300 s"
                          % (path, target))
        if p.returncode == 3:
            out.append(None)
        elif p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").strip().splitlines()
            raise Refusal("remote-failed", None, "reading the first bytes of %s on %s failed (%s exit %d): %s" % (
                path, target, shell, p.returncode, err[-1] if err else "no message"))
        else:
            out.append(p.stdout)
    return out
