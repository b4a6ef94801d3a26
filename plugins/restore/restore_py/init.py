# Python sub-plugin of the `restore` group. It loads after the JS sub-plugin and
#  1. adds to restore._internal the file access that JavaScript in MySQL Shell cannot have (it can
#     neither list a directory nor write a file);
#  2. registers the public members (restore.inspect, restore.load, ...) as thin functions around
#     restore._internal.run(): an error raised here reads like the Shell's own
#     ("ERROR: RuntimeError: <message>"), where mysqlsh appends a JS file and line to any error a
#     JS member throws. The definitions (help, parameters) are the JS members' own.
#
# What the file access may change is confined here, whoever calls it: a new file, link or
# directory anywhere (never over an existing one or through a symlink); removal only inside the
# plugin's own state directory (<config home>/restore) and of load views the plugin made (a
# directory holding its marker file); rsync never with a deletion option. Reading is not confined: inspect reads what it is
# given. Large batches cross as one JSON string each way: a string is one value to marshal, where
# a list of 100,000 dictionaries would be 300,000.
import array as _array
import hashlib as _hashlib
import json as _json
import os as _os
import re as _re
import shutil as _shutil
import stat as _statmod
import subprocess as _subprocess
import zlib as _zlib
from concurrent.futures import ThreadPoolExecutor as _Pool

import mysqlsh

_restore = mysqlsh.globals.restore
_shell = mysqlsh.globals.shell


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


_CONFIG_HOME = _shell_config_home()


def _state_dir():
    return _os.path.realpath(_os.path.join(_CONFIG_HOME, "restore"))


def _in_state_dir(path):
    real = _os.path.realpath(path)
    root = _state_dir()
    return real == root or real.startswith(root + _os.sep)


def _refuse(path, why):
    raise ValueError("%s: %s" % (path, why))


def _why(e):
    return e.strerror or str(e)


def _special(mode):
    # util.loadDump lists regular files only (and links to them): any other entry is not there for it.
    if _statmod.S_ISREG(mode):
        return None
    kind = ("a named pipe" if _statmod.S_ISFIFO(mode) else "a socket" if _statmod.S_ISSOCK(mode)
            else "a device" if _statmod.S_ISCHR(mode) or _statmod.S_ISBLK(mode) else "a special file")
    return "not a regular file (%s)" % kind


def _list(path, options=None):
    # A stat per file is most of the cost of listing a big dump: skip it where the caller says.
    # In columns, not an entry per file (a big dump has hundreds of thousands): {"names": [...],
    # "sizes": [...], "dirs": [index, ...], "errors": [[index, why], ...]}; a dangling symlink or
    # an unreadable entry has an error (an unreadable file keeps its size).
    no_size = tuple((options or {}).get("noSizeFor") or ())
    omit = (options or {}).get("omitMatching")
    omit = _re.compile(omit).search if omit else None
    names, sizes, dirs, errors = [], [], [], []
    omitted = omitted_idx = 0
    try:
        with _os.scandir(path) as entries:
            for e in entries:
                if omit and omit(e.name):
                    omitted += 1
                    if e.name.endswith(".idx"):
                        omitted_idx += 1
                    continue
                at = len(names)
                names.append(e.name)
                try:
                    if e.is_dir():
                        sizes.append(0)
                        dirs.append(at)
                        continue
                    st = e.stat()
                    sizes.append(None if no_size and e.name.endswith(no_size) else st.st_size)
                    special = _special(st.st_mode)
                    if special:
                        errors.append([at, special])
                    # A file the user running mysqlsh cannot read: util.loadDump would fail on it.
                    elif not _os.access(e.path, _os.R_OK):
                        errors.append([at, "Permission denied"])
                except OSError as err:
                    if len(sizes) == at:
                        sizes.append(None)
                    else:
                        sizes[at] = None
                    errors.append([at, _why(err)])
    except OSError as err:
        _refuse(path, "cannot list the directory (%s)" % _why(err))
    return _json.dumps({"names": names, "sizes": sizes, "dirs": dirs, "errors": errors, "omitted": omitted,
                        "omittedIdx": omitted_idx})


def _stat_one(path):
    # (size, is a directory, error) of one path; size None where no file is (missing, a directory,
    # an error). A dangling symlink has an error; an unreadable file keeps its size.
    try:
        st = _os.stat(path)
    except FileNotFoundError:
        return None, False, ("No such file or directory" if _os.path.islink(path) else None)
    except OSError as err:
        return None, False, _why(err)
    if _statmod.S_ISDIR(st.st_mode):
        return None, True, None
    special = _special(st.st_mode)
    if special:
        return st.st_size, False, special
    return st.st_size, False, (None if _os.access(path, _os.R_OK) else "Permission denied")


def _stat(paths_json):
    # The same columns as _list, for given files only: a partial import needs the sizes of the
    # chunks it loads, not of the 100,000 it stubs. A missing file has size None and no error.
    sizes, dirs, errors = [], [], []
    for at, path in enumerate(_json.loads(paths_json)):
        size, is_dir, error = _stat_one(path)
        sizes.append(0 if is_dir else size)
        if is_dir:
            dirs.append(at)
        if error:
            errors.append([at, error])
    return _json.dumps({"sizes": sizes, "dirs": dirs, "errors": errors})


def _run_files(path, runs_json):
    # The names of _run_names, plus [name] for one name, as paths in the directory: names only
    # (a chunk's name from the dump's metadata), never a path elsewhere.
    for run in _json.loads(runs_json):
        for name in ([run[0]] if len(run) == 1 else _run_names_of(*run)):
            if not _plain_name(name):
                _refuse(path, "not a plain file name: %r" % name)
            yield _os.path.join(path, name)


def _stat_runs(path, runs_json):
    # _stat for the files of a dump's chunks, named as runs (a million chunks send no million names
    # and get no million numbers back as objects): [sizes, JSON text {dirs, errors}], sizes as one
    # native float64 per name (NaN where there is no file: missing, a directory, or an error).
    sizes, dirs, errors = _array.array("d"), [], []
    nan = float("nan")
    for at, p in enumerate(_run_files(path, runs_json)):
        size, is_dir, error = _stat_one(p)
        sizes.append(nan if size is None else float(size))
        if is_dir:
            dirs.append(at)
        if error:
            errors.append([at, error])
    return [sizes.tobytes(), _json.dumps({"dirs": dirs, "errors": errors})]


def _read_runs(path, runs_json, n):
    # The first n bytes of each file named by the runs, as [the bytes one after the other, their
    # lengths as one native int32 per file (-1: no such file)]: one value each way per batch.
    data, lengths = [], _array.array("i")
    for p in _run_files(path, runs_json):
        got = _read_at(p, 0, n)
        lengths.append(-1 if got is None else len(got))
        if got:
            data.append(got)
    return [b"".join(data), lengths.tobytes()]


def _read_at(path, offset, length):
    # Up to length bytes at offset (fewer at the end of the file); None for a missing file.
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            return f.read(length)
    except FileNotFoundError:
        return None
    except OSError as err:
        _refuse(path, "cannot read the file (%s)" % _why(err))


def _read_heads(paths, n):
    return [_read_at(p, 0, n) for p in paths]


def _read_ranges(requests_json):
    # [[path, offset, length], ...]: one call serves a step of a walk over many files at once.
    return [_read_at(path, offset, length) for path, offset, length in _json.loads(requests_json)]


_READ = 1 << 20


def _gunzip_size(path):
    # Every member of the file (gzip allows several); zlib checks each member's CRC and length.
    # Output is taken _READ bytes at a time: memory stays bounded whatever the ratio.
    total, d, fed = 0, _zlib.decompressobj(31), False
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(_READ), b""):
            while True:
                out = d.decompress(block, _READ)
                total += len(out)
                fed = fed or bool(block)
                if d.eof:
                    block, d, fed = d.unused_data, _zlib.decompressobj(31), False
                    if block:
                        continue
                    break
                block = d.unconsumed_tail
                if not block and len(out) < _READ:
                    break
    if fed:
        raise ValueError("truncated: the file ends inside a gzip member")
    return total


_NO_ZSTD = ("verify needs the zstd program to decompress zstd data files, and it is not on PATH. Install it "
            "(apt-get install zstd, dnf install zstd or brew install zstd) and run again; without verify only the "
            "structure of the files is checked.")


def _unzstd_size(program, path):
    # The real zstd decoder: every frame, checksums where the frame has one; the size is counted.
    p = _subprocess.Popen([program, "-dcq", "--no-progress", "--", path], stdin=_subprocess.DEVNULL,
                          stdout=_subprocess.PIPE, stderr=_subprocess.PIPE)
    total = 0
    while True:
        block = p.stdout.read(_READ)
        if not block:
            break
        total += len(block)
    err = p.stderr.read().decode("utf-8", "replace").strip()
    if p.wait() != 0:
        message = err.splitlines()[-1] if err else "zstd exited with status %d" % p.returncode
        for prefix in ("zstd: ", path + " : ", path + ": "):
            message = message[len(prefix):] if message.startswith(prefix) else message
        raise ValueError("zstd: " + message)
    return total


def _decompressed_sizes(requests_json, threads):
    # [[path, compression], ...] -> JSON {"sizes": [[bytes, error], ...]}: each file decompressed in
    # full (nothing kept), on up to `threads` files at once; {"error": ...} when zstd is not here.
    requests = _json.loads(requests_json)
    program = _shutil.which("zstd")
    if program is None and any(c == "zstd" for _, c in requests):
        return _json.dumps({"error": _NO_ZSTD})

    def one(request):
        path, compression = request
        try:
            return [_unzstd_size(program, path) if compression == "zstd" else _gunzip_size(path), None]
        except FileNotFoundError:
            return [None, "the file is missing"]
        except _zlib.error as err:
            return [None, "gzip: " + str(err).split(": ", 1)[-1]]
        except (OSError, ValueError) as err:
            return [None, _why(err) if isinstance(err, OSError) else str(err)]

    with _Pool(max_workers=max(1, int(threads))) as pool:
        return _json.dumps({"sizes": list(pool.map(one, requests))})


def _open_new(path):
    # Never over an existing file, and never through a symlink (overwriting: _replace_file).
    flags = _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | getattr(_os, "O_NOFOLLOW", 0)
    return _os.fdopen(_os.open(path, flags, 0o644), "wb")


def _replace_file(path, data):
    # Overwriting (the state file: the only record of what to put back) never truncates in place:
    # a new file beside it, flushed to disk, then renamed over it. A crash or a full disk leaves
    # the old file or the new one, whole.
    folder = _os.path.dirname(path) or "."
    temp = _os.path.join(folder, ".%s.%d.tmp" % (_os.path.basename(path), _os.getpid()))
    if _os.path.lexists(temp):
        _os.remove(temp)  # left by a crash of an earlier process with this id: the plugin's own
    fd = _os.open(temp, _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | getattr(_os, "O_NOFOLLOW", 0), 0o644)
    try:
        rest = memoryview(data)
        while rest:
            rest = rest[_os.write(fd, rest):]
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


def _write_files(paths_json, contents, options=None):
    overwrite = bool(options and options.get("overwrite"))
    blobs = [c.encode("utf-8") if isinstance(c, str) else bytes(c) for c in contents]
    written, skipped = 0, []
    for path, which in _json.loads(paths_json):
        try:
            if overwrite and _in_state_dir(path):
                _replace_file(path, blobs[which])
            else:
                with _open_new(path) as out:
                    out.write(blobs[which])
            written += 1
        except FileExistsError:
            skipped.append(path)
        except OSError as err:
            raise ValueError("%s: cannot write the file (%s); %d file(s) of this batch were written before it"
                             % (path, _why(err), written))
    return _json.dumps({"written": written, "skipped": skipped})


def _write_runs(path, runs_json, contents):
    # New files of one content (a restore.stub's empty chunks) named by runs in the directory:
    # never over anything (_open_new); the names that exist are skipped and returned.
    content = contents[0]
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    written, skipped = 0, []
    for p in _run_files(path, runs_json):
        try:
            with _open_new(p) as out:
                out.write(data)
            written += 1
        except FileExistsError:
            skipped.append(_os.path.basename(p))
        except OSError as err:
            raise ValueError("%s: cannot write the file (%s); %d file(s) of this batch were written before it"
                             % (p, _why(err), written))
    return _json.dumps({"written": written, "skipped": skipped})


def _make_dirs(path, options=None):
    # Inside the state directory: like mkdir -p. Elsewhere (options.fresh): exactly one new
    # directory in an existing one; a new directory never stands over anything.
    if _in_state_dir(path):
        _os.makedirs(path, exist_ok=True)
        return
    if not (options and options.get("fresh")):
        _refuse(path, "the restore plugin only creates directories inside its state directory " + _state_dir())
    _mkdir_new(path, "exists already")


def _mkdir_new(path, exists_why):
    try:
        _os.mkdir(path, 0o755)
    except FileExistsError:
        _refuse(path, exists_why)
    except OSError as err:
        _refuse(path, "cannot create the directory (%s)" % _why(err))


def _remove(paths):
    removed = []
    for p in paths:
        if not _in_state_dir(p):
            _refuse(p, "the restore plugin only removes files inside its state directory " + _state_dir())
        try:
            _os.remove(p)
            removed.append(p)
        except FileNotFoundError:
            pass
        except OSError as err:
            _refuse(p, "cannot remove it (%s)" % _why(err))
    return {"removed": removed}


# A load view (lib/partial/load-view.js) is a directory the plugin makes: its marker file is
# written first, so that entries are only ever added to, and a view only ever removed from, a
# directory that holds it. Entries are new symbolic links (to the dump's files) or new files
# (stubs, the view's own metadata): never over anything, never through a symlink.
_VIEW_MARK = ".restore-view.json"


def _plain_name(name):
    return isinstance(name, str) and name not in ("", ".", "..", _VIEW_MARK) and "/" not in name and "\0" not in name


def _is_view(path):
    mark = _os.path.join(path, _VIEW_MARK)
    return _os.path.isdir(path) and not _os.path.islink(path) and _os.path.isfile(mark) and not _os.path.islink(mark)


def _view_create(path, mark_text):
    path = _os.path.normpath(path)
    parent = _os.path.dirname(path)
    if _in_state_dir(parent):
        _os.makedirs(parent, exist_ok=True)
    elif not _os.path.isdir(parent):
        _refuse(path, "its parent directory does not exist")
    _mkdir_new(path, "something exists there already; the plugin makes a load view only in a new directory")
    try:
        with _open_new(_os.path.join(path, _VIEW_MARK)) as out:
            out.write(mark_text.encode("utf-8"))
    except OSError as err:
        _os.rmdir(path)
        _refuse(path, "cannot write in the new directory (%s)" % _why(err))


def _view_dir(path):
    # The view's directory, opened without following a link: entries are made relative to it.
    if not _is_view(path):
        _refuse(path, "not a load view made by the restore plugin (no %s)" % _VIEW_MARK)
    return _os.open(path, _os.O_RDONLY | getattr(_os, "O_DIRECTORY", 0) | getattr(_os, "O_NOFOLLOW", 0))


def _view_entry_failed(path, name, err, made):
    if isinstance(err, FileExistsError):
        _refuse(_os.path.join(path, name), "exists already in the load view")
    raise ValueError("%s: cannot create the view entry (%s); %d entr(ies) of this batch were made before it"
                     % (_os.path.join(path, name), _why(err), made))


_NEW_FILE = _os.O_WRONLY | _os.O_CREAT | _os.O_EXCL | getattr(_os, "O_NOFOLLOW", 0)


def _write_new_at(dfd, name, data):
    # A new file in the view's directory (never over anything, never through a link).
    fd = _os.open(name, _NEW_FILE, 0o644, dir_fd=dfd)
    try:
        _os.write(fd, data)
    finally:
        _os.close(fd)


def _make_entries(path, items, make, allowed):
    # Each (name, what) of items made in the view by make(dfd, name, what); returns how many.
    made = 0
    dfd = _view_dir(path)
    try:
        for name, what in items:
            if not allowed(name):
                _refuse(path, "refusing the view entry name %r" % (name,))
            try:
                make(dfd, name, what)
            except OSError as err:
                _view_entry_failed(path, name, err, made)
            made += 1
    finally:
        _os.close(dfd)
    return made


def _view_add(path, entries_json, contents):
    # entries: [[name, target]] for a symbolic link, [[name, index into contents]] for a new file.
    blobs = [c.encode("utf-8") if isinstance(c, str) else bytes(c) for c in contents]

    def make(dfd, name, what):
        if isinstance(what, str):
            _os.symlink(what, name, dir_fd=dfd)
        else:
            _write_new_at(dfd, name, blobs[what])
    # A view holds as many entries as the dump has files: plain os calls, no file objects.
    return _make_entries(path, _json.loads(entries_json), make, _plain_name)


_STUB_PREFIX = ".restore-stub-"
_STUB_NAME = _re.compile(r"^\.restore-stub-[0-9a-f]{16}$")


def _run_names_of(prefix, start, stop, suffix):
    for n in range(int(start), int(stop)):
        yield "%s%d%s" % (prefix, n, suffix)


def _run_names(runs_json):
    # [[prefix, from, to, suffix]]: the names prefix + n + suffix for n in [from, to), one at a time.
    for prefix, start, stop, suffix in _json.loads(runs_json):
        yield from _run_names_of(prefix, start, stop, suffix)


def _view_stubs(path, runs_json, contents):
    # Many entries with one small content (the chunks a view does not load): the content is
    # written once in the view as a hidden file, and each entry is a symbolic link to it: one
    # system call per entry instead of three. Names come as runs of numbers (a view of a million
    # chunks sends no million names).
    content = contents[0]
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    source = _STUB_PREFIX + _hashlib.sha256(data).hexdigest()[:16]
    dfd = _view_dir(path)
    try:
        _write_new_at(dfd, source, data)
    except FileExistsError:
        pass  # an earlier batch of this view wrote it
    finally:
        _os.close(dfd)
    return _make_entries(path, ((name, source) for name in _run_names(runs_json)),
                         lambda dfd, name, target: _os.symlink(target, name, dir_fd=dfd),
                         lambda name: _plain_name(name) and not _STUB_NAME.match(name))


def _view_append(path, name, text):
    # More text at the end of a file this view holds (its @.done.json, written piece by piece so
    # that 100,000 entries are never one string).
    return _append_to_view_file(path, name, [text.encode("utf-8")])


# An entry "name": number of @.done.json's chunkFileBytes, the number apart.
_DONE_ENTRY = _re.compile(rb'("[^"\\]*(?:\\.[^"\\]*)*"\s*:\s*)-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?')


def _view_append_from(path, name, spec_json):
    # The view's @.done.json from the dump's own file: spec {source, bytes, ops}, ops [["t", text]
    # | ["c", start, end] (the source's bytes as they are) | ["z", start, end] (its entries with
    # every size 0)]. The source is only read, and must still be as long as when it was read.
    spec = _json.loads(spec_json)
    source = spec["source"]
    try:
        src = open(source, "rb")
    except OSError as err:
        _refuse(source, "cannot read it (%s)" % _why(err))
    with src:
        if _os.fstat(src.fileno()).st_size != spec["bytes"]:
            _refuse(source, "it changed while the load view was being made: run the command again")

        def pieces():
            for op in spec["ops"]:
                if op[0] == "t":
                    yield op[1].encode("utf-8")
                    continue
                src.seek(op[1])
                data = src.read(op[2] - op[1])
                yield _DONE_ENTRY.sub(rb"\g<1>0", data) if op[0] == "z" else data
        return _append_to_view_file(path, name, pieces())


def _append_to_view_file(path, name, pieces):
    # Only a regular file already in the view, opened without following a link; never the marker
    # or a stub. pieces: bytes, written one after the other.
    if not _plain_name(name) or _STUB_NAME.match(name):
        _refuse(path, "refusing the view entry name %r" % (name,))
    dfd = _view_dir(path)
    try:
        fd = _os.open(name, _os.O_WRONLY | _os.O_APPEND | getattr(_os, "O_NOFOLLOW", 0), dir_fd=dfd)
    except OSError as err:
        _os.close(dfd)
        _refuse(_os.path.join(path, name), "cannot add to it (%s)" % _why(err))
    total = 0
    try:
        if not _statmod.S_ISREG(_os.fstat(fd).st_mode):
            _refuse(_os.path.join(path, name), "not a file of the view")
        for data in pieces:
            view = memoryview(data)
            while view:
                view = view[_os.write(fd, view):]
            total += len(data)
    finally:
        _os.close(fd)
        _os.close(dfd)
    return total


def _view_remove(path):
    # Only a directory holding the marker, and only its direct entries (links and files): a
    # sub-directory means it is not what the plugin made, and nothing is removed.
    if not _is_view(path):
        _refuse(path, "not a load view made by the restore plugin (no %s): nothing was removed" % _VIEW_MARK)
    with _os.scandir(path) as entries:
        names = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
    if any(is_dir for _, is_dir in names):
        _refuse(path, "holds a directory, which the plugin never puts in a load view: nothing was removed")
    removed = 0
    for name, _ in names:
        if name != _VIEW_MARK:
            _os.remove(_os.path.join(path, name))
            removed += 1
    _os.remove(_os.path.join(path, _VIEW_MARK))
    _os.rmdir(path)
    return removed


_NO_RSYNC = ("A remote dump is fetched with the rsync program, and it is not on PATH. Install it (apt-get install "
             "rsync openssh-client, dnf install rsync openssh-clients, or brew install rsync) and run again.")
_RSYNC_REFUSED = ("--delete", "--del", "--remove-source-files", "--remove-sent-files")


def _rsync(args_json, timeout=0, input_text=""):
    # Runs the real rsync with these arguments (no shell); nothing is ever deleted on either side.
    # input_text goes to its standard input (a --files-from=- list).
    args = _json.loads(args_json)
    for a in args:
        if any(a == r or a.startswith(r + "-") or a.startswith(r + "=") for r in _RSYNC_REFUSED):
            _refuse(a, "the restore plugin never deletes files with rsync")
    program = _shutil.which("rsync")
    if program is None:
        return _json.dumps({"error": _NO_RSYNC})
    try:
        p = _subprocess.run([program] + args, input=(input_text or "").encode("utf-8"), stdout=_subprocess.PIPE,
                            stderr=_subprocess.PIPE, timeout=timeout or None)
    except _subprocess.TimeoutExpired:
        return _json.dumps({"status": -1, "stdout": "", "stderr": "rsync did not finish within %d s" % timeout})
    return _json.dumps({"status": p.returncode, "stdout": p.stdout.decode("utf-8", "replace"),
                        "stderr": p.stderr.decode("utf-8", "replace")})


_NO_ZSTD_HEADS = ("since reads the first rows of zstd chunks with the zstd program, and it is not on PATH. Install it "
                  "(apt-get install zstd, dnf install zstd or brew install zstd) and run again.")


def _decode_heads(compressions_json, contents):
    # Pieces of data files decoded for their first rows: a whole zstd frame (made of a chunk's first
    # blocks by the plugin) through the zstd program, the start of a gzip stream through zlib (as far
    # as it goes), plain data as it is. -> [[bytes or None, ...], JSON text [error or None, ...]].
    compressions = _json.loads(compressions_json)
    program = _shutil.which("zstd")
    out, errors = [], []
    for compression, data in zip(compressions, contents):
        data = bytes(data)
        try:
            if compression == "zstd":
                if program is None:
                    raise ValueError(_NO_ZSTD_HEADS)
                p = _subprocess.run([program, "-dcq", "--no-progress"], input=data, stdout=_subprocess.PIPE,
                                    stderr=_subprocess.PIPE, timeout=120)
                if p.returncode != 0:
                    raise ValueError("zstd: " + (p.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[-1])
                out.append(p.stdout)
            elif compression == "gzip":
                out.append(_zlib.decompressobj(31).decompress(data, 16 << 20))
            else:
                out.append(data)
            errors.append(None)
        except (ValueError, OSError, _zlib.error, _subprocess.TimeoutExpired) as err:
            out.append(None)
            errors.append(str(err))
    return [out, _json.dumps(errors)]


def _shell_quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def _remote_heads(rsh_json, target, paths_json, n):
    # The first n bytes of files on an ssh host: `head -c n` there, through the remote shell argv
    # (the one rsync uses). One command per file (since reads a few, one after the other).
    # -> [[bytes or None, ...], error text or ""]; None: no path, or the file is not there.
    rsh = _json.loads(rsh_json)
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
            return [[], "the remote shell %s is not installed (the rsh option, or $RSYNC_RSH)" % (rsh[0] if rsh else "ssh")]
        except _subprocess.TimeoutExpired:
            return [[], "reading the first bytes of %s on %s took more than 300 s" % (path, target)]
        if p.returncode == 3:
            out.append(None)
        elif p.returncode != 0:
            err = p.stderr.decode("utf-8", "replace").strip().splitlines()
            return [[], "reading the first bytes of %s on %s failed (%s exit %d): %s" % (
                path, target, rsh[0] if rsh else "ssh", p.returncode, err[-1] if err else "no message")]
        else:
            out.append(p.stdout)
    return [out, ""]


def _can_write(path):
    # Whether the user running mysqlsh may create files in the directory path.
    return _os.path.isdir(path) and _os.access(path, _os.W_OK | _os.X_OK)


def _client_info():
    return {"cpuCount": _os.cpu_count() or 1, "pid": _os.getpid(), "host": _os.uname().nodename,
            "configHome": _CONFIG_HOME}


_internal = _restore._internal


def _member(name, fn, brief, parameters):
    _shell.add_extension_object_member(_internal, name, fn, {"brief": brief, "parameters": parameters})


_member("list", _list, "Lists a directory as JSON text: {names, sizes, dirs, errors} (columns).", [
    {"name": "path", "type": "string", "brief": "Directory to list."},
    {"name": "options", "type": "dictionary", "required": False, "brief": "Listing options.",
     "options": [{"name": "noSizeFor", "type": "array",
                  "brief": "File name endings whose size is not needed (null instead)."},
                 {"name": "omitMatching", "type": "string",
                  "brief": "A regular expression: names it finds are left out, only counted."}]}])
_member("stat", _stat, "Sizes of given files as JSON text: {sizes, dirs, errors} (columns, as list).", [
    {"name": "pathsJson", "type": "string", "brief": "JSON text [path, ...]."}])
# Files named as runs of numbers, in one directory (see _run_files).
_RUNS = [{"name": "path", "type": "string", "brief": "Directory holding the files."},
         {"name": "runsJson", "type": "string", "brief": "JSON text [[prefix, from, to, suffix] | [name], ...]."}]
_member("statRuns", _stat_runs, "Sizes of files named as runs: [float64 sizes, JSON text {dirs, errors}].", _RUNS)
_member("readRuns", _read_runs, "First bytes of files named as runs: [bytes, int32 lengths (-1: missing)].", _RUNS + [
    {"name": "n", "type": "integer", "brief": "How many bytes to read from each."}])
_member("readHeads", _read_heads, "Reads the first bytes of many files; null for a missing file.", [
    {"name": "paths", "type": "array", "brief": "Files to read."},
    {"name": "n", "type": "integer", "brief": "How many bytes to read from each."}])
_member("readRanges", _read_ranges, "Reads bytes at given offsets of many files; null for a missing file.", [
    {"name": "requestsJson", "type": "string", "brief": "JSON text [[path, offset, length], ...]."}])
_member("decompressedSizes", _decompressed_sizes,
        "Decompresses files in full, nothing kept: JSON text {sizes: [[bytes, error], ...]} or {error}.", [
    {"name": "requestsJson", "type": "string", "brief": "JSON text [[path, compression], ...] (zstd or gzip)."},
    {"name": "threads", "type": "integer", "brief": "How many files at once."}])
_member("decodeHeads", _decode_heads, "Decodes pieces of data files: [[bytes or None], JSON text [error or None]].", [
    {"name": "compressionsJson", "type": "string", "brief": "JSON text [zstd | gzip | none, ...]."},
    {"name": "contents", "type": "array", "brief": "The pieces (bytes)."}])
_member("remoteHeads", _remote_heads, "First bytes of files on an ssh host: [[bytes or None], error text].", [
    {"name": "rshJson", "type": "string", "brief": "JSON text: the remote shell's argv, e.g. [\"ssh\", \"-p\", \"2222\"]."},
    {"name": "target", "type": "string", "brief": "[user@]host."},
    {"name": "pathsJson", "type": "string", "brief": "JSON text [path or null, ...] on that host."},
    {"name": "n", "type": "integer", "brief": "How many bytes of each."}])
_member("writeFiles", _write_files, "Writes new files (overwrite only inside the state directory).", [
    {"name": "pathsJson", "type": "string", "brief": "JSON text [[path, content index], ...]."},
    {"name": "contents", "type": "array", "brief": "The distinct contents (string or bytes)."},
    {"name": "options", "type": "dictionary", "required": False, "brief": "Write options.",
     "options": [{"name": "overwrite", "type": "bool", "brief": "Replace existing files (state directory only)."}]}])
_member("writeRuns", _write_runs, "Writes new files of one content named as runs; existing names are skipped.", _RUNS + [
    {"name": "contents", "type": "array", "brief": "One content (string or bytes): what every file holds."}])
_member("makeDirs", _make_dirs, "Creates a directory inside the state directory, or one new directory elsewhere.", [
    {"name": "path", "type": "string", "brief": "Directory to create."},
    {"name": "options", "type": "dictionary", "required": False, "brief": "Options.",
     "options": [{"name": "fresh", "type": "bool", "brief": "Outside the state directory: one new directory."}]}])
_member("remove", _remove, "Removes files inside the state directory.", [
    {"name": "paths", "type": "array", "brief": "Files to remove."}])
_member("canWrite", _can_write, "Whether new files can be created in a directory.", [
    {"name": "path", "type": "string", "brief": "The directory."}])
_member("viewCreate", _view_create, "Creates a load view: a new directory holding its marker file.", [
    {"name": "path", "type": "string", "brief": "The new directory."},
    {"name": "markText", "type": "string", "brief": "The marker file's content."}])
_member("viewAdd", _view_add, "Adds new links and files to a load view; returns how many were made.", [
    {"name": "path", "type": "string", "brief": "The load view."},
    {"name": "entriesJson", "type": "string", "brief": "JSON text [[name, link target or content index], ...]."},
    {"name": "contents", "type": "array", "brief": "The distinct file contents (string or bytes)."}])
_member("viewStubs", _view_stubs, "Adds entries of one small content to a load view (links to one file in it).", [
    {"name": "path", "type": "string", "brief": "The load view."},
    {"name": "runsJson", "type": "string", "brief": "JSON text [[prefix, from, to, suffix], ...]: names prefix+n+suffix."},
    {"name": "contents", "type": "array", "brief": "[their content] (string or bytes)."}])
_member("viewAppend", _view_append, "Adds text at the end of a file of a load view; returns its bytes.", [
    {"name": "path", "type": "string", "brief": "The load view."},
    {"name": "name", "type": "string", "brief": "A file the view holds."},
    {"name": "text", "type": "string", "brief": "The text to add."}])
_member("viewAppendFrom", _view_append_from, "Adds a rewritten copy of parts of a dump file to a file of a load view.", [
    {"name": "path", "type": "string", "brief": "The load view."},
    {"name": "name", "type": "string", "brief": "A file the view holds."},
    {"name": "specJson", "type": "string", "brief": "JSON text {source, bytes, ops}."}])
_member("viewRemove", _view_remove, "Removes a load view the plugin made; returns how many entries it held.", [
    {"name": "path", "type": "string", "brief": "The load view."}])
_member("rsync", _rsync, "Runs rsync (never with deletions): JSON text {status, stdout, stderr} or {error}.", [
    {"name": "argsJson", "type": "string", "brief": "JSON text [argument, ...]."},
    {"name": "timeout", "type": "integer", "required": False, "brief": "Seconds; 0 for none."},
    {"name": "inputText", "type": "string", "required": False, "brief": "Text for rsync's standard input."}])
_member("clientInfo", _client_info, "Facts about the client machine and process.", [])


def _load_bucket_module():
    # The bucket client (bucket.py beside this file): loaded by path, as mysqlsh runs this file as a
    # script, not as a package.
    import importlib.util as _ilu
    spec = _ilu.spec_from_file_location("restore_bucket", _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "bucket.py"))
    module = _ilu.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_bucket = _load_bucket_module()
_member("bucketList", _bucket.list_prefix, "Lists objects under a prefix: JSON text {names, sizes, prefixes, requests}.", [
    {"name": "optionsJson", "type": "string", "brief": "JSON text: util.loadDump's s3* options."},
    {"name": "prefix", "type": "string", "brief": "The key prefix."},
    {"name": "delimiter", "type": "string", "brief": "\"/\" for one level, \"\" for everything."}])
_member("bucketFetch", lambda o, spec: _bucket.fetch(o, spec, _state_dir()),
        "Fetches objects into a cache the plugin made: JSON text {fetched, kept, bytes, requests}.", [
    {"name": "optionsJson", "type": "string", "brief": "JSON text: util.loadDump's s3* options."},
    {"name": "specJson", "type": "string", "brief": "JSON text {items: [[key, file name, size]], dir, threads, refresh}."}])


_SAFE_INTEGER = 2 ** 53 - 1  # beyond it JavaScript numbers lose digits


def _plain(value, where):
    # Shell dictionaries and arrays as JSON-able Python values; what JSON (or a JavaScript number)
    # cannot carry as it is is refused, naming where it is: never a parse error later.
    if isinstance(value, bool) or isinstance(value, str) or value is None:
        return value
    if isinstance(value, int):
        if abs(value) > _SAFE_INTEGER:
            raise mysqlsh.Error("%s: %d is too large a number (at most %d)" % (where, value, _SAFE_INTEGER))
        return value
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise mysqlsh.Error("%s: %r is not a number the restore plugin can use; give a whole number" % (where, value))
        if abs(value) > _SAFE_INTEGER:
            raise mysqlsh.Error("%s: %r is too large a number (at most %d)" % (where, value, _SAFE_INTEGER))
        return 0.0 if value == 0 else value
    if hasattr(value, "keys"):
        return {str(k): _plain(value[k], "%s.%s" % (where, k) if where != "Option" else "Option %s" % k)
                for k in value.keys()}
    if isinstance(value, (bytes, bytearray)) or not hasattr(value, "__len__"):
        raise mysqlsh.Error("%s: a value of type %s is not an option value (text, numbers, true/false, lists, "
                            "dictionaries)" % (where, type(value).__name__))
    return [_plain(v, "%s[%d]" % (where, i)) for i, v in enumerate(value)]


def _public(name):
    # mysqlsh hands a member's trailing options dictionary to a Python function as keyword
    # arguments when called from JS: put them back in their place.
    def call(*args, **options):
        args = list(args) + ([options] if options else [])
        plain = [_plain(a, "Argument #%d" % (i + 1) if not isinstance(a, dict) and not hasattr(a, "keys") else "Option")
                 for i, a in enumerate(args)]
        answer = _json.loads(_internal.run(name, _json.dumps(plain, allow_nan=False)))
        if "error" in answer:
            raise mysqlsh.Error(answer["error"])
        return answer["value"]
    return call


for _m in _json.loads(_internal.definitions()):
    _shell.add_extension_object_member(_restore, _m["name"], _public(_m["name"]), _m["definition"])
