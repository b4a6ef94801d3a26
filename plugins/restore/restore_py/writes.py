# New files and directories, and the few overwrites and removals the plugin makes inside its own
# state directory (confine.py says where each is allowed).
import json as _json
import os as _os

from .confine import FILE_MODE, NEW_FILE, as_bytes, create_new, in_state_dir, make_tree, mkdir_new, open_dir, outside_state_dir, run_plain_names, write_all
from .errors import os_refusal


def _batch_failed(path, err, written):
    return os_refusal("write-failed", path, "cannot write the file", err,
                      "%d file(s) of this batch were written before it" % written)


def replace_file(path, data):
    # Overwriting (the state file: the only record of what to put back) never truncates in place:
    # a new file beside it, flushed to disk, then renamed over it. A crash or a full disk leaves
    # the old file or the new one, whole.
    folder = _os.path.dirname(path) or "."
    temp = _os.path.join(folder, ".%s.%d.tmp" % (_os.path.basename(path), _os.getpid()))
    if _os.path.lexists(temp):
        _os.remove(temp)  # left by a crash of an earlier process with this id: the plugin's own
    fd = _os.open(temp, NEW_FILE, FILE_MODE)
    try:
        write_all(fd, data)
        _os.fsync(fd)
    except BaseException:
        _os.close(fd)
        _os.remove(temp)
        raise
    _os.close(fd)
    _os.replace(temp, path)
    dfd = _os.open(folder, _os.O_RDONLY)
    try:
        _os.fsync(dfd)
    finally:
        _os.close(dfd)


def write_files(paths_json, contents, options=None):
    # [[path, index into contents], ...]: new files (overwrite: inside the state directory only);
    # a path where something exists is skipped and returned.
    overwrite = bool(options and options.get("overwrite"))
    blobs = [as_bytes(c) for c in contents]
    written, skipped = 0, []
    for path, which in _json.loads(paths_json):
        try:
            if overwrite and in_state_dir(path):
                replace_file(path, blobs[which])
            else:
                create_new(path, blobs[which])
            written += 1
        except FileExistsError:
            skipped.append(path)
        except OSError as err:
            raise _batch_failed(path, err, written)
    return _json.dumps({"written": written, "skipped": skipped})


def write_runs(path, runs_json, contents):
    # New files of one content (a restore.stub's empty chunks) named by runs in the directory:
    # never over anything; the names that exist are skipped and returned.
    data = as_bytes(contents[0])
    written, skipped = 0, []
    dir_fd = open_dir(path, "write-failed")
    try:
        for name in run_plain_names(path, runs_json):
            try:
                create_new(name, data, dir_fd)
                written += 1
            except FileExistsError:
                skipped.append(name)
            except OSError as err:
                raise _batch_failed(_os.path.join(path, name), err, written)
    finally:
        _os.close(dir_fd)
    return _json.dumps({"written": written, "skipped": skipped})


def make_dirs(path, options=None):
    # Inside the state directory: like mkdir -p. Elsewhere (options.fresh): exactly one new
    # directory in an existing one; a new directory never stands over anything.
    if in_state_dir(path):
        make_tree(path)
        return
    if not (options and options.get("fresh")):
        raise outside_state_dir(path, "creates directories")
    mkdir_new(path, "exists already")


def remove(paths):
    removed = []
    for p in paths:
        if not in_state_dir(p):
            raise outside_state_dir(p, "removes files")
        try:
            _os.remove(p)
            removed.append(p)
        except FileNotFoundError:
            pass
        except OSError as err:
            raise os_refusal("remove-failed", p, "cannot remove it", err)
    return {"removed": removed}


def can_write(path):
    # Whether the user running mysqlsh may create files in the directory path.
    return _os.path.isdir(path) and _os.access(path, _os.W_OK | _os.X_OK)
