# Where binary logs come from when they are not a local folder: the first transaction of a file (to
# know where to stop fetching), and a live server's files read over the replication protocol by
# mysqlbinlog --read-from-remote-server --raw into the plugin's cache. The password reaches
# mysqlbinlog through a pipe (--defaults-extra-file=/dev/fd/N): never on a command line, in an
# environment or in a file.
import json as _json
import os as _os
import shutil as _shutil
import subprocess as _subprocess
import sys as _sys

from . import binlog
from .errors import Refusal

_NO_MYSQLBINLOG = ("Reading binary logs from a live server needs the mysqlbinlog program: MySQL Shell 9.2 or later "
                   "has it below its home (libexec/mysqlsh/mysqlbinlog, mysqlbinlog.exe on Windows), else install "
                   "the MySQL client programs (apt-get install mysql-client, or mysql-community-client; dnf install "
                   "mysql) so that mysqlbinlog is on PATH.")


class _Enough(Exception):
    pass


def head(path):
    # The file's previous GTIDs and its first transaction (GTID, commit time), read up to the end
    # of that transaction only. JSON text {previousGtids, firstGtid, firstCommit, size, error}.
    info = binlog._new_file(path)

    def emit(t, _info):
        info["firstGtid"], info["firstCommit"] = t["gtid"], t["commit"]
        raise _Enough()

    try:
        binlog._Reader(emit).read_file(path, info)
    except _Enough:
        pass
    except Refusal as err:
        info["error"] = {"code": err.code, "reason": err.reason}
    return _json.dumps({k: info[k] for k in ("previousGtids", "firstGtid", "firstCommit", "size", "error")})


def _shell_home(environ, exe):
    # As the Shell finds its home: MYSQLSH_HOME when set, else the folder above the executable's
    # folder when that folder is named bin (else none: the Shell then has no libexec folder either).
    if environ.get("MYSQLSH_HOME"):
        return environ["MYSQLSH_HOME"]
    folder = _os.path.dirname(exe or "")
    return _os.path.dirname(folder) if folder and _os.path.basename(folder) == "bin" else None


def _running_shell():
    # The running mysqlsh's executable: /proc/self/exe on Linux; elsewhere what Python was told (not
    # verified on macOS or Windows: there the Shell's folder on PATH, below, still finds it).
    if _os.path.exists("/proc/self/exe"):
        return _os.path.realpath("/proc/self/exe")
    return _sys.executable or ""


def mysqlbinlog_candidates(environ, exe, windows):
    # Where MySQL Shell 9.2+ keeps the mysqlbinlog it bundles, as its sources (9.2.0-9.6.0) say:
    # <home>/<LIBEXECDIR>/mysqlsh/mysqlbinlog(.exe on Windows), LIBEXECDIR "libexec" unless the build
    # sets it. DEB: usr/libexec/mysqlsh (its install list). RPM: the spec passes basename(%{_libexecdir}),
    # libexec on EL and Fedora, lib where the distro's macro is /usr/lib (SUSE: a distro fact, not
    # verified here). tar.gz, macOS, Windows (MSI from the install tree): the CMake default libexec; their
    # build flags are not in the public source, so not verified beyond that. At start the Shell appends
    # that folder to PATH: looked for there too, before the rest of PATH.
    home = _shell_home(environ, exe)
    name = "mysqlbinlog.exe" if windows else "mysqlbinlog"
    out = [_os.path.join(home, d, "mysqlsh", name) for d in ("libexec", "lib")] if home is not None else []
    # The folder the Shell appended to PATH (the last one named <libexec or lib>/mysqlsh): its own, even
    # where its executable was not found, and before any other mysqlbinlog on PATH.
    sep = ";" if windows else ":"
    for folder in reversed([d.rstrip("/\\") for d in environ.get("PATH", "").split(sep) if d]):
        parts = folder.replace("\\", "/").split("/")
        if len(parts) >= 2 and parts[-1] == "mysqlsh" and parts[-2] in ("libexec", "lib"):
            out.append(folder + ("\\" if windows else "/") + name)
            break
    return out


def find_mysqlbinlog():
    # The Shell's own first (the version it tested), else PATH.
    for path in mysqlbinlog_candidates(_os.environ, _running_shell(), _os.name == "nt"):
        if _os.path.isfile(path) and _os.access(path, _os.X_OK):
            return path
    return _shutil.which("mysqlbinlog")


def _option_value(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def server_fetch(spec_json, password):
    # spec {host, port, user, names: [file], dir}: each file read whole from the server by
    # mysqlbinlog (one connection a file) into dir, under a temporary name until complete.
    # JSON text {program, files: [{name, size, status, stderr}]}; stops at the first that failed.
    spec = _json.loads(spec_json)
    program = find_mysqlbinlog()
    if program is None:
        raise Refusal("program-missing", None, _NO_MYSQLBINLOG)
    out = {"program": program, "files": []}
    for name in spec["names"]:
        part = _os.path.join(spec["dir"], ".part-")
        r, w = _os.pipe()
        try:
            _os.write(w, ("[client]\npassword=%s\n" % _option_value(password or "")).encode("utf-8"))
        finally:
            _os.close(w)
        try:
            p = _subprocess.run([program, "--defaults-extra-file=/dev/fd/%d" % r, "--read-from-remote-server", "--raw",
                                 "--host=" + spec["host"], "--port=%d" % int(spec["port"]), "--user=" + spec["user"],
                                 "--result-file=" + part, name],
                                stdin=_subprocess.DEVNULL, stdout=_subprocess.PIPE, stderr=_subprocess.PIPE,
                                pass_fds=(r,), timeout=3600)
            status, err = p.returncode, p.stderr.decode("utf-8", "replace").strip()
        except _subprocess.TimeoutExpired:
            status, err = -1, "mysqlbinlog did not finish within 3600 s"
        finally:
            _os.close(r)
        got = part + name
        entry = {"name": name, "size": None, "status": status, "stderr": err}
        if status == 0 and _os.path.isfile(got):
            _os.replace(got, _os.path.join(spec["dir"], name))
            entry["size"] = _os.path.getsize(_os.path.join(spec["dir"], name))
        elif _os.path.exists(got):
            _os.remove(got)
        out["files"].append(entry)
        if status != 0:
            break
    return _json.dumps(out)
