# What the companion may change, whoever calls it: a new file, link or directory anywhere (never
# over an existing one, never through a symlink); removal and overwriting only inside the plugin's
# own state directory (<config home>/restore) and in load views the plugin made (a directory
# holding VIEW_MARK). Names sent by JS for one directory are plain names, never paths elsewhere.
# The writes of writes.py and view.py go through the helpers below.
import json as _json
import os as _os

from .errors import Refusal, os_refusal

NOFOLLOW = getattr(_os, "O_NOFOLLOW", 0)
# A new file: never over an existing one (O_EXCL), never through a symlink.
NEW_FILE = _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | NOFOLLOW
# The modes of what the plugin makes: as private as the Shell makes a dump (files 0640, directories 0750):
# a view's or a cache's copy of @.users.sql holds account hashes, and a --view-dir or a config home made by
# install.sh may be open to every local user.
FILE_MODE = 0o640
DIR_MODE = 0o750
VIEW_MARK = ".restore-view.json"


def _shell_config_home():
    # The Shell's own user config path, by its rule (mysqlshdk/libs/utils/utils_file.cc
    # get_user_config_path()): MYSQLSH_USER_CONFIG_HOME when set, else $HOME/.mysqlsh, else ""
    # (relative: the current directory, where it then writes mysqlsh.log and finds plugins/).
    # Taken once, as the Shell does at start; the JS members get it from here (clientInfo).
    env = _os.environ
    if "MYSQLSH_USER_CONFIG_HOME" in env:
        home = env["MYSQLSH_USER_CONFIG_HOME"]
    else:
        home = _os.path.join(env["HOME"], ".mysqlsh") if env.get("HOME") else ""
    return _os.path.abspath(home or ".")


CONFIG_HOME = _shell_config_home()


def state_dir():
    return _os.path.realpath(_os.path.join(CONFIG_HOME, "restore"))


def in_state_dir(path):
    real = _os.path.realpath(path)
    root = state_dir()
    return real == root or real.startswith(root + _os.sep)


def outside_state_dir(path, what):
    return Refusal("outside-state-dir", path, "the restore plugin only %s inside its state directory %s"
                   % (what, state_dir()))


def plain_name(name):
    return isinstance(name, str) and name not in ("", ".", "..", VIEW_MARK) and "/" not in name and "\0" not in name


def run_names_of(prefix, start, stop, suffix):
    for n in range(int(start), int(stop)):
        yield "%s%d%s" % (prefix, n, suffix)


def run_names(runs_json):
    # [[prefix, from, to, suffix]]: the names prefix + n + suffix for n in [from, to), one at a time
    # (a million chunks send no million names).
    for prefix, start, stop, suffix in _json.loads(runs_json):
        yield from run_names_of(prefix, start, stop, suffix)


def run_plain_names(path, runs_json):
    # The names of run_names, plus [name] for one name, as a list, each a plain name in the
    # directory `path` (for calls relative to the directory's descriptor). Digits make no name
    # unplain: a run is checked once, by its first name.
    names = []
    for run in _json.loads(runs_json):
        one = len(run) == 1
        first = run[0] if one else "%s%d%s" % (run[0], int(run[1]), run[3])
        if not plain_name(first) or not (one or plain_name(run[0] + run[3])):
            raise Refusal("bad-name", path, "not a plain file name: %r" % (first,))
        if one:
            names.append(first)
        else:
            prefix, suffix = run[0], run[3]
            names.extend(["%s%d%s" % (prefix, n, suffix) for n in range(int(run[1]), int(run[2]))])
    return names


def open_dir(path, code):
    # A descriptor of the directory: its files are then found by name, not by path, each time.
    # code: the failure's code when it cannot be opened ("read-failed", "write-failed").
    try:
        return _os.open(path, _os.O_RDONLY | getattr(_os, "O_DIRECTORY", 0) | getattr(_os, "O_CLOEXEC", 0))
    except OSError as err:
        raise os_refusal(code, path, "cannot open the directory", err)


def as_bytes(content):
    # File content from JS: a string (written as UTF-8) or bytes.
    return content.encode("utf-8") if isinstance(content, str) else bytes(content)


def write_all(fd, data):
    # os.write may write less than it was given: the rest until none is left.
    rest = memoryview(data)
    while rest:
        rest = rest[_os.write(fd, rest):]


def create_new(path, data, dir_fd=None):
    # A new file holding data (FileExistsError when anything is there); dir_fd: path is a name in it.
    fd = _os.open(path, NEW_FILE, FILE_MODE, dir_fd=dir_fd)
    try:
        write_all(fd, data)
    finally:
        _os.close(fd)


def make_tree(path):
    # Like os.makedirs(path, exist_ok=True), each directory it makes DIR_MODE (os.makedirs gives those
    # above the last the umask's mode).
    if _os.path.isdir(path):
        return
    parent = _os.path.dirname(path)
    if parent and parent != path:
        make_tree(parent)
    try:
        _os.mkdir(path, DIR_MODE)
    except FileExistsError:
        if not _os.path.isdir(path):
            raise


def mkdir_new(path, exists_why):
    # Exactly one new directory; never over anything.
    try:
        _os.mkdir(path, DIR_MODE)
    except FileExistsError as err:
        raise Refusal("exists", path, exists_why, err.errno)
    except OSError as err:
        raise os_refusal("mkdir-failed", path, "cannot create the directory", err)
