"""Python side of the GraalJS test host: runs the plugin's real init.py files with a minimal
`mysqlsh` module, then serves calls as JSON lines (stdin: requests, stdout: replies).

As in MySQL Shell: Python plugins load after all JS plugins, with the plugins root first on
sys.path while each loads (python_context.cc load_plugin); `mysqlsh.globals` holds the
extension objects registered so far; dictionaries arrive key-sorted and dict-like, lists
list-like, binary as bytes (python_type_conversion.cc). Bytes cross the pipe as base64."""
import base64
import collections.abc
import json
import sys
import traceback
import types

PROTOCOL = sys.stdout
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
        if list(v) == ["__b64__"]:
            return base64.b64decode(v["__b64__"])
        return ShellDict({k: decode(x) for k, x in v.items()})
    if isinstance(v, list):
        return ShellList([decode(x) for x in v])
    return v


def encode(v):
    if isinstance(v, (bytes, bytearray, memoryview)):
        return {"__b64__": base64.b64encode(bytes(v)).decode("ascii")}
    if isinstance(v, ExtensionObject):
        return {"__object__": v._ref}
    if isinstance(v, collections.abc.Mapping):
        return {str(k): encode(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple, ShellList)):
        return [encode(x) for x in v]
    if v is None or isinstance(v, (str, int, float, bool)):
        return v
    raise TypeError("Unsupported return type %s" % type(v).__name__)


def snake(name):
    # get_member_name(name, LowerCaseUnderscores): utils_general.cc
    out = []
    for i, c in enumerate(name):
        if c.isupper() and i > 0 and name[i - 1] != "_":
            out.append("_" + c.lower())
        else:
            out.append(c.lower() if c.isupper() and (i == 0 or name[i - 1] == "_") else c)
    return "".join(out)


class ExtensionObject:
    """An extension object seen from Python: its members live on the JS host side (Java)."""

    def __init__(self, ref):
        object.__setattr__(self, "_ref", ref)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        kind = rpc({"op": "get_member", "object": self._ref, "name": name})
        if kind.get("function"):
            def call(*args):
                return decode(rpc({"op": "call_member", "object": self._ref, "name": name,
                                   "args": [encode(a) for a in args]}))
            return call
        if "missing" in kind:
            raise AttributeError("'ExtensionObject' object has no attribute '%s'" % name)
        return decode(kind.get("value"))

    def __repr__(self):
        return "<%s>" % self._ref


def decode(v):
    if isinstance(v, dict):
        if list(v) == ["__b64__"]:
            return base64.b64decode(v["__b64__"])
        if list(v) == ["__object__"]:
            return ExtensionObject(v["__object__"])
        return ShellDict({k: decode(x) for k, x in v.items()})
    if isinstance(v, list):
        return ShellList([decode(x) for x in v])
    return v


class Error(Exception):
    def __init__(self, *args):
        super().__init__(*args)
        self.code = args[0] if len(args) > 1 and isinstance(args[0], int) else 0
        self.msg = args[-1] if args else ""


functions = []


class Shell:
    def create_extension_object(self):
        return ExtensionObject(rpc({"op": "create_object"}))

    def add_extension_object_member(self, obj, name, member, definition=None):
        if not isinstance(obj, ExtensionObject):
            raise Error(0, "Argument #1 is expected to be an extension object")
        msg = {"op": "add_member", "object": obj._ref, "name": name,
               "definition": encode(definition) if definition is not None else None}
        if isinstance(member, ExtensionObject):
            msg["child"] = member._ref
        elif callable(member):
            msg["function"] = len(functions)
            functions.append(member)
        else:
            msg["value"] = encode(member)
        rpc(msg)

    def register_global(self, name, obj, definition=None):
        rpc({"op": "register_global", "name": name, "object": obj._ref, "definition": encode(definition or {})})

    def get_session(self):
        return None


class RemoteError(Exception):
    pass


def send(msg):
    PROTOCOL.write(json.dumps(msg) + "\n")
    PROTOCOL.flush()


def serve_call(req):
    try:
        fn = functions[req["id"]]
        args = [decode(a) for a in req["args"]]
        # python_types.cc: one argument more than the positional parameters, and that last
        # argument a dictionary, becomes **kwargs
        try:
            import inspect
            positional = [p for p in inspect.signature(fn).parameters.values()
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        except (TypeError, ValueError):
            positional = None
        if positional is not None and args and len(args) == len(positional) + 1 and isinstance(args[-1], ShellDict):
            result = fn(*args[:-1], **dict(args[-1]))
        else:
            result = fn(*args)
        send({"reply": encode(result)})
    except Exception as e:
        if isinstance(e, Error):
            send({"error": {"message": str(e.msg), "code": e.code, "type": "RuntimeError"}})
        elif isinstance(e, RemoteError):
            send({"error": e.args[0]})
        else:
            send({"error": {"message": python_error_text(e), "code": 0, "type": "ScriptingError"}})


def python_error_text(e):
    # As the Shell reports a Python exception to JS (seen with 9.1): the bare message when it was
    # raised at the call itself, else a traceback of the plugin frames (file base names, no
    # source lines) ending in "Type: message".
    import os.path
    frames = traceback.extract_tb(e.__traceback__)[1:]
    if not frames:
        return str(e)
    lines = ["", "Traceback (most recent call last):"]
    for f in frames:
        lines.append('  File "%s", line %d, in %s' % (os.path.basename(f.filename), f.lineno, f.name))
    lines.append("%s: %s" % (type(e).__name__, e))
    return "\n".join(lines) + "\n"


def rpc(msg):
    """Sends a request to the host and serves the host's nested calls until the reply comes."""
    send(msg)
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("op") == "call":
            serve_call(m)
        elif "error" in m:
            e = m["error"]
            raise RemoteError(e) if e.get("type") != "Python" else Error(e["message"])
        else:
            return m.get("reply")
    sys.exit(0)


def main():
    config = json.loads(sys.argv[1])
    shell = Shell()
    g = {"shell": shell}
    for name in config["globals"]:
        g[name] = ExtensionObject(name)
    mod = types.ModuleType("mysqlsh")
    mod.globals = types.SimpleNamespace(**g)
    mod.Error = Error
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

    send({"op": "loaded", "errors": errors})
    for line in sys.stdin:
        m = json.loads(line)
        if m.get("op") == "call":
            serve_call(m)


main()
