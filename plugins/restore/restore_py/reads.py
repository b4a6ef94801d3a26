# Listing, stat and reads: what JavaScript in mysqlsh cannot do. Reading is not confined (inspect
# reads what it is given). Answers come in columns, not an entry per file (a big dump has hundreds
# of thousands): names, sizes, dirs [index, ...] and errors [[index, why, special], ...], where
# special names what a non-regular entry is ("a named pipe"), else None.
import array as _array
import json as _json
import os as _os
import re as _re
import stat as _statmod

from .errors import os_refusal, why


def special(mode):
    # util.loadDump lists regular files only (and links to them): any other entry is not there for it.
    if _statmod.S_ISREG(mode):
        return None
    return ("a named pipe" if _statmod.S_ISFIFO(mode) else "a socket" if _statmod.S_ISSOCK(mode)
            else "a device" if _statmod.S_ISCHR(mode) or _statmod.S_ISBLK(mode) else "a special file")


def _entry_error(at, st, path, dir_fd=None):
    # [index, why, special] for an entry util.loadDump could not read, else None.
    kind = special(st.st_mode)
    if kind:
        return [at, "not a regular file (%s)" % kind, kind]
    # A file the user running mysqlsh cannot read: util.loadDump would fail on it. The owner's
    # read bit decides for the owner (ACLs too); anyone else is asked of the system (a call per file).
    if st.st_uid == EUID and st.st_mode & _statmod.S_IRUSR:
        return None
    return None if _os.access(path, _os.R_OK, dir_fd=dir_fd) else [at, "Permission denied", None]


EUID = _os.geteuid()
# Reads never wait on a pipe or a device (a FIFO among the chunks would block an open for reading).
READ_FLAGS = _os.O_RDONLY | getattr(_os, "O_CLOEXEC", 0) | getattr(_os, "O_NONBLOCK", 0)


def list_dir(path, options=None):
    # A stat per file is most of the cost of listing a big dump: skipped for the endings in
    # noSizeFor (size None). Names omitMatching finds are left out, only counted (omitted, and
    # omittedEnding: how many of them end in options.countEnding). A dangling symlink or an
    # unreadable entry has an error (an unreadable file keeps its size).
    # options.joined: the answer is [the names as one text joined by "/" (no file name holds one),
    # the sizes as one native float64 per name (NaN: None), JSON text {dirs, errors, omitted,
    # omittedEnding}]: 200,000 names as a list and its JSON text took Python 30 MB, and JavaScript a
    # string per name; joined a batch at a time, a few MB.
    options = options or {}
    no_size = tuple(options.get("noSizeFor") or ())
    omit = _re.compile(options["omitMatching"]).search if options.get("omitMatching") else None
    ending = options.get("countEnding") or None
    joined = bool(options.get("joined"))
    names, sizes, dirs, errors = [], ([] if not joined else _array.array("d")), [], []
    parts, count, nan = [], 0, float("nan")
    omitted = omitted_ending = 0
    try:
        with _os.scandir(path) as entries:
            for e in entries:
                if omit and omit(e.name):
                    omitted += 1
                    omitted_ending += 1 if ending and e.name.endswith(ending) else 0
                    continue
                at = count
                count += 1
                names.append(e.name)
                if joined and len(names) >= 4096:
                    parts.append("/".join(names))
                    names = []
                size = None
                try:
                    if e.is_dir():
                        size = 0
                        dirs.append(at)
                    else:
                        st = e.stat()
                        size = None if no_size and e.name.endswith(no_size) else st.st_size
                        error = _entry_error(at, st, e.path)
                        if error:
                            errors.append(error)
                except OSError as err:
                    size = None
                    errors.append([at, why(err), None])
                sizes.append(size if not joined else nan if size is None else float(size))
    except OSError as err:
        raise os_refusal("list-failed", path, "cannot list the directory", err)
    rest = {"dirs": dirs, "errors": errors, "omitted": omitted, "omittedEnding": omitted_ending}
    if joined:
        parts.append("/".join(names))
        text = "/".join(p for p in parts if p)
        parts = names = None
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A name that is not UTF-8 (kept as surrogates) cannot cross as text: the JSON answer then.
            names = text.split("/") if count else []
            sizes = [None if s != s else int(s) for s in sizes]
        else:
            return [text, sizes.tobytes(), _json.dumps(rest)]
    rest.update(names=names, sizes=sizes)
    return _json.dumps(rest)


def stat_one(path, dir_fd=None):
    # (size, is a directory, [why, special] or None) of one path; size None where no file is
    # (missing, a directory, an error). A dangling symlink has an error; an unreadable file keeps its size.
    try:
        st = _os.stat(path, dir_fd=dir_fd)
    except FileNotFoundError:
        return None, False, (["No such file or directory", None] if is_link(path, dir_fd) else None)
    except OSError as err:
        return None, False, [why(err), None]
    if _statmod.S_ISDIR(st.st_mode):
        return None, True, None
    error = _entry_error(0, st, path, dir_fd)
    return st.st_size, False, (error[1:] if error else None)


def is_link(path, dir_fd):
    try:
        return _statmod.S_ISLNK(_os.lstat(path, dir_fd=dir_fd).st_mode)
    except OSError:
        return False


def stat(paths_json):
    # The same columns as list_dir, for given files only: a partial import needs the sizes of the
    # chunks it loads, not of the 100,000 it stubs. A missing file has size None and no error.
    sizes, dirs, errors = [], [], []
    for at, path in enumerate(_json.loads(paths_json)):
        size, is_dir, error = stat_one(path)
        sizes.append(0 if is_dir else size)
        if is_dir:
            dirs.append(at)
        if error:
            errors.append([at] + error)
    return _json.dumps({"sizes": sizes, "dirs": dirs, "errors": errors})


def read_at(path, offset, length, dir_fd=None, shown=None):
    # Up to length bytes at offset (fewer at the end of the file); None for a missing file.
    # dir_fd: path is a name in that directory, which `shown` names in an error.
    shown = shown or path
    try:
        fd = _os.open(path, READ_FLAGS, dir_fd=dir_fd)
    except FileNotFoundError:
        return None
    except OSError as err:
        raise os_refusal("read-failed", shown, "cannot read the file", err)
    try:
        # A regular file gives less than asked only at its end: one call for a small file.
        parts, got = [], 0
        while got < length:
            want = length - got
            part = _os.pread(fd, want, offset + got)
            parts.append(part)
            got += len(part)
            if len(part) < want:
                break
        return parts[0] if len(parts) == 1 else b"".join(parts)
    except OSError as err:
        raise os_refusal("read-failed", shown, "cannot read the file", err)
    finally:
        _os.close(fd)


def read_heads(paths, n):
    return [read_at(p, 0, n) for p in paths]


def read_ranges(requests_json):
    # [[path, offset, length], ...]: one call serves a step of a walk over many files at once.
    return [read_at(path, offset, length) for path, offset, length in _json.loads(requests_json)]
