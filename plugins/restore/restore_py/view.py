# A load view (lib/partial/load-view.js) is a directory the plugin makes: its marker file is
# written first, so that entries are only ever added to, and a view only ever removed from, a
# directory that holds it. Entries are new symbolic links (to the dump's files) or new files
# (stubs, the view's own metadata): never over anything, never through a symlink. What a file
# holds is decided in lib/: here are only plain operations (write, link, append, copy).
import hashlib as _hashlib
import json as _json
import os as _os
import re as _re
import stat as _statmod

from .confine import NOFOLLOW, VIEW_MARK, as_bytes, create_new, in_state_dir, make_tree, mkdir_new, plain_name, run_names, write_all
from .errors import Refusal, os_refusal

_STUB_PREFIX = ".restore-stub-"
_STUB_NAME = _re.compile(r"^\.restore-stub-[0-9a-f]{16}$")


def _is_view(path):
    mark = _os.path.join(path, VIEW_MARK)
    return _os.path.isdir(path) and not _os.path.islink(path) and _os.path.isfile(mark) and not _os.path.islink(mark)


def _not_a_view(path, note=""):
    return Refusal("not-a-view", path, "not a load view made by the restore plugin (no %s)%s" % (VIEW_MARK, note))


def _bad_name(path, name):
    return Refusal("bad-name", path, "refusing the view entry name %r" % (name,))


def create(path, mark_text):
    path = _os.path.normpath(path)
    parent = _os.path.dirname(path)
    if in_state_dir(parent):
        make_tree(parent)
    elif not _os.path.isdir(parent):
        raise Refusal("no-parent", path, "its parent directory does not exist")
    mkdir_new(path, "something exists there already; the plugin makes a load view only in a new directory")
    try:
        create_new(_os.path.join(path, VIEW_MARK), mark_text.encode("utf-8"))
    except OSError as err:
        _os.rmdir(path)
        raise os_refusal("write-failed", path, "cannot write in the new directory", err)


def _view_dir(path):
    # The view's directory, opened without following a link: entries are made relative to it.
    if not _is_view(path):
        raise _not_a_view(path)
    return _os.open(path, _os.O_RDONLY | getattr(_os, "O_DIRECTORY", 0) | NOFOLLOW)


def _make_entries(path, items, make, allowed):
    # Each (name, what) of items made in the view by make(dfd, name, what); returns how many.
    made = 0
    dfd = _view_dir(path)
    try:
        for name, what in items:
            if not allowed(name):
                raise _bad_name(path, name)
            try:
                make(dfd, name, what)
            except FileExistsError as err:
                raise Refusal("exists", _os.path.join(path, name), "exists already in the load view", err.errno)
            except OSError as err:
                raise os_refusal("write-failed", _os.path.join(path, name), "cannot create the view entry", err,
                                 "%d entr(ies) of this batch were made before it" % made)
            made += 1
    finally:
        _os.close(dfd)
    return made


def add(path, entries_json, contents):
    # entries: [[name, target]] for a symbolic link, [[name, index into contents]] for a new file.
    blobs = [as_bytes(c) for c in contents]

    def make(dfd, name, what):
        if isinstance(what, str):
            _os.symlink(what, name, dir_fd=dfd)
        else:
            create_new(name, blobs[what], dir_fd=dfd)
    # A view holds as many entries as the dump has files: plain os calls, no file objects.
    return _make_entries(path, _json.loads(entries_json), make, plain_name)


def stubs(path, runs_json, contents):
    # Many entries with one small content (the chunks a view does not load): the content is
    # written once in the view as a hidden file, and each entry is a symbolic link to it: one
    # system call per entry instead of three.
    data = as_bytes(contents[0])
    source = _STUB_PREFIX + _hashlib.sha256(data).hexdigest()[:16]
    dfd = _view_dir(path)
    try:
        create_new(source, data, dir_fd=dfd)
    except FileExistsError:
        pass  # an earlier batch of this view wrote it
    finally:
        _os.close(dfd)
    return _make_entries(path, ((name, source) for name in run_names(runs_json)),
                         lambda dfd, name, target: _os.symlink(target, name, dir_fd=dfd),
                         lambda name: plain_name(name) and not _STUB_NAME.match(name))


def append(path, name, text):
    # More text at the end of a file this view holds (written piece by piece by lib/, so
    # that 100,000 entries are never one string).
    return _append_to(path, name, [text.encode("utf-8")])


def append_from(path, name, spec_json):
    # Pieces of a file (the dump's own, only read) added at the end of a file of the view: spec
    # {source, bytes, ops, pattern, text}, ops [["t", text] | ["c", start, end] (the source's bytes
    # as they are) | ["s", start, end] (those bytes with every match of pattern replaced by the
    # match's first group followed by text)]. The source must still be as long as when lib/ read it.
    spec = _json.loads(spec_json)
    source = spec["source"]
    pattern = _re.compile(spec["pattern"].encode("utf-8")) if spec.get("pattern") else None
    template = b"\\g<1>" + spec.get("text", "").encode("utf-8").replace(b"\\", b"\\\\")
    try:
        src = open(source, "rb")
    except OSError as err:
        raise os_refusal("read-failed", source, "cannot read it", err)
    with src:
        if _os.fstat(src.fileno()).st_size != spec["bytes"]:
            raise Refusal("source-changed", source, "it changed while the load view was being made: run the command again")

        def pieces():
            for op in spec["ops"]:
                if op[0] == "t":
                    yield op[1].encode("utf-8")
                    continue
                src.seek(op[1])
                data = src.read(op[2] - op[1])
                yield pattern.sub(template, data) if op[0] == "s" else data
        return _append_to(path, name, pieces())


def _append_to(path, name, pieces):
    # Only a regular file already in the view, opened without following a link; never the marker
    # or a stub. pieces: bytes, written one after the other.
    if not plain_name(name) or _STUB_NAME.match(name):
        raise _bad_name(path, name)
    dfd = _view_dir(path)
    try:
        fd = _os.open(name, _os.O_WRONLY | _os.O_APPEND | NOFOLLOW, dir_fd=dfd)
    except OSError as err:
        _os.close(dfd)
        raise os_refusal("write-failed", _os.path.join(path, name), "cannot add to it", err)
    total = 0
    try:
        if not _statmod.S_ISREG(_os.fstat(fd).st_mode):
            raise Refusal("not-a-file", _os.path.join(path, name), "not a file of the view")
        for data in pieces:
            write_all(fd, data)
            total += len(data)
    finally:
        _os.close(fd)
        _os.close(dfd)
    return total


def remove(path):
    # Only a directory holding the marker, and only its direct entries (links and files): a
    # sub-directory means it is not what the plugin made, and nothing is removed.
    if not _is_view(path):
        raise _not_a_view(path, ": nothing was removed")
    with _os.scandir(path) as entries:
        names = [(e.name, e.is_dir(follow_symlinks=False)) for e in entries]
    if any(is_dir for _, is_dir in names):
        raise Refusal("not-a-view", path, "holds a directory, which the plugin never puts in a load view: nothing "
                      "was removed")
    removed = 0
    for name, _ in names:
        if name != VIEW_MARK:
            _os.remove(_os.path.join(path, name))
            removed += 1
    _os.remove(_os.path.join(path, VIEW_MARK))
    _os.rmdir(path)
    return removed
