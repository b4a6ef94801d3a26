# Files of one directory named as runs of numbers (a dump's chunk files: [[prefix, from, to,
# suffix] | [name]], confine.run_plain_names), looked up by name under one descriptor of the
# directory: stat, first bytes, or both in one pass. Answers come as native columns (one float64
# or int32 per name), never an object per file: a dump may have a million of them.
import array as _array
import json as _json
import os as _os
import stat as _statmod

from .confine import open_dir, run_plain_names
from .reads import EUID, READ_FLAGS, read_at, stat_one


def stat_runs(path, runs_json):
    # stat for the files of a dump's chunks, named as runs: [sizes, JSON text {dirs, errors}], sizes
    # as one native float64 per name (NaN where there is no file: missing, a directory, or an error).
    # A readable regular file of this user is settled inline: a million of them, a call each.
    sizes, dirs, errors = _array.array("d"), [], []
    nan = float("nan")
    dir_fd = open_dir(path, "read-failed")
    stat, isreg, euid, owner_reads = _os.stat, _statmod.S_ISREG, EUID, _statmod.S_IRUSR
    try:
        for at, name in enumerate(run_plain_names(path, runs_json)):
            try:
                st = stat(name, dir_fd=dir_fd)
                if isreg(st.st_mode) and st.st_uid == euid and st.st_mode & owner_reads:
                    sizes.append(st.st_size)
                    continue
            except OSError:
                pass
            size, is_dir, error = stat_one(name, dir_fd)
            sizes.append(nan if size is None else float(size))
            if is_dir:
                dirs.append(at)
            if error:
                errors.append([at] + error)
    finally:
        _os.close(dir_fd)
    return [sizes.tobytes(), _json.dumps({"dirs": dirs, "errors": errors})]


def read_runs(path, runs_json, n):
    # The first n bytes of each file named by the runs, as [the bytes one after the other, their
    # lengths as one native int32 per file (-1: no such file)]: one value each way per batch.
    names = run_plain_names(path, runs_json)
    dir_fd = open_dir(path, "read-failed")
    try:
        lengths, data = _heads(path, dir_fd, names, n)
    finally:
        _os.close(dir_fd)
    return [b"".join(data), _array.array("i", lengths).tobytes()]


def _heads(path, dir_fd, names, n):
    # ([length or -1 per name], [its first n bytes, for those that have some]). One open, read and
    # close per file, inline: a million files make a million turns of this loop. (Threads gained
    # nothing here: measured on 2 CPUs.)
    data, lengths = [], []
    open_, pread, close = _os.open, _os.pread, _os.close
    for name in names:
        try:
            fd = open_(name, READ_FLAGS, dir_fd=dir_fd)
        except FileNotFoundError:
            lengths.append(-1)
            continue
        except OSError:
            fd = None
        if fd is None:
            got = read_at(name, 0, n, dir_fd, _os.path.join(path, name))  # says why, in the usual words
        else:
            try:
                got = pread(fd, n, 0)  # fewer only at the file's end
            except OSError:
                got = read_at(name, 0, n, dir_fd, _os.path.join(path, name))
            finally:
                close(fd)
        lengths.append(-1 if got is None else len(got))
        if got:
            data.append(got)
    return lengths, data


def survey_runs(path, runs_json, n):
    # What a dump's survey needs of each chunk file named by the runs, in one pass: its size and
    # its first n bytes (one open, read and close per file, where stat and then a read took two
    # lookups of the name). [sizes: float64 per name (NaN: no file, a directory or an error),
    # lengths: int32 per name (-1: nothing read), the bytes read one after the other, JSON text
    # {dirs, errors}] as stat_runs has them. Only a regular file's bytes are answered; any other
    # entry is opened without waiting (O_NONBLOCK: a pipe) and read at most once.
    sizes, lengths, data, dirs, errors = _array.array("d"), _array.array("i"), [], [], []
    nan = float("nan")
    dir_fd = open_dir(path, "read-failed")
    open_, fstat, pread, close, access = _os.open, _os.fstat, _os.pread, _os.close, _os.access
    isreg = _statmod.S_ISREG
    flags = READ_FLAGS | getattr(_os, "O_NOCTTY", 0)
    try:
        for at, name in enumerate(run_plain_names(path, runs_json)):
            try:
                fd = open_(name, flags, dir_fd=dir_fd)
            except FileNotFoundError:
                fd = None  # missing (a partial download: most of them), or a dangling link
                if not access(name, _os.F_OK, dir_fd=dir_fd, follow_symlinks=False):  # no exception to raise
                    sizes.append(nan)
                    lengths.append(-1)
                    continue
            except OSError:
                fd = None  # not readable, a socket: said as stat_runs says it
            if fd is not None:
                try:
                    # A read shorter than asked, not empty, ended a regular file (a pipe, a directory
                    # cannot be read at an offset): its length is the size, no fstat needed. Anything
                    # else is asked of fstat.
                    got = pread(fd, n, 0)
                    size = len(got) if 0 < len(got) < n else None
                    if size is None:
                        st = fstat(fd)
                        size = st.st_size if isreg(st.st_mode) else None
                    if size is not None:
                        sizes.append(size)
                        lengths.append(len(got))
                        if got:
                            data.append(got)
                        continue
                except OSError:
                    pass
                finally:
                    close(fd)
            size, is_dir, error = stat_one(name, dir_fd)
            sizes.append(nan if size is None else float(size))
            lengths.append(-1)
            if is_dir:
                dirs.append(at)
            if error or (size is not None and not is_dir):
                # a regular file that could not be read: util.loadDump could not either
                errors.append([at] + (error or ["cannot be read", None]))
    finally:
        _os.close(dir_fd)
    return [sizes.tobytes(), lengths.tobytes(), b"".join(data), _json.dumps({"dirs": dirs, "errors": errors})]
