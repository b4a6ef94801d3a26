"""Runs the plugin's real Python sub-plugins for the mysqlsh stand-in.

It loads each init.py as mysqlsh does (after all JS plugins, with the plugins root first on
sys.path, a `mysqlsh` module whose `globals` holds the already registered extension objects),
reports the members they add, then serves calls as JSON lines on stdin/stdout. Values are
marshalled like the Shell's: dictionaries arrive key-sorted and dict-like, lists list-like (not
`list`), binary as bytes.
"""
import base64
import collections.abc
import json
import os
import sys
import traceback
import types

PROTOCOL_OUT = sys.stdout
sys.stdout = sys.stderr  # a plugin's print() must not corrupt the protocol


class ShellList(collections.abc.Sequence):
    def __init__(self, items):
        self._items = items

    def __getitem__(self, i):
        return self._items[i]

    def __len__(self):
        return len(self._items)

    def __repr__(self):
        return repr(self._items)


class ShellDict(collections.abc.Mapping):
    def __init__(self, d):
        self._d = dict(sorted(d.items()))

    def __getitem__(self, k):
        return self._d[k]

    def __iter__(self):
        return iter(self._d)

    def __len__(self):
        return len(self._d)

    def __repr__(self):
        return repr(self._d)


def decode(v):
    if isinstance(v, dict):
        if set(v) == {"__bytes__"}:
            return base64.b64decode(v["__bytes__"])
        return ShellDict({k: decode(x) for k, x in v.items()})
    if isinstance(v, list):
        return ShellList([decode(x) for x in v])
    return v


def encode(v):
    if isinstance(v, (bytes, bytearray)):
        return {"__bytes__": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, collections.abc.Mapping):
        return {str(k): encode(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, ShellList)):
        return [encode(x) for x in v]
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    raise TypeError("Unsupported return type %s" % type(v).__name__)


class ExtensionObject:
    def __init__(self, name):
        self._name = name

    def __repr__(self):
        return "<%s>" % self._name


class ShellError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


functions = {}
registrations = []


class Shell:
    def add_extension_object_member(self, obj, name, member, definition=None):
        if not isinstance(obj, ExtensionObject):
            raise ShellError(0, "Argument #1 is expected to be an extension object")
        entry = {"object": obj._name, "name": name, "definition": encode(definition) if definition else None}
        if callable(member):
            entry["id"] = len(functions)
            functions[entry["id"]] = member
        else:
            entry["value"] = encode(member)
        registrations.append(entry)

    def create_extension_object(self):
        raise ShellError(0, "The stand-in's Python side cannot create extension objects")

    def register_global(self, *args):
        raise ShellError(0, "The stand-in's Python side cannot register globals")


def main():
    config = json.loads(sys.argv[1])
    shell = Shell()
    g = {"shell": shell}
    for name in config["globals"]:
        g[name] = ExtensionObject(name)
    mod = types.ModuleType("mysqlsh")
    mod.globals = types.SimpleNamespace(**g)
    mod.Error = ShellError
    sys.modules["mysqlsh"] = mod

    errors = []
    for plugin in config["plugins"]:
        path, root = plugin["file"], plugin["root"]
        sys.path.insert(0, root)
        try:
            scope = dict(g)
            scope.update({"__name__": "__mysqlsh_plugin__", "__file__": path})
            with open(path, encoding="utf-8") as f:
                code = compile(f.read(), path, "exec")
            exec(code, scope)
        except Exception:
            errors.append({"file": path, "error": traceback.format_exc()})
        finally:
            sys.path.remove(root)

    reply({"result": {"registrations": registrations, "errors": errors}})
    for line in sys.stdin:
        req = json.loads(line)
        try:
            fn = functions[req["id"]]
            result = fn(*[decode(a) for a in req["args"]])
            reply({"result": encode(result)})
        except Exception as e:
            code = getattr(e, "code", None)
            reply({"error": {"message": "%s: %s" % (type(e).__name__, e), "code": code if isinstance(code, int) else None,
                             "type": "ScriptingError", "traceback": traceback.format_exc()}})


def reply(msg):
    PROTOCOL_OUT.write(json.dumps(msg) + "\n")
    PROTOCOL_OUT.flush()


if __name__ == "__main__":
    main()
