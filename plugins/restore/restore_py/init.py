# Python sub-plugin of the `restore` group: the file-system members that JavaScript in MySQL Shell
# cannot have (it can neither list a directory nor write a file). It loads after the JS sub-plugin,
# finds the `restore` object that one registered, and adds a tiny, batch-oriented API to it.
# These members are internal: the JS side calls them; users call restore.stub() & co.
# Large batches cross as one JSON string each way: a string is one value to marshal, where a list
# of 100,000 dictionaries would be 300,000.
import json as _json
import os as _os

import mysqlsh

_restore = mysqlsh.globals.restore
_shell = mysqlsh.globals.shell


def _list(path, options=None):
    # A stat per file is most of the cost of listing a big dump: skip it where the caller says.
    no_size = tuple((options or {}).get("noSizeFor") or ())
    out = []
    with _os.scandir(path) as entries:
        for e in entries:
            is_dir = e.is_dir()
            if is_dir:
                size = 0
            elif no_size and e.name.endswith(no_size):
                size = None
            else:
                size = e.stat().st_size
            out.append([e.name, size, is_dir])
    return _json.dumps(out)


def _read_heads(paths, n):
    heads = []
    for p in paths:
        try:
            with open(p, "rb") as f:
                heads.append(f.read(n))
        except FileNotFoundError:
            heads.append(None)
    return heads


def _write_files(paths_json, contents, options=None):
    overwrite = bool(options and options.get("overwrite"))
    mode = "wb" if overwrite else "xb"
    blobs = [c.encode("utf-8") if isinstance(c, str) else bytes(c) for c in contents]
    written, skipped = 0, []
    for path, which in _json.loads(paths_json):
        try:
            with open(path, mode) as out:
                out.write(blobs[which])
            written += 1
        except FileExistsError:
            skipped.append(path)
    return _json.dumps({"written": written, "skipped": skipped})


def _make_dirs(path):
    _os.makedirs(path, exist_ok=True)


def _remove(paths):
    removed = []
    for p in paths:
        try:
            _os.remove(p)
            removed.append(p)
        except FileNotFoundError:
            pass
    return {"removed": removed}


def _client_info():
    return {"cpuCount": _os.cpu_count() or 1}


_INTERNAL = "Internal (used by the restore JS members): "

_shell.add_extension_object_member(_restore, "fsList", _list, {
    "brief": _INTERNAL + "lists a directory as JSON text: [[name, size, isDir], ...].",
    "parameters": [
        {"name": "path", "type": "string", "brief": "Directory to list."},
        {"name": "options", "type": "dictionary", "required": False, "brief": "Listing options.",
         "options": [{"name": "noSizeFor", "type": "array",
                      "brief": "File name endings whose size is not needed (null instead)."}]}]})

_shell.add_extension_object_member(_restore, "fsReadHeads", _read_heads, {
    "brief": _INTERNAL + "reads the first bytes of many files; null for a missing file.",
    "parameters": [
        {"name": "paths", "type": "array", "brief": "Files to read."},
        {"name": "n", "type": "integer", "brief": "How many bytes to read from each."}]})

_shell.add_extension_object_member(_restore, "fsWriteFiles", _write_files, {
    "brief": _INTERNAL + "writes many files in one call, never over an existing file unless told; returns JSON "
             "text {written: count, skipped: [path]}.",
    "parameters": [
        {"name": "pathsJson", "type": "string", "brief": "JSON text [[path, content index], ...]."},
        {"name": "contents", "type": "array", "brief": "The distinct contents (string or bytes)."},
        {"name": "options", "type": "dictionary", "required": False, "brief": "Write options.",
         "options": [{"name": "overwrite", "type": "bool", "brief": "Replace existing files."}]}]})

_shell.add_extension_object_member(_restore, "fsMakeDirs", _make_dirs, {
    "brief": _INTERNAL + "creates a directory and its parents.",
    "parameters": [{"name": "path", "type": "string", "brief": "Directory to create."}]})

_shell.add_extension_object_member(_restore, "fsRemove", _remove, {
    "brief": _INTERNAL + "removes files (state files the plugin wrote).",
    "parameters": [{"name": "paths", "type": "array", "brief": "Files to remove."}]})

_shell.add_extension_object_member(_restore, "clientInfo", _client_info, {
    "brief": _INTERNAL + "facts about the client machine (CPU count).",
    "parameters": []})
